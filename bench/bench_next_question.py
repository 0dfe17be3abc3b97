"""Key press to the next question, timed to the LAST BYTE of the redrawn screen (issue 21).

`bench_prompts.py` stops the clock at the next question's mark ("?"); a screen may still be
writing after it. Here the clock stops at the last byte the program writes before it falls
quiet, and each key is sent `--think` seconds after the screen settled, as a person reads.
Both in ONE run, in pseudo-terminals (pexpect), at the same size (default 140x50), their keys
taken in turns (a key to the yardstick, a key to the game, ...), so that both meet the same load
on a shared machine (`--apart` times all of one, then all of the other, as before):

1. a bare questionary select loop (a new questionary prompt per question): the yardstick;
2. an Enter-only hot-seat Squad Alpha game through `wargame play`.

Then Esc: the time from Esc at a typed question (which answers "look") to the last byte of
the Look menu, against Enter at the same question; prompt_toolkit's default escape timeout
would add about 0.5 s.

    python bench/bench_next_question.py
    python bench/bench_next_question.py --rows 24 --columns 80
Goal (issue 21): game median <= 0.5x the bare questionary median; Esc under 50 ms.
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

import pexpect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.bench_prompts import BARE, _spawn, _stats, arguments  # noqa: E402
from tests.pty_helpers import PROMPT  # noqa: E402

QUIET = 0.15  # no output for this long: the screen has settled


def _last_byte(
    child: pexpect.spawn, sent: float, quiet: float = QUIET, seen: list[str] | None = None
) -> float | None:
    """Read until the program falls quiet; the seconds from `sent` to the last byte read, or
    None when the program ended. What was read is added to `seen`."""
    last = None
    while True:
        try:  # the first byte may be long in coming (an escape timeout); then until quiet
            text = child.read_nonblocking(65536, timeout=quiet if last is not None else 5)
        except pexpect.TIMEOUT:
            return None if last is None else last - sent
        except pexpect.EOF:
            return None
        last = time.perf_counter()
        if seen is not None:
            seen.append(text)


def _drive(child: pexpect.spawn, think: float, limit: int = 5000) -> list[float]:
    """Enter at every question, `think` seconds after the screen settled: the seconds from
    each Enter to the last byte of the screen that follows."""
    waits: list[float] = []
    child.expect(PROMPT)
    _last_byte(child, time.perf_counter())
    for _ in range(limit):
        took = _press(child, "\r", think)
        if took is None:
            return waits
        waits.append(took)
    raise RuntimeError("still asking")


def _drive_in_turns(bare_args: list[str], game: pexpect.spawn, spawn, think: float):
    """Enter in the yardstick, then in the game, and so on to the game's end (a yardstick that
    runs out of questions is started again): both lists of seconds to the last byte."""
    bare_waits: list[float] = []
    game_waits: list[float] = []
    bare = spawn(bare_args)
    for child in (bare, game):
        child.expect(PROMPT)
        _last_byte(child, time.perf_counter())
    while True:
        took = _press(bare, "\r", think)
        if took is None:  # its questions ran out: a fresh one
            bare.close()
            bare = spawn(bare_args)
            bare.expect(PROMPT)
            _last_byte(bare, time.perf_counter())
        else:
            bare_waits.append(took)
        took = _press(game, "\r", think)
        if took is None:
            bare.close()
            return bare_waits, game_waits
        game_waits.append(took)


def _press(child: pexpect.spawn, key: str, think: float) -> float | None:
    """`key`, `think` seconds after the screen settled; the seconds to the last byte."""
    time.sleep(think)
    sent = time.perf_counter()
    child.send(key)
    return _last_byte(child, sent)


ESCAPE_GAME = [
    "-m", "wargame_cli", "play", "squad-alpha", "--seed", "3", "--no-save",
]  # fmt: skip


def _escape(rows: int, columns: int, saves: str, think: float, times: int) -> list[float]:
    """Esc at the first question (a list: Esc opens nothing there) is no use; the first
    deployment's "Type it" question is typed, and Esc at it opens Look. Each round: Esc, time
    to the Look menu's last byte, then Esc back to the question."""
    child = _spawn(ESCAPE_GAME, rows, columns, saves)
    waits: list[float] = []
    # reach a decision screen with a typed question: the first question that offers Type it
    seen: list[str] = []
    while True:
        _last_byte(child, time.perf_counter(), seen=seen)
        if "legal cells" in "".join(seen):  # a deployment: it offers Type it
            break
        seen.clear()
        child.send("\r")
    child.send("x")  # typing at the list opens the typed answer
    _last_byte(child, time.perf_counter())
    for _ in range(times):
        took = _press(child, "\x1b", think)
        if took is None:
            break
        waits.append(took)
        time.sleep(think)
        child.send("\x1b")
        _last_byte(child, time.perf_counter())
    child.close()
    return waits


def main() -> None:
    parser = arguments(__doc__, 50, 140, 2)  # --think: seconds after the screen settles
    parser.add_argument("--escapes", type=int, default=10)
    parser.add_argument("--apart", action="store_true", help="all yardstick keys, then the game's")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as saves:
        bare_args = ["-c", BARE.format(count=args.questions)]
        game_args = ["-m", "wargame_cli", "play", "squad-alpha", "--seed", "3"]
        game_args += ["--option", f"max_turns={args.turns}", "--no-save"]
        game = _spawn(game_args, args.rows, args.columns, saves)
        if args.apart:
            bare = _spawn(bare_args, args.rows, args.columns, saves)
            b = _stats(_drive(bare, args.think))
            bare.close()
            g = _stats(_drive(game, args.think))
        else:
            waits = _drive_in_turns(
                bare_args, game, lambda a: _spawn(a, args.rows, args.columns, saves), args.think
            )
            b, g = _stats(waits[0]), _stats(waits[1])
        game.close()
        escapes = _escape(args.rows, args.columns, saves, args.think, args.escapes)
    print(
        f"terminal {args.columns}x{args.rows}, think {args.think:g} s after the screen settles "
        f"(quiet {QUIET:g} s), {'apart' if args.apart else 'keys in turns'}, "
        f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores"
    )
    for name, s in (("bare questionary select", b), ("Squad Alpha, Enter only", g)):
        print(
            f"{name:26} {s['n']:4d} keys  median {s['median']:6.1f} ms  "
            f"p95 {s['p95']:6.1f} ms  max {s['max']:6.1f} ms  (to the last byte)"
        )
    ratio = g["median"] / b["median"]
    print(
        f"game median / bare median = {ratio:.2f}x "
        f"(goal <= 0.5x: {'met' if ratio <= 0.5 else 'NOT met'})"
    )
    if escapes:
        e = _stats(escapes)
        print(
            f"Esc to the Look menu       {e['n']:4d} keys  median {e['median']:6.1f} ms  "
            f"max {e['max']:6.1f} ms (goal < 50 ms: {'met' if e['median'] < 50 else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
