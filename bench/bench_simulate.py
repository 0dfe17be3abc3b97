"""How fast is `wargame simulate`? Against a yardstick, over workers, and per ruleset.

1. Tug of WarGods, the whole command `wargame simulate tug-of-wargods --games N --seed 1
   --json` against `minimal_tug_loop.py` (the same rules as one plain loop), both as whole
   processes, best of --repeat runs, wall and CPU time. The issue's target: within 1.5x.
2. The same command with 1, 2, ... workers (up to the cores there are).
3. Where a game's time goes, in process: the yardstick loop, the ruleset's `fast_play`,
   the lean driver (`play_fast`) and the logging Runner (`bot_game`), per game.
4. Every other registered ruleset: bot-vs-bot games per second (in process, one worker).

    python bench/bench_simulate.py                      # N = 100,000
    python bench/bench_simulate.py --games 20000 --repeat 1 --skirmish-games 3
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
TUG = "tug-of-wargods"


def timed(command: list[str]) -> tuple[float, float, str]:
    """Wall and CPU (user + system) seconds of a child process, and its stdout."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.stdout


def best(command: list[str], repeat: int) -> tuple[float, float, str]:
    runs = [timed(command) for _ in range(repeat)]
    return min(r[0] for r in runs), min(r[1] for r in runs), runs[0][2]


def simulate_command(games: int, workers: int = 1) -> list[str]:
    return [
        sys.executable,
        "-m",
        "wargame_cli",
        "simulate",
        TUG,
        "--games",
        str(games),
        "--seed",
        "1",
        "--json",
        "--workers",
        str(workers),
    ]


def per_game_in_process(games: int) -> dict[str, float]:
    """Microseconds per Tug game: the yardstick loop, the lean driver, the Runner."""
    sys.path.insert(0, str(HERE))
    from minimal_tug_loop import play
    from wargame_cli.rulesets.tug_of_wargods.rules import fast_play

    from wargame_cli import registry
    from wargame_cli.engine.fast import face_source, play_fast, stream_seed
    from wargame_cli.engine.session import bot_game
    from wargame_cli.ruleset import SIDES, Setup, resolve_options

    ruleset = registry.get(TUG)
    options = resolve_options(ruleset.options, None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    setup = Setup(names=names, teams=teams)
    out: dict[str, float] = {}

    started = time.perf_counter()
    play(games, 1)
    out["yardstick loop"] = (time.perf_counter() - started) / games * 1e6

    below = face_source(stream_seed(1, 0))
    started = time.perf_counter()
    for _ in range(games):
        fast_play(ruleset.new_game(setup, options).state, below)
    out["ruleset fast_play(new_game(...))"] = (time.perf_counter() - started) / games * 1e6

    started = time.perf_counter()
    for _ in range(games):
        play_fast(ruleset.new_game(setup, options), below)
    out["generic play_fast(new_game(...))"] = (time.perf_counter() - started) / games * 1e6

    started = time.perf_counter()
    for _ in range(games):
        ruleset.new_game(setup, options)
    out["  of which new_game"] = (time.perf_counter() - started) / games * 1e6

    few = max(1, games // 10)
    started = time.perf_counter()
    for i in range(few):
        bot_game(ruleset, stream_seed(1, i))
    out["Runner (bot_game)"] = (time.perf_counter() - started) / few * 1e6
    return out


def skirmish_rates(games: int) -> dict[str, float]:
    """Games per second of every other ruleset's default match-up, in process."""
    from wargame_cli import registry
    from wargame_cli.ruleset import SIDES, Setup, resolve_options
    from wargame_cli.simulate import batch

    rates: dict[str, float] = {}
    for info in registry.all_infos():
        if info.id == TUG:
            continue
        ruleset = info.load()
        options = resolve_options(ruleset.options, None)
        teams, names = {}, {}
        for side in SIDES:
            teams[side], names[side] = ruleset.default_team(side, options)
        job = batch.Job(info.id, Setup(names=names, teams=teams), options, 1, games)
        started = time.perf_counter()
        batch.run(job, ruleset)
        rates[info.id] = games / (time.perf_counter() - started)
    return rates


def main() -> None:
    parser = argparse.ArgumentParser(description="Benchmark `wargame simulate`.")
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--skirmish-games", type=int, default=10)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args()
    figures: dict[str, object] = {
        "games": args.games,
        "cores": os.cpu_count(),
        "load": os.getloadavg()[0],
    }
    print(f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f} (other work skews it)")

    loop = best(
        [
            sys.executable,
            str(HERE / "minimal_tug_loop.py"),
            "--games",
            str(args.games),
            "--seed",
            "1",
        ],
        args.repeat,
    )
    whole = best(simulate_command(args.games), args.repeat)
    figures["yardstick"] = {"wall": loop[0], "cpu": loop[1], "result": json.loads(loop[2])}
    figures["simulate"] = {"wall": whole[0], "cpu": whole[1]}
    figures["ratio"] = {"wall": whole[0] / loop[0], "cpu": whole[1] / loop[1]}
    won = json.loads(whole[2])["win_rate"]
    print(f"Tug of WarGods, {args.games} games, best of {args.repeat}")
    print(
        f"  yardstick loop   wall {loop[0]:6.2f} s  cpu {loop[1]:6.2f} s  "
        f"A wins {json.loads(loop[2])['A']:.4f}"
    )
    print(
        f"  wargame simulate wall {whole[0]:6.2f} s  cpu {whole[1]:6.2f} s  A wins {won['A']:.4f}"
    )
    print(
        f"  ratio            wall {figures['ratio']['wall']:6.2f}x cpu "  # type: ignore[index]
        f"{figures['ratio']['cpu']:6.2f}x   (target: 1.5x)"
    )  # type: ignore[index]

    scaling: dict[int, dict[str, float]] = {}
    for workers in range(1, (os.cpu_count() or 1) + 1):
        wall, cpu, _ = timed(simulate_command(args.games, workers))
        scaling[workers] = {"wall": wall, "cpu": cpu}
        print(
            f"  --workers {workers}      wall {wall:6.2f} s  cpu {cpu:6.2f} s  "
            f"speed-up {scaling[1]['wall'] / wall:4.2f}x  (load {os.getloadavg()[0]:.1f})"
        )
    figures["workers"] = scaling

    per_game = per_game_in_process(min(args.games, 20_000))
    figures["per_game_us"] = per_game
    print("Per Tug game, in process (microseconds)")
    for name, value in per_game.items():
        print(f"  {name:26s} {value:8.1f}")

    rates = skirmish_rates(args.skirmish_games)
    figures["skirmish_games_per_s"] = rates
    print(f"Other rulesets, default match-up, {args.skirmish_games} games, one worker")
    for ruleset_id, rate in rates.items():
        print(f"  {ruleset_id:26s} {rate:8.1f} games/s")
    if args.json:
        print(json.dumps(figures))


if __name__ == "__main__":
    main()
