"""`simulate --cluster ADDRESS`: the same chunks of games on a Dask distributed cluster (an
existing scheduler, or `local`: one started on this machine for the run), tallied in the
same order as on this machine's cores, so a seed gives the same result anywhere.

Dask is an optional extra (`pip install -e '.[cluster]'`), imported only here and only
when `--cluster` is given. Why Dask rather than Ray: bench/README.md.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from wargame_cli import extras
from wargame_cli.errors import BadInput
from wargame_cli.ruleset import Ruleset
from wargame_cli.simulate.batch import Job, Progress, Stopped, Tally, cores, play_chunk, tasks

CONNECT_SECONDS = 10  # a scheduler that has not answered by then is not there
LOCAL = "local"
Runner = Callable[[list[Job], Ruleset, int | None, Progress | None], list[Tally]]
_LOADED: dict[str, Ruleset] = {}  # per worker process: each ruleset loaded once


def play_task(job: Job, start: int, stop: int) -> Tally:
    """One chunk, on a cluster worker (the ruleset loaded by id there, once)."""
    from wargame_cli import registry

    ruleset = _LOADED.get(job.ruleset_id)
    if ruleset is None:
        ruleset = _LOADED[job.ruleset_id] = registry.get(job.ruleset_id)
    return play_chunk(ruleset, job, start, stop)


def runner(address: str) -> Runner:
    """A `batch.run_all` that plays on the cluster at `address` (or a local one)."""
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise BadInput(extras.needs("cluster", "--cluster")) from None

    def run(
        jobs: list[Job], ruleset: Ruleset, workers: int | None, progress: Progress | None
    ) -> list[Tally]:
        with connected(address, workers) as client:
            return on(client, jobs, progress)

    return run


@contextmanager
def connected(address: str, workers: int | None) -> Iterator[Any]:
    """A client of the scheduler at `address`; `local`: a cluster of `workers` processes
    (default: every core), one thread each, listening on this machine only."""
    import logging

    from distributed import Client, LocalCluster

    # the cluster's own chatter (workers joining, heartbeats cut short at shutdown) is not
    # the player's business: only the result, or one line for an error, reaches the terminal
    logging.getLogger("distributed").setLevel(logging.CRITICAL)
    if address == LOCAL:
        with (
            LocalCluster(
                n_workers=workers or cores(),
                threads_per_worker=1,
                processes=True,
                host="127.0.0.1",
                dashboard_address=None,
                silence_logs=logging.CRITICAL,
            ) as cluster,
            Client(cluster) as client,
        ):
            yield client
        return
    try:
        _listening(address)
        client = Client(address, timeout=CONNECT_SECONDS)
    except (OSError, TimeoutError, ValueError) as exc:
        raise BadInput(f"--cluster {address}: no Dask scheduler answers there ({exc})") from None
    with client:
        yield client


def on(client: Any, jobs: list[Job], progress: Progress | None) -> list[Tally]:
    """Every chunk submitted at once; tallies added in the order the chunks were made."""
    work = tasks(jobs)
    totals = [Tally() for _ in jobs]
    futures = [
        client.submit(play_task, jobs[n], start, stop, pure=False) for n, start, stop in work
    ]
    try:
        for (n, start, stop), future in zip(work, futures, strict=True):
            totals[n].merge(future.result())
            if progress is not None:
                progress(stop - start)
    except KeyboardInterrupt:
        client.cancel(futures)
        raise Stopped(totals) from None
    return totals


def _listening(address: str) -> None:
    """A `tcp://HOST:PORT` where nothing listens is told at once (a refused connection), not
    after Dask's `CONNECT_SECONDS` of retries; other addresses are left to Dask."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(address)
    if parts.scheme != "tcp" or parts.hostname is None or parts.port is None:
        return
    with socket.create_connection((parts.hostname, parts.port), timeout=CONNECT_SECONDS):
        pass
