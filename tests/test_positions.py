"""A game's position as data (`wargame_cli/kit/serial.py`, `engine/position.py`): states
round-trip exactly, saves keep positions within their budget, take-backs, resuming and die
corrections start from the nearest one and end as a whole replay does, a forged position is
an edited record, and a ruleset without positions is replayed from its start as before."""

from __future__ import annotations

import enum
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from wargame_cli import registry
from wargame_cli.engine import position
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.dice import RngDice
from wargame_cli.engine.edits import Edit
from wargame_cli.engine.requests import TurnStart
from wargame_cli.engine.runner import Runner
from wargame_cli.engine.session import bot_game, default_setup, start
from wargame_cli.kit import serial
from wargame_cli.ruleset import Ruleset, resolve_options
from wargame_cli.saves import games, seal, store
from wargame_cli.testing.random_play import bare, ruleset_ids


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclass(frozen=True)
class Spot:
    x: float
    y: float


@dataclass
class Piece:
    name: str
    at: Spot
    tags: frozenset[str] = frozenset()
    seen: set[Spot] = field(default_factory=set)
    memo: dict[str, Any] = field(default_factory=dict, compare=False)


@dataclass
class Board:
    pieces: list[Piece]
    by_name: dict[str, Piece]
    turns: dict[int, tuple[str, ...]]
    odd: dict[str, float]
    colour: Colour
    pair: tuple[Piece, Piece] = field(init=False)

    def __post_init__(self) -> None:
        self.pair = (self.pieces[0], self.pieces[1])


def _board() -> Board:
    one = Piece("one", Spot(0.1, 2.5), frozenset({"a", "b"}), {Spot(1, 2), Spot(3, 4)})
    two = Piece("two", Spot(-1e300, 1 / 3))
    one.memo["cached"] = object()  # a cache: never part of the position
    return Board(
        [one, two],
        {"one": one, "two": two},
        {1: ("x",), 2: ()},
        {"$dollar": math.inf, "minus": -math.inf},
        Colour.BLUE,
    )


def test_a_state_round_trips_exactly_with_its_sharing():
    board = _board()
    data = serial.dump(board)
    text = json.dumps(data, allow_nan=False)  # JSON-safe: no NaN or infinity written as such
    back = serial.load(json.loads(text))
    assert back == board
    assert back.by_name["one"] is back.pieces[0]  # one piece, reached twice
    assert back.pair[1] is back.pieces[1]
    assert back.pieces[0].memo == {}  # the cache comes back empty
    assert type(back.turns[2]) is tuple and back.colour is Colour.BLUE
    assert serial.encoded(serial.dump(back)) == serial.encoded(data)


def test_a_snapshot_names_no_class_it_cannot_find_loaded():
    data = serial.dump(_board())
    forged = {**data, "classes": ["os:system", *data["classes"][1:]]}
    with pytest.raises(serial.SnapshotError):
        serial.load(forged)
    with pytest.raises(serial.SnapshotError):
        serial.load({**data, "classes": ["not.a.module.loaded:Thing"]})


def test_a_set_is_written_in_the_same_order_whatever_it_was_built_in():
    one = serial.dump({"s": {"b", "a", "c"}})
    other = serial.dump({"s": {"c", "a", "b"}})
    assert serial.encoded(one) == serial.encoded(other)


KEEPING = [i for i in ruleset_ids() if position.declares(registry.get(i))]  # a plugin may keep none


def test_every_built_in_ruleset_keeps_positions():
    builtin = [info.id for info in registry.all_infos() if info.builtin]
    assert builtin and set(builtin) <= set(KEEPING)


@pytest.mark.parametrize("ruleset_id", KEEPING)
def test_every_ruleset_restores_a_turns_position_and_plays_on_as_the_game_did(ruleset_id):
    """Bot games: at every turn's start the position, restored from its JSON, plays on to
    the same end as the game itself (the random-legal conformance does this with random
    decisions; this is the plain bot's game)."""
    ruleset = registry.get(ruleset_id)
    session = bot_game(ruleset, 11, max_turns=6)
    log = bare(session.runner.log)
    turns = [i for i, e in enumerate(log) if e["t"] == "turn"]
    assert turns, "the game has turns"
    for at in turns:
        fresh = start(ruleset, session.setup, session.options, session.seed)
        fresh.runner.replay(log[:at])
        snapshot = json.loads(json.dumps(ruleset.snapshot(fresh.game)))
        game = ruleset.new_game_at(session.setup, session.options, snapshot)
        runner = Runner(game, RngDice(session.seed), keeper=None)
        position.skip_dice(runner.dice, log[:at])  # type: ignore[arg-type]
        runner.log = list(log[:at])
        assert isinstance(runner.pending, TurnStart)
        runner.replay(log[at:], start=at)
        assert bare(runner.log) == log
        assert runner.game.state_json() == session.game.state_json()


class _Person:
    """Answers every question as the bot would, recorded as a person's (so it can be
    taken back)."""

    by = "human"

    def choose(self, choice: Any, game: Any) -> str:
        return str(choice.default)

    def refused(self, choice: Any, key: str, reason: str) -> None:
        raise AssertionError(reason)


def _human_game(ruleset_id: str, seed: int = 5) -> Any:
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    return start(
        ruleset,
        default_setup(ruleset, options),
        options,
        seed,
        controllers={s: _Person() for s in "AB"},
    )


def test_a_take_back_late_in_a_game_starts_from_the_nearest_position():
    session = _human_game("squad-alpha")
    runner = session.runner
    runner.run(stop_after_turn=5)
    assert position.nearest(runner.log) is not None
    at = position.nearest(runner.log)
    full = Runner(session.ruleset.new_game(session.setup, session.options), RngDice(session.seed))
    taken = runner.take_back()
    assert taken is None
    assert runner.restored_at == at  # from the position, not from the start
    full.replay(bare(runner.log))
    assert bare(full.log) == bare(runner.log)
    assert full.game.state_json() == runner.game.state_json()
    assert full.pending == runner.pending


def test_a_save_keeps_positions_and_stays_within_twice_the_log(tmp_path):
    session = bot_game(registry.get("battle-of-ixu"), 4, max_turns=8)
    path = tmp_path / "game.json"
    games.save(session, path)
    data = store.load(path)
    assert data["version"] == store.VERSION == 3
    kept = [e for e in data["log"] if e["t"] == "turn" and "position" in e]
    assert len(kept) >= 2
    whole = len(json.dumps(data["log"], separators=(",", ":")))
    positions = sum(len(json.dumps(e["position"], separators=(",", ":"))) for e in kept)
    assert positions <= whole - positions  # at most the log's own length again


def test_resuming_starts_from_the_nearest_position_and_verify_replays_it_all(tmp_path):
    session = bot_game(registry.get("mobs-and-morale"), 8, max_turns=4)
    path = tmp_path / "game.json"
    games.save(session, path)
    bots = {side: BotController() for side in "AB"}
    resumed = games.open_save(path, controllers=bots, nearest=True)
    assert resumed.runner.restored_at == position.nearest(session.runner.log) > 0
    assert resumed.runner.log == session.runner.log
    assert resumed.game.state_json() == session.game.state_json()
    resumed.runner.run(stop_after_turn=6)
    other = bot_game(registry.get("mobs-and-morale"), 8, max_turns=6)
    assert bare(resumed.runner.log) == bare(other.runner.log)
    verified = games.verify(path)
    assert verified.runner.restored_at == -1  # verify replays the whole log


def _forge_position(path: Path) -> None:
    """Change one number inside the last stored position and seal the file again, as a
    forger who recomputes the hash chain would."""
    data = json.loads(path.read_text())
    turn = next(e for e in reversed(data["log"]) if e["t"] == "turn" and "position" in e)
    text = json.dumps(turn["position"])
    changed = text.replace('"turn": ', '"turn": 1', 1)
    assert changed != text
    turn["position"] = json.loads(changed)
    for entry in data["log"]:
        entry.pop("h", None)
    data.pop("seal", None)
    path.write_text(json.dumps(seal.sealed(data)))


def test_a_forged_position_is_an_edited_record(tmp_path, wargame):
    session = bot_game(registry.get("squad-alpha"), 6, max_turns=4)
    path = tmp_path / "game.json"
    games.save(session, path)
    assert wargame("replay", str(path), "--verify").returncode == 0
    _forge_position(path)
    done = wargame("replay", str(path), "--verify")
    assert done.returncode == 2
    assert "position stored at the start of turn" in done.stderr
    assert "the record was edited" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_die_correction_replays_from_the_nearest_position_before_the_die():
    session = bot_game(registry.get("seeds-of-wars"), 2, max_turns=5)
    runner = session.runner
    rolls = [i for i, e in enumerate(runner.log) if e["t"] == "roll"]
    last = rolls[-1]
    entry = runner.log[last]
    number = sum(len(runner.log[i]["faces"]) for i in rolls)  # the last die rolled
    size = entry["dice"][-1]
    new = 1 if entry["faces"][-1] != 1 else size
    runner.edit(Edit("die", [str(number), str(new)], "GM", "misread"))
    assert 0 < runner.restored_at <= last
    assert runner.log[last]["faces"][-1] == new


class _NoPositions(Ruleset):
    """A ruleset from outside that declares no positions: the base class's defaults."""


def test_a_ruleset_without_positions_keeps_none_and_replays_from_its_start():
    tug = registry.get("tug-of-wargods")
    plain = _NoPositions()
    assert plain.snapshot(object()) is None
    setup = default_setup(tug, resolve_options(tug.options, None))
    assert position.keeper(plain, setup, {}) is None
    options = resolve_options(tug.options, None)
    session = start(tug, setup, options, 9)
    session.runner.keeper = None  # as a ruleset without positions has it
    session.runner.run()
    assert not [e for e in session.runner.log if "position" in e]
    taken = session.runner.log
    again = Runner(None, RngDice(9), factory=lambda: tug.new_game(setup, options), start=False)
    again.restart(taken)
    assert again.restored_at == -1 and again.log == taken


def test_a_clone_plays_on_without_moving_the_original():
    session = bot_game(registry.get("battle-of-ixu"), 12, max_turns=3)
    before = (list(session.runner.log), session.game.state_json())
    copy = position.clone(session)
    assert copy.runner.log == session.runner.log
    assert copy.game.state_json() == session.game.state_json()
    assert copy.game.state is not session.game.state
    copy.runner.run(stop_after_turn=5)
    assert len(copy.runner.log) > len(before[0])
    assert (session.runner.log, session.game.state_json()) == before


def test_the_resume_command_plays_on_from_a_save_with_positions_as_one_game_would(
    tmp_path, wargame
):
    path = tmp_path / "game.json"
    first = wargame(
        "play", "seeds-of-wars", "--no-input", "--seed", "21", "--turns", "3", "--save", str(path)
    )
    assert first.returncode == 0, first.stderr
    assert position.nearest(store.load(path)["log"]) is not None
    resumed = wargame("resume", str(path), "--no-input", "--turns", "2")
    assert resumed.returncode == 0, resumed.stderr
    whole = tmp_path / "whole.json"
    done = wargame(
        "play", "seeds-of-wars", "--no-input", "--seed", "21", "--turns", "5", "--save", str(whole)
    )
    assert done.returncode == 0, done.stderr
    assert _plain_log(path) == _plain_log(whole)
    assert wargame("replay", str(path), "--verify").returncode == 0


def test_a_position_that_cannot_be_read_is_an_edited_record_when_resumed(tmp_path, wargame):
    session = bot_game(registry.get("battle-of-ixu"), 6, max_turns=4)
    path = tmp_path / "game.json"
    games.save(session, path)
    data = json.loads(path.read_text())
    turn = next(e for e in reversed(data["log"]) if e["t"] == "turn" and "position" in e)
    turn["position"] = {"serial": 1, "classes": ["builtins:dict"], "root": {"$c": 0}}
    for entry in data["log"]:
        entry.pop("h", None)
    data.pop("seal", None)
    path.write_text(json.dumps(seal.sealed(data)))
    done = wargame("resume", str(path), "--no-input", "--turns", "1")
    assert done.returncode == 2
    assert "the record was edited" in done.stderr
    assert "Traceback" not in done.stderr


def _plain_log(path: Path) -> list[dict[str, Any]]:
    """A save's log without its hash links and positions (which a resumed game keeps where
    its own play put them)."""
    return [{k: v for k, v in e.items() if k != "h"} for e in bare(store.load(path)["log"])]
