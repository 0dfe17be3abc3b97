"""The Battle of Ixu's ranged attacks (c9, "I'll work in ranged attacks when I need to"): a
team-file power `ranged = {range, dice}`, off unless a team gives it, offered as a decision
(shoot a standing enemy within range, or hold), used by the bot, told by the battle report as
shots and drawn as straight lines; a game without it is what it was (its positions too)."""

from __future__ import annotations

import json

import pytest
from wargame_cli.rulesets.battle_of_ixu.ruleset import RULESET

from tests.cli_helpers import one_error_line
from tests.helpers import Script
from wargame_cli.engine.requests import Choice, TurnStart
from wargame_cli.errors import TeamError
from wargame_cli.kit import serial
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.tabletop.geometry import Point

SLINGS = """name = "Slings"
models = [
  {name = "Tutok", experience = 4, ranged = {range = 30, dice = 4}},
  {name = "Kuote", experience = 5, pronoun = "she"},
  {name = "Ijoi", experience = 3, ranged = {range = 30, dice = "combat"}},
]
"""


def _game(ranged: dict[str, object] | None):
    opts = resolve_options(RULESET.options, None)
    a = {"models": [{"name": "Ajax", "experience": 4, **({"ranged": ranged} if ranged else {})}]}
    teams = {"A": RULESET.team_from_data(a, opts), "B": RULESET.parse_team("Bron:4", opts)}
    return RULESET.new_game(Setup(names={"A": "Axes", "B": "Swords"}, teams=teams), opts)


def _first_target(g, faces):
    script = Script(faces, fallback_face=lambda die: 3)
    return script, script.run(
        g,
        until=lambda r: (
            (isinstance(r, Choice) and r.kind == "target")
            or isinstance(r, TurnStart)
            and r.number == 2
        ),
    )


def test_a_ranged_model_is_offered_a_shot_within_range_and_never_beyond():
    g = _game({"range": 6, "dice": 2})
    ajax, bron = g.state.get("A1"), g.state.get("B1")
    ajax.pos, bron.pos = Point(12, 8), Point(12, 13.5)  # 4.75" between the bases
    for w in (ajax, bron):
        w.__dict__.pop("_body", None)
    # order: Ajax first; his dice 6,6,6,6 (move 6? the bot stands: an enemy is in range)
    script, choice = _first_target(g, [9, 2, 6, 6, 6, 6, 4, 4, 4, 4])
    assert isinstance(choice, Choice) and choice.side == "A" and choice.rules == ("c9",)
    assert [o.key for o in choice.options] == ["shoot:B1", "hold"]
    assert choice.legal("shoot:B1") is None and choice.legal("B1") is not None
    assert choice.default == "shoot:B1"  # the bot shoots
    assert ajax.pos == Point(12, 8)  # and stood where it could (c9, the bot keeps its range)


def test_no_shot_is_offered_beyond_range_in_contact_or_without_the_power():
    for ranged, where in (
        ({"range": 2, "dice": 2}, Point(12, 13.5)),  # 4.75" away: out of range
        ({"range": 6, "dice": 2}, Point(12, 8.75)),  # in base contact: it fights there
        (None, Point(12, 13.5)),  # no power: no shooting (c9)
    ):
        g = _game(ranged)
        g.state.get("A1").pos, g.state.get("B1").pos = Point(12, 8), where
        script = Script([9, 2, 1, 1, 1, 1, 1, 1, 1, 1], fallback_face=lambda die: 1)
        script.run(g, until=lambda r: isinstance(r, TurnStart) and r.number == 2)
        offered = [r for r in script.requests if isinstance(r, Choice) and r.kind == "target"]
        assert not any(o.key.startswith("shoot:") for c in offered for o in c.options)


def test_a_bad_ranged_power_is_refused_naming_it():
    opts = resolve_options(RULESET.options, None)
    for bad, said in (
        ({"range": 0}, "range"),
        ({"range": 6, "dice": "lots"}, "dice"),
        ({"range": 6, "dice": 11}, "dice"),
        ("far", "ranged is a table"),
    ):
        with pytest.raises(TeamError, match=said):
            RULESET.team_from_data({"models": [{"name": "A", "ranged": bad}]}, opts)


def test_a_position_without_the_power_is_as_it_was_and_an_old_one_still_reads():
    g = _game(None)
    dumped = serial.dump(g.state, {"options": g.state.options})
    assert '"ranged"' not in serial.encoded(dumped)  # as positions were before c9's power
    again = serial.load(dumped, {"options": g.state.options})
    assert again.get("A1").ranged is None and again == g.state
    shooter = _game({"range": 6, "dice": "combat"})
    kept = serial.load(
        serial.dump(shooter.state, {"options": shooter.state.options}),
        {"options": shooter.state.options},
    )
    assert (
        kept.get("A1").ranged == shooter.state.get("A1").ranged
        and kept.get("A1").ranged.dice is None
    )


def test_shots_are_played_verified_told_and_drawn(wargame, tmp_path):
    team = tmp_path / "slings.toml"
    team.write_text(SLINGS)
    path = tmp_path / "ixu.json"
    done = wargame(
        "play",
        "battle-of-ixu",
        "--no-input",
        "--seed",
        "1",
        "--team-a",
        str(team),
        "--save",
        str(path),
    )
    assert done.returncode == 0, done.stderr
    log = json.loads(path.read_text())["log"]
    shots = [e for e in log if e["t"] == "event" and e["kind"] == "shot"]
    assert shots and all(
        e["rules"] == ["c9", "c6"] and e["data"]["attacker"] in ("Tutok", "Ijoi") for e in shots
    )
    assert any(e["t"] == "choice" and e["key"].startswith("shoot:") for e in log)
    assert wargame("replay", str(path), "--verify").returncode == 0
    report = tmp_path / "r.md"
    assert wargame("replay", str(path), "--report", str(report)).returncode == 0
    told = report.read_text()
    first = shots[0]["data"]
    assert f"{first['attacker']} " in told and ("shot" in told or "shoots" in told)
    html = tmp_path / "r.html"
    assert wargame("replay", str(path), "--html", str(html)).returncode == 0
    page = html.read_text()
    assert 'shot"' in page and "a straight attack line is a shot from afar" in page
    state = json.loads(wargame("replay", str(path), "--json").stdout)["state"]
    models = state["sides"]["A"]["models"]
    assert [m.get("ranged") for m in models] == [
        {"range": 30.0, "dice": 4},
        None,
        {"range": 30.0, "dice": "combat"},
    ]
    rules = wargame("rules", "battle-of-ixu").stdout
    assert 'ranged = {range = 6, dice = "combat"}' in " ".join(rules.split())


def test_a_team_file_with_a_bad_ranged_power_is_one_line(wargame, tmp_path):
    team = tmp_path / "slings.toml"
    team.write_text(SLINGS.replace("range = 30, dice = 4", "range = 30, dice = 40"))
    line = one_error_line(wargame("play", "battle-of-ixu", "--no-input", "--team-a", str(team)))
    assert "Tutok: ranged dice" in line
    team.write_text(SLINGS.replace("range = 30, dice = 4", "rnage = 30, dice = 4"))
    line = one_error_line(wargame("play", "battle-of-ixu", "--no-input", "--team-a", str(team)))
    assert "unknown key 'rnage'" in line and "did you mean 'range'" in line


def test_the_bots_dice_weigh_a_shot_alike_both_ways_and_value_it():
    from wargame_cli.rulesets.battle_of_ixu import bot
    from wargame_cli.rulesets.battle_of_ixu.state import Dice

    for power in ({"range": 12, "dice": "combat"}, {"range": 12, "dice": 3}, None):
        g = _game(power)
        ajax, bron = g.state.get("A1"), g.state.get("B1")
        ajax.pos, bron.pos = Point(12, 4), Point(12, 14)  # 9.25" between the bases
        score = bot.dice_scorer(g.state, ajax)
        for dice in (Dice(1, 6, 3), Dice(3, 1, 6), Dice(6, 3, 1)):
            assert score(dice) == bot.score_dice(g.state, ajax, dice)
        # out of reach of a move, a shooter still harms with its combat dice; a model without
        # the power does not
        harms = score(Dice(1, 6, 3)) > score(Dice(1, 1, 3))
        assert harms == (power is not None and power["dice"] == "combat")
