"""Startup of `wargame --help` and `wargame rulesets --json` against the same commands of a
minimal one-command Typer app (the floor for any Typer CLI). Goal: within 1.3x.

    python bench/bench_startup.py [--runs 20]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

MINIMAL = '''
import typer
app = typer.Typer(add_completion=False)

@app.command()
def rulesets(json_out: bool = typer.Option(False, "--json")) -> None:
    """List."""
    print("[]")

@app.command()
def other() -> None:
    """Other."""

app()
'''


def timed(cmd: list[str], runs: int) -> float:
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=20)
    runs = parser.parse_args().runs
    with tempfile.TemporaryDirectory() as tmp:
        minimal = Path(tmp) / "minimal.py"
        minimal.write_text(MINIMAL)
        py = sys.executable
        rows = [
            ("--help", [py, str(minimal), "--help"], [py, "-m", "wargame_cli", "--help"]),
            (
                "rulesets --json",
                [py, str(minimal), "rulesets", "--json"],
                [py, "-m", "wargame_cli", "rulesets", "--json"],
            ),
        ]
        print(
            f"{'command':<18}{'minimal typer':>15}{'wargame':>10}{'ratio':>8}  (median of {runs})"
        )
        for name, floor_cmd, ours_cmd in rows:
            floor, ours = timed(floor_cmd, runs), timed(ours_cmd, runs)
            print(f"{name:<18}{floor * 1000:>13.0f}ms{ours * 1000:>8.0f}ms{ours / floor:>8.2f}")


if __name__ == "__main__":
    main()
