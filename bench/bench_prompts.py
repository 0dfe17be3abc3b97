"""How long does a person wait between pressing a key and seeing the next question?

Both measured in ONE run, in a pseudo-terminal (pexpect), at the same terminal size:

1. A bare questionary select loop (a new questionary prompt per question, nothing else): the
   yardstick.
2. An Enter-only hot-seat Squad Alpha game through `wargame play` (every question answered
   with Enter: rules, bot suggestions, the decision screen and the prompt application).

The latency of one key press is the time from sending Enter to the next question's mark
("?") being written, which comes after the screen above it. Between questions the driver
"thinks" like a person (`--think`, default 0.25 s), which is when the application tidies up
(garbage collection), never between a key and the next question.

    python bench/bench_prompts.py                 # 80x24, 3 turns of Squad Alpha
    python bench/bench_prompts.py --rows 45 --columns 120
Goal (issue 13): game median <= 0.5x the bare questionary median, game p95 < 3x its median.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.pty_helpers import ANSWERED, PROMPT  # noqa: E402

BARE = """
import questionary
choices = ["Move", "Shoot", "Hold", "Rally", "Charge", "Stay where it is"]
for n in range({count}):
    questionary.select(f"Question {{n}}: what next?", choices=choices).unsafe_ask()
"""


def _spawn(args: list[str], rows: int, columns: int, saves: str) -> pexpect.spawn:
    env = {
        **os.environ,
        "PROMPT_TOOLKIT_NO_CPR": "1",
        "TERM": "xterm",
        "COLUMNS": str(columns),
        "LINES": str(rows),
        "WARGAME_SAVES_DIR": saves,
    }
    env.pop("NO_COLOR", None)
    child = pexpect.spawn(
        sys.executable,
        args,
        cwd=str(ROOT),
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(rows, columns),
    )
    child.delaybeforesend = None
    return child


def _cpu(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _drive(child: pexpect.spawn, think: float, limit: int = 5000) -> tuple[list[float], float]:
    """Enter at every question: the seconds from each Enter to the next question's mark, and
    the CPU seconds the program used per question (from the first question to the last)."""
    waits: list[float] = []
    child.expect(PROMPT)
    first = last = _cpu(child.pid)
    for _ in range(limit):
        time.sleep(think)
        sent = time.perf_counter()
        child.send("\r")
        child.expect_exact(ANSWERED)
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            return waits, (last - first) / max(1, len(waits))
        waits.append(time.perf_counter() - sent)
        last = _cpu(child.pid)
    raise RuntimeError("still asking")


def _stats(waits: list[float]) -> dict[str, float]:
    ordered = sorted(waits)
    return {
        "n": len(ordered),
        "median": statistics.median(ordered) * 1000,
        "p95": ordered[int(0.95 * (len(ordered) - 1))] * 1000,
        "max": ordered[-1] * 1000,
    }


def arguments(doc: str, rows: int, columns: int, turns: int) -> argparse.ArgumentParser:
    """The options both prompt benches take: the terminal, the game, the think time."""
    parser = argparse.ArgumentParser(description=doc.split("\n")[0])
    parser.add_argument("--rows", type=int, default=rows)
    parser.add_argument("--columns", type=int, default=columns)
    parser.add_argument("--turns", type=int, default=turns, help="Squad Alpha max_turns")
    parser.add_argument("--questions", type=int, default=60, help="bare questionary loop")
    parser.add_argument("--think", type=float, default=0.25, help="seconds before each key")
    return parser


def main() -> None:
    args = arguments(__doc__, 24, 80, 3).parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as saves:
        bare = _spawn(["-c", BARE.format(count=args.questions)], args.rows, args.columns, saves)
        bare_waits, bare_cpu = _drive(bare, args.think)
        bare.close()
        game = _spawn(
            [
                "-m",
                "wargame_cli",
                "play",
                "squad-alpha",
                "--seed",
                "3",
                "--option",
                f"max_turns={args.turns}",
                "--no-save",
            ],
            args.rows,
            args.columns,
            saves,
        )
        game_waits, game_cpu = _drive(game, args.think)
        game.close()
    b, g = _stats(bare_waits), _stats(game_waits)
    print(
        f"terminal {args.columns}x{args.rows}, think time {args.think:g} s, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    for name, s, cpu in (
        ("bare questionary select", b, bare_cpu),
        ("Squad Alpha, Enter only", g, game_cpu),
    ):
        print(
            f"{name:26} {s['n']:4d} prompts  median {s['median']:6.1f} ms  "
            f"p95 {s['p95']:6.1f} ms  max {s['max']:6.1f} ms  CPU {cpu * 1000:5.1f} ms a prompt"
        )
    ratio, spread = g["median"] / b["median"], g["p95"] / g["median"]
    print(
        f"game median / bare median = {ratio:.2f}x (goal <= 0.5x: "
        f"{'met' if ratio <= 0.5 else 'NOT met'}); game p95 / median = {spread:.2f}x "
        f"(goal < 3x: {'met' if spread < 3 else 'NOT met'})"
    )


if __name__ == "__main__":
    main()
