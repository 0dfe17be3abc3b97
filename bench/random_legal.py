"""Random-legal play at length: more and longer seeded games than `tests/test_random_legal.py`
plays, every decision a random legal key (typed spots and disabled keys tried too), each game
checked as the test checks it (the log replayed at sampled steps, take-backs, a resume from a
save between two turns, `verify`). Prints one line per ruleset and every disagreement found.

    python bench/random_legal.py --games 200
    python bench/random_legal.py --games 50 --rulesets squad-alpha --turns 0 --replay 0.05
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame_cli.testing.random_play import Checks, Tally, play_checked, ruleset_ids  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="games per ruleset")
    parser.add_argument("--first-seed", type=int, default=1000)
    parser.add_argument("--rulesets", default=",".join(ruleset_ids()))
    parser.add_argument("--turns", type=int, default=0, help="stop after this turn (0: play on)")
    parser.add_argument("--replay", type=float, default=0.01, help="share of steps replayed")
    parser.add_argument("--take-back", type=float, default=0.02, help="share taken back")
    parser.add_argument(
        "--any-options", action="store_true", help="options with a few values drawn at random"
    )
    args = parser.parse_args()
    checks = Checks(replay=args.replay, resume=0.5, take_back=args.take_back, checked=1.0)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="random-legal-") as folder:
        for ruleset_id in args.rulesets.split(","):
            tally, found, started = Tally(), 0, time.process_time()
            for seed in range(args.first_seed, args.first_seed + args.games):
                try:
                    play_checked(
                        ruleset_id,
                        seed,
                        Path(folder),
                        args.turns or None,
                        checks,
                        tally,
                        random_teams=seed % 3 == 0,
                        any_options=args.any_options,
                    )
                except Exception as exc:  # every failure is reported, then the next game
                    found += 1
                    print(f"{ruleset_id} seed {seed}: {type(exc).__name__}: {exc}")
                    traceback.print_exc(limit=-3)
            cpu = (time.process_time() - started) / max(1, args.games)
            print(
                f"{ruleset_id}: {args.games} games, {cpu:.2f}s CPU a game, {tally.choices} "
                f"questions, {tally.typed} typed ({tally.typed_legal} legal), "
                f"{tally.disabled_tried} disabled keys tried, {tally.takebacks} take-backs, "
                f"{sum(tally.refusals.values())} refusals, {found} failures",
                flush=True,
            )
            failed += found
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
