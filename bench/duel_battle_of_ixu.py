"""The Battle of Ixu's bot against the bot of ba32652 (which stood still when no straight move
got it closer to an enemy), sides swapped, and how often a model idles.

Since issue 24 a model that cannot reach a fight this turn walks round the bases in its way
to where it can next turn (`approach.py`), closes on enemies its friends already fight as if
they were nearer (`bot.by_approach`) and joins their fight even where it looks poor alone:
ganging up. This plays seeded games between the two bots (each seed twice, each bot on each
side; the dice of a seed are the same both times) and counts the wins; then, for each bot
playing both sides, the share of standing models that end their side's movement out of
contact while an enemy is within two full moves (2 x the die) of them.

The ba32652 bot here is today's with those three turned off (`bot.approach_move` giving None,
`bot.by_approach` the plain nearest-first order, `bot.friends_on` never).

    python bench/duel_battle_of_ixu.py --seeds 1-200
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import duels  # noqa: E402
from wargame_cli.rulesets.battle_of_ixu import bot, movement, rules  # noqa: E402

from wargame_cli.engine.fast import face_source, play_fast, stream_seed  # noqa: E402
from wargame_cli.ruleset import SIDES, Setup  # noqa: E402

NOW, NOW_ORDER, NOW_FRIENDS = bot.approach_move, bot.by_approach, bot.friends_on
PHASES = rules.PHASES


def idling(state: Any, before: dict[str, Any]) -> tuple[int, int, int]:
    """(out of contact, of them standing still, counted) after a movement phase: standing
    models with an enemy within two moves; those of them out of contact; those that did not
    move either (`before`: where each stood)."""
    reach = 2 * int(state.options["die"])
    idle = still = counted = 0
    for w in state.standing():
        enemies = state.enemies(w)
        if not enemies or min(state.gap_to(w, e) for e in enemies) > reach:
            continue
        counted += 1
        if not state.engaged(w):
            idle += 1
            still += before.get(w.id) == w.pos
    return idle, still, counted


def main() -> None:
    chosen = duels.seeds(__doc__.splitlines()[0])
    ruleset, options, teams, names = duels.match("battle-of-ixu")
    new_side = ["A"]
    bot.approach_move = lambda state, w: (  # type: ignore[assignment]
        NOW(state, w) if w.side in new_side else None
    )
    bot.friends_on = lambda state, w, charge: (  # type: ignore[assignment]
        w.side in new_side and NOW_FRIENDS(state, w, charge)
    )
    bot.by_approach = lambda state, w, enemies: (  # type: ignore[assignment]
        NOW_ORDER(state, w, enemies) if w.side in new_side else bot.by_gap(state, w, enemies)
    )
    duels.duel(ruleset, options, teams, names, chosen, new_side, "ba32652")
    tally = [0, 0, 0]

    def counted(state: Any) -> Any:
        before = {w.id: w.pos for w in state.standing()}
        yield from movement.movement_phase(state)
        for i, n in enumerate(idling(state, before)):
            tally[i] += n
        return None

    for who, sides in (("ba32652", []), ("now", list(SIDES))):
        new_side[:] = sides
        tally[:] = [0, 0, 0]

        rules.PHASES = tuple((n, counted if n == "movement" else p) for n, p in PHASES)
        for seed in chosen:
            game = ruleset.new_game(Setup(names=names, teams=teams), options)
            play_fast(game, face_source(stream_seed(seed, 7)))
        rules.PHASES = PHASES
        idle, still, n = tally
        print(
            f"{who} bot on both sides: {idle} of {n} model-turns with an enemy within two "
            f"moves end the movement out of contact ({idle / n:.1%}); {still} of them without "
            f"moving at all ({still / n:.1%})"
        )


if __name__ == "__main__":
    main()
