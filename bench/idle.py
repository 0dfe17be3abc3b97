"""How often a tabletop bot idles: the share of standing model-turns that end with no enemy in
reach while one is within two moves, over seeded bot-vs-bot games, for each tabletop ruleset.

A model (a Squad Alpha miniature, an Ixu warrior, a Mobs and Morale creature, a Seeds of Wars
unit) is looked at when its own turn ends: after its activation (Squad Alpha), its unit's
turn (Mobs and Morale), or its side's movement (Ixu's movement phase, Seeds of Wars' movement
step). It counts when an enemy stands within two of its moves (the gap between bases as it
walks, round impassable terrain; or spaces on the grid); of those it idles when nothing is
in reach: no enemy in melee reach (base contact, a creature's reach or range, the same
space), and for a shooter no target either (Squad Alpha: an enemy in line of sight; Seeds of
Wars: one in an adjacent space).
Of the idle ones the figures also count those that closed on the nearest enemy by less than
an inch (a space) and those that did not move at all. A turn the model spent (it attacked,
even if its target fell; Squad Alpha's action test failed: the dice's, not the bot's) is not
idle.

    python bench/idle.py --seeds 1-100
    python bench/idle.py --seeds 1-100 --rulesets mobs-and-morale --option table=ford
"""

from __future__ import annotations

import argparse
import math
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame_cli import registry  # noqa: E402
from wargame_cli.engine.fast import face_source, play_fast, stream_seed  # noqa: E402
from wargame_cli.engine.requests import Event  # noqa: E402
from wargame_cli.ruleset import SIDES, Setup, resolve_options  # noqa: E402
from wargame_cli.tabletop.movement import Body, gap  # noqa: E402
from wargame_cli.tabletop.paths import path_distance  # noqa: E402

RULESETS = ("squad-alpha", "battle-of-ixu", "mobs-and-morale", "seeds-of-wars")


@dataclass
class Tally:
    """Model-turns counted (an enemy within two moves), idle (nothing in reach), and of the
    idle ones those that closed by less than `CLOSER` (stood, or shuffled) and those that did
    not move at all."""

    counted: int = 0
    idle: int = 0
    stuck: int = 0
    still: int = 0

    def add(self, within: bool, idle: bool, closed: float, moved: bool) -> None:
        if within:
            self.counted += 1
            self.idle += idle
            self.stuck += idle and closed < CLOSER
            self.still += idle and not moved

    def line(self) -> str:
        n = max(1, self.counted)
        return (
            f"{self.idle} of {self.counted} model-turns idle ({self.idle / n:.1%}); "
            f"closing by less than {CLOSER:g} {self.stuck} ({self.stuck / n:.1%}); "
            f"not moving {self.still} ({self.still / n:.1%})"
        )


CLOSER = 1.0  # an inch, or a space on Seeds of Wars' grid
# (state, model) -> (the gap to the nearest enemy, whether it is within two moves, in reach)
Look = Callable[[Any, Any], tuple[float, bool, bool]]


def _watch(
    phase: Callable[..., Any],
    models: Callable[..., list[Any]],
    where: Callable[[Any], Any],
    look: Look,
    tally: Tally,
    spent: Callable[[Event], bool] = lambda e: False,
) -> Callable[..., Any]:
    """`phase` (a generator function over the state), looking at `models(*args)` when it ends.
    A turn with an Event that `spent` says used it (an attack, even if its target fell; a
    failed action test: the dice's, not the bot's) is not idle."""

    def watched(*args: Any, **kwargs: Any) -> Any:
        state = args[0]
        before = [(m, where(m), look(state, m)[0]) for m in models(*args)]
        gen, used = phase(*args, **kwargs), False
        try:
            request = next(gen)
            while True:
                used = used or (isinstance(request, Event) and spent(request))
                request = gen.send((yield request))
        except StopIteration as stop:
            result = stop.value
        for m, was, then in before:
            if where(m) is not None and _standing(m):
                now, within, reach = look(state, m)
                tally.add(within, not reach and not used, then - now, where(m) != was)
        return result

    return watched


def walking_gap(table: Any, a: Body, b: Body) -> float:
    """The gap between two bases as a model walks it, round impassable terrain (a river, a
    wall), not through it: "within two moves" and "closing" are measured with it."""
    straight = gap(a, b)
    walk = path_distance(table, a.pos, b.pos, a.radius) - a.radius - b.radius
    return max(straight, walk)


def _nearest(table: Any, body: Body, enemies: list[Body]) -> float:
    return min((walking_gap(table, body, e) for e in enemies), default=math.inf)


@contextmanager
def _swapped(module: Any, name: str, value: Any) -> Iterator[None]:
    """`module.name` is `value` inside the block (the rules then call the watched phase)."""
    was = getattr(module, name)
    setattr(module, name, value)
    try:
        yield
    finally:
        setattr(module, name, was)


def _standing(model: Any) -> bool:
    """Still in the game (each ruleset's own word for it)."""
    for name in ("active", "standing", "fighting"):
        value = getattr(model, name, None)
        if value is not None:
            return bool(value() if callable(value) else value)
    return True


# -- Squad Alpha: after each miniature's activation ------------------------------------------


@contextmanager
def _squad_alpha(tally: Tally) -> Iterator[None]:
    from wargame_cli.rulesets.squad_alpha import turn
    from wargame_cli.rulesets.squad_alpha.movement import MOVE_INCHES

    from wargame_cli.tabletop.sight import line_of_sight

    def look(state: Any, mini: Any) -> tuple[float, bool, bool]:
        enemies = state.enemies(mini.side)
        near = _nearest(state.table, state.body(mini), [state.body(e) for e in enemies])
        seen = any(line_of_sight(state.table, mini.at, e.at) for e in enemies)
        return near, near <= 2 * MOVE_INCHES, bool(state.contacts(mini)) or seen

    def spent(e: Event) -> bool:
        return e.kind in ("shot", "melee") or (e.kind == "test" and not e.data["passed"])

    watched = _watch(turn.activate, lambda s, m: [m], lambda m: m.pos, look, tally, spent)
    with _swapped(turn, "activate", watched):
        yield


# -- Battle of Ixu: after the movement phase -------------------------------------------------


@contextmanager
def _battle_of_ixu(tally: Tally) -> Iterator[None]:
    from wargame_cli.rulesets.battle_of_ixu import rules

    def look(state: Any, w: Any) -> tuple[float, bool, bool]:
        near = _nearest(state.table, w.body(), [e.body() for e in state.enemies(w)])
        return near, near <= 2 * int(state.options["die"]), bool(state.engaged(w))

    phase = dict(rules.PHASES)["movement"]
    watched = _watch(phase, lambda s: s.standing(), lambda w: w.pos, look, tally)
    with _swapped(
        rules, "PHASES", tuple((n, watched if p is phase else p) for n, p in rules.PHASES)
    ):
        yield


def _attack(e: Event) -> bool:
    return e.kind == "attack"


# -- Mobs and Morale: after each character's or mob's turn -----------------------------------


@contextmanager
def _mobs_and_morale(tally: Tally) -> Iterator[None]:
    from wargame_cli.rulesets.mobs_and_morale import rules

    from wargame_cli.kit.sides import other

    def look(b: Any, c: Any) -> tuple[float, bool, bool]:
        enemies = b.standing(other(c.side))
        near = _nearest(b.table, c.body(), [e.body() for e in enemies])
        reach = b.options["reach"]
        return near, near <= 2 * c.move, any(c.in_range(e, reach) for e in enemies)

    def models(b: Any, unit: str, *_: Any) -> list[Any]:
        return [c for c in b.unit_figures(unit) if c.standing]

    watched = _watch(rules.take_turn, models, lambda c: c.pos, look, tally, _attack)
    with _swapped(rules, "take_turn", watched):
        yield


# -- Seeds of Wars: after the movement step --------------------------------------------------


@contextmanager
def _seeds_of_wars(tally: Tally) -> Iterator[None]:
    from wargame_cli.rulesets.seeds_of_wars import rules
    from wargame_cli.rulesets.seeds_of_wars.combat import shot_targets
    from wargame_cli.rulesets.seeds_of_wars.state import ROUTED

    def look(battle: Any, unit: Any) -> tuple[float, bool, bool]:
        board, here = battle.board, unit.space
        enemies = battle.fighting(rules.other(unit.side))
        near = min((board.distance(here, e.space) for e in enemies), default=math.inf)
        if unit.state == ROUTED or unit.kind.mv <= 0:
            return near, False, False  # it cannot choose to close
        shoots = unit.kind.ra is not None and bool(shot_targets(battle, unit))
        return near, near <= 2 * unit.kind.mv, battle.engaged(unit) or shoots

    step = rules._movement
    watched = _watch(step, lambda b: list(b.fighting()), lambda u: u.space, look, tally)
    with _swapped(rules, "ROUND", tuple(watched if s is step else s for s in rules.ROUND)):
        yield


PROBES = {
    "squad-alpha": _squad_alpha,
    "battle-of-ixu": _battle_of_ixu,
    "mobs-and-morale": _mobs_and_morale,
    "seeds-of-wars": _seeds_of_wars,
}


def measure(ruleset_id: str, seeds: range, given: list[str]) -> tuple[Tally, dict[str, int]]:
    """The tally over `seeds` (the default match-up, bots on both sides), and the wins."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, given or None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    tally, wins = Tally(), {"A": 0, "B": 0, "draw": 0}
    with PROBES[ruleset_id](tally):
        for seed in seeds:
            game = ruleset.new_game(Setup(names=names, teams=teams), options)
            winner = play_fast(game, face_source(stream_seed(seed, 7))).outcome.winner
            wins[winner or "draw"] += 1
    return tally, wins


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-100", help="a range of seeds, e.g. 1-200")
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE")
    args = parser.parse_args()
    first, last = (int(v) for v in args.seeds.split("-"))
    for rid in args.rulesets.split(","):
        tally, wins = measure(rid, range(first, last + 1), args.option)
        extra = f" ({', '.join(args.option)})" if args.option else ""
        won = f"wins A {wins['A']}, B {wins['B']}, draws {wins['draw']}"
        print(f"{rid}{extra}: {tally.line()}; {won}")


if __name__ == "__main__":
    main()
