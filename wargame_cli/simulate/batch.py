"""Running a simulation: games cut into fixed chunks, played in this process or spread over
worker processes, and tallied in chunk order.

Chunk boundaries depend only on the number of games, and each chunk draws its dice from its own
stream (`stream_seed(seed, chunk start)`), so one worker and many workers play the same games
and add them up in the same order. One generator per chunk, not per game: seeding a generator
costs as much as a quarter of a Tug of WarGods game.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.engine.fast import face_source, play_any, stream_seed
from wargame_cli.ruleset import Ruleset, Setup

Progress = Callable[[int], None]  # called with the number of games just finished


@dataclass(frozen=True)
class Job:
    """Everything a worker needs, all of it picklable: the ruleset is loaded by id there."""

    ruleset_id: str
    setup: Setup
    options: dict[str, Any]
    seed: int
    games: int
    answers: tuple[Any, ...] | None = None  # a saved log's answers to play on from (--from)


@dataclass
class Tally:
    """What the games of a chunk (or a whole run) came to.

    `results` counts (winner, turns, how it ended) triples: one dict update per game, and
    every figure the report needs is derived from it afterwards. `figures` holds sums of the
    ruleset's own per-game numbers (see `game_figures`) and how many games gave each.
    """

    results: Counter[tuple[str | None, int, str]] = field(default_factory=Counter)
    figures: dict[str, float] = field(default_factory=dict)
    figure_games: Counter[str] = field(default_factory=Counter)

    @property
    def games(self) -> int:
        return sum(self.results.values())

    def merge(self, other: Tally) -> None:
        self.results.update(other.results)
        for name, value in other.figures.items():
            self.figures[name] = self.figures.get(name, 0.0) + value
        self.figure_games.update(other.figure_games)


def chunk_size(games: int) -> int:
    """About a hundred chunks (progress steps), at most a thousand games each."""
    return max(1, min(1000, math.ceil(games / 100)))


def chunks(games: int) -> Iterator[tuple[int, int]]:
    size = chunk_size(games)
    for start in range(0, games, size):
        yield start, min(games, start + size)


def ending(outcome: Any) -> str:
    """How a game ended, by the rule points it names (reason text names teams and models)."""
    return "+".join(outcome.rules) if outcome.rules else outcome.reason


def game_figures(ruleset: Ruleset, game: Any, outcome: Any) -> dict[str, float]:
    """The ruleset's own numbers for one finished game, flattened to dotted names.

    From the optional hook `ruleset.sim_figures(game, outcome)` (e.g. survivors counted from
    `game.state_json()`), else from `outcome.data`: numbers as they are and lists by their
    length, so `{"standing": {"A": [...], "B": [...]}}` reports survivors per side with no
    code in the ruleset. Text and flags are left out.
    """
    hook = getattr(ruleset, "sim_figures", None)
    raw = hook(game, outcome) if hook is not None else outcome.data
    out: dict[str, float] = {}
    if isinstance(raw, dict):
        for name, value in raw.items():
            _flatten(str(name), value, out, depth=1)
    return out


def _flatten(name: str, value: Any, out: dict[str, float], depth: int) -> None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        out[name] = float(value)
    elif isinstance(value, list | tuple):
        out[name] = float(len(value))
    elif isinstance(value, dict) and depth < 3:
        for key, inner in value.items():
            _flatten(f"{name}.{key}", inner, out, depth + 1)


def play_chunk(ruleset: Ruleset, job: Job, start: int, stop: int) -> Tally:
    """Games `start` to `stop - 1` of the job, in index order."""
    tally = Tally()
    results = tally.results
    new_game, setup, options, seed = ruleset.new_game, job.setup, job.options, job.seed
    wants_figures = hasattr(ruleset, "sim_figures")
    below = face_source(stream_seed(seed, start))
    many = getattr(ruleset, "fast_games", None)
    if job.answers is not None:  # every game goes on from a saved position
        from wargame_cli.simulate.from_save import play_from

        answers = job.answers
        many = None
    if many is not None and not wants_figures:
        # The ruleset plays game after game itself (see Ruleset.fast_games).
        for (outcome, turns), _ in zip(
            many(setup, options, below), range(start, stop), strict=False
        ):
            results[(outcome.winner, turns, ending(outcome))] += 1
            if outcome.data:
                for name, value in game_figures(ruleset, None, outcome).items():
                    tally.figures[name] = tally.figures.get(name, 0.0) + value
                    tally.figure_games[name] += 1
        return tally
    for _ in range(start, stop):
        game = new_game(setup, options)
        played = (
            play_any(ruleset, game, below)
            if job.answers is None
            else play_from(game, answers, below)
        )
        outcome = played.outcome
        results[(outcome.winner, played.turns, ending(outcome))] += 1
        if wants_figures or outcome.data:
            for name, value in game_figures(ruleset, game, outcome).items():
                tally.figures[name] = tally.figures.get(name, 0.0) + value
                tally.figure_games[name] += 1
    return tally


def run(job: Job, ruleset: Ruleset, workers: int = 1, progress: Progress | None = None) -> Tally:
    """Play the job's games; `progress` hears of every finished chunk."""
    total = Tally()
    workers = worker_count(workers, job.games)
    if workers <= 1 or job.games <= chunk_size(job.games):
        for start, stop in chunks(job.games):
            total.merge(play_chunk(ruleset, job, start, stop))
            if progress is not None:
                progress(stop - start)
        return total
    for tally in _in_workers(job, workers, progress):
        total.merge(tally)
    return total


def worker_count(asked: int, games: int) -> int:
    """Never more processes than chunks of games to hand out, nor than the machine's cores."""
    import os

    parts = -(-games // chunk_size(games)) if games > 0 else 1
    return max(1, min(asked, parts, os.cpu_count() or 1))


# -- worker processes -----------------------------------------------------------------------
_WORKER: dict[str, Any] = {}


def _worker_init(job: Job) -> None:
    """Load the ruleset once per process. Ctrl-C is the parent's to handle: workers ignore it
    (no traceback per process) and the parent cancels the chunks not yet started."""
    import signal

    from wargame_cli import registry

    signal.signal(signal.SIGINT, signal.SIG_IGN)

    _WORKER["job"] = job
    _WORKER["ruleset"] = registry.get(job.ruleset_id)


def _worker_chunk(start: int, stop: int) -> Tally:
    return play_chunk(_WORKER["ruleset"], _WORKER["job"], start, stop)


def _in_workers(job: Job, workers: int, progress: Progress | None) -> Iterator[Tally]:
    """Chunks spread over processes, a few per worker in flight (memory stays flat for any
    number of games); tallies handed back in chunk order, so sums of figures are added in
    the same order as with one worker."""
    import multiprocessing
    from collections import deque
    from concurrent.futures import Future, ProcessPoolExecutor

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    parts = chunks(job.games)
    in_flight: deque[tuple[Future[Tally], int]] = deque()
    with ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context(method),
        initializer=_worker_init,
        initargs=(job,),
    ) as pool:

        def refill() -> None:
            while len(in_flight) < 4 * workers:
                part = next(parts, None)
                if part is None:
                    return
                in_flight.append((pool.submit(_worker_chunk, *part), part[1] - part[0]))

        try:
            refill()
            while in_flight:
                future, size = in_flight.popleft()
                tally = future.result()
                refill()
                if progress is not None:
                    progress(size)
                yield tally
        except KeyboardInterrupt:
            pool.shutdown(wait=False, cancel_futures=True)
            raise
