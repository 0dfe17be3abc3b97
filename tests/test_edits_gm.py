"""Edits a GM can use (issue 34): a figure added to a mob that is already on the table, no
base put over another base or into blocking terrain, the after-battle rolls of an ended
battle, and edits made before the first turn. Through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tests.cli_helpers import one_error_line

WOLVES = "Ugrak=Chieftain, Thorn wolves=3 Wolf"


def _played(wargame: Any, tmp_path: Path, ruleset: str, *args: str, turns: str = "1") -> Path:
    path = tmp_path / f"{ruleset}.json"
    done = wargame(
        "play", ruleset, "--no-input", "--seed", "3", "--turns", turns, "--save", str(path), *args
    )
    assert done.returncode == 0, done.stderr
    return path


def _state(wargame: Any, path: Path) -> dict[str, Any]:
    done = wargame("replay", str(path), "--json")
    assert done.returncode == 0, done.stderr
    state: dict[str, Any] = json.loads(done.stdout)["state"]
    return state


def _verified(wargame: Any, path: Path) -> None:
    done = wargame("replay", str(path), "--verify", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["verified"] is True


def test_a_wolf_joins_the_thorn_wolves_and_acts_with_them(wargame, tmp_path):
    path = _played(wargame, tmp_path, "mobs-and-morale", "--team-b", WOLVES)
    done = wargame("edit", str(path), "add", "B", "Wolf", "30,20", "mob=Thorn wolves", "--why", "w")
    assert done.returncode == 0, done.stderr
    assert "Thorn wolves 4 (Wolf) joins Thorn wolves at 30,20" in done.stdout
    state = _state(wargame, path)
    mob = next(m for m in state["mobs"] if m["name"] == "Thorn wolves")
    assert mob["members"][-1] == "Thorn wolves 4" and "Thorn wolves 4" in mob["standing"]
    wolf = next(c for c in state["creatures"] if c["id"] == "Thorn wolves 4")
    assert wolf["mob"] == "Thorn wolves" and wolf["label"] == "t4" and wolf["pos"] == [30, 20]
    _verified(wargame, path)
    assert wargame("resume", str(path), "--no-input").returncode == 0
    _verified(wargame, path)


def test_a_figure_a_mob_cannot_take_is_refused_naming_why(wargame, tmp_path):
    path = _played(wargame, tmp_path, "mobs-and-morale", "--team-b", WOLVES)
    before = path.read_bytes()
    for words, said in [
        (["Warrior", "30,20", "mob=Thorn wolves"], "Warrior is not a minion"),
        (["Wolf", "30,20", "mob=Grey wolves"], "side B has no mob 'Grey wolves'; its mobs: Thorn"),
    ]:
        line = one_error_line(wargame("edit", str(path), "add", "B", *words, "--why", "w"))
        assert said in line, line
    line = one_error_line(
        wargame("edit", str(path), "add", "A", "Wolf", "30,20", "mob=Thorn wolves", "--why", "w")
    )
    assert "side A has no mob 'Thorn wolves'" in line
    assert path.read_bytes() == before


def _first_figure(state: dict[str, Any], key: str = "pos") -> tuple[float, float]:
    found = next(c for c in state["creatures"] if c.get(key) is not None)
    x, y = found[key]
    return float(x), float(y)


def test_no_edit_puts_a_base_over_another_or_its_edge_into_blocking_terrain(wargame, tmp_path):
    path = _played(wargame, tmp_path, "mobs-and-morale")
    before = path.read_bytes()
    x, y = _first_figure(_state(wargame, path))
    over = f"{x + 0.3:g},{y}"
    # the standing stones cover 8-11 x 11-13: a base's centre at y 10.7 puts its edge inside
    for words, said in [
        (["add", "B", "Wolf", over], "overlaps"),
        (["move", "Ysolde", over], "overlaps"),
        (["add", "B", "Wolf", "9,10.7"], "standing stones"),
        (["move", "Ysolde", "9,10.7"], "standing stones"),
    ]:
        line = one_error_line(wargame("edit", str(path), *words, "--why", "w"))
        assert said in line, line
    assert path.read_bytes() == before
    # touching is not overlapping: a base an inch to the side (bases are 1" across)
    done = wargame("edit", str(path), "add", "B", "Wolf", "9,10.5", "--why", "w")
    assert done.returncode == 0, done.stderr


def _two_standing(state: dict[str, Any]) -> tuple[str, tuple[float, float]]:
    """Battle of Ixu's or Squad Alpha's state: the first model's name and where the second of
    the other side stands."""
    key = "models" if "models" in state["sides"]["A"] else "miniatures"
    first = state["sides"]["A"][key][0]
    x, y = state["sides"]["B"][key][0]["position"]
    return str(first.get("id", first["name"])), (float(x), float(y))


def test_ixu_and_squad_alpha_moves_never_overlap_a_base(wargame, tmp_path):
    for ruleset in ("battle-of-ixu", "squad-alpha"):
        path = _played(wargame, tmp_path, ruleset)
        before = path.read_bytes()
        mover, (x, y) = _two_standing(_state(wargame, path))
        spot = f"{x + 0.2:g},{y:g}"
        line = one_error_line(wargame("edit", str(path), "move", mover, spot, "--why", "w"))
        assert "overlaps" in line, line
        assert path.read_bytes() == before


def test_an_end_edit_makes_the_survival_rolls_the_rules_give_with_their_provenance(
    wargame, tmp_path
):
    path = tmp_path / "ended.json"
    done = wargame(
        "play", "mobs-and-morale", "--no-input", "--seed", "1", "--turns", "2", "--save", str(path)
    )
    assert done.returncode == 0, done.stderr
    fallen = [c["id"] for c in _state(wargame, path)["creatures"] if c["status"] != "standing"]
    assert "Mother Wren" in fallen  # the party's casualty, always rolled for (e30)
    done = wargame("edit", str(path), "end", "B", "the party withdrew", "--why", "out of time")
    assert done.returncode == 0, done.stderr
    assert "The Lantern Company: 1 of 1 casualty lives" in done.stdout
    assert "resume" in done.stdout  # the GM's call on the NPCs' casualties waits for it
    log = json.loads(path.read_text())["log"]
    at = max(i for i, e in enumerate(log) if e["t"] == "edit")
    assert log[at]["data"] == {"after_battle": True}
    roll = next(e for e in log[at:] if e["t"] == "roll")
    assert (
        roll["labels"] == ["Mother Wren"] and roll["source"] == "rng" and roll["rules"] == ["e30"]
    )
    _verified(wargame, path)
    assert wargame("resume", str(path), "--no-input").returncode == 0
    saved = json.loads(path.read_text())
    assert saved["status"] == "finished" and saved["result"]["winner"] == "B"
    end = saved["log"][-1]
    assert end["t"] == "end" and end["data"]["declared"] is True
    assert [r["creature"] for r in end["data"]["after_battle"]["A"]] == ["Mother Wren"]
    _verified(wargame, path)
    dice = wargame("replay", str(path), "--dice").stdout
    assert "a d10 for each casualty, 5+ lives" in dice


def test_an_end_edit_logged_before_the_after_battle_rolls_still_replays_as_it_was():
    """A save whose `end` edit carries no after-battle mark (written before they were made)
    ends there and then when replayed, with the hook in place."""
    from wargame_cli.engine.dice import RngDice
    from wargame_cli.engine.edits import Edit
    from wargame_cli.engine.requests import Event, Outcome, Roll
    from wargame_cli.engine.runner import Runner

    class Game:
        state: dict[str, int] = {}

        def play(self) -> Any:
            yield Event("start", kind="n")
            yield Roll(dice=(6,), reason="a die", side="A")
            yield Event("never reached", kind="n")
            return Outcome("A", "played out")

        def state_json(self) -> dict[str, int]:
            return {}

    def after(game: Any, winner: str | None, reason: str) -> Any:
        (face,) = yield Roll(dice=(10,), reason="after the battle", side="A")
        return Outcome(winner, f"{reason} ({face})")

    old = Runner(Game(), RngDice(1), {}, factory=Game)
    old.step()
    old.edit(Edit("end", ("B", "over"), "GM", "why"))
    assert [e["t"] for e in old.log] == ["event", "edit", "end"]
    again = Runner(Game(), RngDice(1), {}, factory=Game, after_end=after)
    again.replay(old.log)
    assert again.outcome is not None and again.outcome.reason == "over"
    new = Runner(Game(), RngDice(1), {}, factory=Game, after_end=after)
    new.step()
    new.edit(Edit("end", ("B", "over"), "GM", "why"))
    new.settle()
    assert [e["t"] for e in new.log] == ["event", "edit", "roll", "end"]
    assert new.outcome is not None and new.outcome.cause == "declared"
    replayed = Runner(Game(), RngDice(1), {}, factory=Game, after_end=after)
    replayed.replay(new.log)
    assert replayed.outcome == new.outcome


OLD_WOUNDS = {
    "mobs-and-morale": ["damage", "Brakka", "2"],
    "battle-of-ixu": ["damage", "A1", "2"],
    "seeds-of-wars": ["damage", "A1", "1"],
    "squad-alpha": ["remove", "A2"],
}


def test_old_wounds_are_dealt_before_the_first_turn_and_the_battle_plays_on(wargame, tmp_path):
    for ruleset, words in OLD_WOUNDS.items():
        path = tmp_path / f"{ruleset}.json"
        done = wargame(
            "play", ruleset, "--no-input", "--seed", "2", "--turns", "0", "--save", str(path)
        )
        assert done.returncode == 0, done.stderr
        saved = json.loads(path.read_text())
        assert saved["status"] == "in_progress" and saved["turns"] == 0
        assert not any(e["t"] == "turn" for e in saved["log"])  # deployed, turn 1 to come
        done = wargame("edit", str(path), *words, "--why", "an old wound")
        assert done.returncode == 0, (ruleset, done.stderr)
        done = wargame("resume", str(path), "--no-input", "--turns", "1")
        assert done.returncode == 0, done.stderr
        log = json.loads(path.read_text())["log"]
        edit = next(i for i, e in enumerate(log) if e["t"] == "edit")
        assert edit < next(i for i, e in enumerate(log) if e["t"] == "turn")
        _verified(wargame, path)


def test_rules_lists_the_die_edit_with_the_command_it_names(wargame):
    done = wargame("rules", "mobs-and-morale")
    assert "{replay}" not in done.stdout and "replay SAVE --dice" in done.stdout
