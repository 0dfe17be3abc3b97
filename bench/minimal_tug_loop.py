"""The yardstick for `bench_simulate.py`: Tug of WarGods written as the shortest plain loop
(no engine, no requests, no events), playing the default match-up with the default options.

Greentoe (d10, d6, d6) against Clearsky (d8, d6, d4); columns 4", 5", 6" from the line; the
higher total pulls half the difference (a13, a14); a tie moves nobody and gives both -1 (a15,
a16); two models across (a17) or one model pulled across twice (a18) loses.

    python bench/minimal_tug_loop.py --games 100000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import random
import time


def play(games: int, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    roll = rng.randint
    a1, a2, a3 = 10, 6, 6
    b1, b2, b3 = 8, 6, 4
    wins = [0, 0]
    turns_total = 0
    for _ in range(games):
        distance = [[4.0, 5.0, 6.0], [4.0, 5.0, 6.0]]
        crossings = [[0, 0, 0], [0, 0, 0]]
        penalty = 0
        turn = 0
        while True:
            turn += 1
            a = roll(1, a1) + roll(1, a2) + roll(1, a3) - penalty
            b = roll(1, b1) + roll(1, b2) + roll(1, b3) - penalty
            if a == b:
                penalty = 1
                continue
            penalty = 0
            winner, loser = (0, 1) if a > b else (1, 0)
            inches = abs(a - b) / 2
            won, lost, crossed = distance[winner], distance[loser], crossings[loser]
            for i in range(3):
                won[i] += inches
                was_across = lost[i] < 0
                lost[i] -= inches
                if lost[i] < 0 and not was_across:
                    crossed[i] += 1
            if (lost[0] < 0) + (lost[1] < 0) + (lost[2] < 0) >= 2 or max(crossed) >= 2:
                wins[winner] += 1
                turns_total += turn
                break
    return {
        "games": games,
        "A": wins[0] / games,
        "B": wins[1] / games,
        "turns": turns_total / games,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    started = time.perf_counter()
    result = play(args.games, args.seed)
    result["seconds"] = time.perf_counter() - started
    print(json.dumps(result))


if __name__ == "__main__":
    main()
