"""One count grammar for team text in every ruleset that has counts: `3 X`, `3x X` and
`X x3` are three of X, through the real `wargame play` entry point; the shared tokenizer
refuses a count of 0 and two counts on one entry with one line and exit code 2."""

from __future__ import annotations

import pytest
from wargame_cli.rulesets.squad_alpha.ruleset import RULESET as SQUAD_ALPHA

from tests.cli_helpers import one_error_line, play_json
from wargame_cli.engine.bots import run_builder
from wargame_cli.errors import TeamError
from wargame_cli.kit.teamtext import Entry, counted, entries, parts
from wargame_cli.ruleset import resolve_options

COUNTS = ("3 {}", "3x {}", "3 x {}", "{} x3", "{}x3", "3X {}")


@pytest.mark.parametrize("form", COUNTS)
def test_every_count_form_reads_three(form):
    assert counted(form.format("Tribal Warrior")) == Entry("Tribal Warrior", 3, counted=True)


def test_entries_without_counts_and_refused_counts():
    assert entries(" Asar , ,Sebeki,") == [Entry("Asar"), Entry("Sebeki")]
    assert parts("a,, b ,") == ["a", "b"]
    assert counted("1 Asar") == Entry("Asar", 1, counted=True)
    assert counted("Lynx") == Entry("Lynx")  # an x ending a name is no count
    assert counted("3") == Entry("3")  # a number alone names nothing: left to the ruleset
    with pytest.raises(TeamError, match="two counts"):
        counted("2 Asar x2")
    with pytest.raises(TeamError, match="a count of 0"):
        counted("0 Asar")


def _tug_units(data):
    return [m["unit"] for m in data["state"]["sides"]["A"]["models"]]


def _squad_names(data):
    return [m["name"] for m in data["state"]["sides"]["A"]["miniatures"]]


def _seeds_types(data):
    return [u["type"] for u in data["state"]["sides"]["A"]["units"]]


def _mobs_members(data):
    return [
        (c["profile"], c["mob"] is not None) for c in data["state"]["creatures"] if c["side"] == "A"
    ]


# (ruleset, the entry to count, the rest of the team, what side A fields, what to expect)
CASES = [
    ("tug-of-wargods", "Asar", "", _tug_units, ["Asar", "Asar", "Asar"]),
    (
        "squad-alpha",
        "Trooper c 0",
        "Rook elite 4, ",
        _squad_names,
        ["Rook", "Trooper 1", "Trooper 2", "Trooper 3"],
    ),
    ("seeds-of-wars", "Spearmen", "Knights, ", _seeds_types, ["Knights", *["Spearmen"] * 3]),
    (
        "mobs-and-morale",
        "Wolf",
        "Ugrak=Chieftain, ",
        _mobs_members,
        [("Chieftain", False), *[("Wolf", True)] * 3],
    ),
]


@pytest.mark.parametrize("form", ("3 {}", "3x {}", "{} x3"))
@pytest.mark.parametrize(("ruleset_id", "entry", "rest", "found", "expected"), CASES)
def test_three_of_them_in_every_ruleset_with_counts(
    wargame, ruleset_id, entry, rest, found, expected, form
):
    team = rest + form.format(entry) + (", Hawk r 1" if ruleset_id == "squad-alpha" else "")
    data = play_json(
        wargame, ruleset_id, "--team-a", team, "--no-input", "--turns", "1", "--no-save"
    )
    if ruleset_id == "squad-alpha":
        expected = [*expected, "Hawk"]
    assert found(data) == expected


def test_mobs_and_morale_counts_characters_as_numbered_ones(wargame):
    data = play_json(
        wargame, "mobs-and-morale", "--team-a", "Ranger x2, Mystic", "--no-input", "--turns", "1"
    )
    names = [c["id"] for c in data["state"]["creatures"] if c["side"] == "A"]
    assert names == ["Ranger 1", "Ranger 2", "Mystic"]


@pytest.mark.parametrize("ruleset_id", [case[0] for case in CASES])
def test_two_counts_on_one_entry_is_one_clear_line(wargame, ruleset_id):
    done = wargame("play", ruleset_id, "--team-a", "2 Asar x2", "--no-input", "--no-save")
    assert "two counts" in one_error_line(done)


class Typist:
    """Answers Squad Alpha's builder from a list (keys or typed text), then Enter."""

    by = "human"

    def __init__(self, answers: list[str]) -> None:
        self.answers = answers
        self.refusals: list[str] = []

    def choose(self, choice, game):
        return self.answers.pop(0) if self.answers else choice.default

    def refused(self, choice, key, reason):
        self.refusals.append(reason)


def test_squad_alpha_type_it_reads_counts_as_the_flags_do():
    options = resolve_options(SQUAD_ALPHA.options, None)
    typist = Typist(["build", "Rook elite 4", "2x Grunt c 0", "Ash c 0 x2", "9 Extra c 0", "done"])
    team = run_builder(SQUAD_ALPHA.build_team("A", options), typist)
    names = [m["name"] for m in team["miniatures"]]
    assert names == ["Rook", "Grunt 1", "Grunt 2", "Ash 1", "Ash 2"]
    assert any("at most 10" in reason for reason in typist.refusals)  # 9 more would be 14
