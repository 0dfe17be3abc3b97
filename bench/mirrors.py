"""The lab's mirror test at each bot level, for every ruleset: `wargame simulate ID --mirrors`
(every ready team against itself, at each level the ruleset's bots play), with the seat
tests corrected for their number (Holm). The suite plays the quick levels
(`tests/test_simulate_mirrors.py`); the search's games take seconds each, so they are here.

    python bench/mirrors.py --games 40
    python bench/mirrors.py --rulesets seeds-of-wars --levels search --games 20
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time

RULESETS = ("tug-of-wargods", "seeds-of-wars", "battle-of-ixu", "mobs-and-morale", "squad-alpha")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rulesets", default=",".join(RULESETS))
    parser.add_argument("--levels", help="one level (default: every level each ruleset has)")
    parser.add_argument("--games", type=int, default=40, help="games a mirror")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    for rid in args.rulesets.split(","):
        command = [sys.executable, "-m", "wargame_cli", "simulate", rid, "--mirrors"]
        command += ["--games", str(args.games), "--seed", str(args.seed), "--json"]
        if args.levels:
            command += ["--bot-level", args.levels]
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=True)
        out = json.loads(done.stdout)
        family = out.get("seat_tests") or {"holm_flagged": [not out["mirrors"][0]["fair"]]}
        print(f"{rid}: {time.perf_counter() - started:.0f} s")
        for row, held in zip(out["mirrors"], family["holm_flagged"], strict=True):
            lo, hi = row["ci95"]
            flag = "FLAGGED (Holm)" if held else ("95% only" if not row["fair"] else "")
            print(
                f"  {row['team']:22s} {row['level']:8s} seat A {100 * row['share_a']:5.1f}% "
                f"({100 * lo:5.1f}-{100 * hi:5.1f}) of {row['A'] + row['B']:4d} decisive  {flag}"
            )
    print(f"load average {os.getloadavg()[0]:.1f} at end")


if __name__ == "__main__":
    main()
