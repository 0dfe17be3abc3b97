"""Remote play's fairness at its edges, against modified clients on loopback (the real
`wargame host` and `wargame join` but for the misbehaviour: tests/remote_peek.py is the joiner,
tests/remote_cheat.py the host): a joiner never sees the host's value of a roll before the
host's rules ask for that roll, and a second value for a roll is refused; a decision is an
answer, never a table edit; typed dice are as the joiner agreed, not as the host's game says.
Each refusal is one line on each side, and the saves keep the game up to it."""

from __future__ import annotations

import json
import subprocess
import threading
import time
from pathlib import Path
from typing import Any

import pytest

from tests.remote_helpers import Host, join, reap, start_join, verify

PEEK = Path(__file__).with_name("remote_peek.py")
CHEAT = Path(__file__).with_name("remote_cheat.py")


def _host(tmp_path: Path, ruleset: str = "squad-alpha") -> Host:
    return Host(tmp_path, ruleset, "--seat", "A", "--port", "0", "--bot", "--save", "h.json")


def _cheating_joiner(tmp_path: Path, host: Host, mode: str) -> tuple[int, str]:
    """tests/remote_peek.py in `mode` joins `host` as a bot and plays until it stops: its exit
    code and what it printed."""
    program = (str(PEEK), mode, str(tmp_path / "peek.json"))
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json", program=program)
    try:
        out, _ = joiner.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        reap(joiner)
        raise AssertionError(f"the joiner waited on:\n{joiner.communicate()[0]}") from None
    finally:
        reap(joiner)
    return joiner.returncode, out


def _one_line_each(host: Host, code: int, out: str, told: str) -> None:
    """Both stopped with exit 2 and one line, no traceback; the host's line says `told`."""
    assert host.wait() == 2, host.text()
    assert code == 2, out
    for text in (host.text(), out):
        assert "Traceback" not in text, text
        said = [line for line in text.splitlines() if line.startswith("wargame: ")]
        assert len(said) == 1, text
    host_said = next(line for line in host.text().splitlines() if line.startswith("wargame: "))
    assert told in host_said, host_said


def _kept(tmp_path: Path) -> dict[str, Any]:
    """The host's save: in progress, verified."""
    data = json.loads((tmp_path / "h.json").read_text())
    assert data["status"] == "in_progress"
    verify(tmp_path, tmp_path / "h.json")
    return data


@pytest.mark.parametrize(
    ("mode", "told"),
    [
        ("peek", "sent 'value' where 'decide' or 'takeback' was due"),
        ("twice", "sent a second value for the roll at log entry"),
    ],
    ids=["value-for-a-later-roll", "second-value"],
)
def test_the_joiner_learns_nothing_of_a_roll_before_the_rules_ask_for_it(tmp_path, mode, told):
    """`peek`: the joiner sends, with its choice of the miniature to deploy, a value for a
    roll its next choice would call for, and waits for the host's value before it makes that
    choice: nothing of the host's value comes (the host refuses a value for a roll its rules
    do not ask for next). `twice`: two values for the roll its decision calls for, in one
    write: the second is refused before anything is revealed, never taken in place of the
    first."""
    host = _host(tmp_path)
    try:
        code, out = _cheating_joiner(tmp_path, host, mode)
        came = json.loads((tmp_path / "peek.json").read_text())
        assert came["kind"] != "reveal" and not came.get("opened"), came
        _one_line_each(host, code, out, told)
    finally:
        host.stop()
    log = _kept(tmp_path)["log"]
    assert len(log) <= came["at"]  # that roll was never made
    if mode == "peek":  # the decision it sent the value with stands: it was legal
        assert [e for e in log if e["t"] == "choice" and e["side"] == "B"], log


@pytest.mark.parametrize("action", ["end", "die", "die-on"])
def test_a_table_edit_sent_as_a_decision_is_refused(tmp_path, action):
    """A joiner that sends a table edit (`end`: itself the winner; `die`: the first die set to
    another face) where its decision is due: the host refuses it, nothing of it is in the
    host's save, and the game stops there with one line on each side. `die-on`: the joiner
    goes on without waiting, so the host's refusal crosses its next message: it still hears
    why the host stopped (once, it took the closed connection for a drop and waited on)."""
    host = _host(tmp_path)
    try:
        code, out = _cheating_joiner(tmp_path, host, f"edit-{action}")
        _one_line_each(host, code, out, "sent a table edit as a decision")
    finally:
        host.stop()
    log = _kept(tmp_path)["log"]
    assert not [e for e in log if e["t"] in ("edit", "end")], log
    assert not [e for e in log if e["t"] == "choice" and e["side"] == "B"]


def test_the_host_cannot_type_its_dice_when_the_joiner_declined(tmp_path):
    """The host proposes typed dice for its own side; the joiner (a bot: no one to throw dice)
    declines; a host that types them anyway (all 1s) is refused by the joiner, which takes the
    agreement from its own answer, not from the host's game: no typed roll is played. (The
    host, cut off while it sends its typed faces, waits for the joiner as after any drop.)"""
    record = tmp_path / "roll.json"
    host = Host(
        tmp_path,
        "tug-of-wargods",
        "--seat",
        "A",
        "--port",
        "0",
        "--bot",
        "--dice",
        "A=manual",
        "--save",
        "h.json",
        program=(str(CHEAT), "typed-anyway", str(record)),
    )
    try:
        done = join(tmp_path, host, "--bot", "--save", "j.json")
    finally:  # the host, told or cut off (it may be writing when the joiner stops), is ended
        host.stop()
    assert "Declined: no person at this machine to throw dice" in done.stdout
    assert done.returncode == 2, done.stdout + done.stderr
    said = [line for line in done.stderr.splitlines() if line.strip()]
    assert said == [
        "wargame: the host's game has typed dice for side A, but this side agreed to no "
        "typed dice at setup: refused"
    ], said
    assert "Traceback" not in done.stderr + host.text()
    assert not (tmp_path / "j.json").exists() or not [
        e
        for e in json.loads((tmp_path / "j.json").read_text())["log"]
        if e["t"] == "roll" and e["source"] == "typed-A"
    ]


def _spectator(host: Host) -> tuple[list[dict[str, Any]], threading.Thread]:
    """A spectator's wire: every message the host sends it, as it comes (a thread reads)."""
    from wargame_cli import registry
    from wargame_cli.remote.gate import knock
    from wargame_cli.remote.wire import RemoteError

    versions = {info.id: registry.get(info.id).version for info in registry.all_infos()}
    link, _, _ = knock(host.address, host.watch_code, versions, 0)
    came: list[dict[str, Any]] = []

    def read() -> None:
        try:
            while (message := link.recv(timeout=120))["t"] != "bye":
                came.append(message)
        except (RemoteError, TimeoutError):
            pass
        finally:
            link.close()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return came, reader


def _entries(came: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The log entries a spectator's messages carry (the game so far, then each entry)."""
    out: list[dict[str, Any]] = []
    for message in list(came):
        if message["t"] == "game":
            out += [*message["save"]["log"], *message.get("rest", [])]
        elif message["t"] == "entry":
            out.append(message["entry"])
    return out


def test_a_spectators_wire_carries_no_hidden_placement_before_the_reveal(tmp_path):
    """Mobs and Morale's hidden deployment: side A (the host) places every piece, then the
    joiner is held at its first placement while the test reads what a real spectator has
    received: nothing of where side A stands. Once both sides have deployed, the spectator
    gets it all (the placements and the reveal), and follows the game to its end."""
    record = tmp_path / "held.json"
    host = Host(
        tmp_path, "mobs-and-morale", "--seat", "A", "--port", "0", "--bot", "--save", "h.json"
    )
    joiner = None
    try:
        came, reader = _spectator(host)
        host.wait_for("a spectator joined")
        program = (str(PEEK), "hold", str(record))
        joiner = start_join(tmp_path, host, "--bot", "--save", "j.json", program=program)
        end = time.monotonic() + 90
        while not record.exists() and time.monotonic() < end:
            time.sleep(0.02)
        assert record.exists(), host.text()
        time.sleep(1.0)  # anything the host sent meanwhile has come
        before = _entries(came)
        placed = json.loads(record.read_text())["at"]
        record.with_name("held.json.go").write_text("")
        out, _ = joiner.communicate(timeout=120)
        assert joiner.returncode == 0, out
        assert host.wait() == 0, host.text()
        reader.join(timeout=60)
    finally:
        if joiner is not None:
            reap(joiner)
        host.stop()
    log = json.loads((tmp_path / "h.json").read_text())["log"]
    theirs = [e for e in log[:placed] if e["t"] == "choice" and e["side"] == "A"]
    assert theirs and all(e["kind"] == "deploy" for e in theirs)  # A had placed, hidden
    assert not [e for e in before if e.get("kind") == "deploy"], before
    after = _entries(came)
    assert any(e.get("kind") == "revealed" for e in after)
    assert [e for e in after if e["t"] == "choice" and e["side"] == "A"][: len(theirs)] == [
        {k: v for k, v in e.items() if k != "h"} for e in theirs
    ]
    verify(tmp_path, tmp_path / "h.json")
