"""Does saving cost the same each turn? (issue 20 item 8)

Plays one 1,600-turn Tug of WarGods game (every face a 1: every pull a tie, so the game never
ends and `--turns 1600` stops it) as a whole `wargame play --no-input --json` process, once
saving after every turn (`--save`) and once with `--no-save`, the two in turn, --repeat
times, and prints the median CPU (user + sys, from the kernel's accounting of each finished
process) and wall time of each, and their ratio. Then replays the save with `--verify`. And
in this process, best of --repeat: the same game played by the Runner alone, and saved after
every turn as `play` saves a game no person plays (`games.save(..., settle=False)`, the last
save settled): the cost of saving a turn, beside Tug of WarGods' rules, which cost less than
encoding one log entry.

Goal: playing and saving costs at most 2x playing without saving (before: each turn re-sealed
and rewrote the whole log, 47 s against 0.19 s).

    python bench/bench_save.py
    python bench/bench_save.py --turns 3200 --repeat 7
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def play(turns: int, save: Path | None) -> tuple[float, float]:
    """CPU and wall seconds of one whole `wargame play` process."""
    rolls = ",".join(["1"] * (6 * turns))
    where = ["--save", str(save), "--force"] if save is not None else ["--no-save"]
    command = [sys.executable, "-m", "wargame_cli", "play", "tug-of-wargods", "--no-input"]
    command += ["--json", "--rolls", rolls, "--turns", str(turns), *where]
    started = time.perf_counter()
    child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL)
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    if child.returncode != 0:
        raise SystemExit(f"wargame play exited {child.returncode}")
    return usage.ru_utime + usage.ru_stime, wall


def in_process(turns: int, save: Path | None) -> float:
    """CPU seconds of one game in this process, saved after every turn to `save`."""
    sys.path.insert(0, str(ROOT))
    from wargame_cli import registry
    from wargame_cli.engine.dice import RngDice, ScriptDice, parse_rolls
    from wargame_cli.engine.session import start
    from wargame_cli.ruleset import Setup, resolve_options
    from wargame_cli.saves import games

    ruleset = registry.get("tug-of-wargods")
    options = resolve_options(ruleset.options, {})
    teams = {s: ruleset.default_team(s, options)[0] for s in "AB"}
    setup = Setup(names={"A": "Greentoe", "B": "Clearsky"}, teams=teams)
    dice = ScriptDice(parse_rolls(",".join(["1"] * (6 * turns))), RngDice(1))
    started = time.process_time()
    session = start(ruleset, setup, options, 1, dice)

    def between(_: object) -> None:
        if save is not None:
            games.save(session, save, settle=False)

    session.runner.run(stop_after_turn=turns, on_turn_end=between)
    if save is not None:
        games.save(session, save)
    return time.process_time() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=1600)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        save = Path(folder) / "long.json"
        runs: dict[str, list[tuple[float, float]]] = {"saving": [], "not saving": []}
        play(args.turns, None)  # warm-up: bytecode and page cache
        for _ in range(args.repeat):
            runs["saving"].append(play(args.turns, save))
            runs["not saving"].append(play(args.turns, None))
        size = save.stat().st_size
        bare = min(in_process(args.turns, None) for _ in range(args.repeat))
        saved = min(in_process(args.turns, save) for _ in range(args.repeat))
        verify = subprocess.run(
            [sys.executable, "-m", "wargame_cli", "replay", str(save), "--verify"],
            cwd=ROOT,
            capture_output=True,
            text=True,
        )
    print(f"{args.turns} turns, {args.repeat} runs of each, save {size / 1024:.0f} KB")
    medians = {}
    for name, figures in runs.items():
        cpu = statistics.median(f[0] for f in figures)
        wall = statistics.median(f[1] for f in figures)
        medians[name] = (cpu, wall)
        print(f"  {name:<11} CPU {cpu:6.3f} s   wall {wall:6.3f} s (median)")
    cpu_ratio = medians["saving"][0] / medians["not saving"][0]
    wall_ratio = medians["saving"][1] / medians["not saving"][1]
    print(f"  saving / not saving: CPU {cpu_ratio:.2f}x, wall {wall_ratio:.2f}x (goal <= 2x)")
    print(f"  replay --verify: exit {verify.returncode} {verify.stdout.strip()[:60]}")
    per_turn = (saved - bare) / args.turns * 1e6
    print(
        f"  in process (best): rules alone {bare * 1e3:.1f} ms, saving after every turn "
        f"{saved * 1e3:.1f} ms: {per_turn:.0f} us a turn to save, {saved / bare:.1f}x"
    )


if __name__ == "__main__":
    main()
