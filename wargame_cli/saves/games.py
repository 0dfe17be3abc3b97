"""A session to a save and back. Loading is replaying: the log goes through the rules again."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli import __version__, registry, versions
from wargame_cli.engine import position, takeback
from wargame_cli.engine.dice import DiceSource, RngDice
from wargame_cli.engine.entries import LogEntry, Shown, TakeBackRecord
from wargame_cli.engine.runner import Controller, Observer, Runner
from wargame_cli.engine.session import Session, bind
from wargame_cli.errors import BadInput, ReplayDivergence, SaveError
from wargame_cli.remote import signing
from wargame_cli.ruleset import SIDES, Ruleset, Setup, check_team_numbers, resolve_options
from wargame_cli.saves import provenance, store
from wargame_cli.saves.untrusted import Untrusted
from wargame_cli.wording import plural

LOG_KINDS = frozenset({"turn", "roll", "choice", "event", "end", "edit"})
SIGNING = signing.BLOCK  # a signed remote game's two machines' keys


def settled(
    log: list[LogEntry], turn: int, takebacks: list[TakeBackRecord] | None = None
) -> tuple[list[LogEntry], int]:
    """The log and turn count to save: a turn that has only begun (no die rolled, nothing
    decided, as when Ctrl-C comes at its first manual dice) is left out, so a save never
    counts a turn in which nothing happened; resuming starts that turn again. A turn whose
    first decision was taken back and is asked again is kept: the take-back stands there."""
    if takebacks and takebacks[-1].get("new") is None and takebacks[-1]["at"] == len(log):
        return log, turn
    for index in range(len(log) - 1, -1, -1):
        kind = log[index]["t"]
        if kind in ("roll", "choice", "end", "edit"):  # an edit made in it keeps the turn
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
    log, turns = settled(session.runner.log, session.runner.turn, session.runner.takebacks)
    created = session.created or store.now()
    session.created = created
    told: dict[str, Any] = {}
    if session.meta.get("forked_from"):
        told["forked_from"] = session.meta["forked_from"]
    if session.meta.get(provenance.MARK):  # never a sealed record from an unsealed one
        told[provenance.MARK] = True
    if session.meta.get(SIGNING):  # remote play's two machines' keys
        told[SIGNING] = session.meta[SIGNING]
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
            **_levels(session.meta.get("bots")),
        },
        "status": session.status,
        "turns": turns,
        "result": (
            {"winner": outcome.winner, "reason": outcome.reason} if outcome is not None else None
        ),
        **told,
        "log": log,
    } | _takebacks(session.runner.takebacks, len(log))


def _levels(levels: dict[str, str] | None) -> dict[str, Any]:
    """The setup's `bots` (each computer side's level), left out when every one plays the
    default: such a save reads as one written before levels existed."""
    chosen = {s: level for s, level in (levels or {}).items() if level != "default"}
    return {"bots": chosen} if chosen else {}


def _takebacks(takebacks: list[TakeBackRecord], length: int) -> dict[str, Any]:
    """The save's `takebacks` (left out when there are none), placed within the saved log."""
    if not takebacks:
        return {}
    return {"takebacks": [dict(t, at=min(t["at"], length)) for t in takebacks]}


def save(session: Session, path: Path, settle: bool = True) -> None:
    """Write the session's save: its writer appends the turns since the last save (see
    `appender.py`). `settle`: the save reaches the disk now (the game stops, or a person
    plays it); otherwise, between fast turns, a whole rewrite may wait a moment."""
    from wargame_cli.saves.appender import SaveWriter

    writer = session.meta.get("writer")
    if not isinstance(writer, SaveWriter) or writer.path != path:
        writer = session.meta["writer"] = SaveWriter(path)
    writer.write(_plain(session), settle=settle)


def open_save(
    path: Path,
    dice: DiceSource | None = None,
    controllers: dict[str, Controller] | None = None,
    observer: Observer | None = None,
    replay: bool = True,
    check_seal: bool = True,
    nearest: bool = False,
) -> Session:
    """Rebuild a session from a save: check it (its hash chain too, unless `verify` checks
    that last, after naming any rules-level divergence), then replay its log. `nearest`:
    only from the log's nearest stored position on (resuming, editing: the hash chain
    vouches for the rest), so the cost does not grow with the game; `replay --verify` and
    the replays that show every entry replay it all."""
    data = store.load(path)
    if check_seal:
        store.check_seal(path, data)
    ruleset = registry.get(data["ruleset"]["id"])
    current = ruleset.version
    saved = data["ruleset"]["version"]
    _check_ruleset_version(path, saved, current)
    ruleset = versions.at_version(ruleset, saved)  # played under its own
    if older := ruleset.variants():  # a fork replays a part of it later: chosen on the whole
        ruleset = _behaviour(path, data, ruleset, older)
    return _session(path, data, ruleset, current, dice, controllers, observer, replay, nearest)


def _behaviour(
    path: Path, data: dict[str, Any], ruleset: Ruleset, older: tuple[int, ...]
) -> Ruleset:
    """The behaviour a save of a version that changed under one number was played with: the
    version's own if its log replays under it, else the first of `older` it replays under
    (tried quietly, before the replay anyone watches); the version's own when none does, so
    its divergence is the one told."""
    for behaviour in (None, *older):
        candidate = versions.at_version(ruleset, ruleset.version, behaviour)
        try:
            _session(path, data, candidate, ruleset.version, None, None, None, True)
        except ReplayDivergence:
            continue
        return candidate
    return ruleset


def _session(
    path: Path,
    data: dict[str, Any],
    ruleset: Ruleset,
    current: str,
    dice: DiceSource | None,
    controllers: dict[str, Controller] | None,
    observer: Observer | None,
    replay: bool,
    nearest: bool = False,
) -> Session:
    try:
        options = resolve_options(ruleset.options, _local_tables(path, ruleset, data["options"]))
        for side in SIDES:
            check_team_numbers(data["setup"]["teams"][side])
        teams = {s: ruleset.team_from_data(data["setup"]["teams"][s], options) for s in SIDES}
    except KeyError as exc:
        raise SaveError(f"save {path} has no team for side {exc}") from None
    except (BadInput, Untrusted) as exc:
        told = str(exc)  # a table file's problem already names the save
        raise SaveError(
            told if told.startswith(f"save {path}") else f"save {path}: {told}"
        ) from None
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
        migrate=ruleset.migrate_entry,
        older=ruleset.version != current or ruleset.behaviour is not None,
        editor=ruleset.apply_edit,
        after_end=ruleset.after_declared_hook(),
        keeper=position.keeper(ruleset, setup, options),
    )
    session = bind(Session(ruleset, options, seed, setup, runner, created=data["created"]))
    session.meta["players"] = dict(data["setup"].get("players", {}))
    session.meta["dice"] = data["setup"].get("dice", "auto")
    session.meta["bots"] = dict(data["setup"].get("bots", {}))
    session.meta["path"] = path
    session.meta["forked_from"] = data.get("forked_from")
    session.meta[provenance.MARK] = not provenance.vouched(data)
    if SIGNING in data:  # remote play's two keys (`remote/signing.py`), kept as written
        session.meta[SIGNING] = data[SIGNING]
    if replay:
        watch = _TakeBackWatch(runner, data.get("takebacks", []), observer)
        runner.observer = watch
        try:
            if nearest:  # a take-back is judged where it stands: restored before the first
                runner.restart(data["log"], min(watch.places, default=None), saved=True)
            else:
                runner.replay(data["log"])
            runner.observer = observer
            watch.check(data["log"])
            _check_shared(data["log"])
        except ReplayDivergence as exc:
            if ruleset.version == current:
                raise
            raise ReplayDivergence(
                exc.index,
                f"{exc.reason} (replayed under version {ruleset.version} of these rules, "
                f"which made the save; this wargame's own is version {current})",
            ) from None
    runner.keep_takebacks(data.get("takebacks", []))
    session.meta["saved"] = data
    return session


def _check_shared(log: list[dict[str, Any]]) -> None:
    """Dice shared by two machines must be what their commitments and values give."""
    if data_dice_shared(log):
        from wargame_cli.remote import fair

        found = fair.first_problem(log)
        if found is not None:
            raise ReplayDivergence(*found)


def data_dice_shared(log: list[dict[str, Any]]) -> bool:
    return any(isinstance(e, dict) and "shared" in e for e in log) or any(
        isinstance(e, dict) and e.get("t") == "roll" and e.get("source") in ("shared", "mixed")
        for e in log
    )


def _check_ruleset_version(path: Path, saved: str, ours: str) -> None:
    """Older versions of a ruleset replay (a divergence then says which version made it);
    a version this wargame never had is refused."""
    if saved == ours:
        return
    if not (_plain_number(saved) and _plain_number(ours)) or not 1 <= int(saved) <= int(ours):
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
    if runner.outcome is None and result is not None:
        raise ReplayDivergence(n, "save states a result, but the log gives a game in progress")
    if data["turns"] != runner.turn:
        raise ReplayDivergence(
            n, f"save says {plural(data['turns'], 'turn')}, the log gives {runner.turn}"
        )
    reason = runner.outcome.reason if runner.outcome is not None else None
    saved = [runner.migrate(e) if isinstance(e, dict) else e for e in data["log"]]
    reworded = _same_as_replayed(saved, runner.log, runner.older)
    session.meta["reworded"] = reworded + (result is not None and result.get("reason") != reason)
    if runner.rng_mismatch is not None:  # found while replaying, on the seed's stream
        raise ReplayDivergence(*runner.rng_mismatch)
    store.check_seal(path, data)
    from wargame_cli.saves import signed

    session.meta["signatures"] = signed.check(data)  # a remote save's: both machines' keys
    return session


class _TakeBackWatch:
    """Watches a replay for a save's take-backs: notes the question the rules ask at each
    take-back's place (and the turn), so that `check` can hold every take-back to the log."""

    def __init__(
        self, runner: Runner, takebacks: list[dict[str, Any]], observer: Observer | None
    ) -> None:
        self.runner = runner
        self.takebacks = takebacks
        self.places = takeback.places(takebacks)
        self.observer = observer
        self.asked: dict[int, tuple[Any, int, str | None]] = {}

    def __call__(self, entry: Shown, game: Any) -> None:
        seen = len(self.runner.log) - 1  # the entry just logged (a replay may start midway)
        if entry.get("t") in LOG_KINDS and seen in self.places:
            # judged now: a question's judge reads the game as it stands, which moves on
            asked, done = self.runner.pending, self.takebacks[self.places[seen]]
            self.asked[seen] = (asked, self.runner.turn, takeback.judged(done, asked))
        if self.observer is not None:
            self.observer(entry, game)

    def check(self, log: list[dict[str, Any]]) -> None:
        """Every take-back true to the log, or the first that is not, as an edited record."""
        if not self.takebacks:
            return
        found = takeback.order_problem(self.takebacks, len(log))
        if found is not None:
            self._refuse(*found)
        for at, i in self.places.items():
            # past the log's last entry: what the rules ask where the log stops
            done = self.takebacks[i]
            asked, turn, judged = self.asked.get(at) or (
                self.runner.pending,
                self.runner.turn,
                takeback.judged(done, self.runner.pending),
            )
            entry = log[at] if at < len(log) else None
            why = takeback.problem(done, asked, entry, turn, judged)
            if why is not None:
                self._refuse(i, why)

    def _refuse(self, i: int, why: str) -> None:
        done = self.takebacks[i]
        raise ReplayDivergence(
            min(done["at"], len(self.runner.log)),
            f"take-back {i + 1} (side {done['side']}, {done['taken']['key']!r} in turn "
            f"{done['turn']}): {why}: the record was edited",
        )


def _same_as_replayed(
    saved: list[dict[str, Any]], replayed: list[LogEntry], older: bool = False
) -> int:
    """Every field the rules decide (see `engine/judged.py`) must read as the rules give it;
    returns how many entries this build words otherwise (wording is never a refusal)."""
    from wargame_cli.engine import judged

    count = 0
    for index, (raw, ours) in enumerate(zip(saved, replayed, strict=False)):
        if not judged.reworded(raw, ours):
            continue
        key = judged.first_difference(raw, ours, older)
        if key is not None:
            raise ReplayDivergence(
                index,
                f"the save has {key}={raw.get(key)!r}, the rules give {ours.get(key)!r}: "
                "the record was edited",
            )
        count += 1
    return count


def as_replayed(row: dict[str, Any]) -> dict[str, Any]:
    """A row of `store.listing` with what the replay gives, never the file's own words: the
    status, turns and winner, and whether the file carries the hash chain; a save that does
    not load is listed as unreadable, with the reason."""
    if row.get("error"):
        return row
    path = Path(row["path"])
    try:
        session = open_save(path)
    except BadInput as exc:
        reason = str(exc)
        error = reason if str(path) in reason else f"{path}: {reason}"
        return row | {"status": "unreadable", "turns": None, "winner": None, "error": error}
    return row | {
        "status": session.status,
        "turns": session.runner.turn,
        "winner": session.winner,
        "sealed": provenance.vouched(session.meta["saved"]),
        "forked_from": session.meta.get("forked_from"),
    }


def _plain_number(text: str) -> bool:
    """ASCII digits only: `str.isdigit` also takes other scripts' digits ("٢")."""
    return text.isascii() and text.isdigit()
