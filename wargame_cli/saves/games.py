"""A session to a save and back. Loading is replaying: the log goes through the rules again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli import __version__, registry
from wargame_cli.engine.dice import DiceSource, RngDice
from wargame_cli.engine.runner import Controller, Observer, Runner
from wargame_cli.engine.session import Session
from wargame_cli.errors import BadInput, ReplayDivergence, SaveError
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.saves import store


def settled(log: list[dict[str, Any]], turn: int) -> tuple[list[dict[str, Any]], int]:
    """The log and turn count to save: a turn that has only begun (no die rolled, nothing
    decided, as when Ctrl-C comes at its first manual dice) is left out, so a save never
    counts a turn in which nothing happened; resuming starts that turn again."""
    for index in range(len(log) - 1, -1, -1):
        kind = log[index]["t"]
        if kind in ("roll", "choice", "end"):
            return log, turn
        if kind == "turn":
            before = next((e["n"] for e in reversed(log[:index]) if e["t"] == "turn"), 0)
            return log[:index], before
    return log, turn


def to_save(session: Session, players: dict[str, str] | None = None) -> dict[str, Any]:
    outcome = session.runner.outcome
    log, turns = settled(session.runner.log, session.runner.turn)
    created = session.created or store.now()
    session.created = created
    return {
        "format": store.FORMAT,
        "version": store.VERSION,
        "program": f"wargame_cli {__version__}",
        "ruleset": {"id": session.ruleset.id, "version": session.ruleset.version},
        "created": created,
        "updated": store.now(),
        "seed": session.seed,
        "options": session.options,
        "setup": {
            "names": dict(session.setup.names),
            "teams": dict(session.setup.teams),
            "players": dict(players or session.meta.get("players", {})),
            "dice": session.meta.get("dice", "auto"),
        },
        "status": session.status,
        "turns": turns,
        "result": (
            {"winner": outcome.winner, "reason": outcome.reason} if outcome is not None else None
        ),
        "log": log,
    } | _takebacks(session.runner.takebacks, len(log))


def _takebacks(takebacks: list[dict[str, Any]], length: int) -> dict[str, Any]:
    """The save's `takebacks` (left out when there are none), placed within the saved log."""
    if not takebacks:
        return {}
    return {"takebacks": [dict(t, at=min(t["at"], length)) for t in takebacks]}


def save(session: Session, path: Path) -> None:
    store.write_atomic(path, to_save(session))


def open_save(
    path: Path,
    dice: DiceSource | None = None,
    controllers: dict[str, Controller] | None = None,
    observer: Observer | None = None,
    replay: bool = True,
) -> Session:
    """Rebuild a session from a save: check it, then replay its log through the rules."""
    data = store.load(path)
    ruleset = registry.get(data["ruleset"]["id"])
    try:
        options = resolve_options(ruleset.options, data["options"])
        teams = {s: ruleset.team_from_data(data["setup"]["teams"][s], options) for s in SIDES}
    except KeyError as exc:
        raise SaveError(f"save {path} has no team for side {exc}") from None
    except BadInput as exc:
        raise SaveError(f"save {path}: {exc}") from None
    names = {s: data["setup"]["names"].get(s, f"Side {s}") for s in SIDES}
    setup = Setup(names=names, teams=teams)
    seed = data["seed"]
    game = ruleset.new_game(setup, options)
    runner = Runner(
        game,
        dice if dice is not None else RngDice(seed),
        controllers,
        observer,
        factory=lambda: ruleset.new_game(setup, options),
    )
    session = Session(ruleset, options, seed, setup, runner, created=data["created"])
    session.meta["players"] = dict(data["setup"].get("players", {}))
    session.meta["dice"] = data["setup"].get("dice", "auto")
    session.meta["path"] = path
    if replay:
        try:
            runner.replay(data["log"])
        except ReplayDivergence as exc:
            made_with = data["ruleset"]["version"]
            if made_with == ruleset.version:
                raise
            raise ReplayDivergence(
                exc.index,
                f"{exc.reason} (the save was made with version {made_with} of these rules; "
                f"this wargame has version {ruleset.version})",
            ) from None
    runner.keep_takebacks(data.get("takebacks", []))
    session.meta["saved"] = data
    return session


def verify(path: Path, observer: Observer | None = None) -> Session:
    """Replay a save and check that its recorded status, result and turn count agree."""
    session = open_save(path, observer=observer)
    data = session.meta["saved"]
    runner = session.runner
    n = len(data["log"])
    if data["status"] != session.status:
        raise ReplayDivergence(n, f"save says {data['status']}, the log gives {session.status}")
    result = data.get("result")
    if runner.outcome is not None and (
        result is None or result.get("winner") != runner.outcome.winner
    ):
        raise ReplayDivergence(
            n,
            f"save says the winner is {(result or {}).get('winner')!r}, the log gives "
            f"{runner.outcome.winner!r}",
        )
    if data["turns"] != runner.turn:
        raise ReplayDivergence(n, f"save says {data['turns']} turns, the log gives {runner.turn}")
    _check_takebacks(data.get("takebacks", []), data["log"])
    return session


def _check_takebacks(takebacks: list[dict[str, Any]], log: list[dict[str, Any]]) -> None:
    """Each take-back stands where the log has its side's new decision."""
    latest = {t["at"]: t for t in takebacks}  # the last take-back at each place
    for at, done in latest.items():
        entry = log[at] if at < len(log) else None
        new = done.get("new")
        if new is None:
            if entry is not None:
                raise ReplayDivergence(at, "a take-back with no new decision, but play went on")
            continue
        if entry is None or entry.get("t") != "choice" or entry.get("key") != new.get("key"):
            key = new.get("key")
            raise ReplayDivergence(at, f"the take-back's new decision {key!r} is not there")
