"""The door and the connection against visitors that misbehave, with a real `wargame host`
on loopback: unreadable hellos are refused and counted, never the door's end; slow or idle
visitors hold no one else out; a spectator that stops reading never holds the game; a
player whose connection went half-open is noticed, and its seat taken over by the code's
holder; and the advice printed when the door closes works as printed."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tests.remote_helpers import (
    Host,
    env,
    join,
    log_length,
    played_out,
    reap,
    same_saves,
    start_join,
    verify,
)
from tests.remote_visitor import Trickle, connect, framed, hello_body, idle, nested, say
from wargame_cli.remote import codes

VISITOR = str(Path(__file__).with_name("remote_visitor.py"))  # run as a script: see there


def _host(tmp_path: Path, ruleset: str = "squad-alpha", **kw: Any) -> Host:
    return Host(tmp_path, ruleset, "--port", "0", "--bot", "--save", "h.json", **kw)


def _watch(tmp_path: Path, host: Host) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "wargame_cli", "watch", host.address, "--code", host.watch_code]
        + ["--json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env(tmp_path),
        cwd=tmp_path,
    )


def _no_traceback(host: Host) -> None:
    assert "Traceback" not in host.text(), host.text()


# -- item 6: every bad hello is a counted try, never the door's end -----------------------


def test_unreadable_hellos_are_counted_tries_and_the_joiner_still_gets_in(tmp_path):
    host = _host(tmp_path)
    try:
        sock, fingerprint = connect(host.address)
        sock.close()
        # a hello nested far past any stack, without a code
        deep = ('{"t": "hello", "x": ' + nested(20_000) + ', "n": 0}').encode()
        assert say(host.address, deep) == b""
        host.wait_for(r"refused a visitor from .*nests deeper.*\(1 of 3 tries\)")
        # a spectator's hello, with the right code, holding 1e999 in its roll in progress
        roll = ', "roll": {"commit": "' + "0" * 64 + '", "value": "' + "1" * 64 + '", '
        roll += '"at": 1, "tip": "x", "dice": [1e999]}'
        assert say(host.address, hello_body(host.watch_code, fingerprint, roll)) == b""
        host.wait_for(r"refused a visitor from .*not finite.*\(2 of 3 tries\)")
        played_out(tmp_path, host)  # the rightful joiner: the third try is not needed
    finally:
        host.stop()
    _no_traceback(host)
    same_saves(tmp_path / "h.json", tmp_path / "j.json")


# -- items 2 and 10: a message that cannot be read mid-game is one line on both sides -----


def test_a_host_that_nests_its_reveal_stops_the_joiner_with_one_line(tmp_path):
    """The host answers the joiner's value with a message nested past any stack, instead of
    its reveal (the veto by crashing the joiner): the joiner stops with one line, exit 2."""
    record = tmp_path / "sent.json"
    host = Host(
        tmp_path,
        "squad-alpha",
        "--port",
        "0",
        "--bot",
        "--save",
        "h.json",
        program=(VISITOR, "5", "30", "15", "--", "--nest-reveal", str(record)),
    )
    try:
        done = join(tmp_path, host, "--bot", "--save", "j.json")
        host.wait()
    finally:
        host.stop()
    assert record.exists(), host.text()  # the nested message was sent
    assert done.returncode == 2, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "nests deeper than 64 levels" in lines[0], done.stderr
    assert "nests deeper than 64 levels" in host.text()  # told to the host too
    verify(tmp_path, tmp_path / "j.json")


# -- item 7: slow and idle visitors hold no one else out ----------------------------------


def test_slow_and_idle_visitors_keep_no_one_out(tmp_path):
    host = _host(tmp_path)
    idlers = idle(host.address, 3)  # three TCP connections that never say a word
    trickle = Trickle(host.address, host.code, every=2.0)  # a hello a byte at a time
    watcher = None
    try:
        watcher = _watch(tmp_path, host)
        host.wait_for("a spectator joined", timeout=30)
        played_out(tmp_path, host)
        _, err = watcher.communicate(timeout=60)
        assert watcher.returncode == 0, err
    finally:
        trickle.close()
        for sock in idlers:
            sock.close()
        if watcher is not None:
            reap(watcher)
        host.stop()
    _no_traceback(host)
    text = host.text()  # the spectator and the joiner came in while the slow one waited
    assert text.index("a spectator joined") < text.index("the other player joined")
    refused = text.find("refused a visitor")
    assert refused == -1 or refused > text.index("the other player joined"), text
    same_saves(tmp_path / "h.json", tmp_path / "j.json")


# -- item 8: a spectator that stops reading never holds the game --------------------------


def test_a_spectator_that_stops_reading_never_holds_the_game(tmp_path):
    """A spectator reads nothing after its hello, while the joiner takes back 60 decisions
    late in the game (each sends every spectator the whole game again: megabytes)."""
    host = _host(tmp_path, "battle-of-ixu")
    sock, fingerprint = connect(host.address, rcvbuf=4096)
    joiner = None
    try:
        sock.sendall(framed(hello_body(host.watch_code, fingerprint)))  # then never reads
        host.wait_for("a spectator joined")
        program = (VISITOR, "5", "30", "15", "--", "--undo-often", "40", "60")
        joiner = _quick_join(tmp_path, host, program, "j.json")
        out, _ = joiner.communicate(timeout=240)
        assert joiner.returncode == 0, out
        assert host.wait() == 0, host.text()
    finally:
        sock.close()
        if joiner is not None:
            reap(joiner)
        host.stop()
    _no_traceback(host)
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["status"] == "finished"


# -- item 9: a half-open joiner is noticed; the code's holder takes a dead seat -----------


def _quick(ping: str, dead: str, stale: str) -> tuple[str, ...]:
    return (VISITOR, ping, dead, stale, "--")


def _quick_join(tmp_path: Path, host: Host, program: tuple[str, ...], save: str) -> Any:
    return subprocess.Popen(
        [sys.executable, *program, "join", host.address, "--code", host.code]
        + ["--bot", "--save", save],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env=env(tmp_path),
        cwd=tmp_path,
    )


def _stopped_mid_game(tmp_path: Path, host: Host, program: tuple[str, ...]) -> Any:
    """A joiner whose process stops (SIGSTOP) mid-game: its connection stays open, and
    silent, as a machine that died or lost its network leaves it."""
    first = _quick_join(tmp_path, host, program, "j.json")
    end = time.monotonic() + 60
    while log_length(tmp_path / "h.json") < 30 and time.monotonic() < end:
        time.sleep(0.05)
    first.send_signal(signal.SIGSTOP)
    return first


def _carried(tmp_path: Path) -> None:
    """The stopped joiner's files (its save, and beside it the key that signs the game and
    its roll in progress) as its player takes them up again, while the stopped process
    still holds the old connection half-open: a signed game goes on only with its key."""
    for path in tmp_path.glob("j.json*"):
        (tmp_path / ("k.json" + path.name[len("j.json") :])).write_bytes(path.read_bytes())


def _rejoined_with_its_save(
    tmp_path: Path, host: Host, program: tuple[str, ...], meanwhile: Any
) -> None:
    """A joiner stopped mid-game; `meanwhile` waits; its player joins again with its save
    (the old link half-open) and plays the game out with the host."""
    first = None
    try:
        first = _stopped_mid_game(tmp_path, host, program)
        meanwhile()
        _carried(tmp_path)
        second = _quick_join(tmp_path, host, program, "k.json")
        out, _ = second.communicate(timeout=120)
        assert second.returncode == 0, out
        assert host.wait() == 0, host.text()
    finally:
        if first is not None:
            first.kill()
            first.wait()
        host.stop()
    _no_traceback(host)


def test_a_half_open_joiner_is_noticed_and_the_game_goes_on(tmp_path):
    program = _quick("1", "8", "4")
    host = _host(tmp_path, "battle-of-ixu", program=program)

    def noticed() -> None:
        host.wait_for("no word from the other player in 8 seconds", timeout=60)
        host.wait_for("waiting for them to join again")

    _rejoined_with_its_save(tmp_path, host, program, noticed)
    data = same_saves(tmp_path / "h.json", tmp_path / "k.json")
    assert data["status"] == "finished"


def test_the_code_takes_over_a_seat_whose_player_went_silent(tmp_path):
    """Before the host's heartbeat gives the joiner up (`wire.DEAD`), a rejoin with the
    seat's code takes the seat of one silent for `gate.STALE`, instead of "the seat is
    taken"; the game goes on with it."""
    program = _quick("1", "300", "4")
    host = _host(tmp_path, "battle-of-ixu", program=program)
    _rejoined_with_its_save(tmp_path, host, program, lambda: time.sleep(6))  # past STALE
    assert "the one who came with the seat's code takes the seat" in host.text()
    same_saves(tmp_path / "h.json", tmp_path / "k.json")


# -- item 11: the advice when the door closes works as printed; a local save stays local --


def _three_wrong_codes(tmp_path: Path, host: Host) -> str:
    for _ in range(codes.MAX_TRIES):
        done = join(tmp_path, host, "--no-input", code="aaaa-bbbb-cccc")
        assert done.returncode == 2 and "wrong code" in done.stderr
    assert host.wait() == 2
    _no_traceback(host)
    return [line for line in host.text().splitlines() if line.startswith("wargame: ")][-1]


def test_host_resume_after_the_door_closed_gives_new_codes(tmp_path):
    host = _host(tmp_path)
    first = start_join(tmp_path, host, "--bot", "--save", "j.json")
    try:
        end = time.monotonic() + 60
        while log_length(tmp_path / "j.json") < 10 and time.monotonic() < end:
            time.sleep(0.05)
        first.send_signal(signal.SIGKILL)
        first.wait()
        host.wait_for("waiting for them to join again")
        told = _three_wrong_codes(tmp_path, host)
    finally:
        reap(first)
        host.stop()
    assert "3 wrong codes" in told and " host --resume h.json gives new ones" in told
    again = Host(tmp_path, "--resume", "h.json", "--bot")  # as the line says
    assert again.code != host.code and again.watch_code != host.watch_code
    assert again.address == host.address  # the same game: its port and host key
    played_out(tmp_path, again)
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["status"] == "finished"


def test_the_door_closed_before_the_game_started_leaves_nothing_and_says_so(tmp_path):
    host = _host(tmp_path)
    try:
        told = _three_wrong_codes(tmp_path, host)
    finally:
        host.stop()
    assert "no game had started" in told and " host squad-alpha --seat A)" in told
    assert "--resume" not in told
    assert not (tmp_path / "h.json").exists() and not (tmp_path / "h.json.host").exists()
    again = _host(tmp_path)  # as the line says (with the test's own flags)
    assert again.code != host.code
    played_out(tmp_path, again)


def test_hosting_a_local_save_and_stopping_before_anyone_joins_leaves_it_local(tmp_path):
    def wargame(*args: str) -> Any:
        return subprocess.run(
            [sys.executable, "-m", "wargame_cli", *args],
            capture_output=True,
            text=True,
            env=env(tmp_path),
            cwd=tmp_path,
            timeout=120,
        )

    made = wargame("play", "squad-alpha", "--no-input", "--turns", "1", "--save", "l.json")
    assert made.returncode == 0, made.stderr
    before = (tmp_path / "l.json").read_bytes()
    host = Host(tmp_path, "--resume", "l.json", "--bot", "--port", "0")
    try:
        host.proc.send_signal(signal.SIGINT)
        assert host.wait() == 130
    finally:
        host.stop()
    _no_traceback(host)
    assert "l.json is as it was" in host.text()
    assert (tmp_path / "l.json").read_bytes() == before
    resumed = wargame("resume", "l.json", "--no-input", "--turns", "1")
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads((tmp_path / "l.json").read_text())["setup"].get("dice") != "shared"
