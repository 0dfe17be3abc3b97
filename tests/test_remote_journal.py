"""The host's journal (`remote/journal.py`) on its own: what it writes, how it is read back
(a line cut short, a take-back's cut, a journal of another game), and how `restore` brings a
game replayed from a save to where the journal leaves it; and the joiner's judgement of a
host that comes back behind it (`pledge.lost`, `pledge.redone`, `Announcing` making a lost
decision again)."""

from __future__ import annotations

import json
import os
import socket
import stat

from wargame_cli import registry
from wargame_cli.engine import takeback
from wargame_cli.engine.dice import RngDice
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.session import bot_game, default_setup, start
from wargame_cli.engine.takeback import Tape
from wargame_cli.remote import fair, journal, kept, pledge
from wargame_cli.remote.peer import JOIN, Announcing, Peer, Tips
from wargame_cli.remote.wire import Link
from wargame_cli.ruleset import resolve_options
from wargame_cli.saves import games

GAME = journal.game_of(7, "2026-12-03T00:00:00.000+00:00")


def _played(turns: int = 2):
    return bot_game(registry.get("squad-alpha"), 5, max_turns=turns)


def _fresh():
    """A game of `_played`'s setup that has logged nothing yet."""
    ruleset = registry.get("squad-alpha")
    options = resolve_options(ruleset.options, None)
    return start(ruleset, default_setup(ruleset, options), options, 5)


def _from(log: list[dict], upto: int):
    """A game of `_played`'s, replayed from its first `upto` entries (a save that lags)."""
    runner = _fresh().runner
    runner.replay(log[:upto])
    assert runner.log == log[:upto]
    return runner


def test_the_journal_is_written_line_by_line_readable_by_its_owner_only(tmp_path):
    where = journal.beside(tmp_path / "h.json")
    assert where.name == "h.json.journal"
    kept = journal.Journal(where, GAME)
    kept.logged(0, {"t": "turn", "n": 1, "rules": []})
    kept.pledge(1, [6, 6], "a" * 64, b"\1" * 32)
    kept.close()
    assert stat.S_IMODE(os.stat(where).st_mode) == 0o600
    lines = [json.loads(line) for line in where.read_text().splitlines()]
    assert lines[0] == {"journal": GAME} and lines[1]["at"] == 0 and "pledge" in lines[2]
    found = journal.read(where)
    assert found.game == GAME and found.length == 1
    assert found.pledges[1] == journal.Pledge(1, (6, 6), "a" * 64, b"\1" * 32)
    again = journal.Journal(where, GAME)  # afresh: the save holds what it had
    again.close()
    assert journal.read(where).length is None and not journal.read(where).pledges


def test_a_line_cut_short_by_a_death_is_left_out_and_a_cut_drops_what_follows(tmp_path):
    where = tmp_path / "h.json.journal"
    lines = [
        {"journal": GAME},
        {"at": 3, "e": {"t": "choice", "side": "A", "key": "x"}},
        {"at": 4, "e": {"t": "roll", "dice": [6], "faces": [2]}},
        {"pledge": {"at": 5, "dice": [6], "commit": "b" * 64, "join": "0" * 64}},
        {"cut": 3},  # the decision at 3 taken back: everything from 3 on is gone
        {"at": 3, "e": {"t": "choice", "side": "A", "key": "y"}},
    ]
    text = "".join(json.dumps(line) + "\n" for line in lines)
    where.write_text(text + '{"at": 4, "e": {"t": "ro')  # the writer died mid-line
    found = journal.read(where)
    assert found.length == 4 and found.entries[3]["key"] == "y" and 4 not in found.entries
    assert found.pledges == {}
    saved = [{"t": "turn", "n": i} for i in range(5)]
    assert [e.get("key") for e in found.log(saved)] == [None, None, None, "y"]
    assert journal.read(tmp_path / "none.journal").length is None


def test_a_journal_that_does_not_continue_the_save_is_not_taken():
    found = journal.Read()
    found.take({"at": 9, "e": {"t": "turn", "n": 2}})
    assert found.log([{"t": "turn", "n": 1}]) is None  # entries 1-8 are nowhere


def test_restore_brings_a_lagging_save_to_the_journals_end():
    whole = _played().runner.log
    runner = _from(whole, 10)
    found = journal.Read()
    for at in range(10, len(whole)):
        found.take({"at": at, "e": json.loads(json.dumps(whole[at]))})
    added = journal.restore(runner, found, lambda commit: None)
    assert added == len(whole) - 10
    assert runner.log == whole


def test_restore_cuts_back_a_take_back_made_after_the_save():
    whole = _played().runner.log
    runner = _from(whole, 40)
    found = journal.Read()
    found.take({"cut": 30})
    journal.restore(runner, found, lambda commit: None)
    assert runner.log == whole[:30]
    assert not runner.tape  # as a save opened afresh: no dice kept from the cut part


def test_restore_settles_a_pledged_roll_with_the_values_it_was_revealed_with():
    """Entries up to a decision, then the events after it, then the roll it was revealed
    for: derived from the host's stored value and the joiner's pledged one."""
    whole = _played().runner.log
    roll_at = next(i for i, e in enumerate(whole) if e["t"] == "roll" and i > 20)
    runner = _from(whole, 5)
    found = journal.Read()
    for at in range(5, roll_at - 1):  # the last entry before the roll is not journaled
        found.take({"at": at, "e": json.loads(json.dumps(whole[at]))})
    host, join = fair.draw(), fair.draw()
    commit = fair.commitment(host)
    dice = whole[roll_at]["dice"]
    found.take({"pledge": {"at": roll_at, "dice": dice, "commit": commit, "join": join.hex()}})
    journal.restore(runner, found, {commit: host}.get)
    assert len(runner.log) == roll_at + 1
    settled = runner.log[roll_at]
    assert settled["shared"] == fair.proof(commit, host, join)
    assert settled["faces"] == list(fair.derive(host, join, dice))
    assert fair.problem(settled) is None


def test_restore_stops_at_a_decision_the_rules_refuse():
    whole = _played().runner.log
    at = next(i for i, e in enumerate(whole) if e["t"] == "choice" and i > 10)
    runner = _from(whole, at)
    found = journal.Read()
    found.take({"at": at, "e": {"t": "choice", "side": whole[at]["side"], "key": "no such key"}})
    assert journal.restore(runner, found, lambda commit: None) == 0
    assert runner.log == whole[:at]


def test_what_a_host_lost_is_judged_by_whose_it_was():
    mine = {"t": "choice", "side": "B", "key": "B6", "by": "script"}
    theirs = {"t": "choice", "side": "A", "key": "A1"}
    said = {"t": "event", "kind": "deploy"}
    assert pledge.lost([mine, said], "B") is None
    assert pledge.lost([mine, theirs], "B") == "a decision of its own"
    rolls = [{"t": "roll"}, said, {"t": "roll"}, theirs, theirs]
    assert pledge.lost(rolls, "B") == "2 rolls and 2 decisions of its own"
    assert pledge.redone([said, mine, said, mine], "B", 10) == [
        (11, "B6", "script"),
        (13, "B6", "script"),
    ]


class _Asked:
    by = "bot"

    def __init__(self) -> None:
        self.asked = 0

    def choose(self, choice, game):
        self.asked += 1
        return choice.default

    def refused(self, choice, key, reason):
        raise AssertionError(reason)


def test_a_decision_made_again_is_not_asked_and_goes_out_as_it_was_made():
    session = _fresh()
    runner = session.runner
    while not isinstance(runner.pending, Choice):
        runner.step()
    choice = runner.pending
    keys = [o.key for o in choice.options if choice.legal(o.key) is None]
    ours, theirs = socket.socketpair()
    peer = Peer(Link(ours), JOIN, "the host", Tips({}), print)
    peer.runner = runner
    at = len(runner.log)
    peer.redo = [(at, keys[-1], "human")]
    inner = _Asked()
    side = Announcing(inner, peer)
    assert side.choose(choice, session.game) == keys[-1] and side.by == "human"
    assert inner.asked == 0 and peer.redo == []
    peer.flush()
    told = Link(theirs).recv(timeout=5)
    assert (told["t"], told["key"], told["by"], told["at"]) == ("decide", keys[-1], "human", at)
    peer.redo = [(at + 5, keys[0], "human")]  # not its place: asked, and none made again
    assert side.choose(choice, session.game) == choice.default and inner.asked == 1
    assert peer.redo == [] and side.by == "bot"


def test_a_resumed_hosts_save_is_not_lost_to_its_journal(tmp_path):
    """`games.save` after `restore`: the save then holds the journal's entries."""
    whole = _played(1).runner.log
    session = _fresh()
    found = journal.Read()
    for at, entry in enumerate(whole):
        found.take({"at": at, "e": json.loads(json.dumps(entry))})
    journal.restore(session.runner, found, lambda commit: None)
    games.save(session, tmp_path / "h.json")
    reopened = games.open_save(tmp_path / "h.json")
    assert reopened.runner.log == whole


def test_restore_settles_faces_the_hosts_player_typed_and_sent():
    whole = _played().runner.log
    roll_at = next(i for i, e in enumerate(whole) if e["t"] == "roll" and i > 20)
    runner = _from(whole, roll_at)
    dice = whole[roll_at]["dice"]
    faces = [1] * len(dice)
    found = journal.Read()
    source = "typed-A"
    found.take({"typed": {"at": roll_at, "dice": dice, "faces": faces, "source": source}})
    journal.restore(runner, found, lambda commit: None)
    assert (runner.log[roll_at]["faces"], runner.log[roll_at]["source"]) == (faces, source)
    again = _from(whole, roll_at)  # faces no die of that size shows: not taken
    found.take(
        {"typed": {"at": roll_at, "dice": dice, "faces": [99] * len(dice), "source": source}}
    )
    journal.restore(again, found, lambda commit: None)
    assert len(again.log) == roll_at


def _tape_of_shared_rolls() -> tuple[Tape, list[dict]]:
    """A tape of two shared rolls (as a take-back leaves it) and their roll entries."""
    entries = []
    for dice in ([6, 6], [10]):
        host, join = fair.draw(), fair.draw()
        faces = list(fair.derive(host, join, dice))
        proof = fair.proof(fair.commitment(host), host, join)
        entries.append({"t": "roll", "dice": dice, "faces": faces, "source": "shared"})
        entries[-1]["shared"] = proof
    tape = Tape()
    tape.rewind(RngDice(1), takeback.faces_of(entries), takeback.proofs_of(entries))
    return tape, entries


def test_kept_dice_go_over_the_wire_whole_and_are_checked():
    tape, entries = _tape_of_shared_rolls()
    again = kept.from_words(json.loads(json.dumps(kept.words(tape))))
    assert again is not None and kept.same(again, tape) and kept.problem(again) is None
    assert kept.from_words({"kept": [[6, 7, "shared"]], "proofs": []}) is None  # no 7 on a d6
    assert kept.from_words({"kept": "x", "proofs": []}) is None
    forged = kept.from_words(kept.words(tape))
    assert forged is not None
    size, face, source = forged.kept[0]
    forged.kept[0] = (size, face % 6 + 1, source)  # another face than its values give
    assert "not among the kept dice" in str(kept.problem(forged))


def test_kept_dice_advance_as_live_play_takes_them_and_tell_what_they_gave():
    tape, entries = _tape_of_shared_rolls()
    first = kept.after(tape, entries[:1])
    assert [size for size, _, _ in first.kept] == [10] and len(first.proofs) == 1
    assert not kept.after(tape, entries)
    fresh = {"t": "roll", "dice": [6], "faces": [3], "source": "shared", "shared": {}}
    choice = {"t": "choice", "side": "A", "key": "k"}
    assert kept.untaken(tape, [entries[0], choice, entries[1], fresh]) == [choice, fresh]
    assert kept.untaken(tape, [entries[1]]) == [entries[1]]  # not the front of the tape


def test_restore_takes_up_the_kept_dice_less_those_rolled_since():
    whole = _played().runner.log
    rolls = [i for i, e in enumerate(whole) if e["t"] == "roll" and i > 20][:2]
    tape = Tape()
    tape.rewind(RngDice(1), takeback.faces_of([whole[rolls[0]]]), [])
    found = journal.Read()
    found.take({"at": rolls[0], "tape": kept.words(tape)})  # kept just before the roll
    runner = _from(whole, rolls[0] + 1)
    journal.restore(runner, found, lambda commit: None)
    assert not runner.tape  # the roll after it took them
    runner = _from(whole, rolls[0])
    journal.restore(runner, found, lambda commit: None)
    assert kept.same(runner.tape, tape)
