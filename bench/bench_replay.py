"""How much does replaying a save cost beyond the rules themselves?

For each ruleset, one seeded bot-vs-bot game is saved, then timed, in process, best of
--repeat runs:

- rules alone: the ruleset's game generator fed the log's faces and decisions, nothing else;
- +judged: the same, with each decision judged legal and labelled as a verify does it
  (`Choice.refusal` and `label_of`: the whole menu, or for a move only as much of it as
  reaches the recorded spot);
- `replay --verify` (`games.verify`: load, check, replay through the Runner);
- `replay --no-input` with its output going to a file (not a terminal), every line told but
  a picture beside a line (a grid after a move) only once a turn for each kind of entry;
  and, for comparison, the same replay as on a terminal, where each
  entry goes through the ruleset's view (Seeds of Wars draws the grid after every move).

Goals (issue 13, goal 3): verify <= 1.5x the rules alone (bots are never run: a Choice's
suggestion is computed only when someone asks for it), and no-input replay far below the
6.8x of verify it cost when the grid was redrawn after every move of a large Seeds of Wars
battle.

    python bench/bench_replay.py
    python bench/bench_replay.py --repeat 3 --seed 7
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import io
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame_cli import registry  # noqa: E402
from wargame_cli.engine.requests import Choice, Roll  # noqa: E402
from wargame_cli.engine.session import bot_game  # noqa: E402
from wargame_cli.saves import games, store  # noqa: E402

LARGE_SEEDS = ["columns=5", "battle_lines=2", "army_size=12"]  # a large Seeds of Wars battle
LONG_TUG = 19  # a Tug of WarGods game with many pulls (92 log entries; seed 7 gives 12)


def rules_alone(ruleset, data: dict, judged: bool = False) -> None:
    """The generator answered straight from the log: the floor any replay stands on.
    `judged`: each decision is judged legal and labelled too, as a verify does it."""
    from wargame_cli.ruleset import Setup, resolve_options

    options = resolve_options(ruleset.options, data["options"])
    teams = {s: ruleset.team_from_data(data["setup"]["teams"][s], options) for s in "AB"}
    game = ruleset.new_game(Setup(names=data["setup"]["names"], teams=teams), options)
    gen = game.play()
    answers = [
        tuple(e["faces"]) if e["t"] == "roll" else e["key"] if e["t"] == "choice" else None
        for e in data["log"]
        if e["t"] != "end"
    ]
    req = gen.send(None)
    try:
        for answer in answers:
            expected = (
                Roll if isinstance(req, Roll) else Choice if isinstance(req, Choice) else None
            )
            assert expected is None or answer is not None
            if judged and expected is Choice:
                req.legal(answer)
                req.label_of(answer)
            req = gen.send(answer)
    except StopIteration:
        pass


def timed(fn) -> float:
    gc.collect()
    started = time.perf_counter()
    fn()
    return time.perf_counter() - started


def best(fns: list, repeat: int) -> list[float]:
    """Best of `repeat` for each function, run in turn so load and caches fall on all alike."""
    times = [[timed(fn) for fn in fns] for _ in range(repeat)]
    return [min(run[i] for run in times) for i in range(len(fns))]


def no_input_replay(path: Path, terminal: bool = False) -> None:
    """`replay --no-input` into a file; `terminal`: as on a terminal (every entry's view)."""
    from rich.console import Console

    from wargame_cli.cli import replay

    sink = io.StringIO()
    shown = Console(file=sink, force_terminal=terminal, width=120)
    real = replay.console
    replay.console = lambda stderr=False: shown
    try:
        with contextlib.redirect_stdout(sink):
            replay.replay(path, False, True, None, False, False)
    finally:
        replay.console = real


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    games_to_time = [(info.id, None, args.seed, "") for info in registry.all_infos()]
    games_to_time.append(("seeds-of-wars", LARGE_SEEDS, args.seed, " (large)"))
    games_to_time.append(("tug-of-wargods", None, LONG_TUG, f" (seed {LONG_TUG})"))
    print(f"load average {os.getloadavg()[0]:.1f}; best of {args.repeat}, seed {args.seed}")
    heads = ("entries", "rules", "+judged", "verify", "ratio", "/judged", "no-input", "/verify")
    print(f"{'game':30} " + " ".join(f"{h:>8}" for h in heads) + "  terminal  /verify")
    worst = 0.0
    with tempfile.TemporaryDirectory() as folder:
        for ruleset_id, options, seed, label in games_to_time:
            ruleset = registry.get(ruleset_id)
            session = bot_game(ruleset, seed, options)
            path = Path(folder) / f"{ruleset_id}.json"
            games.save(session, path)
            data = store.load(path)
            rules, judged, verify, shown, every = best(
                [
                    lambda ruleset=ruleset, data=data: rules_alone(ruleset, data),
                    lambda ruleset=ruleset, data=data: rules_alone(ruleset, data, judged=True),
                    lambda path=path: games.verify(path),
                    lambda path=path: no_input_replay(path),
                    lambda path=path: no_input_replay(path, terminal=True),
                ],
                args.repeat,
            )
            worst = max(worst, verify / rules)
            ms = [f"{t * 1e3:6.1f}ms" for t in (rules, judged, verify)]
            ratios = [f"{verify / rules:7.2f}x", f"{verify / judged:7.2f}x"]
            print(
                f"{ruleset_id + label:30} {len(data['log']):8d} {' '.join(ms + ratios)} "
                f"{shown * 1e3:6.1f}ms {shown / verify:7.2f}x {every * 1e3:7.1f}ms "
                f"{every / verify:6.2f}x"
            )
    print(f"worst verify / rules alone: {worst:.2f}x (goal <= 1.5x)")


if __name__ == "__main__":
    main()
