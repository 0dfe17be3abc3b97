"""Ctrl-C during remote play's wait for the other side's move ("waiting for NAME…", Look…),
driven in-process: heard however it lands, as a key or as a signal, and even in the instant
the other side's move ends the wait; the next question then runs as ever."""

from __future__ import annotations

import os
import signal

import pytest
import questionary

from tests.test_prompts import prompter  # noqa: F401  (the fixture)

LOOK = [questionary.Choice("Look…", "look")]


def _waited(prompter, *, move: bool, how: str) -> None:  # noqa: F811
    """Wait for a pipe's input; 0.2 s in, Ctrl-C (`how`: "key" or "signal"), with the
    other side's move in the same instant when `move`; the move comes anyway at 1 s."""
    read, write = os.pipe()

    def ctrl_c() -> None:
        if move:
            os.write(write, b"x")
        if how == "key":
            prompter.pipe.send_text("\x03")
        else:
            os.kill(os.getpid(), signal.SIGINT)

    loop = prompter.app._loop
    loop.call_later(0.2, ctrl_c)
    loop.call_later(1.0, lambda: os.write(write, b"x"))
    try:
        prompter.app.wait("waiting for them…", LOOK, read)
    finally:
        os.close(read)
        os.close(write)


@pytest.mark.parametrize("move", [False, True], ids=["alone", "with-the-move"])
@pytest.mark.parametrize("how", ["key", "signal"])
def test_ctrl_c_while_waiting_is_heard(prompter, move, how):  # noqa: F811
    with pytest.raises(KeyboardInterrupt):
        _waited(prompter, move=move, how=how)
        prompter.pipe.send_text("\r")  # (a key left for the next question is heard there)
        prompter.app.select("next?", [questionary.Choice("a", "a")])
    prompter.pipe.send_text("\r")
    assert prompter.app.select("next?", [questionary.Choice("b", "b")]) == "b"  # as ever
