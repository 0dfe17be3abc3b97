"""A session to a save and back. Loading is replaying: the log goes through the rules again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli import __version__, registry
from wargame_cli.engine.dice import DiceSource, RngDice
from wargame_cli.engine.entries import LogEntry, TakeBackRecord
from wargame_cli.engine.runner import Controller, Observer, Runner
from wargame_cli.engine.session import Session
from wargame_cli.errors import BadInput, ReplayDivergence, SaveError
from wargame_cli.ruleset import SIDES, Setup, check_team_numbers, resolve_options
from wargame_cli.saves import store
from wargame_cli.saves.untrusted import Untrusted


def settled(log: list[LogEntry], turn: int) -> tuple[list[LogEntry], int]:
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
    """What goes on disk: the game with its hash chain (see `seal.py`)."""
    from wargame_cli.saves import seal

    return seal.sealed(_plain(session, players))


def replayed(session: Session) -> dict[str, Any]:
    """The fields of a save the rules re-derive, as the replay gave them: what reports and
    summaries show, never the file's own words."""
    plain = _plain(session)
    keys = ("seed", "options", "setup", "status", "turns", "result", "log", "created")
    return {k: plain[k] for k in keys}


def _plain(session: Session, players: dict[str, str] | None = None) -> dict[str, Any]:
    outcome = session.runner.outcome
    log, turns = settled(session.runner.log, session.runner.turn)
    created = session.created or store.now()
    session.created = created
    fork = {"forked_from": session.meta["forked_from"]} if session.meta.get("forked_from") else {}
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
        **fork,
        "log": log,
    } | _takebacks(session.runner.takebacks, len(log))


def _takebacks(takebacks: list[TakeBackRecord], length: int) -> dict[str, Any]:
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
    check_seal: bool = True,
) -> Session:
    """Rebuild a session from a save: check it (its hash chain too, unless `verify` checks
    that last, after naming any rules-level divergence), then replay its log."""
    data = store.load(path)
    if check_seal:
        store.check_seal(path, data)
    ruleset = registry.get(data["ruleset"]["id"])
    _check_ruleset_version(path, data["ruleset"]["version"], ruleset.version)
    try:
        options = resolve_options(ruleset.options, _local_tables(path, ruleset, data["options"]))
        for side in SIDES:
            check_team_numbers(data["setup"]["teams"][side])
        teams = {s: ruleset.team_from_data(data["setup"]["teams"][s], options) for s in SIDES}
    except KeyError as exc:
        raise SaveError(f"save {path} has no team for side {exc}") from None
    except (BadInput, Untrusted) as exc:
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
    session.meta["forked_from"] = data.get("forked_from")
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


def _check_ruleset_version(path: Path, saved: str, ours: str) -> None:
    """Older versions of a ruleset replay (a divergence then says which version made it);
    a version this wargame never had is refused."""
    if saved == ours:
        return
    if not (saved.isdigit() and ours.isdigit()) or int(saved) > int(ours):
        raise SaveError(
            f"save {path} was made with version {saved!r} of these rules, which this wargame "
            f"{__version__} does not know (it has version {ours})"
        )


def _local_tables(path: Path, ruleset: Any, options: dict[str, Any]) -> dict[str, Any]:
    """A table option stored as a file name opens only a file under the save's own folder:
    a save cannot make wargame read files elsewhere on the machine."""
    from wargame_cli.tabletop.scenario import TableOption

    out = dict(options)
    folder = path.resolve().parent
    for spec in ruleset.options:
        value = out.get(spec.name)
        if not isinstance(spec, TableOption) or not isinstance(value, str):
            continue
        if value.strip() in ("", "default"):
            continue
        where = (folder / value).resolve()
        if not where.is_relative_to(folder) or not where.is_file():
            raise SaveError(
                f"save {path}: option {spec.name} names a table file {value!r} that is not "
                "in the save's own folder"
            )
        out[spec.name] = str(where)
    return out


def _normal(value: Any) -> Any:
    """As it reads back from JSON (tuples are lists, keys are text)."""
    import json

    return json.loads(json.dumps(value, ensure_ascii=False))


def verify(path: Path, observer: Observer | None = None) -> Session:
    """Replay a save and check that its recorded status, result and turn count agree."""
    session = open_save(path, observer=observer, check_seal=False)
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
    if runner.outcome is not None and result.get("reason") != runner.outcome.reason:
        raise ReplayDivergence(
            n,
            f"save says the game ended as {result.get('reason')!r}, the log gives "
            f"{runner.outcome.reason!r}",
        )
    if runner.outcome is None and result is not None:
        raise ReplayDivergence(n, "save states a result, but the log gives a game in progress")
    if data["turns"] != runner.turn:
        raise ReplayDivergence(n, f"save says {data['turns']} turns, the log gives {runner.turn}")
    made_with = data["ruleset"]["version"]
    why = (
        "the record was edited"
        if made_with == session.ruleset.version
        else f"the save was made with version {made_with} of these rules, worded otherwise "
        f"(this wargame has version {session.ruleset.version})"
    )
    _same_as_replayed(data["log"], runner.log, why)
    if runner.rng_mismatch is not None:  # found while replaying, on the seed's stream
        raise ReplayDivergence(*runner.rng_mismatch)
    _check_takebacks(data.get("takebacks", []), data["log"])
    store.check_seal(path, data)
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


def _same_as_replayed(saved: list[dict[str, Any]], replayed: list[LogEntry], why: str) -> None:
    """Every field the rules re-derive (event kinds and data, roll reasons, prompts, labels)
    must read as the rules give it: the report shows the replayed log, so must the file.
    `why` says what a difference means (an edit, or an older version's wording)."""
    from wargame_cli.saves.seal import unchained

    for index, (raw, ours) in enumerate(zip(saved, replayed, strict=False)):
        if raw == ours or ("h" in raw and raw == {**ours, "h": raw["h"]}):
            continue  # equal as they stand, so equal as JSON: no copy through the encoder
        raw, ours = unchained(raw), _normal(ours)
        if raw == ours:
            continue
        key = next((k for k in sorted(set(raw) | set(ours)) if raw.get(k) != ours.get(k)), "entry")
        raise ReplayDivergence(
            index,
            f"the save has {key}={raw.get(key)!r}, the rules give {ours.get(key)!r}: {why}",
        )
