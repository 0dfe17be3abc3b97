"""Battle of Ixu warbands (c1): inline syntax, team files, deployment, the default scenario
and the interactive builder."""

from __future__ import annotations

import json

import pytest
from wargame_cli.rulesets.battle_of_ixu import teams
from wargame_cli.rulesets.battle_of_ixu.ruleset import RULESET

from wargame_cli.engine.bots import BotController, run_builder
from wargame_cli.errors import TeamError
from wargame_cli.ruleset import Setup, resolve_options

DEFAULTS = resolve_options(RULESET.options, None)


class Picks:
    """Answers a team builder from a list of keys, then with defaults."""

    by = "script"

    def __init__(self, keys):
        self.keys = list(keys)

    def choose(self, choice, game):
        return self.keys.pop(0) if self.keys else choice.default

    def refused(self, choice, key, reason):
        raise AssertionError(f"{key!r} refused: {reason}")


def test_c1_default_scenario_is_the_seeds_battle():
    axes, name_a = RULESET.default_team("A", DEFAULTS)
    swords, name_b = RULESET.default_team("B", DEFAULTS)
    assert (name_a, name_b) == ("Axes", "Swords")
    assert [m["name"] for m in axes["models"]] == ["Tutok", "Kuote", "Ijoi"]
    assert sorted(m["name"] for m in swords["models"]) == ["Eyox", "Keryx", "Tuze"]
    assert all(m["experience"] in (3, 4, 5) for m in axes["models"] + swords["models"])


def test_c1_default_deployment_faces_the_story_pairs():
    """Keryx before Tutok, Tuze before Kuote, Eyox before Ijoi (on the Axes' right flank)."""
    teams = {s: RULESET.default_team(s, DEFAULTS)[0] for s in "AB"}
    g = RULESET.new_game(Setup({"A": "Axes", "B": "Swords"}, teams), DEFAULTS)
    at = {w.name: w.pos for w in g.state.warriors}
    for axe, sword in (("Tutok", "Keryx"), ("Kuote", "Tuze"), ("Ijoi", "Eyox")):
        assert at[axe].x == at[sword].x
    assert at["Ijoi"].x > at["Kuote"].x > at["Tutok"].x
    assert all(p.y == 2 for n, p in at.items() if n in ("Tutok", "Kuote", "Ijoi"))
    assert all(p.y == 22 for n, p in at.items() if n in ("Tuze", "Keryx", "Eyox"))


def test_inline_names_experience_and_health():
    team = RULESET.parse_team("Tutok:4, Kuote:elite:12, Ijoi:inexp", DEFAULTS)
    assert team["models"] == [
        {"name": "Tutok", "experience": 4},
        {"name": "Kuote", "experience": 5, "health": 12},
        {"name": "Ijoi", "experience": 3},
    ]
    assert RULESET.parse_team("swords", DEFAULTS) == RULESET.default_team("B", DEFAULTS)[0]


@pytest.mark.parametrize(
    ("spec", "needle"),
    [
        ("", "empty warband"),
        ("Tutok:4, tutok:5", "two models are named"),
        ("Tutok:4:0", "health must be"),
        ("Tutok:4:x", "not a whole number"),
        ("Tutok:4:5:6", "NAME:EXPERIENCE"),
        ("[red]Tutok[/red]", "markup"),
        (", ".join(f"M{i}" for i in range(13)), "1-12 models"),
    ],
)
def test_bad_inline_teams_are_refused_with_one_line(spec, needle):
    with pytest.raises(TeamError, match=needle):
        RULESET.parse_team(spec, DEFAULTS)


def test_team_files_toml_and_json(tmp_path):
    toml = tmp_path / "gods.toml"
    toml.write_text(
        'name = "Storm Gods"\n'
        "models = [\n"
        '  { name = "Ra", experience = 5, at = [3, 1] },\n'
        '  { name = "Su", experience = "regular" },\n'
        "]\n"
    )
    team, name = RULESET.load_team(str(toml), DEFAULTS)
    assert name == "Storm Gods"
    assert team["models"][0] == {"name": "Ra", "experience": 5, "at": [3.0, 1.0]}
    assert team["models"][1]["experience"] == 4
    path = tmp_path / "band.json"
    path.write_text(json.dumps({"warband": "Axes"}))
    assert RULESET.load_team(str(path), DEFAULTS)[0] == RULESET.default_team("A", DEFAULTS)[0]
    assert RULESET.team_from_data(team, DEFAULTS) == team  # what saves store round-trips


def test_side_b_places_are_in_its_own_frame():
    chosen = {
        "A": RULESET.parse_team("Ajax", DEFAULTS),
        "B": teams.from_data({"models": [{"name": "Bron", "at": [3, 1]}]}, DEFAULTS),
    }
    g = RULESET.new_game(Setup({"A": "a", "B": "b"}, chosen), DEFAULTS)
    assert g.state.get("B1").pos.as_list() == [21.0, 23.0]


@pytest.mark.parametrize(
    ("models", "needle"),
    [
        ([{"name": "Ra", "at": [3, 13]}], "own half"),
        ([{"name": "Ra", "at": [30, 1]}], "own half"),
        ([{"name": "Ra", "at": [3, 1]}, {"name": "Su", "at": [3.2, 1]}], "stand on each other"),
        ([{"name": "Ra", "at": [3]}], r"\[x, y\]"),
        ([{"experience": 4}], "needs a `name`"),
    ],
)
def test_bad_places_are_refused(models, needle):
    with pytest.raises(TeamError, match=needle):
        teams.from_data({"models": models}, DEFAULTS)


def test_too_many_models_for_a_small_field():
    small = resolve_options(RULESET.options, ["width=6", "base=1"])
    with pytest.raises(TeamError, match="too many models"):
        RULESET.parse_team(", ".join(f"M{i}" for i in range(8)), small)


def test_same_names_on_both_sides_are_told_apart():
    axes = RULESET.default_team("A", DEFAULTS)[0]
    g = RULESET.new_game(Setup({"A": "Red", "B": "Blue"}, {"A": axes, "B": axes}), DEFAULTS)
    names = [w.name for w in g.state.warriors]
    assert len(set(names)) == 6 and "Tutok (A)" in names and "Tutok (B)" in names


def test_builder_default_is_the_sides_scenario_warband():
    team = run_builder(RULESET.build_team("B", DEFAULTS), BotController())
    default, name = RULESET.default_team("B", DEFAULTS)
    assert team == {**default, "name": name}  # a quick pick names the side


def test_builder_model_by_model_with_a_typed_name():
    builder = RULESET.build_team("A", DEFAULTS)
    team = run_builder(builder, Picks(["build", "2", "Vashti", "5", "Atok", "3"]))
    assert team["models"] == [
        {"name": "Vashti", "experience": 5},
        {"name": "Atok", "experience": 3},
    ]


def test_builder_refuses_a_name_twice():
    builder = RULESET.build_team("A", DEFAULTS)
    choice = builder.send(None)
    choice = builder.send("build")
    choice = builder.send("2")
    choice = builder.send("Vashti")
    choice = builder.send("4")
    assert "already in this warband" in choice.legal("vashti")
    assert choice.legal("[b]x[/b]") is not None
    assert choice.default not in ("Vashti",)


def test_describe_team_and_units():
    axes = RULESET.default_team("A", DEFAULTS)[0]
    assert RULESET.describe_team(axes) == "Tutok (regular), Kuote (elite), Ijoi (inexperienced)"
    assert [u["experience"] for u in RULESET.units()] == [3, 4, 5]
