"""`--json` state.turn has one meaning in every ruleset (issue 12, item 5): the last turn
played. A game stopped between turns shows the last completed turn, not the next one; a
finished game shows the turn it ended in. Each ruleset's `json_state` says so."""

from __future__ import annotations

import pytest

from tests.cli_helpers import play_json

RULESETS = ["tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale"]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_state_turn_is_the_last_turn_played(wargame, ruleset_id):
    stopped = play_json(
        wargame, ruleset_id, "--no-input", "--no-save", "--seed", "3", "--turns", "2"
    )
    if stopped["status"] == "in_progress":
        assert stopped["turns"] == 2 and stopped["state"]["turn"] == 2
    finished = play_json(wargame, ruleset_id, "--no-input", "--no-save", "--seed", "3")
    assert finished["status"] == "finished"
    assert finished["state"]["turn"] == finished["turns"] >= 1
    shown = " ".join(wargame("rules", ruleset_id).stdout.split())
    doc = shown.split("--json state:")[1]
    assert "turn (the last turn played" in doc


def test_ixu_stopped_after_turn_two_shows_turn_two_and_its_dice(wargame):
    """The issue's repro: `--turns 2 --json` gave turn 3 with turn 2's dice and phase."""
    stopped = play_json(
        wargame, "battle-of-ixu", "--no-input", "--no-save", "--seed", "5", "--turns", "2"
    )
    assert stopped["status"] == "in_progress"
    assert (stopped["state"]["turn"], stopped["state"]["phase"]) == (2, "health")
