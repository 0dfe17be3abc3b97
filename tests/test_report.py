"""The generic battle report: the same code writes up a game of any ruleset from its log."""

from __future__ import annotations

import json
import re

import pytest

from wargame_cli import registry
from wargame_cli.engine.session import bot_game
from wargame_cli.report import LOSS_KINDS, battle_report, md
from wargame_cli.saves.games import to_save

IXU = "battle-of-ixu"
TUG = "tug-of-wargods"


def save_of(ruleset_id, seed, **kw):
    return to_save(bot_game(registry.get(ruleset_id), seed, **kw))


def events(save, kinds=None):
    return [e for e in save["log"] if e["t"] == "event" and (kinds is None or e["kind"] in kinds)]


def positions(report, texts):
    """Where each text first appears after the previous one (asserting it is there)."""
    found, start = [], 0
    for text in texts:
        at = report.find(text, start)
        assert at >= 0, f"{text!r} missing (or out of order) in the report"
        found.append(at)
        start = at + len(text)
    return found


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_death_in_the_log_appears_in_order(seed):
    save = save_of(IXU, seed)
    deaths = events(save, {"death"})
    assert deaths, "a finished Ixu game has casualties"
    report = battle_report(save)
    lines = [f"**☠ {md(d['text'])}**" for d in deaths]
    positions(report, lines)
    aftermath = report[report.index("## Aftermath") :]
    positions(aftermath, [f"Turn {d['data']['turn']}: {md(d['text'])}" for d in deaths])


def test_ixu_report_tells_charges_blows_and_wounds_turn_by_turn():
    save = save_of(IXU, 4)
    report = battle_report(save)
    assert report.startswith("# Battle report: Axes against Swords\n")
    assert "*The Battle of Ixu* (`battle-of-ixu`), seed 4" in report
    assert "- **A: Axes**: Tutok (regular), Kuote (elite), Ijoi (inexperienced)" in report
    turns = save["turns"]
    positions(report, [f"## Turn {n}\n" for n in range(1, turns + 1)] + ["## Aftermath"])
    story = events(save, {"charge", "attack", "wound", "death", "health"})
    positions(report, [md(e["text"]) for e in story])
    winner = save["setup"]["names"][save["result"]["winner"]]
    assert f"**{winner} won** after {turns} turns" in report
    assert "Still standing:" in report


def test_rule_ids_only_on_request():
    save = save_of(IXU, 2)
    plain, cited = battle_report(save), battle_report(save, with_rules=True)
    assert "`[c" not in plain
    assert re.search(r"attacks .* hits? `\[c6\]`", cited)
    assert re.search(r"\*\*☠ .*\*\* `\[c[78]\]`", cited)
    assert "`[c1, c2, c4]`" in cited  # the attribution line cites its dice's rules, sorted
    assert plain.count("\n- ") == cited.count("\n- ")


def test_tug_report_from_the_same_code():
    save = save_of(TUG, 3)
    report = battle_report(save)
    assert report.startswith("# Battle report: Greentoe against Clearsky\n")
    pulls = events(save, {"pull", "tie", "cross"})
    positions(report, [md(e["text"]) for e in pulls])
    # a pull's dice are summarised on its line, since the event does not state them
    first_roll = next(e for e in save["log"] if e["t"] == "roll")
    faces = "+".join(map(str, first_roll["faces"]))
    assert f"*(dice: {md(first_roll['reason'])}: {faces}" in report
    assert "No one fell." in report
    assert "Sebeki (d10), Asar (d6), Asar (d6)" in report


def test_unfinished_game_and_unknown_kinds():
    save = to_save(bot_game(registry.get(IXU), 5, max_turns=1))
    report = battle_report(save)
    assert "The battle is not over: 1 turn played so far." in report
    assert "## Turn 2" not in report
    fake = {
        "ruleset": {"id": "not-installed", "version": "1"},
        "setup": {"names": {"A": "*Bold*", "B": "B"}, "teams": {"A": {"models": [{"name": "X"}]}}},
        "turns": 1,
        "result": {"winner": None, "reason": "nobody could win"},
        "log": [
            {"t": "turn", "n": 1},
            {"t": "event", "kind": "destroyed", "text": "The <tower> falls", "rules": ["z1"]},
            {"t": "end", "winner": None, "reason": "nobody could win", "rules": []},
        ],
    }
    report = battle_report(fake, with_rules=True)
    assert "# Battle report: \\*Bold\\* against B" in report
    assert "- **☠ The \\<tower\\> falls** `[z1]`" in report
    assert "**A draw** after 1 turn: nobody could win." in report
    assert "1. Turn 1: The \\<tower\\> falls" in report
    assert "destroyed" in LOSS_KINDS


def test_report_is_json_clean_input_only():
    """The report reads a save's JSON form: a save read back from disk gives the same text."""
    save = save_of(IXU, 6)
    assert battle_report(json.loads(json.dumps(save))) == battle_report(save)


def test_players_are_named_when_the_save_records_them():
    session = bot_game(registry.get(IXU), 7)
    report = battle_report(to_save(session, players={"A": "human", "B": "bot"}))
    assert "- **A: Axes** (played by a person):" in report
    assert "- **B: Swords** (played by the computer):" in report
