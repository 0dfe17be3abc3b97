"""Random-legal conformance (OpenSpiel's RandomSimulation) over every registered ruleset:
seeded games where every decision is a random legal key (typed spots and keys the menu
disables tried too), checked as they go: the log so far replays to the same state at sampled
steps, a take-back leaves exactly the log (and state) without the decision, a save between
two turns resumes to the same end, and the final save verifies, through the library and
through `wargame replay --verify`. `bench/random_legal.py` plays more and longer games."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from wargame_cli.testing.random_play import Checks, Tally, play_checked, ruleset_ids

IDS = ruleset_ids()
GAMES = 50
# Turns played of each game (None: to the end); long games are cut so the file stays fast.
TURNS = {"battle-of-ixu": 4, "squad-alpha": 2}
CHECKS = Checks(replay=0.01, resume=0.4, take_back=0.01, checked=0.5)


@cache
def played(ruleset_id: str, folder: Path) -> tuple[Tally, list[str]]:
    """The ruleset's random games, each checked; (what they did, the failures by seed)."""
    tally, failures = Tally(), []
    for seed in range(1, GAMES + 1):
        try:
            play_checked(
                ruleset_id, seed, folder, TURNS.get(ruleset_id), CHECKS, tally, seed % 4 == 0
            )
        except Exception as exc:  # every game is played; all failures are reported
            failures.append(f"seed {seed}: {type(exc).__name__}: {exc}")
    return tally, failures


@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("random-legal")


@pytest.mark.parametrize("ruleset_id", IDS)
def test_random_legal_games_replay_take_back_resume_and_verify(ruleset_id, folder):
    tally, failures = played(ruleset_id, folder)
    assert not failures, "\n".join(failures)
    if ruleset_id == "tug-of-wargods":  # its battle asks nothing: random teams only
        return
    assert tally.choices > 10 * GAMES, tally
    assert tally.takebacks >= 5, tally
    assert sum(tally.refusals.values()) > GAMES, tally


@pytest.mark.parametrize("ruleset_id", IDS)
def test_typed_spots_are_judged_and_some_are_played(ruleset_id, folder):
    """Where a question takes typed x,y (any ruleset, a plugin's too), random spots on the
    table are tried: some are refused with a reason, some are legal and played (and
    replayed, resumed, verified)."""
    tally, _ = played(ruleset_id, folder)
    if not tally.spots:
        pytest.skip(f"{ruleset_id} asks for no spot on a table")
    assert tally.typed_legal >= 10 and tally.typed - tally.typed_legal >= 10, tally


@pytest.mark.parametrize("ruleset_id", IDS)
def test_the_command_verifies_random_games(ruleset_id, folder, wargame):
    played(ruleset_id, folder)
    for seed in (1, 2, 4):
        save = folder / f"{ruleset_id}-{seed}.json"
        done = wargame("replay", str(save), "--verify")
        assert done.returncode == 0, done.stderr
        assert "verified" in done.stdout.lower()
