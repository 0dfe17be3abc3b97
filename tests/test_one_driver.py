"""One driver feeds every game generator, the rules have no second, fast form, and the
program's shortcuts into CPython's internals sit in one module with plain fallbacks."""

from __future__ import annotations

import ast
import json
import random
from pathlib import Path

import pytest

from wargame_cli import cpython, registry
from wargame_cli.engine import drive
from wargame_cli.engine.fast import face_source, play_fast, stream_seed
from wargame_cli.engine.requests import Choice, Event, Option, Outcome, Roll
from wargame_cli.engine.session import bot_game
from wargame_cli.ruleset import SIDES, Setup, resolve_options

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(
    [*ROOT.joinpath("wargame_cli").rglob("*.py"), *ROOT.joinpath("rulesets").rglob("*.py")]
    + [ROOT / "tests" / "helpers.py"]
)
DRIVER = ROOT / "wargame_cli" / "engine" / "drive.py"
SHORTCUTS = ROOT / "wargame_cli" / "cpython.py"


def _calls(path: Path):
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Call):
            yield node


def _where(path: Path, node: ast.AST) -> str:
    return f"{path.relative_to(ROOT)}:{getattr(node, 'lineno', '?')}"


def test_only_the_driver_sends_answers_into_a_generator():
    found = []
    for path in SOURCES:
        if path == DRIVER:
            continue
        for call in _calls(path):
            func = call.func
            if isinstance(func, ast.Attribute) and func.attr == "send":
                found.append(_where(path, call))
            if isinstance(func, ast.Name) and func.id == "next" and call.args:
                arg = call.args[0]  # next(game.play()): a second way of driving a game
                inner = arg.func if isinstance(arg, ast.Call) else None
                if isinstance(inner, ast.Attribute) and inner.attr == "play":
                    found.append(_where(path, call))
    assert found == []


def test_no_ruleset_reads_a_fast_flag():
    found = []
    for path in sorted(ROOT.joinpath("rulesets").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Attribute) and node.attr == "fast":
                found.append(_where(path, node))
            if isinstance(node, ast.arg) and node.arg == "fast":
                found.append(_where(path, node))
    assert found == []


def test_no_write_bypasses_a_dataclass_and_private_names_live_in_one_module():
    """`object.__setattr__` nowhere; `_randbelow`, `c_make_encoder` and the collector's
    switches only in `wargame_cli/cpython.py`."""
    found = []
    private = {cpython.RANDBELOW, cpython.C_ENCODER}
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text())):
            if ast.unparse(node) == "object.__setattr__":
                found.append(("object.__setattr__", _where(path, node)))
            if path == SHORTCUTS:
                continue
            if isinstance(node, ast.Attribute) and node.attr in private:
                found.append((node.attr, _where(path, node)))
            if isinstance(node, ast.Constant) and node.value in private:
                found.append((node.value, _where(path, node)))
            if isinstance(node, ast.Import | ast.ImportFrom):
                names = [a.name for a in node.names] + [getattr(node, "module", None) or ""]
                if "gc" in names:
                    found.append(("gc", _where(path, node)))
    assert found == []


# -- the driver ---------------------------------------------------------------------------
def _toy():
    """A game of one roll, one event, one question."""
    faces = yield Roll(dice=(6, 6), reason="two dice")
    yield Event(f"rolled {sum(faces)}")
    key = yield Choice(
        side="A", prompt="?", options=(Option("x", "X"), Option("y", "Y")), default="y"
    )
    return Outcome(winner="A" if key == "x" else "B", reason=key)


def test_drive_pauses_at_stop_and_goes_on_from_the_request_it_paused_at():
    seen = []

    def until_choice(req):
        seen.append(type(req).__name__)
        return drive.STOP if isinstance(req, Choice) else (3, 4) if isinstance(req, Roll) else None

    gen = _toy()
    paused = drive.drive(gen, until_choice)
    assert isinstance(paused, drive.Paused) and isinstance(paused.request, Choice)
    outcome = drive.play(gen, lambda req: "x", paused.request)
    assert seen == ["Roll", "Event", "Choice"]
    assert outcome == Outcome(winner="A", reason="x")


def test_the_bot_answerer_refuses_an_illegal_suggestion():
    def bad():
        yield Choice(side="A", prompt="?", options=(Option("x", "X", "shut"),), default="x")
        return Outcome(winner=None, reason="-")

    with pytest.raises(drive.IllegalSuggestion, match="shut"):
        drive.play(bad(), drive.seeded(lambda sides: 0))


def test_a_saved_games_answers_then_the_bots_play_as_the_runner_plays():
    """`--from`: the recorded answers first, then seeded dice and bots, through one driver;
    fed every answer of a finished game, the driver ends exactly where the Runner did."""
    from wargame_cli import history

    for ruleset_id in ("tug-of-wargods", "seeds-of-wars"):
        ruleset = registry.get(ruleset_id)
        session = bot_game(ruleset, 5)
        answers = tuple(history.answers(session.runner.log))
        game = ruleset.new_game(session.setup, session.options)
        played = play_fast(game, face_source(1), answers=answers)
        assert played.outcome == session.runner.outcome
        assert played.turns == session.runner.turn


def test_the_bots_questions_are_seen_before_they_are_answered():
    ruleset = registry.get("seeds-of-wars")
    options = resolve_options(ruleset.options, None)
    teams = {s: ruleset.default_team(s, options)[0] for s in SIDES}
    game = ruleset.new_game(Setup({"A": "A", "B": "B"}, teams), options)
    turns = []
    kinds = []
    drive.play(
        game.play(),
        drive.seeded(face_source(stream_seed(2, 0)), lambda c: kinds.append(c.kind), turns.append),
    )
    assert turns == list(range(1, len(turns) + 1)) and turns
    assert {"deploy", "move", "round_end"} <= set(kinds)


# -- the CPython shortcuts and their fallbacks ----------------------------------------------
def test_die_faces_are_randints_with_or_without_the_private_method(monkeypatch):
    sides = [6, 20, 3, 12, 1, 8] * 50
    plain = random.Random(42)
    expected = [plain.randint(1, d) - 1 for d in sides]
    below = cpython.die_faces(42)
    assert [below(d) for d in sides] == expected
    monkeypatch.setattr(cpython, "RANDBELOW", "_no_such_method")
    below = cpython.die_faces(42)
    assert [below(d) for d in sides] == expected


@pytest.mark.parametrize("ensure_ascii", [True, False])
def test_the_built_encoder_is_json_dumps_with_or_without_the_c_encoder(monkeypatch, ensure_ascii):
    value = {"b": [1, 2.5, None, True], "a": 'é ☃ "q"', "c": {"z": -0.0, "y": 10**20}}
    options = {"sort_keys": True, "ensure_ascii": ensure_ascii, "separators": (",", ":")}
    expected = json.dumps(value, **options)
    assert cpython.json_encoder(**options)(value) == expected
    monkeypatch.setattr(cpython, "C_ENCODER", "no_such_encoder")
    assert cpython.json_encoder(**options)(value) == expected
