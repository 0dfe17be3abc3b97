"""CPU per skirmish game, in units of the minimal Tug loop's game, measured in one run.

The yardstick (`minimal_tug_loop.play`) and each skirmish ruleset's default match-up (played
as `simulate` plays them: `batch.run`, one worker) are timed in the same process, one after the
other, and the CPU per game is divided by the yardstick's CPU per game. Repeats interleave the
rulesets so that other work on the machine hits them alike; the spread is reported.

With `--baseline DIR` (an unpacked older tree, e.g. `git archive <commit> | tar -x -C DIR`)
every repeat also measures that tree in a child process, right after this one: before and
after in the same run. The child runs the tree's own interpreter where it has one
(`DIR/.venv`, with the tree installed in it: an editable install of this tree maps the
package's rulesets to this tree's folder, whatever PYTHONPATH says), else this one.

    python bench/bench_skirmish.py --games 6 --repeat 3
    python bench/bench_skirmish.py --games 6 --repeat 3 --baseline /tmp/base --json
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
SKIRMISHES = ("squad-alpha", "battle-of-ixu", "mobs-and-morale", "seeds-of-wars")
GOALS = {"squad-alpha": 5500, "battle-of-ixu": 950, "mobs-and-morale": 2200, "seeds-of-wars": 180}
# More games for the quick rulesets, so that each measurement takes about as long.
WEIGHT = {"squad-alpha": 1, "battle-of-ixu": 4, "mobs-and-morale": 2, "seeds-of-wars": 20}


def yardstick_cpu(games: int) -> float:
    """CPU seconds per game of the minimal Tug loop."""
    sys.path.insert(0, str(HERE))
    from minimal_tug_loop import play

    started = time.process_time()
    play(games, 1)
    return (time.process_time() - started) / games


def ruleset_cpu(ruleset_id: str, games: int, seed: int) -> float:
    """CPU seconds per game of `games` bot-vs-bot games of the default match-up."""
    from wargame_cli import registry
    from wargame_cli.ruleset import SIDES, Setup, resolve_options
    from wargame_cli.simulate import batch

    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    job = batch.Job(ruleset_id, Setup(names=names, teams=teams), options, seed, games)
    ruleset.new_game(job.setup, options)  # the rules load on first use: before the clock
    started = time.process_time()
    batch.run(job, ruleset)
    return (time.process_time() - started) / games


def one_round(rulesets: list[str], games: int, seed: int) -> dict[str, float]:
    """Ratios of one repeat: yardstick before and after, averaged."""
    before = yardstick_cpu(20_000)
    cpu = {rid: ruleset_cpu(rid, games * WEIGHT.get(rid, 1), seed) for rid in rulesets}
    unit = (before + yardstick_cpu(20_000)) / 2
    return {rid: value / unit for rid, value in cpu.items()} | {"tug_us": unit * 1e6}


def child_round(tree: Path, rulesets: list[str], games: int, seed: int) -> dict[str, float]:
    env = dict(os.environ, PYTHONPATH=str(tree))
    own = tree / ".venv" / "bin" / "python"
    python = str(own) if own.exists() else sys.executable
    command = [python, str(HERE / "bench_skirmish.py"), "--child"]
    command += ["--games", str(games), "--seed", str(seed), "--rulesets", ",".join(rulesets)]
    done = subprocess.run(command, env=env, cwd=tree, capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=6, help="Squad Alpha games per repeat")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rulesets", default=",".join(SKIRMISHES))
    parser.add_argument("--baseline", type=Path, help="an older tree to measure alongside")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    rulesets = args.rulesets.split(",")
    if args.child:
        print(json.dumps(one_round(rulesets, args.games, args.seed)))
        return
    trees = {"now": None} | ({"before": args.baseline} if args.baseline else {})
    rounds: dict[str, list[dict[str, float]]] = {name: [] for name in trees}
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} at start")
    for _ in range(args.repeat):
        for name, tree in trees.items():
            here = Path(__file__).resolve().parent.parent
            rounds[name].append(child_round(tree or here, rulesets, args.games, args.seed))
    print(f"CPU per game in minimal-Tug-loop games, {args.repeat} repeats (min-median-max)")
    header = f"  {'ruleset':18s}" + "".join(f"{name:>26s}" for name in trees)
    print(header + ("      speed-up" if args.baseline else "") + "   goal")
    summary: dict[str, dict[str, list[float]]] = {}
    for rid in rulesets:
        line = f"  {rid:18s}"
        for name in trees:
            values = sorted(r[rid] for r in rounds[name])
            summary.setdefault(rid, {})[name] = values
            line += f"{values[0]:8.0f} {statistics.median(values):8.0f} {values[-1]:8.0f}"
        if args.baseline:
            pairs = [b[rid] / n[rid] for b, n in zip(rounds["before"], rounds["now"], strict=True)]
            summary[rid]["speedup"] = sorted(pairs)
            line += f"  {min(pairs):5.1f}-{max(pairs):4.1f}x"
        line += f"  <= {GOALS.get(rid, 0)}"
        print(line)
    tug = sorted(r["tug_us"] for name in trees for r in rounds[name])
    print(f"  (one minimal Tug game: {tug[0]:.1f}-{tug[-1]:.1f} us CPU)")
    print(f"load average {os.getloadavg()[0]:.1f} at end")
    if args.json:
        print(json.dumps({"rounds": rounds, "summary": summary}))


if __name__ == "__main__":
    main()
