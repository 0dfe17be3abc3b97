"""Squad Alpha squads: the inline syntax, squad files, the defaults and interactive building
(b1-b3), each refusal carrying its reason."""

from __future__ import annotations

import json

import pytest
from wargame_cli.rulesets.squad_alpha import teams
from wargame_cli.rulesets.squad_alpha.ruleset import RULESET

from wargame_cli.engine.bots import BotController, run_builder
from wargame_cli.errors import TeamError
from wargame_cli.ruleset import resolve_options

OPTS = resolve_options(RULESET.options, None)


def test_inline_squads_name_training_and_rating():
    team = RULESET.parse_team("Sgt Rook elite 4, Hawk:regular:2, 3x Trooper c 0", OPTS)
    assert team["miniatures"][0] == {"name": "Sgt Rook", "training": "elite", "rating": 4}
    assert team["miniatures"][1] == {"name": "Hawk", "training": "regular", "rating": 2}
    assert [m["name"] for m in team["miniatures"][2:]] == ["Trooper 1", "Trooper 2", "Trooper 3"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", "an empty squad"),
        ("Rook elite, Hawk e 2, Dusty r 1, Tiny c 0, Kid c 0", "write name, training and rating"),
        ("Rook elite four, Hawk e 2, Dusty r 1, Tiny c 0, Kid c 0", "not a whole number"),
        ("Rook e 4, Hawk e 2, Dusty r 1, Tiny c 0, Tiny c 0", "two miniatures are named Tiny"),
        ("Rook:e:4:x, Hawk e 2, Dusty r 1, Tiny c 0, Kid c 0", "name:training:rating"),
        ("Rook e 4, Hawk e 2, Dusty r 1, Tiny c 0, Kid c -1", r"outside 0-10 \(b2\)"),
        ("Rook e 4, Hawk q 2, Dusty r 1, Tiny c 0, Kid c 0", "not a training level"),
        ("Rook e 4, Hawk x 2, Dusty r 1, Tiny c 0", "'Hawk': write name, training and rating"),
        ("Rook e 3, Hawk e 3, Dusty r 1, Tiny c 0, Kid c 0", r"\(b3\)"),
        ("12x Grunt c 0", "at most 10"),
        ("[red]Rook e 4, Hawk e 2, Dusty r 1, Tiny c 0, Kid c 0", "markup"),
        ("Rook\x1b[2J e 4, Hawk e 2, Dusty r 1, Tiny c 0, Kid c 0", "control characters"),
    ],
)
def test_bad_squads_are_refused_with_the_reason(text, reason):
    with pytest.raises(TeamError, match=reason):
        RULESET.parse_team(text, OPTS)


def test_squad_files_and_saved_squads(tmp_path):
    path = tmp_path / "raiders.toml"
    path.write_text(
        'name = "Raiders"\n'
        "miniatures = [\n"
        '  { name = "Boss", training = "elite", rating = 3 },\n'
        '  "Ace regular 1", "Bo c 0", "Cy c 0", "Di c 0",\n'
        "]\n"
    )
    team, name = RULESET.load_team(str(path), OPTS)
    assert name == "Raiders" and len(team["miniatures"]) == 5
    assert RULESET.team_from_data(json.loads(json.dumps(team)), OPTS) == team
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"miniatures": [{"name": "X", "training": "elite"}]}))
    with pytest.raises(TeamError, match="whole number"):
        RULESET.load_team(str(bad), OPTS)
    with pytest.raises(TeamError, match="miniatures"):
        RULESET.team_from_data({"models": 3}, OPTS)


def test_default_squads_are_legal_and_differ():
    a, name_a = RULESET.default_team("A", OPTS)
    b, name_b = RULESET.default_team("B", OPTS)
    assert (name_a, name_b) == ("Alpha Squad", "Bravo Squad")
    assert a != b
    assert "[leader]" in RULESET.describe_team(a)


def test_every_listed_squad_is_legal():
    for name, soldiers in teams.catalogue().squads:
        assert not teams.problems(list(soldiers), OPTS), name


def test_building_takes_the_default_squad_on_enter():
    team = run_builder(RULESET.build_team("B", OPTS), BotController())
    default, name = RULESET.default_team("B", OPTS)
    assert team == {**default, "name": name}  # a quick pick names the side


class Typist:
    """Answers team-building questions from a list (keys or typed text), then Enter."""

    by = "human"

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.refusals: list[str] = []
        self.seen = []

    def choose(self, choice, game):
        self.seen.append(choice)
        return self.answers.pop(0) if self.answers else choice.default

    def refused(self, choice, key, reason):
        self.refusals.append(reason)


def test_building_miniature_by_miniature_with_typed_entries_and_refusals():
    typist = Typist(
        [
            "build",
            "Rook elite 4",
            "Dusty r 1",
            "done",  # refused: only 2
            "Tiny c 0",
            "Kid c 0",
            "Hawk elite 4",
            "done",  # refused: the top rating is shared
            "remove",  # the builder's own key: Remove Hawk
            "Hawk regular 1",
            "Dusty regular 1",  # refused: the name is taken
            "done",
        ]
    )
    team = run_builder(RULESET.build_team("A", OPTS), typist)
    assert [m["name"] for m in team["miniatures"]] == ["Rook", "Dusty", "Tiny", "Kid", "Hawk"]
    assert any("share the highest" in r for r in typist.refusals)
    assert any("named Dusty" in r for r in typist.refusals)
    assert any("at least 5" in r for r in typist.refusals)


def test_building_suggestions_always_lead_to_a_legal_squad():
    typist = Typist(["build"])  # then Enter on every suggestion
    team = run_builder(RULESET.build_team("A", OPTS), typist)
    assert 5 <= len(team["miniatures"]) <= 10
    assert teams.leader_problem(teams.from_data(team, OPTS)) is None


def test_the_squad_pick_fits_a_line_and_names_the_leader():
    typist = Typist([])
    run_builder(RULESET.build_team("A", OPTS), typist)
    [pick] = typist.seen
    assert pick.prompt == "pick a squad (or build one)"  # the CLI puts the side's name first
    labels = {o.key: o.label for o in pick.options}
    assert labels["squad:Alpha Squad"] == (
        "Alpha Squad (6): Sgt Rook leads (elite, rating 4); elite Hawk; regular Dusty, Sparks; "
        "conscript Tiny, Kid"
    )
    assert all(len(label) <= 110 for label in labels.values())
