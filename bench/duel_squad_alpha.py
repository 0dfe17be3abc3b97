"""Squad Alpha's bot against the bot that weighed the whole move menu, sides swapped; or, with
`--approach W`, against itself walking toward the enemy harder.

Until 30 Nov 2026 the bot chose a move among every entry of the menu a person sees plus the
ring of legal spots; it now weighs its own short list (`bot.move_spots`) and the menu is
built only when someone reads it. This plays seeded games between the two (each seed twice,
each bot on each side; the dice of a seed are the same both times) and counts the wins.

`--approach W` plays today's bot instead against one that values every inch walked toward
the nearest enemy at W (`bot.APPROACH` is 0.025): whether a miniature that stands hidden
with an enemy within two moves (bench/idle.py) would do better closing on it (issue 24).

    python bench/duel_squad_alpha.py --seeds 1-500
    python bench/duel_squad_alpha.py --seeds 1-200 --approach 0.1
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import duels  # noqa: E402
from wargame_cli.rulesets.squad_alpha import bot  # noqa: E402
from wargame_cli.rulesets.squad_alpha.movement import destinations, legal_ring  # noqa: E402

NOW = bot.move_spots
SPOT_VALUE = bot._spot_value


def whole_menu(state, mini):  # type: ignore[no-untyped-def]
    """The old bot's spots: every menu entry, then the ring."""
    return [d.point for d in destinations(state, mini)] + legal_ring(state, mini)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--approach", type=float, help="the other bot's weight per inch closer")
    chosen, given, args = duels.arguments("", parser)
    ruleset, options, teams, names = duels.match("squad-alpha", given)
    new_side = ["A"]
    if args.approach is None:
        bot.move_spots = lambda state, mini: (  # type: ignore[assignment]
            NOW(state, mini) if mini.side == new_side[0] else whole_menu(state, mini)
        )
        duels.duel(ruleset, options, teams, names, chosen, new_side, "whole menu")
        return
    more = args.approach - bot.APPROACH

    def closer(state, mini, p, step):  # type: ignore[no-untyped-def]
        """The other bot's value of a spot: each inch nearer the enemy worth W."""
        value = SPOT_VALUE(state, mini, p, step)
        if mini.side != new_side[0]:
            value -= more * bot.nearest_walk(state, mini, p)
        return value

    bot._spot_value = closer
    duels.duel(ruleset, options, teams, names, chosen, new_side, f"approach {args.approach:g}")


if __name__ == "__main__":
    main()
