"""One test over every registered ruleset: seeded bot-vs-bot games end, save, and replay
identically, through the library and through the real `wargame` command."""

from __future__ import annotations

import json
from functools import cache

import pytest

from wargame_cli import registry
from wargame_cli.engine.session import bot_game
from wargame_cli.saves import games

IDS = [info.id for info in registry.all_infos()]
SEEDS = [1, 2, 3, 4, 5]


@cache
def played(ruleset_id: str, seed: int):
    """The seeded bot game, played once for every test that reads its log."""
    return bot_game(registry.get(ruleset_id), seed)


@pytest.mark.parametrize("ruleset_id", IDS)
@pytest.mark.parametrize("seed", SEEDS)
def test_bot_games_end_save_and_verify(ruleset_id, seed, tmp_path):
    ruleset = registry.get(ruleset_id)
    session = played(ruleset_id, seed)
    assert session.status == "finished", f"{ruleset_id} seed {seed} did not end"
    assert session.runner.log[-1]["t"] == "end"
    unexplained = [e for e in session.runner.log if not e.get("rules")]
    assert not unexplained, f"log entries that cite no rule: {unexplained[:3]}"
    assert all(
        1 <= f <= d
        for e in session.runner.log
        if e["t"] == "roll"
        for f, d in zip(e["faces"], e["dice"], strict=True)
    )
    path = tmp_path / "game.json"
    games.save(session, path)
    again = games.verify(path)
    assert again.runner.log == session.runner.log
    assert again.winner == session.winner
    assert again.game.state_json() == session.game.state_json()
    # the same seed plays the same game
    assert bot_game(ruleset, seed).runner.log == session.runner.log


@pytest.mark.parametrize("ruleset_id", IDS)
def test_cli_no_input_game_replays(ruleset_id, tmp_path, wargame):
    save = tmp_path / "g.json"
    done = wargame("play", ruleset_id, "--no-input", "--seed", "11", "--json", "--save", str(save))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["ruleset"] == ruleset_id
    assert result["status"] == "finished"
    assert result["save"] == str(save)
    verified = wargame("replay", str(save), "--verify", "--no-input")
    assert verified.returncode == 0, verified.stderr


@pytest.mark.parametrize("ruleset_id", IDS)
def test_stop_and_resume_equals_straight_play(ruleset_id, tmp_path, wargame):
    straight = tmp_path / "straight.json"
    split = tmp_path / "split.json"
    wargame("play", ruleset_id, "--no-input", "--seed", "5", "--save", str(straight), "--json")
    first = wargame(
        "play",
        ruleset_id,
        "--no-input",
        "--seed",
        "5",
        "--turns",
        "1",
        "--save",
        str(split),
        "--json",
    )
    assert json.loads(first.stdout)["status"] == "in_progress"
    wargame("resume", str(split), "--no-input", "--json")
    a = json.loads(straight.read_text())
    b = json.loads(split.read_text())
    assert a["log"] == b["log"]
    assert a["result"] == b["result"]


@pytest.mark.parametrize("ruleset_id", IDS)
def test_reference_covers_every_rule_the_log_cites(ruleset_id):
    ruleset = registry.get(ruleset_id)
    reference = ruleset.reference()
    ids = [p.id for p in reference.points]
    assert len(ids) == len(set(ids)) and ids
    assert reference.notes, "the gaps and the readings chosen are documented"
    assert all(o.doc for o in ruleset.options)
    cited = {
        r for seed in SEEDS for e in played(ruleset_id, seed).runner.log for r in e.get("rules", [])
    }
    unknown = {r for r in cited if r not in ids and not _is_range(r, ids)}
    assert not unknown, f"rules cited but not in reference.toml: {sorted(unknown)}"


def _is_range(rule: str, ids: list[str]) -> bool:
    """`a4-a8` style citations are fine when both ends are rule points."""
    first, sep, last = rule.partition("-")
    return bool(sep) and first in ids and last in ids
