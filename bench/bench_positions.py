"""What stored positions (`wargame_cli/engine/position.py`) buy, and what they cost on disk.

- take-back: a person's latest decision taken back at turn 2 and late in a long game
  (Seeds of Wars, every face a 1 after the first turns' seeded dice so nobody falls, up to
  `max_rounds`); each from the nearest position, and (for comparison) replayed from the start.
- die correction and resume: the 1,600-turn Tug of WarGods game of `bench_save.py` (every
  face a 1: every pull a tie): the last die corrected, and the save opened to play on, at
  turn 2 and at turn 1,600; and its save's bytes with positions and without.
- resume and one row of `replay --odds` (bot games finishing the game from its last turn)
  on the long Seeds of Wars game's save, at round 2 and late, and on the same save with its
  positions removed (as every save was before).
- `replay --odds` over a whole Squad Alpha game, from its positions and from its log alone.

    python bench/bench_positions.py --repeat 3
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent


class Person:
    """Answers every question as the bot would, recorded as a person's (taken back)."""

    by = "human"

    def choose(self, choice: Any, game: Any) -> str:
        return str(choice.default)

    def refused(self, choice: Any, key: str, reason: str) -> None:
        raise AssertionError(reason)


def _session(ruleset_id: str, options: list[str], faces: int, people: bool, positions: bool) -> Any:
    from wargame_cli import registry
    from wargame_cli.engine.dice import RngDice, ScriptDice
    from wargame_cli.engine.session import default_setup, start
    from wargame_cli.ruleset import resolve_options

    ruleset = registry.get(ruleset_id)
    opts = resolve_options(ruleset.options, options)
    controllers = {side: Person() for side in "AB"} if people else None
    dice = ScriptDice([1] * faces, RngDice(1))
    session = start(ruleset, default_setup(ruleset, opts), opts, 1, dice, controllers)
    if not positions:
        session.runner.keeper = None
    return session


def _best(work: Callable[[], None], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        work()
        times.append(time.perf_counter() - started)
    return min(times)


def take_back(turns: int, repeat: int, positions: bool = True) -> float:
    """Seconds to take back the latest decision once `turns` turns are played."""
    session = _session("seeds-of-wars", ["max_rounds=1000"], 10**7, True, positions)
    runner = session.runner
    runner.run(stop_after_turn=turns)
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        assert runner.take_back() is None
        times.append(time.perf_counter() - started)
        runner.run(stop_after_turn=turns)  # the decision made again, the turn played out
    return min(times)


def tug_game(turns: int, positions: bool = True) -> Any:
    session = _session("tug-of-wargods", [], 6 * (turns + 2), False, positions)
    session.runner.run(stop_after_turn=turns)
    return session


def correct_last_die(turns: int, repeat: int, positions: bool = True) -> float:
    from wargame_cli.engine.edits import Edit
    from wargame_cli.engine.edits_dice import dice_of

    times = []
    for _ in range(repeat):
        runner = tug_game(turns, positions).runner
        number = len(dice_of(runner.log))
        started = time.perf_counter()
        runner.edit(Edit("die", [str(number), "2"], "GM", "misread"))
        times.append(time.perf_counter() - started)
    return min(times)


def resume(path: Path, repeat: int, nearest: bool = True) -> float:
    from wargame_cli.engine.bots import BotController
    from wargame_cli.saves import games

    bots = {side: BotController() for side in "AB"}
    return _best(lambda: games.open_save(path, controllers=bots, nearest=nearest), repeat)


def saved(session: Any, path: Path) -> int:
    from wargame_cli.saves import games

    games.save(session, path)
    return path.stat().st_size


def without_positions(path: Path, out: Path) -> None:
    """The same save as a build before positions wrote it (sealed again)."""
    from wargame_cli.saves import seal, store

    data = json.loads(path.read_text())
    data.pop("seal", None)
    for entry in data["log"]:
        entry.pop("h", None)
        entry.pop("position", None)
    out.write_text(store.dumps(seal.sealed(data)))


def odds(path: Path, games: int) -> float:
    from wargame_cli.simulate.from_save import odds_by_turn

    started = time.perf_counter()
    odds_by_turn(path, games=games)
    return time.perf_counter() - started


def seeds_save(rounds: int, path: Path) -> Path:
    """A Seeds of Wars game of `rounds` rounds where nobody falls (every face a 1), saved."""
    session = _session("seeds-of-wars", ["max_rounds=1000"], 10**7, False, True)
    session.runner.run(stop_after_turn=rounds)
    saved(session, path)
    return path


def odds_row(path: Path, games: int, repeat: int) -> float:
    """Seconds for one row of `replay --odds` (the chance at the save's last turn)."""
    from wargame_cli import history
    from wargame_cli.simulate.from_save import odds_at

    h = history.load(path)
    return _best(lambda: odds_at(h, h.last, games, 1), repeat)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--long", type=int, default=400, help="Seeds of Wars rounds for take-back")
    parser.add_argument("--tug", type=int, default=1600, help="Tug of WarGods turns")
    parser.add_argument("--odds-games", type=int, default=4)
    args = parser.parse_args()
    sys.path.insert(0, str(HERE.parent))
    folder = Path(tempfile.mkdtemp(prefix="bench-positions-"))
    rows: list[tuple[str, str]] = []

    short = take_back(2, args.repeat)
    late = take_back(args.long, args.repeat)
    replayed = take_back(args.long, 1, positions=False)
    rows.append(("take-back, Seeds of Wars, round 2", f"{short * 1e3:.1f} ms"))
    rows.append((f"take-back, round {args.long}", f"{late * 1e3:.1f} ms ({late / short:.2f}x)"))
    rows.append((f"take-back, round {args.long}, no positions", f"{replayed * 1e3:.0f} ms"))

    short = correct_last_die(2, args.repeat)
    late = correct_last_die(args.tug, args.repeat)
    replayed = correct_last_die(args.tug, 1, positions=False)
    rows.append(("die correction, Tug, turn 2", f"{short * 1e3:.1f} ms"))
    rows.append((f"die correction, turn {args.tug}", f"{late * 1e3:.1f} ms ({late / short:.2f}x)"))
    rows.append((f"die correction, turn {args.tug}, no positions", f"{replayed * 1e3:.0f} ms"))

    early = seeds_save(2, folder / "seeds-2.json")
    deep = seeds_save(args.long, folder / "seeds-long.json")
    without_positions(deep, folder / "seeds-long-bare.json")
    short, late = resume(early, args.repeat), resume(deep, args.repeat)
    whole = resume(folder / "seeds-long-bare.json", 1)
    rows.append(("resume, Seeds of Wars, round 2", f"{short * 1e3:.0f} ms"))
    rows.append((f"resume, round {args.long}", f"{late * 1e3:.0f} ms ({late / short:.2f}x)"))
    rows.append((f"resume, round {args.long}, no positions", f"{whole * 1e3:.0f} ms"))
    short = odds_row(early, args.odds_games, args.repeat)
    late = odds_row(deep, args.odds_games, args.repeat)
    whole = odds_row(folder / "seeds-long-bare.json", args.odds_games, 1)
    label = f"replay --odds {args.odds_games}, one row"
    rows.append((f"{label}, Seeds of Wars, round 2", f"{short:.2f} s"))
    rows.append((f"{label}, round {args.long}", f"{late:.2f} s ({late / short:.2f}x)"))
    rows.append((f"{label}, round {args.long}, no positions", f"{whole:.2f} s"))

    long_game = tug_game(args.tug)
    with_size = saved(long_game, folder / "long.json")
    without_positions(folder / "long.json", folder / "long-bare.json")
    bare_size = (folder / "long-bare.json").stat().st_size
    rows.append((f"save of {args.tug} turns, no positions", f"{bare_size / 1024:.0f} KB"))
    rows.append(("  with positions", f"{with_size / 1024:.0f} KB ({with_size / bare_size:.2f}x)"))
    saved(tug_game(2), folder / "short.json")
    short = resume(folder / "short.json", args.repeat)
    late = resume(folder / "long.json", args.repeat)
    whole = resume(folder / "long-bare.json", args.repeat)
    rows.append(("resume, Tug, turn 2", f"{short * 1e3:.1f} ms"))
    rows.append((f"resume, turn {args.tug}", f"{late * 1e3:.1f} ms ({late / short:.2f}x)"))
    rows.append((f"resume, turn {args.tug}, no positions", f"{whole * 1e3:.0f} ms"))

    from wargame_cli import registry
    from wargame_cli.engine.session import bot_game

    game = bot_game(registry.get("squad-alpha"), 2)
    saved(game, folder / "odds.json")
    without_positions(folder / "odds.json", folder / "odds-bare.json")
    kept = odds(folder / "odds.json", args.odds_games)
    bare = odds(folder / "odds-bare.json", args.odds_games)
    turns = game.runner.turn
    label = f"replay --odds {args.odds_games}, Squad Alpha, {turns} turns"
    rows.append((label, f"{kept:.1f} s (log alone: {bare:.1f} s, {bare / kept:.1f}x)"))

    width = max(len(name) for name, _ in rows)
    for name, value in rows:
        print(f"{name:<{width}}  {value}")
    print(f"best of {args.repeat}; load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
