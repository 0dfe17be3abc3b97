"""Table edits and die corrections through the real entry point, in every ruleset: each edit
goes in the log with who and why, `replay --verify` accepts exactly the recorded edits and
names them, a bad edit is one line and exit 2 with the save untouched, and a forged edit is
an edited record."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import one_error_line

# Per ruleset: edits its state takes (after one turn, seed 1), one naming no figure, one
# putting a figure off the table (None: no table edits of its own).
EDITS: dict[str, dict[str, Any]] = {
    "tug-of-wargods": {"good": [], "missing": None, "off": None},
    "squad-alpha": {
        "good": [["move", "A1", "1,1"], ["remove", "B2"]],
        "missing": ["remove", "Z9"],
        "off": ["move", "A1", "100,1"],
    },
    "battle-of-ixu": {
        "good": [["damage", "A1", "1"], ["heal", "A1", "1"], ["move", "A1", "12,12"]],
        "missing": ["damage", "Nobody", "1"],
        "off": ["move", "A1", "12,-1"],
    },
    "seeds-of-wars": {
        "good": [
            ["status", "A1", "Shaken"],
            ["damage", "A2", "1"],
            ["heal", "A2", "1"],
            ["remove", "B1", "captured"],
            ["add", "B", "Spearmen", "c3"],
        ],
        "missing": ["status", "A99", "Routed"],
        "off": ["move", "A3", "z99"],
    },
    "mobs-and-morale": {
        "good": [
            ["damage", "Brakka", "2"],
            ["heal", "br", "1"],
            ["move", "Ysolde", "30,3"],
            ["remove", "Bone Shields 4", "fled"],
            ["add", "B", "Wolf", "30,20"],
            ["status", "Red Spears", "controller", "none"],
        ],
        "missing": ["damage", "Nobody", "1"],
        "off": ["move", "Ysolde", "300,3"],
    },
}
RULESETS = list(EDITS)


def _played(wargame: Any, tmp_path: Path, ruleset: str, turns: str = "1") -> Path:
    path = tmp_path / f"{ruleset}.json"
    done = wargame(
        "play", ruleset, "--no-input", "--seed", "1", "--turns", turns, "--save", str(path)
    )
    assert done.returncode == 0, done.stderr
    return path


def _verified(wargame: Any, path: Path) -> dict[str, Any]:
    done = wargame("replay", str(path), "--verify", "--json")
    assert done.returncode == 0, done.stderr
    summary: dict[str, Any] = json.loads(done.stdout)
    return summary


def _edits(path: Path) -> list[dict[str, Any]]:
    return [e for e in json.loads(path.read_text())["log"] if e["t"] == "edit"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_each_edit_is_logged_with_who_and_why_and_verify_names_it(wargame, tmp_path, ruleset):
    path = _played(wargame, tmp_path, ruleset)
    good = EDITS[ruleset]["good"]
    for i, words in enumerate(good):
        by = "A" if i % 2 else "GM"
        done = wargame("edit", str(path), *words, "--why", f"reason {i}", "--by", by)
        assert done.returncode == 0, done.stderr
        assert done.stdout.startswith("Edited ")
    made = _edits(path)
    assert [(e["action"], e["args"], e["why"]) for e in made] == [
        (w[0], w[1:], f"reason {i}") for i, w in enumerate(good)
    ]
    assert [e["by"] for e in made] == ["A" if i % 2 else "GM" for i in range(len(good))]
    told = _verified(wargame, path)["provenance"]["edits"]
    assert len(told) == len(good)
    assert all(f"(reason {i})" in line for i, line in enumerate(told))
    text = wargame("replay", str(path), "--verify").stdout
    assert (f"Table edits: {len(good)}" in text) == bool(good)
    # the game plays on from the edited table, and still verifies
    done = wargame("resume", str(path), "--no-input")
    assert done.returncode == 0, done.stderr
    assert len(_edits(path)) == len(good)
    _verified(wargame, path)


@pytest.mark.parametrize("ruleset", RULESETS)
def test_bad_edits_are_one_line_exit_2_and_leave_the_save_as_it_was(wargame, tmp_path, ruleset):
    path = _played(wargame, tmp_path, ruleset)
    before = path.read_bytes()
    bad = [
        ["die", "1", "99"],  # a face no die of these rules shows
        ["die", "100000", "1"],  # no such die
        ["die", "1", "x"],
        ["end", "C", "a reason"],
        ["end", "A"],  # no reason
        ["fly", "A1"],  # no such action
    ]
    for key in ("missing", "off"):
        if EDITS[ruleset][key] is not None:
            bad.append(EDITS[ruleset][key])
    if ruleset == "tug-of-wargods":
        bad.append(["damage", "A1", "1"])  # an action these rules do not take
    why = {
        ("die", "1", "99"): "does not fit",
        ("die", "100000", "1"): "there is no die 100000",
        ("die", "1", "x"): "not a whole number",
        ("end", "C", "a reason"): "A, B or draw",
        ("end", "A"): "usage: end WINNER",
        ("fly", "A1"): "the actions are",
        ("damage", "A1", "1"): "takes no 'damage' edit",
    }
    for words in bad:
        line = one_error_line(wargame("edit", str(path), *words, "--why", "test"))
        if words is EDITS[ruleset]["missing"]:
            assert "no " in line and "there are:" in line, line
        elif words is EDITS[ruleset]["off"]:
            assert "off the table" in line or "not a space" in line, line
        else:
            assert why[tuple(words)] in line, line
        assert path.read_bytes() == before, words
    line = one_error_line(wargame("edit", str(path), "end", "A", "won", "--why", " "))
    assert "--why" in line
    line = one_error_line(wargame("edit", str(path), "end", "A", "won", "--why", "x", "--by", "C"))
    assert "--by" in line
    assert path.read_bytes() == before


@pytest.mark.parametrize("ruleset", RULESETS)
def test_end_declares_the_winner_and_a_finished_game_needs_force(wargame, tmp_path, ruleset):
    path = _played(wargame, tmp_path, ruleset)
    done = wargame("edit", str(path), "end", "B", "side", "A", "conceded", "--why", "dinner")
    assert done.returncode == 0, done.stderr
    data = json.loads(path.read_text())
    assert data["status"] == "finished" and data["result"]["winner"] == "B"
    assert data["result"]["reason"] == "side A conceded"
    at = max(i for i, e in enumerate(data["log"]) if e["t"] == "edit")
    assert data["log"][-1]["t"] == "end"
    # Mobs and Morale's after-battle steps follow the edit (its end, pools and survival rolls)
    after = [e["t"] for e in data["log"][at + 1 : -1]]
    assert (after == []) == (ruleset != "mobs-and-morale"), after
    summary = _verified(wargame, path)
    assert summary["winner"] == "B" and summary["status"] == "finished"
    before = path.read_bytes()
    line = one_error_line(wargame("edit", str(path), "die", "1", "1", "--why", "x"))
    assert "finished" in line and "--force" in line
    assert path.read_bytes() == before
    # with --force a die can still be corrected; a table edit cannot
    line = one_error_line(wargame("edit", str(path), "end", "A", "x", "--why", "x", "--force"))
    assert "over" in line
    assert path.read_bytes() == before


def _die_to_change(wargame: Any, path: Path) -> tuple[int, int, int]:
    """The first die and a face it could show but does not: (number, old face, new face)."""
    done = wargame("replay", str(path), "--dice", "--json")
    assert done.returncode == 0, done.stderr
    first = json.loads(done.stdout)["dice"][0]
    assert first["number"] == 1
    new = 1 if first["face"] != 1 else 2
    return 1, first["face"], new


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_corrected_die_replays_the_game_and_says_so(wargame, tmp_path, ruleset):
    path = _played(wargame, tmp_path, ruleset, turns="2")
    number, old, new = _die_to_change(wargame, path)
    done = wargame("edit", str(path), "die", str(number), str(new), "--why", "misread")
    assert done.returncode == 0, done.stderr
    assert f"corrected from {old} to {new}" in done.stdout
    (fix,) = [e for e in _edits(path) if e["action"] == "die"]
    assert fix["data"]["was"] == old and fix["data"]["face"] == new
    assert fix["data"]["source"] == "rng"
    log = json.loads(path.read_text())["log"]
    roll = log[fix["data"]["at"]]
    assert roll["t"] == "roll" and roll["faces"][fix["data"]["pos"]] == new
    told = _verified(wargame, path)["provenance"]
    assert told["dice"]["corrected"] == 1
    listing = wargame("replay", str(path), "--dice").stdout
    assert f"corrected from {old}" in listing
    # correcting it again keeps the face first thrown as the one it was
    again = 3 if new != 3 and old != 3 else 4
    done = wargame("edit", str(path), "die", str(number), str(again), "--why", "no, really")
    assert done.returncode == 0, done.stderr
    (fix,) = [e for e in _edits(path) if e["action"] == "die"]
    assert (fix["data"]["was"], fix["data"]["face"]) == (old, again)
    assert _verified(wargame, path)["provenance"]["dice"]["corrected"] == 1
    done = wargame("resume", str(path), "--no-input")
    assert done.returncode == 0, done.stderr
    _verified(wargame, path)


def test_a_forged_edit_is_an_edited_record(wargame, tmp_path):
    path = _played(wargame, tmp_path, "mobs-and-morale")
    data = json.loads(path.read_text())
    forged = {
        "t": "edit",
        "action": "damage",
        "args": ["Brakka", "3"],
        "by": "GM",
        "why": "forged",
        "text": "Brakka takes 3 damage (4/7 left)",
        "h": data["log"][-1]["h"],
    }
    data["log"].append(forged)
    path.write_text(json.dumps(data))
    line = one_error_line(wargame("replay", str(path), "--verify"))
    assert "the record was edited" in line


def test_a_face_changed_by_hand_under_a_forged_correction_is_refused(wargame, tmp_path):
    """A correction entry whose old face is not the generator's: the record was edited."""
    from wargame_cli.saves import seal

    path = _played(wargame, tmp_path, "tug-of-wargods")
    data = json.loads(path.read_text())
    log = [seal.unchained(e) for e in data["log"]]
    at = next(i for i, e in enumerate(log) if e["t"] == "roll")
    old = log[at]["faces"][0]
    log[at]["faces"][0] = new = 1 if old != 1 else 2
    wrong = 2 if old != 2 and new != 2 else 3  # the correction lies about the face first thrown
    log.insert(
        at + 1,
        {
            "t": "edit", "action": "die", "args": ["1", str(new)], "by": "GM", "why": "forged",
            "text": "die 1 corrected",
            "data": {"die": 1, "at": at, "pos": 0, "was": wrong, "face": new, "source": "rng"},
        },
    )  # fmt: skip
    plain = {k: v for k, v in data.items() if k != "seal"}
    path.write_text(json.dumps(seal.sealed({**plain, "log": log})))
    line = one_error_line(wargame("replay", str(path), "--verify"))
    assert "the record was edited" in line and f"was not {wrong}" in line


def test_a_correction_that_makes_a_later_decision_illegal_cuts_the_log_there(wargame, tmp_path):
    """Mobs and Morale, seed 5: raising Ysolde's initiative die reorders the round, so the
    next decision asked is no longer the one the log has: the log stops there, and resume
    asks it."""
    path = tmp_path / "mm.json"
    args = ["--no-input", "--seed", "5", "--turns", "1", "--save", str(path)]
    assert wargame("play", "mobs-and-morale", *args).returncode == 0
    before = [e for e in json.loads(path.read_text())["log"] if e["t"] == "choice"]
    done = wargame("edit", str(path), "die", "5", "10", "--why", "it was a 10")
    assert done.returncode == 0, done.stderr
    assert "left out from the first that no longer fits" in done.stdout
    after = [e for e in json.loads(path.read_text())["log"] if e["t"] == "choice"]
    assert len(after) < len(before)
    assert [e["key"] for e in after] == [e["key"] for e in before[: len(after)]]
    assert json.loads(path.read_text())["status"] == "in_progress"
    _verified(wargame, path)
    assert wargame("resume", str(path), "--no-input").returncode == 0
    _verified(wargame, path)


def test_a_creature_added_mid_battle_rolls_initiative_next_round(wargame, tmp_path):
    path = _played(wargame, tmp_path, "mobs-and-morale")
    done = wargame("edit", str(path), "add", "A", "Warrior", "31,5", "fierce=5", "--why", "x")
    assert done.returncode == 0, done.stderr
    assert "Warrior joins side A at 31,5" in done.stdout
    assert wargame("resume", str(path), "--no-input", "--turns", "1").returncode == 0
    rounds = [
        e["data"]["units"]
        for e in json.loads(path.read_text())["log"]
        if e["t"] == "event" and e["kind"] == "initiative"
    ]
    assert "Warrior" not in rounds[0] and "Warrior" in rounds[1]
    state = json.loads(wargame("replay", str(path), "--json").stdout)["state"]
    (added,) = [c for c in state["creatures"] if c["id"] == "Warrior"]
    assert added["fierce"] == 5 and added["side"] == "A"


def test_rules_lists_the_edits_each_ruleset_takes(wargame):
    for ruleset, edits in EDITS.items():
        shown = json.loads(wargame("rules", ruleset, "--json").stdout)["edits"]
        own = {words[0] for words in edits["good"]}
        assert own <= set(shown) and {"end", "die"} <= set(shown)
    assert set(json.loads(wargame("rules", "tug-of-wargods", "--json").stdout)["edits"]) == {
        "end",
        "die",
    }


def test_dice_by_side_needs_a_terminal_and_a_known_form(wargame):
    line = one_error_line(wargame("play", "tug-of-wargods", "--dice", "A=manual", "--no-input"))
    assert "--no-input" in line
    line = one_error_line(wargame("play", "tug-of-wargods", "--dice", "A=dice", "--no-save"))
    assert "A=manual,B=auto" in line
