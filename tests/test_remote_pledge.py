"""A roll in progress across a drop: a host that drops (or dies) once the joiner's value is in
must reveal that roll under the commitment it sent, after the rejoin and after `host --resume`;
a host that rolls it again under a new commitment is refused (tests/remote_cheat.py is the
host that misbehaves, the real `wargame host` but for that)."""

from __future__ import annotations

import json
import os
import signal
import socket
import stat
import time
from pathlib import Path
from typing import Any

import pytest

from tests.remote_helpers import (
    Host,
    carry_on,
    join,
    played_out,
    reap,
    same_saves,
    start_join,
    verify,
)
from wargame_cli import registry
from wargame_cli.engine.requests import Roll
from wargame_cli.engine.session import bot_game
from wargame_cli.remote import fair, pledge
from wargame_cli.remote.peer import JOIN, Peer, SharedDice, Tips
from wargame_cli.remote.wire import Link, Refused
from wargame_cli.saves import seal

RULESET = "tug-of-wargods"
CHEAT = Path(__file__).with_name("remote_cheat.py")


def _cheat(tmp_path: Path, mode: str, ruleset: str = RULESET) -> tuple[Host, Path]:
    record = tmp_path / "roll.json"
    program = (str(CHEAT), mode, str(record))
    host = Host(tmp_path, ruleset, "--port", "0", "--bot", "--save", "h.json", program=program)
    return host, record


def _the_roll(save: Path, record: Path) -> dict[str, Any]:
    """The roll in progress at the drop, as `save` holds it: under the commitment sent before
    the drop, with the joiner's value sent then, and the faces those two values give."""
    told = json.loads(record.read_text())
    entry = seal.unchained(json.loads(save.read_text())["log"][told["at"]])
    assert entry["t"] == "roll" and entry["dice"] == told["dice"], entry
    shared = entry["shared"]
    assert shared["commit"] == told["commit"] and shared["join"] == told["join"]
    host = bytes.fromhex(shared["host"])
    assert fair.commitment(host) == told["commit"]
    assert entry["faces"] == list(fair.derive(host, bytes.fromhex(told["join"]), told["dice"]))
    return entry


def test_a_host_that_drops_mid_roll_reveals_that_roll_after_the_rejoin(tmp_path):
    host, record = _cheat(tmp_path, "drop")
    done = played_out(tmp_path, host)
    assert "the host dropped" in done.stdout
    assert "waiting for them to join again" in host.text()
    same_saves(tmp_path / "h.json", tmp_path / "j.json")
    for save in ("h.json", "j.json"):
        _the_roll(tmp_path / save, record)
        verify(tmp_path, tmp_path / save)


def test_a_host_that_rolls_it_again_under_a_new_commitment_is_refused(tmp_path):
    host, record = _cheat(tmp_path, "veto")
    try:
        done = join(tmp_path, host, "--bot", "--save", "j.json")
        assert host.wait() == 2, host.text()
    finally:
        host.stop()
    assert done.returncode == 2, done.stderr + done.stdout
    said = [line for line in done.stderr.splitlines() if line.strip()]
    assert said == [f"wargame: {pledge.BROKEN}: it sent a new commitment for that roll"], said
    host_said = [line for line in host.text().splitlines() if line.startswith("wargame: ")]
    assert len(host_said) == 1 and "Traceback" not in host.text(), host.text()
    told = json.loads(record.read_text())
    for save in ("h.json", "j.json"):  # both kept, up to the roll, which neither holds
        data = json.loads((tmp_path / save).read_text())
        assert data["status"] == "in_progress" and len(data["log"]) <= told["at"]
        verify(tmp_path, tmp_path / save)


def test_host_resume_after_a_kill_mid_roll_reveals_the_kept_value(tmp_path):
    host, record = _cheat(tmp_path, "die")
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json")
    try:
        assert host.wait() == 9, host.text()  # ended, as kill -9 would, before its reveal
        kept = tmp_path / "h.json.host"
        assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
        assert json.loads(record.read_text())["commit"] in json.loads(kept.read_text())["dice"]
        carry_on(tmp_path, joiner)
    finally:
        reap(joiner)
    same_saves(tmp_path / "h.json", tmp_path / "j.json")
    for save in ("h.json", "j.json"):
        _the_roll(tmp_path / save, record)
        verify(tmp_path, tmp_path / save)


def _killed_then_resumed(tmp_path: Path, mode: str, ruleset: str = RULESET) -> tuple[str, str]:
    """The host (misbehaving as `mode`) ends as `kill -9` would; `host --resume` carries on
    with the joiner, which tried again meanwhile: what the new host and the joiner said."""
    host, _ = _cheat(tmp_path, mode, ruleset)
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json")
    try:
        assert host.wait() == 9, host.text()
        again, out = carry_on(tmp_path, joiner)
    finally:
        reap(joiner)
    return again.text(), out


def test_host_resume_from_a_save_behind_the_roll_takes_up_its_journal(tmp_path):
    """The host's save lacks rolls it settled before it died (Tug of WarGods asks nothing
    during play, so the host saves only at the start): its journal holds them, so the resumed
    host comes back to the very roll in progress and reveals it as committed."""
    host_said, _ = _killed_then_resumed(tmp_path, "die@2")
    record = tmp_path / "roll.json"
    assert json.loads(record.read_text())["at"] > 0
    assert "log entries played after the save from its journal" in host_said
    same_saves(tmp_path / "h.json", tmp_path / "j.json")
    for save in ("h.json", "j.json"):
        _the_roll(tmp_path / save, record)
        verify(tmp_path, tmp_path / save)
    assert not (tmp_path / "h.json.journal").exists()  # the game ended: the save holds it


@pytest.mark.parametrize(("ruleset", "mode"), [(RULESET, "revealed@2"), ("squad-alpha", "early")])
def test_a_roll_revealed_as_the_host_died_stands_after_host_resume(tmp_path, ruleset, mode):
    """The host revealed its value, then died before its log (or save) held the roll: the
    journal kept the joiner's value before the reveal left, so the resumed host settles that
    roll with the values it was revealed with. (`early`: a roll that came with the joiner's
    decision, revealed before the host's rules took that decision: the decision is in the
    journal too.)"""
    _killed_then_resumed(tmp_path, mode, ruleset)
    record = tmp_path / "roll.json"
    same_saves(tmp_path / "h.json", tmp_path / "j.json")
    for save in ("h.json", "j.json"):
        _the_roll(tmp_path / save, record)
        verify(tmp_path, tmp_path / save)


def test_a_host_that_comes_back_without_its_journal_is_refused(tmp_path):
    """A host that removes its journal comes back from a save behind rolls the joiner saw
    settled: it would roll them again, so the joiner refuses to go on (one line, exit 2 on
    both sides) and its save keeps the game as it had it."""
    host, record = _cheat(tmp_path, "die@2")  # Tug's first turn always rolls twice
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json")
    again: Host | None = None
    try:
        assert host.wait() == 9, host.text()
        (tmp_path / "h.json.journal").unlink()
        again = Host(tmp_path, "--resume", "h.json", "--bot")
        out, _ = joiner.communicate(timeout=90)
        assert joiner.returncode == 2, out
        assert again.wait() == 2, again.text()
    finally:
        reap(joiner)
        if again is not None:
            again.stop()
    said = [line for line in out.splitlines() if line.startswith("wargame: ")]
    assert len(said) == 1 and "the host came back without a roll it had settled" in said[0]
    host_said = [line for line in again.text().splitlines() if line.startswith("wargame: ")]
    assert len(host_said) == 1 and "so the game stops here" in host_said[0], host_said
    assert "Traceback" not in out + again.text()
    kept = json.loads((tmp_path / "j.json").read_text())["log"]
    settled = [e for e in kept if e["t"] == "roll"]
    assert len(settled) == 1  # the roll before the one in progress, as the joiner had it
    assert (
        json.loads((tmp_path / "j.json.roll").read_text())["commit"]
        == json.loads(record.read_text())["commit"]
    )
    verify(tmp_path, tmp_path / "j.json")


def test_a_joiner_that_stops_meanwhile_keeps_its_roll_in_progress_beside_its_save(tmp_path):
    """Ctrl-C while the host is gone mid-roll: the roll is kept in j.json.roll, and the
    next `join --save j.json` names it to the resumed host, which reveals it as committed."""
    host, record = _cheat(tmp_path, "die")
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json")
    kept = tmp_path / "j.json.roll"
    try:
        assert host.wait() == 9, host.text()
        end = time.monotonic() + 30
        while not kept.exists() and time.monotonic() < end:
            time.sleep(0.05)
        joiner.send_signal(signal.SIGINT)
        out, _ = joiner.communicate(timeout=30)
        assert joiner.returncode == 130, out
    finally:
        reap(joiner)
    assert stat.S_IMODE(os.stat(kept).st_mode) == 0o600
    assert json.loads(kept.read_text())["commit"] == json.loads(record.read_text())["commit"]
    again = Host(tmp_path, "--resume", "h.json", "--bot")
    played_out(tmp_path, again)
    assert not kept.exists()  # the game ended: nothing in progress
    same_saves(tmp_path / "h.json", tmp_path / "j.json")
    for save in ("h.json", "j.json"):
        _the_roll(tmp_path / save, record)


def _joiner_against(
    pending_dice: tuple[int, ...],
) -> tuple[SharedDice, Link, pledge.Pending, bytes]:
    """The joiner's dice with a roll in progress (of `pending_dice`, here), and the host's
    end of the link."""
    ours, theirs = socket.socketpair()
    session = bot_game(registry.get("squad-alpha"), 1, max_turns=0)
    peer = Peer(Link(ours), JOIN, "the host", Tips({}), print)
    peer.runner = session.runner
    secret, mine = fair.draw(), fair.draw()
    at, tip = peer.at
    peer.pending = pledge.Pending(fair.commitment(secret), mine, at, tip, pending_dice)
    return SharedDice(peer), Link(theirs), peer.pending, secret


def test_the_joiner_answers_its_roll_in_progress_again_and_refuses_another_reveal():
    dice, host, pending, _ = _joiner_against((6, 6))
    host.post({"t": "reveal", "value": fair.draw().hex(), "next": "0" * 64})  # not its value
    with pytest.raises(Refused, match=f"{pledge.BROKEN}: the revealed value does not match"):
        dice.throw(Roll((6, 6), "a test roll"))
    sent = host.recv(timeout=5)
    assert (sent["t"], sent["commit"], sent["value"]) == (
        "value",
        pending.commit,
        pending.value.hex(),
    )


def test_the_joiner_takes_its_roll_in_progress_revealed_and_goes_on():

    dice, host, pending, secret = _joiner_against((6, 6))
    upcoming = fair.commitment(fair.draw())
    host.post({"t": "reveal", "value": secret.hex(), "next": upcoming})
    thrown = dice.throw(Roll((6, 6), "a test roll"))
    assert thrown.faces == fair.derive(secret, pending.value, (6, 6))
    assert dice.peer.pending is None and dice.peer.next == upcoming


def test_a_game_that_comes_back_to_another_roll_is_refused():
    dice, _, _, _ = _joiner_against((6,))
    with pytest.raises(Refused, match=f"{pledge.BROKEN}: the game came back to dice"):
        dice.throw(Roll((6, 6), "a test roll"))


def test_a_log_that_holds_the_roll_under_another_commitment_is_refused():
    pending = pledge.Pending("a" * 64, b"\1" * 32, 1, "tip", (6,))
    honest = {"t": "roll", "shared": {"commit": "a" * 64, "join": (b"\1" * 32).hex()}}
    assert pending.logged([{}, honest], "tip") is None
    again = {"t": "roll", "shared": {"commit": "b" * 64, "join": (b"\1" * 32).hex()}}
    assert "another commitment" in str(pending.logged([{}, again], "tip"))
    other = {"t": "roll", "shared": {"commit": "a" * 64, "join": (b"\2" * 32).hex()}}
    assert "another value of ours" in str(pending.logged([{}, other], "tip"))
    assert "another entry 1" in str(pending.logged([{}, honest], "another tip"))


def test_the_hosts_values_are_stored_before_they_are_used_and_taken_up_again():
    stored: list[dict[str, Any]] = []
    promises = pledge.Promises(None, lambda values: stored.append(json.loads(json.dumps(values))))
    first = promises.promise()
    assert stored[-1][fair.commitment(first)] == {"host": first.hex()}  # before it is sent
    sent = [first] + [promises.promise() for _ in range(pledge.BATCH - 1)]
    assert len(stored) == 1  # one write for a batch of rolls
    commit, join_value = fair.commitment(sent[-1]), fair.draw()
    assert promises.answered(commit, join_value) is None
    assert "another value" in str(promises.answered(commit, fair.draw()))
    promises.promise()  # the next batch: stored with the joiner's values come meanwhile
    assert len(stored) == 2 and stored[-1][commit]["join"] == join_value.hex()
    commits = [fair.commitment(v) for v in sent]
    assert [c for c in stored[-1] if c in commits] == commits[-pledge.KEEP :]  # the latest
    again = pledge.Promises(stored[-1])  # as `host --resume` reads them back
    assert again.value_for(commit) == sent[-1]
    assert "another value" in str(again.answered(commit, fair.draw()))
    assert again.answered(commit, join_value) is None
    read_back = pledge.Promises(stored[0])
    read_back.promise()  # which of those read back were sent is not known: all kept a batch
    assert all(read_back.value_for(fair.commitment(v)) == v for v in sent)


def test_the_joiners_decisions_the_host_came_back_without_are_made_again_as_made(tmp_path):
    """The host died as the joiner's first decision came, before its rules or journal held
    it: the resumed host's game stops short of it, and the joiner makes it again as it made
    it (its script's B6, never asked again: asked, the script is spent and the bot says B1)."""
    host, _ = _cheat(tmp_path, "deaf", "squad-alpha")
    joiner = start_join(tmp_path, host, "--bot", "--choices", "B6", "--save", "j.json")
    try:
        assert host.wait() == 9, host.text()
        carry_on(tmp_path, joiner)
    finally:
        reap(joiner)
    log = same_saves(tmp_path / "h.json", tmp_path / "j.json")["log"]
    first = next(e for e in log if e["t"] == "choice" and e["side"] == "B")
    assert (first["key"], first["by"]) == ("B6", "script"), first
    verify(tmp_path, tmp_path / "h.json")


def test_a_drop_after_a_take_back_keeps_its_kept_dice_on_both_sides(tmp_path):
    """The joiner takes back a decision after the first turn's rolls (their dice kept for the
    next rolls, on both machines), and the host cuts the connection as soon as it agreed: the
    joiner's new game takes up the host's kept dice (the same as its own), so the rolls made
    again are the kept ones, with their commitments and values, and the game goes on to the
    same verified saves."""
    host, _ = _cheat(tmp_path, "agree-cut", "squad-alpha")
    program = (str(CHEAT), "undo", str(tmp_path / "none.json"))
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json", program=program)
    try:
        out, _ = joiner.communicate(timeout=90)
        assert joiner.returncode == 0, out
        assert host.wait() == 0, host.text()
    finally:
        reap(joiner)
        host.stop()
    assert "the host dropped" in out and "dropped" in host.text()
    saved = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    (taken,) = saved["takebacks"]
    after = [e for e in saved["log"][taken["at"] :] if e["t"] == "roll"]
    assert after and all("shared" in e for e in after)
    verify(tmp_path, tmp_path / "h.json")


@pytest.mark.parametrize(
    "ruleset", ["squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale"]
)
def test_every_ruleset_comes_back_from_its_journal(tmp_path, ruleset):
    """In every ruleset with decisions, a host that dies right after revealing its fifth roll
    comes back from its save and journal to that very roll, and the game ends with the same
    saves, which verify (Tug of WarGods: the tests above)."""
    host_said, _ = _killed_then_resumed(tmp_path, "revealed@5", ruleset)
    record = tmp_path / "roll.json"
    same_saves(tmp_path / "h.json", tmp_path / "j.json")
    for save in ("h.json", "j.json"):
        _the_roll(tmp_path / save, record)
    verify(tmp_path, tmp_path / "j.json")


def _joiner_gone_once_its_value_is_in(tmp_path: Path, mode: str) -> tuple[Host, dict[str, Any]]:
    """The host (`mode`: `stall…` or `nest…`) holds back its reveal once the joiner's value
    is in; the joiner then dies (`stall`: killed as `kill -9` would; `nest`: crashed by the
    host's message). What it kept beside its save names that roll, as it sent its value."""
    host, record = _cheat(tmp_path, mode)
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json")
    try:
        end = time.monotonic() + 60
        while not record.exists() and time.monotonic() < end:
            time.sleep(0.02)
        assert record.exists(), host.text()
        if mode.startswith("stall"):
            joiner.kill()
        assert joiner.wait(timeout=60) != 0
    except BaseException:
        host.stop()
        raise
    finally:
        reap(joiner)
    kept = json.loads((tmp_path / "j.json.roll").read_text())
    told = json.loads(record.read_text())
    assert (kept["commit"], kept["value"], kept["at"]) == (told["commit"], told["join"], told["at"])
    return host, told


@pytest.mark.parametrize("mode", ["stall-veto", "nest-veto"])
def test_a_host_that_kills_the_joiner_mid_roll_is_held_to_its_commitment(tmp_path, mode):
    """The joiner's roll in progress is on disk before its value leaves: a host that kills
    the joiner (or crashes it with a message nested too deep to read) instead of revealing,
    then rolls that die again under a new commitment when the joiner comes back, is refused
    (one line, exit 2 on both sides); neither save holds the roll."""
    host, told = _joiner_gone_once_its_value_is_in(tmp_path, mode)
    try:
        done = join(tmp_path, host, "--bot", "--save", "j.json")
        assert host.wait(timeout=180) == 2, host.text()
    finally:
        host.stop()
    assert done.returncode == 2, done.stderr + done.stdout
    said = [line for line in done.stderr.splitlines() if line.strip()]
    assert said == [f"wargame: {pledge.BROKEN}: it sent a new commitment for that roll"], said
    for save in ("h.json", "j.json"):
        data = json.loads((tmp_path / save).read_text())
        assert data["status"] == "in_progress" and len(data["log"]) <= told["at"]
        verify(tmp_path, tmp_path / save)


def test_a_joiner_killed_mid_roll_gets_that_roll_revealed_when_it_comes_back(tmp_path):
    """The host holds back its reveal and the joiner is killed: the joiner that comes back
    names the roll it kept, the host reveals it as committed, and the game ends with the same
    verified saves, that roll under the commitment and value sent before the kill."""
    host, _ = _joiner_gone_once_its_value_is_in(tmp_path, "stall")
    played_out(tmp_path, host)
    same_saves(tmp_path / "h.json", tmp_path / "j.json")
    for save in ("h.json", "j.json"):
        _the_roll(tmp_path / save, tmp_path / "roll.json")
        verify(tmp_path, tmp_path / save)
    assert not (tmp_path / "j.json.roll").exists()  # the game ended: nothing in progress
