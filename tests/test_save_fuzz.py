"""Fuzz: real saves of every ruleset, mutated (truncated, bytes flipped, keys deleted, values
retyped, dice and decisions changed, hostile names), half of them resealed so the mutation
reaches the rules; every command on each must exit 0 or 2 and never raise. Bounded in time."""

from __future__ import annotations

import contextlib
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest

from wargame_cli.cli.app import app
from wargame_cli.cli.boundary import run
from wargame_cli.saves import seal

RULESETS = ("tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale")
BUDGET_SECONDS = 8.0
ODD_VALUES: list[Any] = [
    None,
    True,
    -1,
    0,
    10**30,
    1e300,
    "",
    "x",
    "[/]",
    "[link=https://e.example]x[/link]",
    "\x1b[2J\x1b]52;c;aGk=\x07",
    "\u009b\ufeff",
    [],
    {},
    [[[[]]]],
]


@pytest.fixture(scope="module")
def real_saves(tmp_path_factory) -> dict[str, str]:
    folder = tmp_path_factory.mktemp("real")
    out = {}
    for ruleset in RULESETS:
        path = folder / f"{ruleset}.json"
        args = ["play", ruleset, "--no-input", "--seed", "5", "--turns", "2", "--no-save"]
        args[-1:] = ["--save", str(path)]
        assert run(app, args) == 0
        out[ruleset] = path.read_text()
    return out


def _walk(data: Any, rng: random.Random) -> tuple[Any, Any]:
    """A random (container, key) somewhere inside `data`."""
    parent, key = None, None
    node = data
    for _ in range(rng.randint(1, 6)):
        if isinstance(node, dict) and node:
            key = rng.choice(list(node))
        elif isinstance(node, list) and node:
            key = rng.randrange(len(node))
        else:
            break
        parent, node = node, node[key]
    return parent, key


def _mutate(text: str, rng: random.Random) -> str:
    how = rng.randrange(7)
    if how == 0:  # truncated
        return text[: rng.randrange(len(text))]
    if how == 1:  # a byte flipped
        i = rng.randrange(len(text))
        return text[:i] + chr(rng.randrange(32, 127)) + text[i + 1 :]
    data = json.loads(text)
    if how == 2:  # a key deleted
        parent, key = _walk(data, rng)
        if parent is not None:
            del parent[key]
    elif how == 3:  # a value retyped
        parent, key = _walk(data, rng)
        if parent is not None:
            parent[key] = rng.choice(ODD_VALUES)
    elif how == 4:  # a die face changed
        rolls = [e for e in data["log"] if e.get("t") == "roll"]
        if rolls:
            roll = rng.choice(rolls)
            roll["faces"][rng.randrange(len(roll["faces"]))] = rng.choice([0, 1, 2, 6, 7, 99])
    elif how == 5:  # a decision changed
        choices = [e for e in data["log"] if e.get("t") == "choice"]
        if choices:
            rng.choice(choices)["key"] = rng.choice(["1", "A1", "pass", "", "12,12", "x;y"])
    else:  # a hostile name
        data["setup"]["names"][rng.choice("AB")] = rng.choice(ODD_VALUES[7:12])
    if rng.random() < 0.5 and isinstance(data.get("log"), list):
        with contextlib.suppress(TypeError, ValueError, AttributeError, KeyError):
            data = seal.sealed(data)  # the forger recomputes the chain
    return json.dumps(data, ensure_ascii=False)


def _commands(path: Path) -> list[list[str]]:
    p = str(path)
    return [
        ["replay", p, "--verify"],
        ["replay", p, "--no-input"],
        ["replay", p, "--json"],
        ["replay", p, "--report"],
        ["resume", p, "--no-input", "--turns", "1", "--json"],
        ["fork", p, "--turn", "1", "--save", str(path.with_name("fork.json")), "--force"],
        ["saves", "--json", "--saves-dir", str(path.parent)],
    ]


def test_mutated_saves_exit_0_or_2_on_every_command(real_saves, tmp_path, capsys):
    rng = random.Random(14)
    deadline = time.monotonic() + BUDGET_SECONDS
    tried = 0
    while time.monotonic() < deadline or tried < 2 * len(RULESETS):
        ruleset = RULESETS[tried % len(RULESETS)]
        path = tmp_path / "s.json"
        mutated = _mutate(real_saves[ruleset], rng)
        for command in _commands(path):
            path.write_text(mutated)
            code = run(app, command)
            out = capsys.readouterr()
            assert code in (0, 2), (ruleset, command[0], mutated[:300], out.err)
            assert "Traceback" not in out.err
            if code == 2:
                lines = [line for line in out.err.splitlines() if line.strip()]
                assert len(lines) == 1, out.err
            assert "\x1b" not in out.err and "\x07" not in out.err
        tried += 1
    assert tried >= 2 * len(RULESETS)


OLD_SAVES = sorted((Path(__file__).parent / "fixtures" / "old_saves").glob("*/*-turn1.json"))


def _old_version(text: str, rng: random.Random) -> str:
    """The save's ruleset version set to another one, known or not (resealed half the time)."""
    data = json.loads(text)
    data["ruleset"]["version"] = rng.choice(["0", "1", "2", "3", "4", "5", "99", "x", "-1", ""])
    if rng.random() < 0.5:
        data = seal.sealed(data)
    return json.dumps(data, ensure_ascii=False)


def test_mutated_old_saves_exit_0_or_2_on_every_command(tmp_path, capsys):
    """Saves of older builds and older rules versions (tests/fixtures/old_saves), moved to
    another version of their rules, known or not, with the chain recomputed or not."""
    rng = random.Random(20)
    deadline = time.monotonic() + BUDGET_SECONDS / 2
    tried = 0
    while time.monotonic() < deadline or tried < len(OLD_SAVES):
        original = OLD_SAVES[tried % len(OLD_SAVES)].read_text()
        mutated = _old_version(original, rng)
        path = tmp_path / "s.json"
        for command in _commands(path):
            path.write_text(mutated)
            code = run(app, command)
            out = capsys.readouterr()
            assert code in (0, 2), (command[0], mutated[:300], out.err)
            assert "Traceback" not in out.err
            if code == 2:
                assert len([line for line in out.err.splitlines() if line.strip()]) == 1, out.err
        tried += 1
