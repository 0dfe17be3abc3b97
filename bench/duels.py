"""What the bot duels in bench/ share: the seeds argument and a ruleset's default match-up."""

from __future__ import annotations

import argparse
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame_cli import registry  # noqa: E402
from wargame_cli.ruleset import SIDES, resolve_options  # noqa: E402


def seeds(description: str) -> range:
    """`--seeds FIRST-LAST` from the command line, as a range."""
    return arguments(description)[0]


def arguments(
    description: str, parser: argparse.ArgumentParser | None = None
) -> tuple[range, list[str], argparse.Namespace]:
    """`--seeds FIRST-LAST` as a range, the `--option KEY=VALUE` given, and all the
    arguments (`parser`: one with a script's own arguments added)."""
    parser = parser or argparse.ArgumentParser(description=description)
    parser.add_argument("--seeds", default="1-100", help="a range of seeds, e.g. 1-500")
    parser.add_argument("--option", action="append", default=[], help="KEY=VALUE")
    args = parser.parse_args()
    first, last = (int(v) for v in args.seeds.split("-"))
    return range(first, last + 1), args.option, args


def match(
    ruleset_id: str, given: list[str] | None = None
) -> tuple[Any, dict[str, Any], dict[str, Any], dict[str, str]]:
    """The ruleset, its options (the defaults, overlaid with `given` KEY=VALUE strings), and
    its default teams and names for both sides."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, given or None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    return ruleset, options, teams, names


def duel(
    ruleset: Any,
    options: dict[str, Any],
    teams: dict[str, Any],
    names: dict[str, str],
    chosen: range,
    new_side: list[str],
    old: str,
) -> None:
    """Each seed twice, today's bot on each side in turn (`new_side[0]`, read by the patched
    bot), the same dice both times; prints the wins."""
    import time
    from collections import Counter

    from wargame_cli.engine.fast import face_source, play_fast, stream_seed
    from wargame_cli.ruleset import Setup

    score: Counter[str] = Counter()
    started = time.process_time()
    for seed in chosen:
        for side in SIDES:
            new_side[:] = [side]
            game = ruleset.new_game(Setup(names=names, teams=teams), options)
            winner = play_fast(game, face_source(stream_seed(seed, 7))).outcome.winner
            score["now" if winner == side else old if winner else "draw"] += 1
    games = sum(score.values())
    low, high = wilson(score["now"], score["now"] + score[old])
    print(
        f"{games} games: now {score['now']}, {old} {score[old]}, "
        f"draws {score['draw']} (now wins {score['now'] / games:.1%}; of the decided games "
        f"{score['now'] / max(1, games - score['draw']):.1%}, 95% interval {low:.1%}-{high:.1%}); "
        f"{time.process_time() - started:.0f} s CPU"
    )


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a share of wins (95% by default)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def levels(
    ruleset_id: str, chosen: range, new: str, old: str = "default", budget: list[str] | None = None
) -> dict[str, Any]:
    """Bot levels pitted against each other: each seed twice, `new` on each side in turn
    (the same game seed both times), through the real runner (the search clones positions;
    `budget`: KEY=VALUE fields of its `Budget`, to try others than the default);
    prints and returns the wins, the share of decided games and the search's seconds per
    decision (process time of its own decisions)."""
    import time
    from collections import Counter

    from wargame_cli.bots.base import controller
    from wargame_cli.engine.session import default_setup, start

    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    score: Counter[str] = Counter()
    seats: Counter[str] = Counter()
    decisions, seconds = 0, 0.0
    started = time.perf_counter()
    for seed in chosen:
        for side in SIDES:
            other = next(s for s in SIDES if s != side)
            bots = {side: _controller(ruleset, new, budget), other: controller(ruleset, old)}
            session = start(ruleset, default_setup(ruleset, options), options, seed, None, bots)
            session.runner.run()
            winner = session.winner
            score["new" if winner == side else "old" if winner else "draw"] += 1
            if winner == side:
                seats[side] += 1
            policy = bots[side].policy
            decisions += getattr(policy, "decisions", 0)
            seconds += getattr(policy, "seconds", 0.0)
    games = sum(score.values())
    decided = score["new"] + score["old"]
    low, high = wilson(score["new"], decided)
    figures = {
        "ruleset": ruleset_id,
        "games": games,
        "new": score["new"],
        "old": score["old"],
        "draws": score["draw"],
        "share": score["new"] / max(1, decided),
        "interval": (low, high),
        "wins_as_A": seats["A"],
        "wins_as_B": seats["B"],
        "per_decision": seconds / max(1, decisions),
        "wall": time.perf_counter() - started,
    }
    print(
        f"{ruleset_id}: {new} vs {old}, {games} games (seeds {chosen.start}-{chosen.stop - 1}, "
        f"both seats): {new} {score['new']} (as A {seats['A']}, as B {seats['B']}), {old} "
        f"{score['old']}, draws {score['draw']}; {new} wins {figures['share']:.0%} of decided "
        f"games (95% interval {low:.0%}-{high:.0%}); {figures['per_decision']:.2f} s per "
        f"{new} decision; {figures['wall']:.0f} s",
        flush=True,
    )
    return figures


def _controller(ruleset: Any, level: str, budget: list[str] | None) -> Any:
    """A level's controller; the search with `budget`'s fields changed, when given."""
    from wargame_cli.bots.base import PolicyController, controller
    from wargame_cli.bots.search import Budget, SearchPolicy

    if level != "search" or not budget:
        return controller(ruleset, level)
    fields = {k: float(v) if "." in v else int(v) for k, v in (b.split("=") for b in budget)}
    return PolicyController(SearchPolicy(ruleset, Budget(**fields)), level)  # type: ignore[arg-type]


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Bot levels against each other.")
    parser.add_argument("ruleset")
    parser.add_argument("--new", default="search")
    parser.add_argument("--old", default="default")
    parser.add_argument("--budget", action="append", default=[], help="search Budget KEY=VALUE")
    first_seeds, _, parsed = arguments("Bot levels against each other.", parser)
    levels(parsed.ruleset, first_seeds, parsed.new, parsed.old, parsed.budget)
