"""How long does a key take to move the map cursor, against an arrow key in a bare list?

Both measured in ONE run, in a pseudo-terminal (pexpect), at the same terminal size:

1. A bare questionary select (one prompt, many choices): the time from an arrow key to the
   end of the list's redraw (prompt_toolkit turns line wrapping back on when a drawing is
   done: `\\x1b[?7h`). The yardstick.
2. The map cursor ("Point on the map…", `p`) at Squad Alpha's first deployment through
   `wargame play`: the time from an arrow key to the end of the redrawn screen (the two
   cells rewritten and the facts lines redrawn, ending with the same mark).

Keys are sent `--think` seconds (default 0.25) after the screen settles, alternating right
and left (the list: down and up), so the cursor stays where there is room.

    python bench/bench_cursor.py                    # 120x45
Goal (issue 21): cursor median <= 2x the bare median, cursor p95 <= 4x the bare p95.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_prompts import _spawn, _stats  # noqa: E402
from tests.pty_helpers import DRAWN, PROMPT, settle  # noqa: E402

BARE = """
import questionary
choices = [f"Option {n}: somewhere on the table" for n in range(12)]
questionary.select("Where to?", choices=choices).unsafe_ask()
"""
RIGHT, LEFT = "\x1b[C", "\x1b[D"
DOWN, UP = "\x1b[B", "\x1b[A"


def _keys(child: pexpect.spawn, keys: tuple[str, str], count: int, think: float) -> list[float]:
    """Send `count` keys (alternating), each `think` s after the screen settled: the seconds
    from each key to the end of its redraw."""
    waits: list[float] = []
    for n in range(count):
        settle(child, 0.05)
        time.sleep(think)
        sent = time.perf_counter()
        child.send(keys[n % 2])
        child.expect_exact(DRAWN)
        waits.append(time.perf_counter() - sent)
    return waits


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=45)
    parser.add_argument("--columns", type=int, default=120)
    parser.add_argument("--keys", type=int, default=60)
    parser.add_argument("--think", type=float, default=0.25, help="seconds before each key")
    args = parser.parse_args()
    import tempfile

    with tempfile.TemporaryDirectory() as saves:
        bare = _spawn(["-c", BARE], args.rows, args.columns, saves)
        bare.expect(PROMPT)
        bare.expect_exact(DRAWN)
        bare_waits = _keys(bare, (DOWN, UP), args.keys, args.think)
        bare.sendintr()
        bare.close()
        game = _spawn(
            ["-m", "wargame_cli", "play", "squad-alpha", "--seed", "3", "--bot", "B"]
            + ["--turns", "1", "--no-save"],
            args.rows,
            args.columns,
            saves,
        )
        for question in ("pick a squad", "Name for side A", "which miniature deploys next"):
            game.expect(question)
            settle(game, 0.2)
            game.send("\r")
        game.expect("where does Sgt Rook deploy")
        settle(game, 0.3)
        game.send("p")
        game.expect("cursor at")
        game_waits = _keys(game, (RIGHT, LEFT), args.keys, args.think)
        game.sendintr()
        game.close()
    b, g = _stats(bare_waits), _stats(game_waits)
    load = os.getloadavg()[0]
    print(f"{args.columns}x{args.rows}, keys {args.think:g} s apart, load {load:.1f}")
    for name, s in (("bare questionary select", b), ("map cursor (Squad Alpha)", g)):
        print(f"{name:26} {s['n']:4d} keys  median {s['median']:6.2f} ms  p95 {s['p95']:6.2f} ms")
    goals = [("median", g["median"] / b["median"], 2.0), ("p95", g["p95"] / b["p95"], 4.0)]
    print("; ".join(_verdict(*goal) for goal in goals))


def _verdict(what: str, ratio: float, goal: float) -> str:
    return f"cursor {what} / bare {what} = {ratio:.2f}x (goal <= {goal:g}x: " + (
        "met)" if ratio <= goal else "NOT met)"
    )


if __name__ == "__main__":
    main()
