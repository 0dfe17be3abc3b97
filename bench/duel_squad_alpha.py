"""Squad Alpha's bot against the bot that weighed the whole move menu, sides swapped.

Until 30 Nov 2026 the bot chose a move among every entry of the menu a person sees plus the
ring of legal spots; it now weighs its own short list (`bot.move_spots`) and the menu is
built only when someone reads it. This plays seeded games between the two (each seed twice,
each bot on each side; the dice of a seed are the same both times) and counts the wins.

    python bench/duel_squad_alpha.py --seeds 1-500
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame_cli.rulesets.squad_alpha import bot  # noqa: E402
from wargame_cli.rulesets.squad_alpha.movement import destinations, legal_ring  # noqa: E402

from wargame_cli import registry  # noqa: E402
from wargame_cli.engine.fast import face_source, play_fast, stream_seed  # noqa: E402
from wargame_cli.ruleset import SIDES, Setup, resolve_options  # noqa: E402

NOW = bot.move_spots


def whole_menu(state, mini):  # type: ignore[no-untyped-def]
    """The old bot's spots: every menu entry, then the ring."""
    return [d.point for d in destinations(state, mini)] + legal_ring(state, mini)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-100", help="a range of seeds, e.g. 1-500")
    args = parser.parse_args()
    first, last = (int(v) for v in args.seeds.split("-"))
    ruleset = registry.get("squad-alpha")
    options = resolve_options(ruleset.options, None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    new_side = ["A"]
    bot.move_spots = lambda state, mini: (  # type: ignore[assignment]
        NOW(state, mini) if mini.side == new_side[0] else whole_menu(state, mini)
    )
    score: Counter[str] = Counter()
    started = time.process_time()
    for seed in range(first, last + 1):
        for side in SIDES:
            new_side[0] = side
            game = ruleset.new_game(Setup(names=names, teams=teams), options)
            winner = play_fast(game, face_source(stream_seed(seed, 7))).outcome.winner
            score["now" if winner == side else "whole menu" if winner else "draw"] += 1
    games = sum(score.values())
    print(
        f"{games} games: now {score['now']}, whole menu {score['whole menu']}, "
        f"draws {score['draw']} (now wins {score['now'] / games:.1%}); "
        f"{time.process_time() - started:.0f} s CPU"
    )


if __name__ == "__main__":
    main()
