"""What a game's requests cost with no rules behind them: the floor under `simulate`.

A generator yields about a Seeds of Wars game's mix of requests (counted over 300 seeded
games: 80 rolls of one die, 175 events with a small `data` dict, 107 questions, 8 turn
starts; here 80, 168, 104 and 8) from `--levels` generators deep (Seeds of Wars' requests
come from 4-5 deep), each word given as a function, each question made in its own `ask`
generator with a lazy menu, a lazy default and a judge, as the rules make theirs. It is
played by the one driver with the seeded answerer, the bot's key checked legal, as
`simulate` plays a game.
Nothing else is done, so the CPU per game is what the protocol alone costs; printed in
microseconds and in the units of `bench_skirmish.py` (minimal Tug games, measured here).

    python bench/protocol_floor.py --games 3000
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Generator
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from wargame_cli.engine import drive  # noqa: E402
from wargame_cli.engine.requests import Choice, Event, Option, Roll, TurnStart  # noqa: E402

MIX = {"roll": 80, "event": 175, "choice": 107, "turn": 8}
PASS = Option("pass", "Pass")


def ask(side: str, key: str) -> Generator[Any, Any, str]:
    """One question as the rules ask it: lazy menu, lazy default, a judge, then the key."""
    menu = lambda: (Option(key, key), PASS)  # noqa: E731
    judge = lambda k: None if k in (key, "pass") else "no"  # noqa: E731
    return (
        yield Choice(
            side, lambda: f"which {key}?", menu, lambda: key, ("d7", "d16"), "k", None, judge
        )
    )


def requests(round_: int) -> Generator[Any, Any, None]:
    """One round's share of the mix."""
    rounds = MIX["turn"]
    yield TurnStart(round_, rules=("d3",))
    for i in range(MIX["roll"] // rounds):
        faces = yield Roll((20,), lambda i=i: f"roll {i}", "A", ("d10",), ("A1",))
        face = faces[0]
        yield Event(lambda f=face: f"face {f}", ("d10",), "hit", {"face": face, "i": i})
    for i in range((MIX["event"] - MIX["roll"]) // rounds):
        yield Event(lambda i=i: f"pass {i}", ("d7",), "pass", {"side": "A", "i": i})
    for i in range(MIX["choice"] // rounds):
        yield from ask("AB"[i % 2], f"u{i}")


def nest(gen: Generator[Any, Any, Any], levels: int) -> Generator[Any, Any, Any]:
    for _ in range(levels - 1):
        gen = _level(gen)
    return gen


def _level(gen: Generator[Any, Any, Any]) -> Generator[Any, Any, Any]:
    return (yield from gen)


def game(levels: int) -> Generator[Any, Any, None]:
    for round_ in range(1, MIX["turn"] + 1):
        yield from nest(requests(round_), levels)


def cpu_per_game(games: int, levels: int) -> float:
    below = random.Random(1).randrange
    started = time.process_time()
    for _ in range(games):
        drive.drive(game(levels), drive.seeded(below))
    return (time.process_time() - started) / games


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--levels", type=int, default=4)
    args = parser.parse_args()
    from minimal_tug_loop import play

    floors, units = [], []
    for _ in range(args.repeat):
        started = time.process_time()
        play(20_000, 1)
        unit = (time.process_time() - started) / 20_000
        floors.append(cpu_per_game(args.games, args.levels))
        units.append(floors[-1] / unit)
    print(
        f"protocol alone, {args.levels} levels: {statistics.median(floors) * 1e6:.0f} us a game "
        f"(median of {args.repeat}), {statistics.median(units):.0f} minimal Tug games"
    )


if __name__ == "__main__":
    sys.path.insert(0, str(HERE))
    main()
