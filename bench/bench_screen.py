"""How long does it take to redraw a decision screen?

For every ruleset, a bot game is played to a mid-game decision; then the whole screen above the
question is laid out and drawn from scratch (board re-rendered by rich, the card, what happened
since, written to a terminal) at 80x24 and 120x45, many times. The largest board sets the
figure to watch.

    python bench/bench_screen.py
Goal (issue 10): under 50 ms for the largest board, so a redraw never feels slower than
scrolling.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from prompt_toolkit.data_structures import Size  # noqa: E402
from prompt_toolkit.output.vt100 import Vt100_Output  # noqa: E402
from rich.console import Console  # noqa: E402

from wargame_cli import registry  # noqa: E402
from wargame_cli.engine.bots import BotController  # noqa: E402
from wargame_cli.engine.dice import RngDice  # noqa: E402
from wargame_cli.engine.requests import Choice  # noqa: E402
from wargame_cli.engine.session import start  # noqa: E402
from wargame_cli.ruleset import SIDES, Setup, resolve_options  # noqa: E402
from wargame_cli.ui.screen import DecisionScreen  # noqa: E402

RULESETS = ["tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale"]
SIZES = [(80, 24), (120, 45)]
NOWHERE = open(os.devnull, "w")  # noqa: SIM115 (the terminal the screens are written to)


def mid_game(ruleset_id: str) -> tuple[DecisionScreen, Choice | None]:
    """A bot game played to its 40th decision (or its end), followed by a decision screen."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    screen = DecisionScreen(ruleset, names, Console(force_terminal=True, color_system="truecolor"))
    bots = {side: BotController() for side in SIDES}
    session = start(ruleset, Setup(names=names, teams=teams), options, 7, RngDice(7), bots, None)
    runner = session.runner
    runner.observer = screen.observe
    decisions, last = 0, None
    while runner.pending is not None and decisions < 40:
        if isinstance(runner.pending, Choice):
            decisions += 1
            last = runner.pending
            if decisions % 7 == 0:
                screen.mark(last.side)
        runner.step()
    choice = runner.pending if isinstance(runner.pending, Choice) else last
    screen.game = session.game
    return screen, choice


def redraw(
    screen: DecisionScreen, choice: Choice | None, width: int, height: int
) -> tuple[float, float]:
    """Seconds (wall, CPU) to lay out and write one screen after the game moved on: the board,
    the card and the recent events all drawn afresh (only the full board's height, learned
    once per terminal width, is kept)."""
    output = Vt100_Output(NOWHERE, lambda: Size(rows=height, columns=width))
    for cache in screen._boards.values():
        cache.key = None
    screen._recent.clear()
    started, cpu = time.perf_counter(), time.process_time()
    layout = screen.compose(width, height, 1, 6, choice, getattr(choice, "side", None))
    output.erase_screen()
    output.write_raw("\r\n".join(layout.lines))
    output.flush()
    return time.perf_counter() - started, time.process_time() - cpu


def main() -> None:
    worst = (0.0, "")
    worst_cpu = (0.0, "")
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(f"{'ruleset':18} {'size':>7} {'median':>9} {'max':>9} {'CPU':>9}  board")
    for ruleset_id in RULESETS:
        screen, choice = mid_game(ruleset_id)
        for width, height in SIZES:
            redraw(screen, choice, width, height)  # warm: imports, fonts of rich
            runs = [redraw(screen, choice, width, height) for _ in range(15)]
            times = [wall for wall, _ in runs]
            cpu = statistics.median(c for _, c in runs) * 1000
            layout = screen.compose(width, height, 1, 6, choice, getattr(choice, "side", None))
            median = statistics.median(times) * 1000
            print(
                f"{ruleset_id:18} {width:>3}x{height:<3} {median:7.1f} ms {max(times) * 1000:7.1f}"
                f" ms {cpu:6.1f} ms  {layout.board or '-'} ({len(layout.lines)} lines)"
            )
            worst = max(worst, (median, f"{ruleset_id} at {width}x{height}"))
            worst_cpu = max(worst_cpu, (cpu, f"{ruleset_id} at {width}x{height}"))
    for what, (ms, where) in (("wall", worst), ("CPU", worst_cpu)):
        verdict = "met" if ms < 50 else "NOT met"
        print(f"slowest redraw ({what}): {ms:.1f} ms ({where}); goal < 50 ms: {verdict}")


if __name__ == "__main__":
    main()
