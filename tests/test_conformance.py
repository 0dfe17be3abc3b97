"""The conformance kit (`wargame_cli.testing`) over every registered ruleset, plugins too:
seeded bot-vs-bot games end, save, and replay identically, through the library and through
the real `wargame` command, a person plays in a pseudo-terminal; and the kit's own command."""

from __future__ import annotations

import os
import subprocess
import sys
from functools import cache

import pytest

from tests.test_registry_plugins import TOY, _install
from wargame_cli import registry
from wargame_cli.engine.session import bot_game
from wargame_cli.testing import checks
from wargame_cli.testing.terminal import check_terminal

IDS = [info.id for info in registry.all_infos()]
SEEDS = [1, 2, 3, 4, 5]


@cache
def played(ruleset_id: str, seed: int):
    """The seeded bot game, played once for every test that reads its log."""
    return bot_game(registry.get(ruleset_id), seed)


@pytest.mark.parametrize("ruleset_id", IDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_bot_games_end_save_and_verify(ruleset_id, seed, tmp_path):
    checks.bot_game_checked(ruleset_id, seed, tmp_path, played(ruleset_id, seed))


@pytest.mark.parametrize("ruleset_id", IDS)
def test_cli_no_input_game_replays(ruleset_id, tmp_path, wargame):
    checks.check_command(ruleset_id, wargame, tmp_path)


@pytest.mark.parametrize("ruleset_id", IDS)
def test_stop_and_resume_equals_straight_play(ruleset_id, tmp_path, wargame):
    checks.check_resume(ruleset_id, wargame, tmp_path)


@pytest.mark.parametrize("ruleset_id", IDS)
def test_reference_covers_every_rule_the_log_cites(ruleset_id):
    checks.check_contract(ruleset_id)
    checks.cited_rules_known(ruleset_id, [played(ruleset_id, seed) for seed in SEEDS])


@pytest.mark.parametrize("ruleset_id", IDS)
def test_declared_unit_stats_hold_their_stock_values(ruleset_id):
    assert "unit" in checks.check_unit_sheet(ruleset_id)


@pytest.mark.pty
@pytest.mark.parametrize("ruleset_id", IDS)
def test_a_person_plays_in_a_terminal(ruleset_id, tmp_path):
    said = check_terminal(ruleset_id, tmp_path)
    assert "answers at the keyboard" in said


def _kit(*args: str, cwd, env=None):
    return subprocess.run(
        [sys.executable, "-m", "wargame_cli.testing", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        env={**os.environ, **(env or {})},
        timeout=120,
    )


def test_the_kit_passes_the_third_party_ruleset(tmp_path):
    """What an outside author runs: `python -m wargame_cli.testing ID`, a line per check."""
    if "pit-fight" not in IDS:
        pytest.skip("tests/plugin_pit is not installed (pip install -e tests/plugin_pit)")
    # the command, resume and terminal checks run through the tests above, ruleset by ruleset
    skip = ("--skip", "command", "--skip", "resume", "--skip", "terminal")
    done = _kit("pit-fight", "--games", "2", *skip, cwd=tmp_path)
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert [line.split()[:2] for line in lines[1:-1]] == [
        ["ok", "contract"],
        ["ok", "unit"],
        ["ok", "bot"],
        ["ok", "random"],
    ]
    assert lines[-1] == "pit-fight passes all 4 checks"


def test_the_kit_names_the_check_a_ruleset_fails(tmp_path):
    """A plugin whose game logs an event citing no rule fails the bot games, said by name,
    exit 1; the checks it passes still say ok."""
    uncited = TOY.replace(
        'yield Event(f"{side} is at {self.state[side]}", rules=("t1",))',
        ('yield Event(f"{side} is at {self.state[side]}")'),
    )
    assert uncited != TOY
    _install(tmp_path, {"toy_race": uncited})
    done = _kit(
        "toy-race",
        "--games",
        "1",
        "--skip",
        "command",
        "--skip",
        "resume",
        "--skip",
        "terminal",
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path)},
    )
    assert done.returncode == 1, done.stdout + done.stderr
    assert "Traceback" not in done.stderr
    # the toy ships no reference.toml either: the contract check says so
    assert done.stderr.strip() == "toy-race fails: contract, bot games"
    marks = {line.split()[1]: line.split()[0] for line in done.stdout.splitlines()[1:]}
    assert marks == {"contract": "FAIL", "unit": "ok", "bot": "FAIL", "random": "ok"}, done.stdout
    assert "reference.toml" in done.stdout.splitlines()[1]
    assert "cite no rule" in done.stdout
    for bad in (["no-such-ruleset"], ["toy-race", "--games", "x"], []):
        refused = _kit(*bad, cwd=tmp_path, env={"PYTHONPATH": str(tmp_path)})
        assert refused.returncode == 2 and len(refused.stderr.strip().splitlines()) == 1, bad
