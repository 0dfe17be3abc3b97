"""The conformance checks, each a function over one installed ruleset: its contract, seeded bot
games (they end, cite rules, save and verify, repeat), random-legal games (every key judged
as the menu says, replays, take-backs, resumes, positions), the `wargame` command (play,
verify, stop and resume) and a game in a pseudo-terminal. Each returns a few words on what it
did, or raises `CheckFailed` (or whatever the ruleset's code raised) naming what went wrong.

`python -m wargame_cli.testing RULESET_ID` runs them all; our own suite runs them on every
registered ruleset (`tests/test_conformance.py`, `tests/test_random_legal.py`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, cast

from wargame_cli import registry
from wargame_cli.engine.session import Session, bot_game
from wargame_cli.saves import games
from wargame_cli.testing.random_play import Checks, Tally, play_checked


class CheckFailed(AssertionError):
    """A ruleset broke the contract: the message says where."""


class Done(Protocol):
    """What running `wargame ARGS` gives back (a `subprocess.CompletedProcess`)."""

    returncode: int
    stdout: str
    stderr: str


Wargame = Callable[..., Done]
"""`wargame(*args)`: the command run with saves in a folder of its own."""


def wargame_process(folder: Path) -> Wargame:
    """`wargame ARGS` as a process of this Python, in `folder`, its saves under it."""
    env = {**os.environ, "WARGAME_SAVES_DIR": str(folder / "saves"), "NO_COLOR": "1"}

    def run(*args: str) -> Done:
        return subprocess.run(
            [sys.executable, "-m", "wargame_cli", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=folder,
            input="",
            timeout=600,
            check=False,
        )

    return run


def _expect(held: bool, said: str) -> None:
    if not held:
        raise CheckFailed(said)


def check_contract(ruleset_id: str) -> str:
    """The ruleset loads, meets the contract, documents its options and has a reference."""
    ruleset = registry.get(ruleset_id)  # a plugin lacking a part is told what it lacks
    reference = ruleset.reference()
    ids = [p.id for p in reference.points]
    _expect(bool(ids), "reference.toml lists no rule points")
    _expect(len(ids) == len(set(ids)), "reference.toml lists a rule point twice")
    _expect(bool(reference.notes), "reference.toml documents no gaps or readings (`notes`)")
    undocumented = [o.name for o in ruleset.options if not o.doc]
    _expect(not undocumented, f"options without a `doc`: {undocumented}")
    rolls = check_named_rolls(ruleset_id, set(ids))
    return f"{len(ids)} rule points, {len(ruleset.options)} options, {rolls} named rolls"


def check_named_rolls(ruleset_id: str, rule_ids: set[str]) -> int:
    """Each roll the ruleset names (`named_rolls`): named once, documented, citing known
    rule points, its parameters documented and their defaults accepted, and the expression
    they make read and worked out (`wargame dice ID ROLL`)."""
    from wargame_cli.kit.dice_expr import odds
    from wargame_cli.ruleset import resolve_options

    ruleset = registry.get(ruleset_id)
    rolls = ruleset.named_rolls(resolve_options(ruleset.options, None))
    names = [r.name for r in rolls]
    _expect(len(names) == len(set(names)), f"a roll is named twice: {names}")
    for roll in rolls:
        _expect(bool(roll.doc), f"roll {roll.name} has no `doc`")
        unknown = [r for r in roll.rules if r not in rule_ids]
        _expect(not unknown, f"roll {roll.name} cites rule points not in reference.toml: {unknown}")
        for param in roll.params:
            _expect(bool(param.doc), f"roll {roll.name}: parameter {param.name} has no `doc`")
            param.check(param.default)
        odds(roll.expression({p.name: p.default for p in roll.params}))
    return len(rolls)


def check_unit_sheet(ruleset_id: str) -> str:
    """Where a ruleset declares unit stats (`unit_sheet`): every stock value lies in its
    stat's range, and `restat` with every stat at its stock value leaves the default teams
    as they were."""
    from wargame_cli.ruleset import resolve_options

    ruleset = registry.get(ruleset_id)
    sheet = ruleset.unit_sheet()
    if sheet is None:
        return "no unit stats declared (--unit refused)"
    for unit, stats in sheet.items():
        for stat in stats.values():
            stock = stat.stock
            _expect(
                stock is None or stat.minimum <= stock <= stat.maximum,
                f"{unit}.{stat.name}: its stock value {stock} is outside its range",
            )
    options = resolve_options(ruleset.options, None)
    stock_changes = {
        unit: {s.name: s.stock for s in stats.values() if s.stock is not None}
        for unit, stats in sheet.items()
    }
    for side in ("A", "B"):
        team, _ = ruleset.default_team(side, options)
        _expect(
            ruleset.restat(team, stock_changes, options) == team,
            f"restat with stock values changed side {side}'s default team",
        )
    return f"{len(sheet)} unit types, {sum(len(s) for s in sheet.values())} stats"


def bot_game_checked(
    ruleset_id: str, seed: int, folder: Path, played: Session | None = None
) -> Session:
    """A seeded bot-vs-bot game that ends, whose turns are numbered 1, 2, 3..., whose every
    entry cites a rule and every die reads within its faces, that saves and verifies to the
    same log and state, and that the same seed plays again the same. `played`: that game,
    when the caller has played it already."""
    ruleset = registry.get(ruleset_id)
    session = played if played is not None else bot_game(ruleset, seed)
    log = session.runner.log
    _expect(session.status == "finished", f"the bot game of seed {seed} did not end")
    _expect(log[-1]["t"] == "end", f"seed {seed}: the log does not close with its end")
    turns = [int(e["n"]) for e in log if e["t"] == "turn"]
    _expect(
        turns == list(range(1, len(turns) + 1)),
        f"seed {seed}: TurnStart numbers are not 1, 2, 3...: {turns[:8]}",
    )
    unexplained = [e for e in log if not e.get("rules")]
    _expect(not unexplained, f"seed {seed}: log entries that cite no rule: {unexplained[:3]}")
    for entry in log:
        if entry["t"] == "roll":
            faces = zip(entry["faces"], entry["dice"], strict=True)
            _expect(all(1 <= f <= d for f, d in faces), f"seed {seed}: a die off its faces")
    path = folder / f"{ruleset_id}-bot-{seed}.json"
    games.save(session, path)
    again = games.verify(path)
    _expect(again.runner.log == log, f"seed {seed}: the verified save's log is another")
    _expect(again.winner == session.winner, f"seed {seed}: the verified save has another winner")
    _expect(
        again.game.state_json() == session.game.state_json(),
        f"seed {seed}: the verified save ends in another state",
    )
    _expect(bot_game(ruleset, seed).runner.log == log, f"seed {seed} plays another game twice")
    return session


def cited_rules_known(ruleset_id: str, sessions: Iterable[Session]) -> None:
    """Every rule the games' logs cite is a point of the reference (or a range of two)."""
    ids = {p.id for p in registry.get(ruleset_id).reference().points}

    def known(rule: str) -> bool:
        first, sep, last = rule.partition("-")
        return rule in ids or (bool(sep) and first in ids and last in ids)

    cited = {r for s in sessions for e in s.runner.log for r in cast(Any, e).get("rules", ())}
    unknown = sorted(r for r in cited if not known(r))
    _expect(not unknown, f"rules cited but not in reference.toml: {unknown}")


def check_bot_games(ruleset_id: str, folder: Path, seeds: Iterable[int] = (1, 2, 3)) -> str:
    sessions = [bot_game_checked(ruleset_id, seed, folder) for seed in seeds]
    cited_rules_known(ruleset_id, sessions)
    entries = sum(len(s.runner.log) for s in sessions)
    return f"{len(sessions)} seeded games to the end, {entries} log entries, saved and verified"


KIT_CHECKS = Checks(replay=0.05, resume=1.0, take_back=0.3, checked=1.0)
"""The kit's random games are few and short, so each checks more often than the suite's."""


def check_random_legal(
    ruleset_id: str,
    folder: Path,
    games_played: int = 3,
    turns: int | None = 3,
    checks: Checks = KIT_CHECKS,
    tally: Tally | None = None,
) -> str:
    """Seeded games of random legal answers (`play_checked`): each key judged as the menu
    says, the log replayed, take-backs, a resume between turns, positions, the save verified."""
    tally = tally if tally is not None else Tally()
    failures = []
    for seed in range(1, games_played + 1):
        try:
            play_checked(ruleset_id, seed, folder, turns, checks, tally, seed % 2 == 0)
        except Exception as exc:  # every game is played; all failures are told
            failures.append(f"seed {seed}: {type(exc).__name__}: {exc}")
    _expect(not failures, "; ".join(failures))
    return (
        f"{games_played} games: {tally.choices} decisions, {tally.typed} typed, "
        f"{sum(tally.refusals.values())} refusals, {tally.takebacks} take-backs"
    )


def _ok(done: Done, what: str) -> Done:
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["no message"])[-1]
        raise CheckFailed(f"`wargame {what}` exited {done.returncode}: {last}")
    return done


def check_command(ruleset_id: str, wargame: Wargame, folder: Path, seed: int = 11) -> str:
    """`wargame play ID --no-input` finishes a game whose save `replay --verify` accepts."""
    save = folder / f"{ruleset_id}-command.json"
    done = _ok(
        wargame(
            "play", ruleset_id, "--no-input", "--seed", str(seed), "--json", "--save", str(save)
        ),
        f"play {ruleset_id} --no-input",
    )
    result = json.loads(done.stdout)
    _expect(result["ruleset"] == ruleset_id, f"the game played is {result['ruleset']!r}")
    _expect(result["status"] == "finished", "`play --no-input` did not finish the game")
    _ok(wargame("replay", str(save), "--verify", "--no-input"), "replay --verify")
    return f"played to the end in {result.get('turns', '?')} turns, verified"


def check_resume(ruleset_id: str, wargame: Wargame, folder: Path, seed: int = 5) -> str:
    """A game stopped after its first turn and resumed ends with the log of the game played
    straight through; the resumed save verifies."""
    straight, split = folder / f"{ruleset_id}-straight.json", folder / f"{ruleset_id}-split.json"
    base = ("play", ruleset_id, "--no-input", "--seed", str(seed), "--json")
    _ok(wargame(*base, "--save", str(straight)), f"play {ruleset_id}")
    first = json.loads(_ok(wargame(*base, "--turns", "1", "--save", str(split)), "play").stdout)
    _expect(first["status"] == "in_progress", "`play --turns 1` did not stop after turn 1")
    _ok(wargame("resume", str(split), "--no-input", "--json"), "resume")
    a, b = json.loads(straight.read_text()), json.loads(split.read_text())
    _expect(a["log"] == b["log"], "the resumed game's log is not the straight game's")
    _expect(a["result"] == b["result"], "the resumed game ends otherwise")
    _ok(wargame("replay", str(split), "--verify", "--no-input"), "replay --verify")
    return f"stopped after turn 1, resumed to the same {len(a['log'])} entries"


@dataclass(frozen=True)
class Check:
    """One named check of the kit, run on a ruleset in a folder of its own."""

    name: str
    run: Callable[[str, Path], str]


def default_checks(games_played: int = 3, turns: int | None = 3) -> list[Check]:
    from wargame_cli.testing.terminal import check_terminal

    return [
        Check("contract", lambda rid, folder: check_contract(rid)),
        Check("unit sheet", lambda rid, folder: check_unit_sheet(rid)),
        Check("bot games", lambda rid, folder: check_bot_games(rid, folder)),
        Check(
            "random legal",
            lambda rid, folder: check_random_legal(rid, folder, games_played, turns),
        ),
        Check("command", lambda rid, folder: check_command(rid, wargame_process(folder), folder)),
        Check("resume", lambda rid, folder: check_resume(rid, wargame_process(folder), folder)),
        Check("terminal", check_terminal),
    ]
