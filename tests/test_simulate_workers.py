"""`simulate --workers`: the workers stop with the command however it is stopped, chunks are
never smaller than four games, and the parent's first chunk warms what the workers share."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_simulate_runs import default_job
from wargame_cli import registry
from wargame_cli.simulate import batch
from wargame_cli.simulate.summary import summarise
from wargame_cli.tabletop.table import forget_memos

LINUX = Path("/proc/self/task").is_dir()


def _children(pid: int) -> set[int]:
    """Live child processes of `pid` (Linux: /proc)."""
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            found |= {int(c) for c in (task / "children").read_text().split()}
        except OSError:
            continue
    return found


def _running(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] not in ("Z", "X")  # a zombie is not running


@pytest.mark.skipif(not LINUX, reason="reads the process tree from /proc")
@pytest.mark.parametrize("how", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
def test_stopping_simulate_stops_its_workers(tmp_path, how):
    command = [sys.executable, "-m", "wargame_cli", "simulate", "squad-alpha"]
    command += ["--games", "400", "--seed", "5", "--workers", "2", "--json"]
    parent = subprocess.Popen(
        command,
        cwd=tmp_path,
        env={**os.environ, "WARGAME_SAVES_DIR": str(tmp_path / "saves")},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        # as from a terminal: a run started in the background inherits SIGINT ignored
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        workers: set[int] = set()
        deadline = time.monotonic() + 60
        while len(workers) < 2 and time.monotonic() < deadline and parent.poll() is None:
            time.sleep(0.1)
            workers = _children(parent.pid)
        assert len(workers) == 2, "the two workers never started"
        parent.send_signal(how)
        code = parent.wait(timeout=30)
        deadline = time.monotonic() + 10
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_running(w) for w in workers), f"workers outlived the command ({how!r})"
    finally:
        if parent.poll() is None:
            parent.kill()
            parent.wait()
    said = parent.stderr.read()
    if how != signal.SIGKILL:  # Ctrl-C exits 130, SIGTERM 143, quietly
        assert code == (130 if how == signal.SIGINT else 128 + signal.SIGTERM)
        assert "Traceback" not in said


def test_chunks_hold_at_least_four_games():
    for games in (1, 4, 5, 9, 399, 401, 10_000):
        sizes = [stop - start for start, stop in batch.chunks(games)]
        assert sum(sizes) == games
        assert all(size >= batch.MIN_CHUNK for size in sizes[:-1])
        assert sizes[0] == min(games, batch.chunk_size(games))


def test_first_chunk_is_played_before_the_workers_and_warms_the_table():
    """The parent plays chunk 0 itself, so the table's memos (sight lines, walks) are warm
    when the workers fork; the tallies still add up to the one-worker run's."""
    ruleset = registry.get("mobs-and-morale")
    job = default_job("mobs-and-morale", 8, 11)
    table = ruleset.new_game(job.setup, job.options).state.table  # one object per table
    forget_memos(table)
    heard: list[int] = []
    parts = batch._in_workers([job], ruleset, 2, heard.append)
    first = next(parts)
    assert first.games == 4 and heard == [4]
    assert table.memos.get("walk")  # warmed before any fork
    rest = list(parts)
    assert [t.games for t in rest] == [4] and heard == [4, 4]
    one = batch.run(job, ruleset, workers=1)
    merged = batch.Tally()
    for tally in (first, *rest):
        merged.merge(tally)
    assert summarise(merged) == summarise(one)
