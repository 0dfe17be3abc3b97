"""Does `simulate --workers 2` cost about the CPU of one worker, and give the same result?

Runs the real command for each ruleset with `--workers 1` and `--workers 2` (the same seed),
one right after the other, and reports wall time, CPU time (this process's children: the
command and its workers) and the CPU ratio. The goal (issue 13): within 1.1x. The JSON
results must be identical.

    python bench/bench_workers.py
    python bench/bench_workers.py --rulesets squad-alpha --games 40 --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time

GAMES = {"squad-alpha": 40, "battle-of-ixu": 160, "mobs-and-morale": 80, "seeds-of-wars": 800}


def timed(command: list[str]) -> tuple[float, float, dict]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default=",".join(GAMES))
    parser.add_argument("--games", type=int, help="games per run (default: per ruleset)")
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    print(
        f"  {'ruleset':18s}{'games':>6s}  {'1 worker wall/cpu':>18s}  {'2 workers wall/cpu':>19s}"
    )
    for rid in args.rulesets.split(","):
        games = args.games or GAMES.get(rid, 40)
        base = [sys.executable, "-m", "wargame_cli", "simulate", rid, "--games", str(games)]
        base += ["--seed", "1", "--json", "--workers"]
        for _ in range(args.repeat):
            w1, c1, one = timed(base + ["1"])
            w2, c2, two = timed(base + ["2"])
            same = "same result" if one == two else "RESULTS DIFFER"
            print(
                f"  {rid:18s}{games:6d}  {w1:7.2f}s {c1:7.2f}s   {w2:7.2f}s {c2:7.2f}s  "
                f"cpu {c2 / c1:4.2f}x  wall {w2 / w1:4.2f}x  {same}"
            )
    print(f"load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
