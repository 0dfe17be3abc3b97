"""How long does a Squad Alpha bot-vs-bot game take, and each decision in it?

1. Whole games through the engine (`bot_game`: seeded dice, logging runner), wall and CPU.
2. Where the time goes: the rules are driven directly and the time the generator takes to
   produce each request is charged to that request's kind (a decision's time includes working
   out the bot's suggestion: destinations, sight lines, walking distances).

    python bench/bench_squad_alpha.py            # 20 games
    python bench/bench_squad_alpha.py --games 5
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from wargame_cli import registry  # noqa: E402
from wargame_cli.engine.dice import RngDice  # noqa: E402
from wargame_cli.engine.requests import Choice, Event, Roll  # noqa: E402
from wargame_cli.engine.session import bot_game  # noqa: E402
from wargame_cli.ruleset import Setup, resolve_options  # noqa: E402

SQUAD = "squad-alpha"


def whole_games(games: int) -> list[tuple[float, float, int, int]]:
    """(wall, cpu, turns, decisions) per game."""
    ruleset = registry.get(SQUAD)
    out = []
    for seed in range(1, games + 1):
        wall, cpu = time.perf_counter(), time.process_time()
        session = bot_game(ruleset, seed)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
        decisions = sum(1 for e in session.runner.log if e["t"] == "choice")
        out.append((wall, cpu, session.runner.turn, decisions))
    return out


def per_request(games: int) -> dict[str, list[float]]:
    """CPU seconds the rules take to produce each request, by kind (choices by their kind)."""
    ruleset = registry.get(SQUAD)
    options = resolve_options(ruleset.options, None)
    teams = {s: ruleset.default_team(s, options)[0] for s in ("A", "B")}
    spent: dict[str, list[float]] = defaultdict(list)
    for seed in range(1, games + 1):
        game = ruleset.new_game(Setup({"A": "A", "B": "B"}, teams), options)
        dice = RngDice(seed)
        gen = game.play()
        answer = None
        while True:
            started = time.process_time()
            try:
                req = gen.send(answer)
            except StopIteration:
                break
            took = time.process_time() - started
            if isinstance(req, Choice):
                spent[f"choice:{req.kind}"].append(took)
                answer = req.default
            elif isinstance(req, Roll):
                spent["roll"].append(took)
                answer = dice.throw(req).faces
            else:
                spent["event" if isinstance(req, Event) else "turn"].append(took)
                answer = None
    return spent


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    args = parser.parse_args()

    runs = whole_games(args.games)
    walls, cpus = [r[0] for r in runs], [r[1] for r in runs]
    turns, decisions = [r[2] for r in runs], [r[3] for r in runs]
    print(f"Squad Alpha, {args.games} bot-vs-bot games (default squads and table)")
    print(
        f"  per game: wall {statistics.mean(walls):.3f} s (median {statistics.median(walls):.3f},"
        f" max {max(walls):.3f}), CPU {statistics.mean(cpus):.3f} s"
    )
    print(
        f"  per game: {statistics.mean(turns):.1f} turns, {statistics.mean(decisions):.0f} "
        f"decisions; CPU per decision (whole game / decisions): "
        f"{1000 * sum(cpus) / sum(decisions):.1f} ms"
    )

    spent = per_request(min(args.games, 5))
    print("  time to produce each request (CPU, rules + bot suggestion):")
    print(f"    {'request':<18}{'count':>7}{'mean ms':>10}{'max ms':>10}{'share':>8}")
    total = sum(sum(v) for v in spent.values())
    for kind, times in sorted(spent.items(), key=lambda kv: -sum(kv[1])):
        print(
            f"    {kind:<18}{len(times):>7}{1000 * statistics.mean(times):>10.2f}"
            f"{1000 * max(times):>10.2f}{sum(times) / total:>8.0%}"
        )


if __name__ == "__main__":
    main()
