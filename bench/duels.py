"""What the bot duels in bench/ share: the seeds argument and a ruleset's default match-up."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame_cli import registry  # noqa: E402
from wargame_cli.ruleset import SIDES, resolve_options  # noqa: E402


def seeds(description: str) -> range:
    """`--seeds FIRST-LAST` from the command line, as a range."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--seeds", default="1-100", help="a range of seeds, e.g. 1-500")
    first, last = (int(v) for v in parser.parse_args().seeds.split("-"))
    return range(first, last + 1)


def match(ruleset_id: str) -> tuple[Any, dict[str, Any], dict[str, Any], dict[str, str]]:
    """The ruleset, its default options, and its default teams and names for both sides."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
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
    print(
        f"{games} games: now {score['now']}, {old} {score[old]}, "
        f"draws {score['draw']} (now wins {score['now'] / games:.1%}); "
        f"{time.process_time() - started:.0f} s CPU"
    )
