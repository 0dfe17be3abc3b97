"""A near-miss team name (`--team-b Bravo`) is refused with the ready teams that come close,
in every ruleset, on one line with exit code 2."""

from __future__ import annotations

import pytest

from tests.cli_helpers import one_error_line

NEAR = [
    ("squad-alpha", "Bravo", "did you mean Bravo Squad?"),
    ("squad-alpha", "Comando", "did you mean Commandos?"),
    ("battle-of-ixu", "Axe", "did you mean Axes?"),
    ("mobs-and-morale", "Hound Pack", "did you mean The Hound Pack?"),
    ("seeds-of-wars", "Northern", "did you mean Northern Host?"),
    ("tug-of-wargods", "Greentoes", "did you mean Greentoe?"),
]


@pytest.mark.parametrize(("ruleset_id", "given", "said"), NEAR)
def test_a_near_miss_names_the_ready_teams_close_to_it(wargame, ruleset_id, given, said):
    for flag in ("--team-a", "--team-b"):
        done = wargame("play", ruleset_id, "--no-input", "--no-save", flag, given)
        line = one_error_line(done)
        assert said in line and f"no ready team is called '{given}'" in line, line


def test_simulate_names_them_too(wargame):
    line = one_error_line(wargame("simulate", "squad-alpha", "--games", "1", "--team-b", "Bravo"))
    assert "did you mean Bravo Squad?" in line


def test_a_name_far_from_every_ready_team_is_read_as_before(wargame):
    # Ixu reads a lone name as a warband of that one model; nothing is near "Bravo" there
    assert wargame("play", "battle-of-ixu", "--no-input", "--no-save", "--team-b", "Bravo",
                   "--turns", "1").returncode == 0  # fmt: skip
    # written out as one model, a name near a warband's is a team of its own
    assert wargame("play", "battle-of-ixu", "--no-input", "--no-save", "--team-b", "Axe:regular",
                   "--turns", "1").returncode == 0  # fmt: skip
    line = one_error_line(wargame("play", "squad-alpha", "--no-input", "--no-save",
                                  "--team-b", "Zebra"))  # fmt: skip
    assert "did you mean" not in line
