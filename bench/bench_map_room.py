"""How often the decision screen has no room for the map (issue 21 item 1): seeded
bot-against-bot games of every ruleset with the one map, each decision laid out at a terminal
size as the menu asks (one row for the question's message, a row per option and one for the
short items, the disabled options folded when room is short), counting the screens that show
the one-line note instead of a map, and of those the ones with at least `ENOUGH` rows left
to the board (those must get a map)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tests.view_helpers import watched_game  # noqa: E402
from wargame_cli.engine.requests import Choice  # noqa: E402

RULESETS = ("squad-alpha", "battle-of-ixu", "mobs-and-morale")
ENOUGH = 6  # rows left to the board from which a map must be drawn


def count(
    ruleset_id: str, seed: int, width: int, height: int, most: int = 400
) -> tuple[int, int, int]:
    """(decisions, notes, notes with at least `ENOUGH` rows left) over one seeded game."""
    screen, runner = watched_game(ruleset_id, seed)
    asked = notes = roomy = 0
    while runner.pending is not None and asked < most:
        pending = runner.pending
        if isinstance(pending, Choice):
            asked += 1
            barred = sum(1 for o in pending.options if o.disabled)
            wanted = len(pending.options) + 1
            folded = wanted - barred + 1 if barred > 1 else None
            layout = screen.compose(width, height, 1, wanted, pending, pending.side, folded)
            if layout.board == "note":
                notes += 1
                roomy += layout.board_room >= ENOUGH
            screen.mark(pending.side)
        runner.step()
    return asked, notes, roomy


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=4)
    parser.add_argument("--size", default="80x24")
    args = parser.parse_args()
    width, height = (int(v) for v in args.size.split("x"))
    for ruleset_id in RULESETS:
        total = [0, 0, 0]
        for seed in range(1, args.seeds + 1):
            for i, n in enumerate(count(ruleset_id, seed, width, height)):
                total[i] += n
        asked, notes, roomy = total
        print(
            f"{ruleset_id} at {width}x{height}: {asked} decisions, the note instead of a map at "
            f"{notes} ({notes / max(1, asked):.1%}), {roomy} of them with {ENOUGH}+ rows left"
        )


if __name__ == "__main__":
    main()
