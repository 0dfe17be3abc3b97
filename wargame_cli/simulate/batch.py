"""Running a simulation: games cut into chunks, played in this process or spread over
worker processes, and tallied in chunk order.

Every game draws its dice from its own stream, `stream_seed(seed, game index)`: game i is the
same game whatever the number of games, of workers or of chunks, so `--games 401` extends
`--games 400`, a `--compare`'s first setting is the plain run, and two saved runs pair their
games by those seeds (`--diff`).
Chunks only hand the work out; they are added up in chunk order, so sums of figures are too.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.engine.fast import face_streams, play_fast, stream_seed
from wargame_cli.ruleset import GameFacts, Ruleset, Setup
from wargame_cli.simulate import levels

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
    at: dict[str, Any] | None = None  # the position those answers start from (None: the start)
    offset: int = 0  # the first game's index in the run's streams (the second seat's half)
    paired: bool = False  # each game's winner and length kept: settings compared on them
    record: bool = False  # each game kept as a row (`--csv`, `--out`)
    # each side's bot level (`--bot-level`), where one is not the default: such games are
    # played through the runner (a search clones positions), the default's stay on play_fast
    levels: dict[str, str] | None = None


Task = tuple[int, int, int]  # a job's index in the run, and the games start to stop - 1


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
    sequence: list[tuple[str | None, int]] = field(default_factory=list)  # paired jobs only
    # per unit type (`Ruleset.sim_watcher`): [games, fielded, kills, deaths, damage, damaged]
    units: dict[str, list[float]] = field(default_factory=dict)
    # (contest, how the side that won it fared: "won", "lost", "draw") -> games
    firsts: Counter[tuple[str, str]] = field(default_factory=Counter)
    rows: list[dict[str, Any]] = field(default_factory=list)  # recording jobs only: per game

    @property
    def games(self) -> int:
        return sum(self.results.values())

    def merge(self, other: Tally) -> None:
        self.results.update(other.results)
        for name, value in other.figures.items():
            self.figures[name] = self.figures.get(name, 0.0) + value
        self.figure_games.update(other.figure_games)
        self.sequence.extend(other.sequence)
        for kind, row in other.units.items():
            mine = self.units.setdefault(kind, [0.0] * len(row))
            for i, value in enumerate(row):
                mine[i] += value
        self.firsts.update(other.firsts)
        self.rows.extend(other.rows)

    def add_facts(self, facts: GameFacts, winner: str | None) -> None:
        """One game's facts: its units by type, and how each contest's winner fared."""
        seen: set[str] = set()
        for unit in facts.units:
            row = self.units.setdefault(unit.kind, [0.0] * 6)
            if unit.kind not in seen:
                seen.add(unit.kind)
                row[0] += 1
            row[1] += 1
            row[2] += unit.kills
            row[3] += unit.died
            if unit.damage is not None:
                row[4] += unit.damage
                row[5] += 1
        for contest, side in facts.firsts.items():
            fared = "draw" if winner is None else "won" if winner == side else "lost"
            self.firsts[(contest, fared)] += 1


MIN_CHUNK = 4  # games: a chunk's dice stream costs as much to seed as a quarter of a game,
# and a worker handed one game at a time waits on the slowest of them


def chunk_size(games: int) -> int:
    """About a hundred chunks (progress steps), at least 4 and at most a thousand games each."""
    return max(MIN_CHUNK, min(1000, math.ceil(games / 100)))


def chunks(games: int) -> Iterator[tuple[int, int]]:
    size = chunk_size(games)
    for start in range(0, games, size):
        yield start, min(games, start + size)


def ending(outcome: Any) -> str:
    """How a game ended: its cause and the rule points it names, e.g. `surrendered (d16+d17)`
    (the reason's text names teams and models, so it is not used)."""
    rules = "+".join(outcome.rules)
    cause = outcome.cause
    if cause:
        return f"{cause} ({rules})" if rules else cause
    return rules or outcome.reason


def game_figures(ruleset: Ruleset, game: Any, outcome: Any) -> dict[str, float]:
    """The ruleset's own numbers for one finished game, flattened to dotted names.

    From the hook `ruleset.sim_figures(game, outcome)` (e.g. survivors counted from
    `game.state_json()`; `game` is None for games `fast_games` played), else (the hook's
    default, None) from `outcome.data`: numbers as they are and lists by their length, so
    `{"standing": {"A": [...], "B": [...]}}` reports survivors per side with no code in the
    ruleset. Text and flags are left out.
    """
    raw = ruleset.sim_figures(game, outcome)
    if raw is None:
        raw = outcome.data
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
    """Games `start` to `stop - 1` of the job, in index order, each on its own stream
    `stream_seed(seed, offset + index)` (common random numbers: game i of one setting draws
    the dice game i of another draws, however long the games before it ran)."""
    tally = Tally()
    plain = job.answers is None and not job.levels
    # One source of faces, reseeded for each game's stream; a ruleset that plays game after
    # game itself (Ruleset.fast_games, which deploys each game afresh) is handed it once.
    below, reseed = face_streams()
    fast = ruleset.fast_games(job.setup, job.options, below) if plain else None
    many = iter(fast) if fast is not None else None
    for index in range(start, stop):
        game_seed = stream_seed(job.seed, job.offset + index)
        reseed(game_seed)
        if many is None:
            _play_one(ruleset, job, below, tally, (index, game_seed))
            continue
        outcome, turns = next(many)
        figures = game_figures(ruleset, None, outcome)
        _add_game(tally, job, outcome, turns, figures, None, (index, game_seed))
    return tally


def _play_one(
    ruleset: Ruleset,
    job: Job,
    below: Callable[[int], int],
    tally: Tally,
    which: tuple[int, int],
) -> None:
    """One game by the one driver, added to `tally` with its figures and (when the ruleset
    watches its games, and not after a saved log's answers) its facts."""
    if job.levels and not job.answers and job.at is None:
        game, played = levels.played(ruleset, job, below, which[1])
        watcher = None
    else:
        if job.at is not None:
            game = ruleset.new_game_at(job.setup, job.options, job.at)
        else:
            game = ruleset.new_game(job.setup, job.options)
        watcher = ruleset.sim_watcher() if not job.answers else None
        on_event = watcher.event if watcher is not None else None
        played = play_fast(game, below, answers=job.answers or (), on_event=on_event)
    outcome = played.outcome
    facts = watcher.facts(game, outcome) if watcher is not None else None
    if facts is not None:
        tally.add_facts(facts, outcome.winner)
    figures = game_figures(ruleset, game, outcome)
    _add_game(tally, job, outcome, played.turns, figures, facts, which)


def _add_game(
    tally: Tally,
    job: Job,
    outcome: Any,
    turns: int,
    figures: dict[str, float],
    facts: GameFacts | None,
    which: tuple[int, int],
) -> None:
    how = ending(outcome)
    tally.results[(outcome.winner, turns, how)] += 1
    if job.paired:
        tally.sequence.append((outcome.winner, turns))
    _add_figures(tally, figures)
    if job.record:
        index, game_seed = which
        row: dict[str, Any] = {
            "game": job.offset + index,
            "seed": game_seed,
            "winner": outcome.winner or "draw",
            "ending": how,
            "length": turns,
            **figures,
        }
        if facts is not None:
            row.update(unit_figures(facts))
        tally.rows.append(row)


def unit_figures(facts: GameFacts) -> dict[str, float]:
    """One game's figures per unit type and side: `Knights.A.kills`, `.deaths`, `.fielded`
    (and `.damage` where the ruleset tells it)."""
    out: dict[str, float] = {}
    for unit in facts.units:
        key = f"{unit.kind}.{unit.side}"
        for name, value in (("fielded", 1), ("kills", unit.kills), ("deaths", unit.died)):
            out[f"{key}.{name}"] = out.get(f"{key}.{name}", 0.0) + float(value)
        if unit.damage is not None:
            out[f"{key}.damage"] = out.get(f"{key}.damage", 0.0) + float(unit.damage)
    return out


def _add_figures(tally: Tally, figures: dict[str, float]) -> None:
    for name, value in figures.items():
        tally.figures[name] = tally.figures.get(name, 0.0) + value
        tally.figure_games[name] += 1


class Stopped(Exception):
    """Ctrl-C during a run: the tallies of the games finished so far (each job's first games,
    in order), for the partial result."""

    def __init__(self, tallies: list[Tally]) -> None:
        super().__init__("stopped")
        self.tallies = tallies


def run(job: Job, ruleset: Ruleset, workers: int = 1, progress: Progress | None = None) -> Tally:
    """Play the job's games; `progress` hears of every finished chunk."""
    return run_all([job], ruleset, workers, progress)[0]


def tasks(jobs: list[Job]) -> list[Task]:
    """Every job's chunks, the jobs' first chunks first: a run stopped early has played the
    first games of every setting, not every game of the first settings."""
    every = [(n, start, stop) for n, job in enumerate(jobs) for start, stop in chunks(job.games)]
    return sorted(every, key=lambda task: (task[1], task[0]))


def run_all(
    jobs: list[Job], ruleset: Ruleset, workers: int | None = None, progress: Progress | None = None
) -> list[Tally]:
    """Play every job's games (settings, seats, pairings of one ruleset) over `workers`
    processes (None: the machine's cores); one tally per job, each added up in chunk order
    so any number of workers gives the same result. Ctrl-C raises `Stopped` with what was
    finished."""
    totals = [Tally() for _ in jobs]
    work = tasks(jobs)
    games = sum(job.games for job in jobs)
    count = worker_count(cores() if workers is None else workers, games, len(work))
    try:
        if count <= 1 or len(work) <= 1:
            for n, start, stop in work:
                totals[n].merge(play_chunk(ruleset, jobs[n], start, stop))
                if progress is not None:
                    progress(stop - start)
        else:
            for (n, _, _), tally in zip(
                work, _in_workers(jobs, ruleset, count, progress), strict=False
            ):
                totals[n].merge(tally)
    except KeyboardInterrupt:
        raise Stopped(totals) from None
    return totals


def cores() -> int:
    """The machine's cores: how many workers `simulate` starts unless told."""
    import os

    return os.cpu_count() or 1


def worker_count(asked: int, games: int, parts: int | None = None) -> int:
    """Never more processes than chunks of games to hand out, nor than the machine's cores."""
    if parts is None:
        parts = -(-games // chunk_size(games)) if games > 0 else 1
    return max(1, min(asked, parts, cores()))


# -- worker processes -----------------------------------------------------------------------
_WORKER: dict[str, Any] = {}
WATCH_SECONDS = 0.5  # how often a worker checks that the process that started it still runs


def _worker_init(jobs: list[Job]) -> None:
    """Load the ruleset once per process (a forked worker finds it, and the tables' memos
    the first chunk warmed, already loaded). Ctrl-C is the parent's to handle: workers
    ignore it (no traceback per process) and the parent stops them. A worker whose parent
    is gone, however it ended, stops too."""
    import signal

    from wargame_cli import registry

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    _hold(signal.SIG_UNBLOCK)  # held by the parent while it built the pool
    _WORKER["jobs"] = jobs
    _WORKER["ruleset"] = registry.get(jobs[0].ruleset_id)
    _watch_parent()


def _watch_parent() -> None:
    import os
    import threading
    import time

    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(WATCH_SECONDS)
        os._exit(1)

    threading.Thread(target=watch, name="parent-watch", daemon=True).start()


def _worker_chunk(task: Task) -> Tally:
    n, start, stop = task
    return play_chunk(_WORKER["ruleset"], _WORKER["jobs"][n], start, stop)


class _Terminated(SystemExit):
    """SIGTERM reached `simulate`: stop the workers, then exit 143 like an unhandled SIGTERM."""


def _on_sigterm(signum: int, frame: Any) -> None:
    raise _Terminated(128 + signum)


def _in_workers(
    jobs: list[Job], ruleset: Ruleset, workers: int, progress: Progress | None
) -> Iterator[Tally]:
    """Chunks spread over processes; tallies handed back in chunk order, so sums of figures
    are added in the same order as with one worker.

    This process plays the first chunk itself before the workers are forked: its games
    warm the memos every game shares (sight lines, walks, deployment cells, kept on the
    table), so no worker starts cold and the CPU spent stays close to one worker's. However
    the run stops (Ctrl-C, SIGTERM, an error), the workers are terminated with it."""
    import multiprocessing
    import signal
    import threading

    parts = iter(tasks(jobs))
    n, start, stop = next(parts)
    first = play_chunk(ruleset, jobs[n], start, stop)
    if progress is not None:
        progress(stop - start)
    yield first

    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    main = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _on_sigterm) if main else None
    # Ctrl-C or SIGTERM while the pool is being built would leave workers no one stops:
    # hold both until it is built (the workers let them through again in `_worker_init`).
    _hold(signal.SIG_BLOCK)
    pool = None
    try:
        pool = multiprocessing.get_context(method).Pool(
            processes=workers, initializer=_worker_init, initargs=(jobs,)
        )
        _hold(signal.SIG_UNBLOCK)
        for tally in pool.imap(_worker_chunk, parts):
            if progress is not None:
                progress(tally.games)
            yield tally
        pool.close()
    finally:
        _hold(signal.SIG_UNBLOCK)
        if pool is not None:
            pool.terminate()
            pool.join()
        if main:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


def _hold(how: int) -> None:
    """Block or unblock Ctrl-C and SIGTERM for this thread (where the platform can)."""
    import signal

    mask = getattr(signal, "pthread_sigmask", None)
    if mask is not None:
        mask(how, {signal.SIGINT, signal.SIGTERM})
