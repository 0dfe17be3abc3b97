"""The balance lab's speed goals (issue 23), as ratios measured in one run:

1. a sweep of 8 settings x G Squad Alpha games on all cores: wall time at most 1.15x its CPU
   total divided by the cores;
2. the same sweep on a local Dask cluster: at most 1.3x the CPU of the process pool (and,
   where Ray is installed, the same sweep on a local Ray cluster, for the choice of engine:
   startup, memory, CPU per game);
3. `--compare` on common random numbers: how many fewer games than independent runs give the
   same interval width on the difference (Tug of WarGods, Seeds of Wars, Mobs and Morale).

Each run of `simulate` is a child process; its CPU is the children's (every descendant the
run reaped: pool workers, the cluster's worker processes), its memory the largest sum of the
resident sizes of its process tree, sampled every 50 ms.

    python bench/bench_lab.py --games 200            # the issue's size: minutes on 2 idle cores
    python bench/bench_lab.py --games 250 --skip-crn --skip-dask   # issue 35: 2,000 games
    python bench/bench_lab.py --games 40 --ray /tmp/rayenv/bin/python   # Ray too, in its venv
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

SWEEP = ["squad-alpha", "--seed", "1", "--sweep", "max_turns=5..19:2", "--json"]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def _tree_rss(pid: int) -> int:
    import psutil

    try:
        root = psutil.Process(pid)
        procs = [root, *root.children(recursive=True)]
    except psutil.Error:
        return 0
    total = 0
    for proc in procs:
        try:
            total += proc.memory_info().rss
        except psutil.Error:
            continue
    return total


def measured(command: list[str]) -> dict[str, Any]:
    """Wall, CPU (the child and everything it reaped) and peak memory of one command."""
    cpu0, wall0 = _children_cpu(), time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    peak = [0]
    done = threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], _tree_rss(child.pid))
            time.sleep(0.05)

    watcher = threading.Thread(target=sample, daemon=True)
    watcher.start()
    out, _ = child.communicate()
    done.set()
    watcher.join()
    if child.returncode != 0:
        raise SystemExit(f"{command} failed ({child.returncode})")
    return {
        "wall": time.perf_counter() - wall0,
        "cpu": _children_cpu() - cpu0,
        "peak_mb": peak[0] / 2**20,
        "result": json.loads(out),
    }


def wargame(*args: str) -> list[str]:
    return [sys.executable, "-m", "wargame_cli", "simulate", *args]


def sweep_goals(games: int, cores: int, dask: bool = True) -> dict[str, Any]:
    base = wargame(*SWEEP, "--games", str(games), "--workers", str(cores))
    pool = measured(base)
    if not dask:
        return {
            "games": games * 8,
            "cores": cores,
            "pool": {k: pool[k] for k in ("wall", "cpu", "peak_mb")},
            "wall_over_cpu_per_core": pool["wall"] / (pool["cpu"] / cores),
        }
    local = measured([*base, "--cluster", "local"])
    assert local["result"] == pool["result"], "the cluster played other games"
    started = measured(wargame("tug-of-wargods", "--games", "4", "--seed", "1", "--json"))
    startup = measured(
        wargame("tug-of-wargods", "--games", "4", "--seed", "1", "--json", "--cluster", "local")
    )
    played = games * 8
    return {
        "games": played,
        "cores": cores,
        "pool": {k: pool[k] for k in ("wall", "cpu", "peak_mb")},
        "dask": {k: local[k] for k in ("wall", "cpu", "peak_mb")},
        "wall_over_cpu_per_core": pool["wall"] / (pool["cpu"] / cores),
        "dask_cpu_over_pool": local["cpu"] / pool["cpu"],
        "dask_extra_cpu_ms_per_game": 1000 * (local["cpu"] - pool["cpu"]) / played,
        "dask_startup_s": startup["wall"] - started["wall"],
        "dask_startup_cpu_s": startup["cpu"] - started["cpu"],
        "dask_startup_peak_mb": startup["peak_mb"],
    }


def crn_goal(games: int) -> dict[str, Any]:
    """Interval width on the difference, paired (the same seeds) and as two independent runs
    (Newcombe's interval of the same counts): games needed go as the width squared."""
    from wargame_cli.simulate.stats import proportion_difference

    out = {}
    for name, (settings, per) in {
        "tug start 4 vs 3": (
            ["tug-of-wargods", "--compare", "start=4", "--compare", "start=3"],
            20,
        ),
        "seeds neutral_rows 0 vs 1": (
            ["seeds-of-wars", "--compare", "neutral_rows=0", "--compare", "neutral_rows=1"],
            2,
        ),
        "mobs reach 2 vs 3": (
            ["mobs-and-morale", "--compare", "reach=2", "--compare", "reach=3"],
            2,
        ),
    }.items():
        n = games * per
        result = measured(wargame(*settings, "--games", str(n), "--seed", "3", "--json"))
        first, then = result["result"]["settings"]
        paired = then["difference"]["win_rate_a"]
        alone = proportion_difference(first["wins"]["A"], n, then["wins"]["A"], n)
        ratio = ((alone.hi - alone.lo) / (paired["hi"] - paired["lo"])) ** 2
        out[name] = {
            "games": n,
            "paired_width": paired["hi"] - paired["lo"],
            "independent_width": alone.hi - alone.lo,
            "independent_games_for_the_paired_width": ratio,
        }
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="Squad Alpha games per setting")
    parser.add_argument("--cores", type=int, default=os.cpu_count() or 1)
    parser.add_argument(
        "--ray", metavar="PYTHON", help="also the sweep on a local Ray, run by this Python"
    )
    parser.add_argument("--skip-sweep", action="store_true")
    parser.add_argument("--skip-crn", action="store_true")
    parser.add_argument(
        "--skip-dask", action="store_true", help="the sweep on the process pool only (goal 1)"
    )
    args = parser.parse_args()
    figures: dict[str, Any] = {"load": os.getloadavg()}
    if not args.skip_sweep:
        figures["sweep"] = sweep_goals(args.games, args.cores, not args.skip_dask)
        print(json.dumps(figures["sweep"]), file=sys.stderr, flush=True)
    if not args.skip_crn:
        figures["crn"] = crn_goal(args.games)
        print(json.dumps(figures["crn"]), file=sys.stderr, flush=True)
    if args.ray:
        script = str(Path(__file__).with_name("ray_sweep.py"))
        ray = measured([args.ray, script, str(args.games), str(args.cores)])
        figures["ray"] = {k: ray[k] for k in ("wall", "cpu", "peak_mb")}
        figures["ray"]["startup_s"] = ray["result"]["startup_s"]
    figures["load_after"] = os.getloadavg()
    print(json.dumps(figures, indent=1))


if __name__ == "__main__":
    main()
