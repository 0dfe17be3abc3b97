"""Squad Alpha's bot against the bot that weighed the whole move menu, sides swapped.

Until 30 Nov 2026 the bot chose a move among every entry of the menu a person sees plus the
ring of legal spots; it now weighs its own short list (`bot.move_spots`) and the menu is
built only when someone reads it. This plays seeded games between the two (each seed twice,
each bot on each side; the dice of a seed are the same both times) and counts the wins.

    python bench/duel_squad_alpha.py --seeds 1-500
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import duels  # noqa: E402
from wargame_cli.rulesets.squad_alpha import bot  # noqa: E402
from wargame_cli.rulesets.squad_alpha.movement import destinations, legal_ring  # noqa: E402

NOW = bot.move_spots


def whole_menu(state, mini):  # type: ignore[no-untyped-def]
    """The old bot's spots: every menu entry, then the ring."""
    return [d.point for d in destinations(state, mini)] + legal_ring(state, mini)


def main() -> None:
    chosen = duels.seeds(__doc__.splitlines()[0])
    ruleset, options, teams, names = duels.match("squad-alpha")
    new_side = ["A"]
    bot.move_spots = lambda state, mini: (  # type: ignore[assignment]
        NOW(state, mini) if mini.side == new_side[0] else whole_menu(state, mini)
    )
    duels.duel(ruleset, options, teams, names, chosen, new_side, "whole menu")


if __name__ == "__main__":
    main()
