"""Words a careful reader trips on, through the real entry point: counts that exceed their
bound, verbs that agree with a mob's plural name, a turn cap that names the test it decided by."""

from __future__ import annotations

import json

from tests.cli_helpers import play_json


def _texts(save) -> list[str]:
    return [e.get("text", "") for e in json.loads(save.read_text())["log"]]


def test_ixu_damage_past_a_low_health_reads_as_damage_on_health(wargame, tmp_path):
    save = tmp_path / "g.json"
    play_json(wargame, "battle-of-ixu", "--no-input", "--seed", "3", "--option", "health=1",
              "--save", str(save))  # fmt: skip
    wounds = [t for t in _texts(save) if " damage from " in t]
    assert wounds and all("damage on 1 health" in t for t in wounds)
    assert not any(" of 1)" in t for t in wounds)


def test_ixu_turn_cap_says_which_test_decided(wargame):
    done = play_json(wargame, "battle-of-ixu", "--no-input", "--no-save", "--seed", "5",
                     "--option", "max_turns=3")  # fmt: skip
    reason = done["result"]["reason"]
    assert "more health left (30 to 28)" in reason and " or " not in reason


def test_a_mob_deploys_and_moves_in_the_plural(wargame, tmp_path):
    save = tmp_path / "g.json"
    play_json(wargame, "mobs-and-morale", "--no-input", "--seed", "3", "--team-a",
              "The Hound Pack", "--save", str(save))  # fmt: skip
    texts = _texts(save)
    assert any(t.startswith("Odda's hounds deploy around") for t in texts)
    assert any(t.startswith("Odda deploys around") for t in texts)  # a character: singular
    report = wargame("replay", str(save), "--report", "-").stdout
    for wrong in ("hounds presses", "hounds takes the field", "hounds advances", "Spears holds"):
        assert wrong not in report
    assert "Odda's hounds take the field" in report or "Odda's hounds deploy around" in report


def test_mobs_and_morale_json_lists_who_escaped(wargame):
    done = play_json(wargame, "mobs-and-morale", "--no-input", "--no-save", "--seed", "22")
    sides = done["state"]["sides"]
    escaped = {c["id"] for c in done["state"]["creatures"] if c["status"] == "escaped"}
    assert escaped and set(sides["A"]["escaped"]) | set(sides["B"]["escaped"]) == escaped
    assert "Chief Ugrak" in sides["B"]["escaped"]


def test_ixu_bases_may_not_start_overlapping_across_the_centre_line(wargame, tmp_path):
    from tests.cli_helpers import one_error_line

    done = wargame("play", "battle-of-ixu", "--no-input", "--no-save", "--option", "deploy=11.8",
                   "--seed", "3", "--turns", "1")  # fmt: skip
    line = one_error_line(done)
    assert "Tutok and Keryx would start with their bases overlapping" in line
    teams = []
    for side, name in (("a", "Ana"), ("b", "Bo")):
        team = tmp_path / f"{side}.toml"
        team.write_text(
            f'name = "{name}s"\nmodels = [{{name = "{name}", experience = 3, at = [12, 11.9]}}]\n'
        )
        teams += [f"--team-{side}", str(team)]
    line = one_error_line(wargame("play", "battle-of-ixu", "--no-input", "--no-save", *teams))
    assert "Ana and Bo would start with their bases overlapping" in line
    assert (
        wargame("simulate", "battle-of-ixu", "--games", "2", "--option", "deploy=11.8").returncode
        == 2
    )
    # just clear of each other across the line: played
    ok = wargame("play", "battle-of-ixu", "--no-input", "--no-save", "--option", "deploy=11.6",
                 "--seed", "3", "--turns", "1")  # fmt: skip
    assert ok.returncode == 0, ok.stderr


def test_round_rulesets_give_their_rounds_once_as_every_state_does(wargame):
    for ruleset_id in ("mobs-and-morale", "seeds-of-wars"):
        done = play_json(wargame, ruleset_id, "--no-input", "--no-save", "--seed", "3",
                         "--turns", "2")  # fmt: skip
        assert done["state"]["turn"] == 2 and "round" not in done["state"], ruleset_id


def test_every_tug_pull_shows_the_faces_it_was_made_of(wargame, tmp_path):
    """As the seed's own example does: "10+6+6"; a tie shows both sides' faces."""
    save = tmp_path / "g.json"
    play_json(wargame, "tug-of-wargods", "--no-input", "--seed", "3", "--save", str(save))
    pulls = [t for t in _texts(save) if " beats " in t]
    assert pulls and all(t.count("(") >= 2 and "+" in t for t in pulls)
    tie = play_json(wargame, "tug-of-wargods", "--no-input", "--no-save", "--turns", "1",
                    "--rolls", "1,1,1,1,1,1")  # fmt: skip
    assert tie["status"] == "in_progress"
    done = wargame("play", "tug-of-wargods", "--no-input", "--no-save", "--turns", "1",
                   "--rolls", "1,1,1,1,1,1")  # fmt: skip
    assert "Tie at 3 (1+1+1 against 1+1+1)" in " ".join(done.stdout.split())
