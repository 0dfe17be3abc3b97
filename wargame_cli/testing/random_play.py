"""Random legal play (OpenSpiel's RandomSimulation) for every registered ruleset: a controller
that answers each choice with a random legal key, now and then a typed answer or a key the
menu disables, and checks as it goes that the runner judges every key as `Choice.legal` and
the menu do. Part of the conformance kit (`python -m wargame_cli.testing`); used by
`tests/test_random_legal.py`, `tests/test_legality.py` and `bench/random_legal.py`."""

from __future__ import annotations

import dataclasses
import json
import random
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.bots.evaluate import fields_of
from wargame_cli.engine import position, requests
from wargame_cli.engine.bots import run_builder
from wargame_cli.engine.dice import RngDice
from wargame_cli.engine.requests import SPOT_HINT, TAKE_BACK, Choice, Option, TurnStart
from wargame_cli.engine.runner import Runner
from wargame_cli.engine.session import Session, start
from wargame_cli.engine.takeback import latest_taken
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.saves import games, store
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.table import Table


def ruleset_ids() -> list[str]:
    """Every registered ruleset's id: the built-ins, then the plugins installed."""
    return [info.id for info in registry.all_infos()]


UNLISTED = "no such key"  # typed at a question that takes no typed answer: always refused
SURRENDER = "surrender"  # Seeds of Wars offers it at every question (d16)
WORDS = ("holds the line", "Zed", "Rook elite 4", "6,3,1", "[bold]x", "", "x" * 200, "done")


class Disagreement(AssertionError):
    """The menu, `legal` and the runner judged a key differently."""


def check_menu(
    choice: Choice, rng: random.Random | None = None, described: int = 3
) -> tuple[Option, ...]:
    """The menu, after checking it against `legal` and the labels: every enabled key is
    legal, every disabled one refused with the menu's own reason, and `label_of` gives each
    key the menu's label; so does `describe` (the label without the menu) for the bot's key
    and `described` others (all of them without `rng`: each may work the menu out again)."""
    as_built = _as_built(choice)
    menu = choice.options
    if as_built is not None:
        for built, judged in zip(as_built, menu, strict=True):
            if built.disabled != judged.disabled:
                meant, judged_as = built.disabled or "enabled", judged.disabled or "legal"
                raise Disagreement(
                    f"{choice.prompt}: the rules build {built.key!r} {meant}, "
                    f"but their judge says {judged_as}"
                )
    keys = [o.key for o in menu]
    if len(set(keys)) != len(keys):
        raise Disagreement(f"{choice.prompt}: the menu lists a key twice: {keys}")
    for option in menu:
        reason = choice.legal(option.key)
        if reason != option.disabled:
            raise Disagreement(
                f"{choice.prompt}: {option.key!r} is {option.disabled or 'enabled'} in the "
                f"menu, but legal() says {reason or 'legal'}"
            )
        if choice.label_of(option.key) != option.label:
            raise Disagreement(f"{choice.prompt}: label_of({option.key!r}) is not the menu's")
    if choice.legal(choice.default) is not None:
        raise Disagreement(f"{choice.prompt}: the bot's {choice.default!r} is refused")
    if choice.describe is not None:
        labels = {o.key: o.label for o in menu}
        sample = keys if rng is None else rng.sample(keys, min(described, len(keys)))
        for key in {choice.default, *sample} & set(labels):
            if choice.describe(key) != labels[key]:
                raise Disagreement(
                    f"{choice.prompt}: describe({key!r}) = {choice.describe(key)!r}, "
                    f"the menu says {labels[key]!r}"
                )
    return menu


def _as_built(choice: Choice) -> tuple[Option, ...] | None:
    """A judged choice's menu as its rules build it, before the judge gives each entry its
    reason (None once the menu is read): what they meant to show, to compare with the judge."""
    pending = choice.__dict__["_options"]
    if not isinstance(pending, partial) or pending.func is not requests._judged:
        return None
    menu = pending.args[0]
    return tuple(menu() if callable(menu) else menu)


def _table_of(game: Any) -> Table | None:
    """The tabletop of a game that has one (for random points on it), else None: a `Table`
    among the fields of its state (the contract's `game.state`), when that is a dataclass."""
    state = game.state
    if not dataclasses.is_dataclass(state) or isinstance(state, type):
        return None
    return next((v for v in fields_of(state).values() if isinstance(v, Table)), None)


def typed_guess(rng: random.Random, choice: Choice, menu: tuple[Option, ...], game: Any) -> str:
    """Something a person might type: for an x,y question a random point on the table, or
    near a listed spot; else a few words, a listed key in other case, or nonsense."""
    if choice.free_hint == SPOT_HINT:
        table = _table_of(game)
        spots = [p for p in (_point(o.key) for o in menu) if p is not None]
        if table is not None and (not spots or rng.random() < 0.4):
            return Point(
                round(rng.uniform(0, table.width), 2), round(rng.uniform(0, table.height), 2)
            ).key()
        if spots:
            near = rng.choice(spots)
            return Point(
                round(near.x + rng.uniform(-1.5, 1.5), 1), round(near.y + rng.uniform(-1.5, 1.5), 1)
            ).key()
        return f"{rng.randint(-2, 50)},{rng.randint(-2, 50)}"
    if menu and rng.random() < 0.3:
        return rng.choice(menu).key.upper()
    return rng.choice(WORDS)


def _point(key: str) -> Point | None:
    try:
        return Point.parse(key)
    except ValueError:
        return None


@dataclass
class Tally:
    """What the random games did, for reports and for the tests' floors."""

    choices: int = 0
    spots: int = 0  # questions whose typed answer is a spot on the table
    typed: int = 0
    typed_legal: int = 0
    disabled_tried: int = 0
    takebacks: int = 0
    refusals: dict[str, int] = field(default_factory=dict)


class RandomController:
    """Answers with a random enabled option; with `typed` probability a typed answer where
    the choice takes one, with `disabled` a key the menu disables (it must be refused with
    the menu's reason), with `take_back` the take-back token (once the runner is known: the
    next question then checks that the log and the state are exactly as before the decision
    taken back). Recorded as a person, so its decisions can be taken back. `checked` is the
    share of menus checked against `legal` and the labels (`check_menu`)."""

    by = "human"

    def __init__(
        self,
        rng: random.Random,
        tally: Tally | None = None,
        typed: float = 0.15,
        disabled: float = 0.15,
        take_back: float = 0.0,
        checked: float = 1.0,
    ) -> None:
        self.rng = rng
        self.tally = tally if tally is not None else Tally()
        self.p_typed, self.p_disabled = typed, disabled
        self.p_back, self.p_checked = take_back, checked
        self.runner: Runner | None = None
        self.expected: dict[str, str | None] = {}  # key -> the refusal the runner must give
        self.state_at: dict[int, Any] = {}  # log length -> the state a decision was asked in
        self.undone: tuple[int, list[Any], Any] | None = None  # at, log, state
        self.kept: Any = None

    def choose(self, choice: Choice, game: Any) -> str:
        rng, runner = self.rng, self.runner
        if self.undone is not None:
            self._check_take_back()
        first = not self.expected  # not asked again after a refusal
        menu = check_menu(choice, rng) if rng.random() < self.p_checked else choice.options
        self.tally.choices += first
        self.tally.spots += first and choice.free_hint == SPOT_HINT
        if first and runner is not None and self.state_at:
            ((planned, self.kept),) = self.state_at.items()
            self.state_at.clear()
            if latest_taken(runner.log) == planned:
                self.undone = (planned, list(runner.log[:planned]), self.kept)
                return TAKE_BACK
        enabled = [o.key for o in menu if o.disabled is None]
        shut = [o for o in menu if o.disabled is not None and o.key not in self.expected]
        if shut and rng.random() < self.p_disabled:
            pick = rng.choice(shut)
            self.tally.disabled_tried += 1
            self.expected[pick.key] = pick.disabled
            return pick.key
        if choice.free_hint is None and rng.random() < self.p_typed / 4:
            if choice.legal(UNLISTED) is None:
                raise Disagreement(
                    f"{choice.prompt}: {UNLISTED!r}, typed where nothing is typed, is legal"
                )
            self.expected[UNLISTED] = choice.legal(UNLISTED)
            return UNLISTED
        if choice.free_hint is not None and rng.random() < self.p_typed:
            key = typed_guess(rng, choice, menu, game)
            if key not in self.expected:
                reason = choice.legal(key)
                self.tally.typed += 1
                self.tally.typed_legal += reason is None
                if reason is None:
                    return self._chosen(key)
                self.expected[key] = reason
                return key
        if len(enabled) > 1 and SURRENDER in enabled and rng.random() > 0.01:
            enabled.remove(SURRENDER)  # a random player who surrenders at once plays nothing
        return self._chosen(rng.choice(enabled) if enabled else choice.default)

    def _chosen(self, key: str) -> str:
        """An answer the runner must accept; now and then one to take back at the next
        question (the state it is made in kept, to compare the take-back's with)."""
        if self.runner is not None and self.p_back and self.rng.random() < self.p_back:
            self.state_at[len(self.runner.log)] = self.runner.game.state_json()
        self.expected.clear()
        return key

    def _check_take_back(self) -> None:
        """The take-back just done left exactly the log before the decision, and its state."""
        assert self.runner is not None and self.undone is not None
        at, before, state = self.undone
        self.undone = None
        self.tally.takebacks += 1
        if self.runner.log != before:
            raise Disagreement(f"a take-back at entry {at} did not leave the log before it")
        if self.runner.game.state_json() != state:
            raise Disagreement(f"a take-back at entry {at} did not restore the state")

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        if key == TAKE_BACK:
            raise Disagreement(f"the take-back was refused: {reason}")
        expected = self.expected.get(key, "legal")
        if expected != reason:
            raise Disagreement(
                f"{choice.prompt}: the runner refused {key!r} ({reason}); "
                f"legal() and the menu said {expected or 'legal'}"
            )
        if not reason:
            raise Disagreement(f"{choice.prompt}: {key!r} refused with no reason")
        self.tally.refusals[choice.kind] = self.tally.refusals.get(choice.kind, 0) + 1


def random_team(
    ruleset: Any, side: str, options: dict[str, Any], rng: random.Random, tally: Tally | None = None
) -> Any:
    """A team built by random legal answers to the ruleset's own team questions, each menu
    checked as in play."""
    controller = RandomController(rng, tally)
    return run_builder(lambda: ruleset.build_team(side, options), controller)


def random_options(ruleset: Any, rng: random.Random) -> dict[str, Any]:
    """Each option that has a few values (a list of choices, or yes and no) drawn at random;
    the others at their defaults."""
    drawn: dict[str, Any] = {}
    for spec in ruleset.options:
        if spec.choices is not None:
            drawn[spec.name] = rng.choice(spec.choices)
        elif isinstance(spec.default, bool):
            drawn[spec.name] = rng.random() < 0.5
    return resolve_options(ruleset.options, drawn)


def new_session(
    ruleset_id: str,
    seed: int,
    controller: Any,
    random_teams: bool = False,
    options: dict[str, Any] | None = None,
) -> Session:
    """A seeded game of `ruleset_id` with default (or randomly built) teams, `controller`
    answering for both sides; the ruleset's default options unless `options` are given."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, options)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
        if random_teams:
            rng = random.Random(f"team {ruleset_id} {seed} {side}")
            tally = controller.tally if isinstance(controller, RandomController) else None
            teams[side] = random_team(ruleset, side, options, rng, tally)
    controllers = {side: controller for side in SIDES}
    session = start(
        ruleset, Setup(names=names, teams=teams), options, seed, controllers=controllers
    )
    if isinstance(controller, RandomController):
        controller.runner = session.runner
    return session


class Follower:
    """Answers with the keys of a finished game's decisions, in order, as a person."""

    by = "human"

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys

    def choose(self, choice: Choice, game: Any) -> str:
        if not self.keys:
            raise Disagreement(f"the resumed game asks more than the game did: {choice.prompt}")
        return self.keys.pop(0)

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise Disagreement(f"the resumed game refuses {key!r}, which the game took: {reason}")


@dataclass
class Checks:
    """How often each expensive check runs: replaying the log so far after a step (its state
    must be the live one), and saving between two turns to resume there at the end."""

    replay: float = 0.02
    resume: float = 0.5
    take_back: float = 0.01
    checked: float = 1.0
    positions: bool = True  # every turn's position restored and played on (`positions_match`)


def replay_matches(session: Session) -> None:
    """A fresh game fed the log so far reaches the live state, and logs it as it stands."""
    runner = session.runner
    fresh = Runner(session.ruleset.new_game(session.setup, session.options), RngDice(session.seed))
    fresh.replay([dict(e) for e in runner.log])
    if fresh.log != runner.log:
        at = first_difference(fresh.log, runner.log)
        raise Disagreement(f"the replayed log differs at entry {at}: {fresh.log[at : at + 1]}")
    if fresh.game.state_json() != runner.game.state_json():
        raise Disagreement(f"replaying {len(runner.log)} entries gives another state")


def play_checked(
    ruleset_id: str,
    seed: int,
    folder: Path,
    turns: int | None = None,
    checks: Checks | None = None,
    tally: Tally | None = None,
    random_teams: bool = False,
    any_options: bool = False,
) -> Session:
    """One seeded random-legal game (up to `turns` turns), checked as it goes: every answer
    by `RandomController`, the log replayed at sampled steps, sampled take-backs, a save
    between two turns resumed at the end to reach the same log, and the final save verified.
    With `any_options`, the options with a few values are drawn at random."""
    checks = checks or Checks()
    rng = random.Random(f"random-legal {ruleset_id} {seed}")
    controller = RandomController(rng, tally, take_back=checks.take_back, checked=checks.checked)
    options = random_options(registry.get(ruleset_id), rng) if any_options else None
    session = new_session(ruleset_id, seed, controller, random_teams, options)
    runner = session.runner
    midway: Path | None = None
    saved_at = 0
    taken: dict[int, dict[str, Any]] = {}  # log length -> the position at that turn's start
    while runner.pending is not None:
        req = runner.pending
        if isinstance(req, TurnStart):
            if turns is not None and req.number > turns:
                break
            if checks.positions and runner.keeper is not None:  # a ruleset with positions
                taken[len(runner.log)] = snapshot_of(session)
            if midway is None and req.number > 1 and rng.random() < checks.resume:
                midway = folder / f"{ruleset_id}-{seed}-turn{req.number}.json"
                games.save(session, midway)
                saved_at = len(runner.log)
        runner.step()
        if midway is not None and len(runner.log) < saved_at:
            midway = None  # a take-back reached behind the save: save again at a later turn
        if taken and max(taken) >= len(runner.log):  # a take-back reached behind them
            taken = {at: kept for at, kept in taken.items() if at < len(runner.log)}
        if rng.random() < checks.replay:
            replay_matches(session)
    if midway is not None:
        resume_matches(session, midway, turns)
    if checks.positions:
        positions_match(session, taken, rng)
    final = folder / f"{ruleset_id}-{seed}.json"
    games.save(session, final)
    verified = games.verify(final)
    if verified.runner.log != runner.log:
        raise Disagreement("the verified save's log is not the game's")
    if verified.game.state_json() != runner.game.state_json():
        raise Disagreement("the verified save's state is not the game's")
    return session


def resume_matches(session: Session, path: Path, turns: int | None) -> None:
    """Resuming the save at `path`, with the game's later decisions, ends as the game did."""
    saved = store.load(path)
    later = [e["key"] for e in session.runner.log[len(saved["log"]) :] if e["t"] == "choice"]
    follower = Follower(later)
    resumed = games.open_save(path, controllers={side: follower for side in SIDES})
    resumed.runner.run(stop_after_turn=turns)
    if resumed.runner.log != session.runner.log:
        at = first_difference(resumed.runner.log, session.runner.log)
        raise Disagreement(f"resumed from {path.name}, the log differs at entry {at}")
    if resumed.game.state_json() != session.game.state_json():
        raise Disagreement(f"resumed from {path.name}, the game ends in another state")


def first_difference(one: list[Any], other: list[Any]) -> int:
    """The first index where two logs differ (the shorter one's length if one goes on)."""
    pairs = zip(one, other, strict=False)
    return next((i for i, (a, b) in enumerate(pairs) if a != b), min(len(one), len(other)))


def snapshot_of(session: Session) -> dict[str, Any]:
    """The ruleset's position of the game now, as it reads back from a file."""
    snapshot = session.ruleset.snapshot(session.game)
    if snapshot is None:
        raise Disagreement(f"{session.ruleset.id} keeps no positions")
    return json.loads(json.dumps(snapshot, allow_nan=False))


def restored(session: Session, at: int, snapshot: dict[str, Any], upto: int) -> Runner:
    """A runner standing at the position `snapshot` (taken where the log had `at` entries)
    with the game's log after it replayed up to entry `upto`: nothing before `at` replayed."""
    keeper = position.keeper(session.ruleset, session.setup, session.options)
    runner = Runner(None, RngDice(session.seed), keeper=keeper, start=False)
    log = bare(session.runner.log)
    log[at] = {**log[at], position.KEY: snapshot}
    runner.restart(log[:upto])
    if runner.restored_at != at:
        raise Disagreement(f"the game was not restored at the position of entry {at}")
    return runner


def positions_match(session: Session, taken: dict[int, dict[str, Any]], rng: random.Random) -> None:
    """At every turn's start, a game made from the position there plays on as the game did:
    the same entries up to the next turn's start, where it stands at the same position; and
    from one turn's position, chosen at random, the same log to the end, in the same state."""
    live = bare(session.runner.log)
    places = sorted(at for at in taken if at < len(live))
    if not places:
        return
    for at, after in zip(places, [*places[1:], len(live)], strict=True):
        runner = restored(session, at, taken[at], after)
        if bare(runner.log) != live[:after]:
            found = first_difference(bare(runner.log), live[:after])
            raise Disagreement(f"played on from the position at entry {at}, entry {found} differs")
        if after in taken and snapshot_of_runner(session, runner) != taken[after]:
            raise Disagreement(
                f"played on from the position at entry {at}, the next turn's position differs"
            )
    at = rng.choice(places)
    runner = restored(session, at, taken[at], len(live))
    if bare(runner.log) != live or runner.game.state_json() != session.game.state_json():
        raise Disagreement(f"played on from the position at entry {at}, the game ends otherwise")


def snapshot_of_runner(session: Session, runner: Runner) -> dict[str, Any]:
    snapshot = session.ruleset.snapshot(runner.game)
    return json.loads(json.dumps(snapshot, allow_nan=False))


def bare(log: list[Any]) -> list[dict[str, Any]]:
    """A log without the positions its runner chose to keep (a restored runner keeps its own)."""
    return [{k: v for k, v in e.items() if k != position.KEY} for e in log]
