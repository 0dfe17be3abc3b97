"""Fuzz: real saves of every ruleset, mutated (truncated, bytes flipped, keys deleted, values
retyped, dice and decisions changed, hostile names, downgraded to version 1, dice sources
changed, take-backs forged), half of them resealed so the mutation reaches the rules; every
command on each must exit 0 or 2 and never raise. A downgrade that keeps the chain fields and
a forged take-back are refused by every command that reads the game; what verify tells of
the dice is what the file's rolls say. Bounded in time."""

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
BUDGET_SECONDS = 5.0
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


def _downgrade(data: dict[str, Any], rng: random.Random) -> None:
    """Version 1 claimed; the chain fields stripped (an unsealed file) or kept, and the words
    a chain protects rewritten: who played, who decided, the result."""
    data["version"] = 1
    if rng.random() < 0.5:
        data.pop("seal", None)
        for entry in data["log"]:
            entry.pop("h", None)
    if rng.random() < 0.7:
        data["setup"]["players"] = {"A": "human", "B": "human"}
        for entry in data["log"]:
            if entry.get("t") == "choice":
                entry["by"] = rng.choice(["human", "script", "bot"])
        data["result"] = {"winner": rng.choice("AB"), "reason": "surrendered in shame"}


def _resourced(data: dict[str, Any], rng: random.Random) -> None:
    """A roll's faces said to come from elsewhere: `--rolls`, the table, or a mix."""
    rolls = [e for e in data["log"] if e.get("t") == "roll"]
    if rolls:
        roll = rng.choice(rolls)
        roll["source"] = rng.choice(["script", "manual", "rng", "mixed"])
        if roll["source"] == "mixed":
            roll["sources"] = [rng.choice(["script", "manual", "rng"]) for _ in roll["faces"]]


def _forged_take_back(data: dict[str, Any], rng: random.Random) -> None:
    """A take-back no play made: a key no question takes, somewhere in or past the log."""
    n = len(data["log"])
    new = rng.choice([None, {"key": "zz-not-a-key", "label": "?", "by": "human"}])
    data.setdefault("takebacks", []).append(
        {
            "side": rng.choice("AB"),
            "turn": rng.randrange(3),
            "at": rng.choice([n, n + 1, rng.randrange(n + 1)]),
            "taken": {"key": "zz-not-a-key", "label": "Surrender", "prompt": "?", "by": "human"},
            "new": new,
        }
    )


FORGERIES = {7: _downgrade, 8: _resourced, 9: _forged_take_back}


def _mutate(text: str, rng: random.Random) -> tuple[str, int, bool]:
    """The mutated text, how it was mutated and whether the forger resealed it."""
    how = rng.randrange(10)
    if how == 0:  # truncated
        return text[: rng.randrange(len(text))], how, False
    if how == 1:  # a byte flipped
        i = rng.randrange(len(text))
        return text[:i] + chr(rng.randrange(32, 127)) + text[i + 1 :], how, False
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
    elif how == 6:  # a hostile name
        data["setup"]["names"][rng.choice("AB")] = rng.choice(ODD_VALUES[7:12])
    else:
        FORGERIES[how](data, rng)
    resealed = False
    if rng.random() < 0.5 and isinstance(data.get("log"), list):
        with contextlib.suppress(TypeError, ValueError, AttributeError, KeyError):
            data = seal.sealed(data)  # the forger recomputes the chain
            resealed = True
    return json.dumps(data, ensure_ascii=False), how, resealed


def _refused(how: int, resealed: bool, mutated: str) -> bool:
    """Must every command that reads the game refuse it? A downgrade that keeps the chain
    fields (unresealed: the version is under the seal), and any forged take-back."""
    if how == 9:
        return True
    return how == 7 and not resealed and '"seal"' in mutated


def _faces_by_source(mutated: str) -> dict[str, int]:
    counts = dict.fromkeys(
        ("script", "manual", "rng", "corrected", "shared", "typed-A", "typed-B"), 0
    )
    for entry in json.loads(mutated)["log"]:
        if entry.get("t") == "roll":
            n = len(entry["faces"])
            for source in (entry.get("sources") or [entry.get("source")] * n)[:n]:
                counts[source] += 1
    return counts


def _commands(path: Path) -> list[list[str]]:
    p = str(path)
    return [
        ["replay", p, "--verify"],
        ["replay", p, "--verify", "--json"],
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
        mutated, how, resealed = _mutate(real_saves[ruleset], rng)
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
            if command[0] != "saves" and _refused(how, resealed, mutated):
                assert code == 2, (ruleset, how, command, mutated[:300], out.out[:300])
            if command[-1] == "--json" and command[:1] == ["replay"] and code == 0:
                told = json.loads(out.out)["provenance"]
                assert told["dice"] == _faces_by_source(mutated), (how, mutated[:300])
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
        commands = _commands(path)
        # three commands a save, taken in turn: every command meets saves of every age
        for n in range(3):
            command = commands[(3 * tried + n) % len(commands)]
            path.write_text(mutated)
            code = run(app, command)
            out = capsys.readouterr()
            assert code in (0, 2), (command[0], mutated[:300], out.err)
            assert "Traceback" not in out.err
            if code == 2:
                assert len([line for line in out.err.splitlines() if line.strip()]) == 1, out.err
        tried += 1
