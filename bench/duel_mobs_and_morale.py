"""Mobs and Morale's bot against the bot of 78ad4b3 (whose characters took the straight move
toward the nearest enemy even when a base in the way let it gain next to nothing), sides
swapped.

Since issue 24 a character whose straight move toward the enemy gains next to nothing walks
round the bases in its way to where it can fight next turn (`moves.way_round`, the shared
`tabletop/approach.py`), an enemy its friends already have in reach counting nearer: ganging
up. This plays seeded games between the two bots (each seed twice, each bot on each side; the
dice of a seed are the same both times) and counts the wins. The 78ad4b3 bot is today's with
`bot.way_round` giving None (it then moves exactly as before).

    python bench/duel_mobs_and_morale.py --seeds 1-300
    python bench/duel_mobs_and_morale.py --seeds 1-300 --option table=ford
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import duels  # noqa: E402
from wargame_cli.rulesets.mobs_and_morale import bot  # noqa: E402

NOW = bot.way_round


def main() -> None:
    chosen, given, _ = duels.arguments(__doc__.splitlines()[0])
    ruleset, options, teams, names = duels.match("mobs-and-morale", given)
    new_side = ["A"]
    bot.way_round = lambda b, c: NOW(b, c) if c.side == new_side[0] else None  # type: ignore[assignment]
    duels.duel(ruleset, options, teams, names, chosen, new_side, "78ad4b3")


if __name__ == "__main__":
    main()
