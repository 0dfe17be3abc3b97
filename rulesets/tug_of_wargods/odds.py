"""Exact odds for Tug of WarGods (`wargame simulate tug-of-wargods --exact / --matrix`).

A game is a Markov chain: the positions and crossings of both columns after each turn depend
only on the positions and crossings before it and on the difference of the two totals. The
chain's states are built with the rules' own `new_state`, and every transition is made by the
rules' own `resolve` (a12-a18), the function every game turn goes through. Two facts of the
turn itself (a11-a16) shape the chain: the higher total pulls, and equal totals move nobody
(a15), so a tie is a turn that stays put. The tie penalty (a16) is taken from both totals
alike (a12), stacking or not, so it never changes the difference: the chain needs no penalty
state (the Monte Carlo tests play `tie_penalty_stacks` games to check it).

The probability of each difference comes from convolving the dice (a2, a11). The absorbing
chain is solved by Gaussian elimination for each side's chance and the expected game length.
`chance_from_state` solves the same chain from any position of a game in progress (live play,
replays, `simulate --exact --from SAVE`).
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations_with_replacement
from typing import TYPE_CHECKING, Any

from wargame_cli.rulesets.tug_of_wargods import teams
from wargame_cli.rulesets.tug_of_wargods.rules import Team, TugState, new_state, resolve

from wargame_cli.kit.dice_odds import sum_counts as sum_counts  # the dice's sums (a2, a11)
from wargame_cli.kit.dice_odds import sum_of
from wargame_cli.kit.sides import SIDES

if TYPE_CHECKING:
    from wargame_cli.ruleset import ExactPoints

Key = tuple[tuple[float, int], ...]  # (distance, crossings) of every model, A's then B's


@dataclass(frozen=True)
class Exact:
    """Each side's chance of winning and the expected number of turns (ties included)."""

    a: float
    b: float
    turns: float


@dataclass(frozen=True)
class Matrix:
    """`p[i][j]`: the chance that pool `i` (side A) beats pool `j` (side B)."""

    pools: list[tuple[int, ...]]
    examples: list[list[str]]
    p: list[list[float]]

    @property
    def labels(self) -> list[str]:
        return [" ".join(f"d{d}" for d in pool) for pool in self.pools]

    def strength(self, i: int) -> float:
        """Pool `i`'s mean chance against every pool: the order of the tier list."""
        return sum(self.p[i]) / len(self.p[i])


def difference_odds(dice_a: Iterable[int], dice_b: Iterable[int]) -> dict[int, Fraction]:
    """P(A's sum - B's sum = d): the penalty (a16) is the same on both totals."""
    return sum_of(dice_a).plus(sum_of(dice_b).negated()).chances()


# -- the chain's states and transitions, made by the rules' functions -------------------------
def _key(state: TugState) -> Key:
    return tuple(
        (team.distance(i), count)
        for side in SIDES
        for team in (state.sides[side],)
        for i, count in enumerate(team.crossings)
    )


def _copy(state: TugState) -> TugState:
    sides = {
        side: Team(t.name, t.units, t.dice, t.front, t.spacing, list(t.crossings), t.penalty)
        for side, t in state.sides.items()
    }
    return TugState(sides=sides, options=state.options)


def pull(state: TugState, difference: int) -> TugState | str:
    """The state after a turn whose totals differ by `difference` (A's minus B's, not 0), or
    the winning side when the pulled team has lost: the rules' own `resolve` (a13-a18), fed
    totals with that difference. The chain's states carry no tie penalty (see above)."""
    after = _copy(state)
    turn = resolve(after, max(difference, 0), max(-difference, 0))
    return turn.win[0] if turn.win else after


class Chain:
    """The states reachable from the start of a game of `size` models a side and their moves,
    for one geometry (start, spacing, rounding); shared by every match-up of a matrix."""

    def __init__(
        self, options: dict[str, Any], size: int = teams.TEAM_SIZE, start: TugState | None = None
    ) -> None:
        if start is None:
            units = [f"m{i}" for i in range(size)]
            start = new_state(
                {"A": "A", "B": "B"},
                {"A": units, "B": units},
                dict.fromkeys(units, 6),  # the chain never looks at the dice
                options,
            )
        self.keys: list[Key] = []
        self.states: list[TugState] = []
        self.index: dict[Key, int] = {}
        self.moves: list[dict[int, int | str]] = []  # state -> difference -> state or winner
        self.add(start)

    def add(self, state: TugState) -> int:
        """The index of `state`'s position (its models' distances and crossings), added to
        the chain if no game reached it from the start yet."""
        key = _key(state)
        known = self.index.get(key)
        if known is not None:
            return known
        copy = _copy(state)
        for team in copy.pair:
            team.penalty = 0  # the chain's states carry no tie penalty (see `pull`)
        self.index[key] = len(self.keys)
        self.keys.append(key)
        self.states.append(copy)
        self.moves.append({})
        return self.index[key]

    def move(self, i: int, difference: int) -> int | str:
        """Where state `i` goes on `difference`: a state index, or "A"/"B" for a win."""
        known = self.moves[i].get(difference)
        if known is not None:
            return known
        if difference == 0:  # a15: nobody moves
            target: int | str = i
        else:
            after = pull(self.states[i], difference)
            target = after if isinstance(after, str) else self.add(after)
        self.moves[i][difference] = target
        return target

    def solve(self, odds: dict[int, Fraction], start: int = 0) -> Exact:
        """P(A wins) and E(turns) from state `start` (the deployment by default)."""
        a_wins, turns = self.values(odds, [start])[start]
        return Exact(a=a_wins, b=1.0 - a_wins, turns=turns)

    def values(
        self, odds: dict[int, Fraction], starts: list[int]
    ) -> dict[int, tuple[float, float]]:
        """Explore the states these odds reach from `starts`, then solve for P(A wins) and
        E(turns) in each of them."""
        weights = [(d, float(p)) for d, p in odds.items()]
        starts = list(dict.fromkeys(starts))
        reached, order, seen = list(starts), list(starts), set(starts)
        while reached:
            i = reached.pop()
            for d, _ in weights:
                target = self.move(i, d)
                if isinstance(target, int) and target not in seen:
                    seen.add(target)
                    order.append(target)
                    reached.append(target)
        where = {state: row for row, state in enumerate(order)}
        n = len(order)
        # (I - Q) x = b, two right-hand sides: A wins, and the turns still to play.
        rows: list[list[float]] = []
        for state in order:
            row = [0.0] * (n + 2)
            row[where[state]] += 1.0
            row[n + 1] = 1.0
            moves = self.moves[state]
            for d, p in weights:
                target = moves[d]
                if target == "A":
                    row[n] += p
                elif isinstance(target, int):  # a state; "B" (B wins) adds nothing
                    row[where[target]] -= p
            rows.append(row)
        return dict(zip(order, _gauss(rows, n), strict=True))


def _gauss(rows: list[list[float]], n: int) -> list[tuple[float, float]]:
    """Gaussian elimination; returns every unknown for both right-hand sides. I - Q of an
    absorbing chain is a non-singular M-matrix, so no pivoting is needed for stability."""
    for k in range(n):
        top = rows[k]
        head = top[k]
        tail = top[k:]
        for r in range(k + 1, n):
            row = rows[r]
            factor = row[k] / head
            if factor:
                row[k:] = [x - factor * y for x, y in zip(row[k:], tail, strict=True)]
    solution = [(0.0, 0.0)] * n
    for k in range(n - 1, -1, -1):
        row = rows[k]
        wins, turns = row[n], row[n + 1]
        for j in range(k + 1, n):
            if row[j]:
                wins -= row[j] * solution[j][0]
                turns -= row[j] * solution[j][1]
        solution[k] = (wins / row[k], turns / row[k])
    return solution


@cache
def _chain(start: float, spacing: float, rounding: str) -> Chain:
    return Chain({"start": start, "spacing": spacing, "rounding": rounding})


def chain_for(options: dict[str, Any]) -> Chain:
    return _chain(float(options["start"]), float(options["spacing"]), options["rounding"])


def pool(team: Any) -> tuple[int, ...]:
    """A team's dice, largest first (the order of the column does not change the odds)."""
    cat = teams.catalogue()
    return tuple(sorted((cat.unit(m).die for m in team["models"]), reverse=True))


def exact(team_a: Any, team_b: Any, options: dict[str, Any]) -> Exact:
    """The exact chances of two teams (the ruleset's JSON team form)."""
    return chain_for(options).solve(difference_odds(pool(team_a), pool(team_b)))


def legal_pools(options: dict[str, Any]) -> tuple[list[tuple[int, ...]], list[list[str]]]:
    """Every dice pool some legal team has (team limits as the options set them), strongest
    dice first, with one such team each."""
    cat = teams.catalogue()
    found: dict[tuple[int, ...], list[str]] = {}
    for models in combinations_with_replacement(list(cat.units), teams.TEAM_SIZE):
        dice = tuple(sorted((cat.units[m].die for m in models), reverse=True))
        if dice not in found and not teams.problems(list(models), options):
            found[dice] = list(models)
    pools = sorted(found, reverse=True)
    return pools, [found[p] for p in pools]


def matrix(options: dict[str, Any]) -> Matrix:
    """Every legal pool against every other (as side A against side B). The rules treat the
    two sides alike, so pool j against pool i is the complement of i against j (a test checks
    it); that halves the work."""
    pools, examples = legal_pools(options)
    chain = chain_for(options)
    n = len(pools)
    p = [[0.5] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            p[i][j] = chain.solve(difference_odds(pools[i], pools[j])).a
            if j != i:
                p[j][i] = 1.0 - p[i][j]
    return Matrix(pools=pools, examples=examples, p=p)


def chance_from_state(state: TugState, options: dict[str, Any] | None = None) -> dict[str, float]:
    """Each side's exact chance of winning from a game's position: `{"A", "B", "draw"}`.
    A Tug game never ends drawn (a19), so "draw" is 0."""
    found = exact_from_state(state, options)
    return {"A": found.a, "B": found.b, "draw": 0.0}


def exact_from_state(state: TugState, options: dict[str, Any] | None = None) -> Exact:
    """Each side's exact chance from a game's position, and the expected turns still to play.

    The position is every model's distance and crossings, and the pending tie penalty (a16).
    The rules keep both teams' penalties equal, which leaves the odds as they are; a position
    where they differ is still solved exactly: the first turn's totals differ by the penalty
    gap, and a tie there keeps the gap (stacking) or evens it (not stacking).
    """
    options = options if options is not None else state.options
    if state.winner is not None:
        return Exact(a=float(state.winner == "A"), b=float(state.winner == "B"), turns=0.0)
    side_a, side_b = state.sides["A"], state.sides["B"]
    sizes = {len(side_a.units), len(side_b.units)}
    if sizes == {teams.TEAM_SIZE} and side_a.spacing == side_b.spacing == float(options["spacing"]):
        chain = chain_for(options)
    else:  # a position the shared chain cannot hold: a chain of its own
        chain = Chain(options, start=state)
    here = chain.add(state)
    dist = difference_odds(side_a.dice, side_b.dice)
    gap = side_b.penalty - side_a.penalty  # A's total minus B's gains the gap
    if gap == 0:
        a_wins, turns = chain.values(dist, [here])[here]
    else:
        first = {d: chain.move(here, d + gap) for d in dist if d + gap}
        starts = [here, *(t for t in first.values() if isinstance(t, int))]
        values = chain.values(dist, starts)
        ends = {"A": (1.0, 0.0), "B": (0.0, 0.0)}
        wins = turns = 0.0
        for d, target in first.items():
            after = ends[target] if isinstance(target, str) else values[target]
            wins += float(dist[d]) * after[0]
            turns += float(dist[d]) * after[1]
        tie = float(dist.get(-gap, 0))
        if options["tie_penalty_stacks"]:  # the gap stays: the same position again
            a_wins, turns = wins / (1.0 - tie), (1.0 + turns) / (1.0 - tie)
        else:  # both at -1: the gap is gone
            a_wins = wins + tie * values[here][0]
            turns = 1.0 + turns + tie * values[here][1]
    a_wins = min(1.0, max(0.0, a_wins))
    return Exact(a=a_wins, b=1.0 - a_wins, turns=turns)


def chance_line(state: TugState) -> str:
    """`Greentoe 73% · Clearsky 27%`: each side's exact chance, for the screen."""
    from wargame_cli.simulate.chances import line

    return line(chance_from_state(state), {s: state.sides[s].name for s in SIDES})


def exact_points(options: dict[str, Any], changes: dict[str, dict[str, Any]]) -> ExactPoints:
    """Each unit's points are its die's sides, where exact odds settle it: two teams whose dice
    have the same total sides win exactly half the games each. Every face of a die is as
    likely as its mirror face, so each team's total is symmetric about (sides + models) / 2;
    equal sides and equal models give a difference symmetric about 0, and the two columns play
    alike. Checked here by the chain over every pair of legal pools with equal totals."""
    from wargame_cli.ruleset import ExactPoints

    pairs, gap, spread = _checked(json.dumps(options, sort_keys=True))
    cat = teams.catalogue()
    points = {name: float(unit.die) for name, unit in cat.units.items()}
    for name, stats in changes.items():
        if "die" in stats:
            points[name] = float(stats["die"])
    even = gap < 1e-9
    statement = (
        "exact: a unit's points are its die's sides. Two teams with the same total die sides "
        "win exactly 50% each (every face of a die is as likely as its mirror face, so equal "
        "totals give a difference of totals symmetric about 0)"
        + (
            f"; checked by the exact odds over all {pairs} pairs of legal pools with equal "
            f"totals (the largest gap from 50% is {gap:.1e})"
            if even
            else f"; but the exact odds find a gap of {gap:.3f} from 50% under these options"
        )
        + ". Between unequal totals the total alone does not settle the chance: "
        + spread
    )
    return ExactPoints(points=points, statement=statement)


@cache
def _checked(key: str) -> tuple[int, float, str]:
    """For the options `key` holds (as JSON, to be cached by): how many pairs of legal pools
    have equal totals, the largest gap from 50% the chain finds among them, and how far
    pools of one total fare apart (once a process: about a second of solving)."""
    options = json.loads(key)
    pools, _ = legal_pools(options)
    chain = chain_for(options)
    by_total: dict[int, list[tuple[int, ...]]] = {}
    for found in pools:
        by_total.setdefault(sum(found), []).append(found)
    pairs, gap = 0, 0.0
    for group in by_total.values():
        for i, first in enumerate(group):
            for second in group[i:]:
                pairs += 1
                gap = max(gap, abs(chain.solve(difference_odds(first, second)).a - 0.5))
    return pairs, gap, _spread_words(pools, chain)


def _spread_words(pools: list[tuple[int, ...]], chain: Chain) -> str:
    """How far apart pools of the same total fare against the same opponent (the strongest,
    middle and weakest pools: enough to show it, at a tenth of the cost of them all)."""
    spread, example = 0.0, ""
    against = sorted({pools[0], pools[len(pools) // 2], pools[-1]})
    chances = {(a, b): chain.solve(difference_odds(a, b)).a for a in pools for b in against}
    for a in pools:
        for other in pools:
            if other <= a or sum(other) != sum(a):
                continue
            for b in against:
                gap = abs(chances[(a, b)] - chances[(other, b)])
                if gap > spread:
                    spread = gap
                    example = (
                        f"{_dice(a)} and {_dice(other)} (both {sum(a)} sides) differ by "
                        f"{100 * gap:.1f} points against {_dice(b)}"
                    )
    return example + "." if example else "every pool of a total fares alike here."


def _dice(found: tuple[int, ...]) -> str:
    return "+".join(f"d{d}" for d in found)
