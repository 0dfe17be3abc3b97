"""A verify that cannot be fooled (issue 20 items 4 and 5, and its tracebacks): where the dice
came from and who decided, told by every output; no version number turns the hash chain off;
headers and listings give the replayed result; take-backs held to the log in full; forged
teams and tables with no room are one line and exit 2. All through the real entry point."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.cli_helpers import one_error_line
from wargame_cli.saves import seal

TAKE_BACK = {"side": "B", "turn": 1, "taken": {"key": "surrender", "label": "Surrender"}}


def _play(wargame, path: Path, ruleset: str, *extra: str) -> dict[str, Any]:
    done = wargame("play", ruleset, "--no-input", "--save", str(path), *extra)
    assert done.returncode == 0, done.stderr
    return json.loads(path.read_text())


def _write(path: Path, data: dict[str, Any], reseal: bool = True) -> Path:
    """The forger's file: with `reseal`, the hash chain recomputed over the edit."""
    path.write_text(json.dumps(seal.sealed(data) if reseal else data))
    return path


def _outputs(wargame, path: Path) -> dict[str, str]:
    """Every output that states a save's facts, each of which must succeed."""
    shown = {}
    for name, args in {
        "verify": ("--verify",),
        "verify-json": ("--verify", "--json"),
        "replay": ("--no-input",),
        "replay-json": ("--json",),
        "report": ("--report", "-"),
    }.items():
        done = wargame("replay", str(path), *args)
        assert done.returncode == 0, (name, done.stderr)
        shown[name] = done.stdout
    html = path.with_suffix(".html")
    done = wargame("replay", str(path), "--html", str(html), "--force")
    assert done.returncode == 0, done.stderr
    shown["html"] = html.read_text()
    return shown


# -- 4. provenance ------------------------------------------------------------------------------


def test_scripted_dice_never_pass_as_the_seeds(wargame, tmp_path):
    path = tmp_path / "g.json"
    _play(wargame, path, "tug-of-wargods", "--seed", "7", "--rolls", "10,6,6,1,1,1")
    shown = _outputs(wargame, path)
    for name in ("verify", "replay", "report", "html"):
        assert "6 given by --rolls" in shown[name], name
        assert "seed 7" not in shown[name] and "generator" not in shown[name], name
    for name in ("verify-json", "replay-json"):
        told = json.loads(shown[name])["provenance"]
        assert told["dice"] == {
            "script": 6,
            "manual": 0,
            "rng": 0,
            "corrected": 0,
            "shared": 0,
            "typed-A": 0,
            "typed-B": 0,
        }
        assert told["sealed"] is True


def test_mixed_dice_are_counted_by_where_they_came_from(wargame, tmp_path):
    path = tmp_path / "g.json"
    data = _play(wargame, path, "tug-of-wargods", "--seed", "7", "--rolls", "10,6,6")
    generated = sum(len(e["faces"]) for e in data["log"] if e["t"] == "roll") - 3
    assert generated > 0
    line = f"3 given by --rolls, {generated} from the generator (seed 7)"
    shown = _outputs(wargame, path)
    for name in ("verify", "replay", "report", "html"):
        assert line in shown[name], name
    told = json.loads(shown["verify-json"])["provenance"]
    assert told["dice"] == {
        "script": 3,
        "manual": 0,
        "rng": generated,
        "corrected": 0,
        "shared": 0,
        "typed-A": 0,
        "typed-B": 0,
    }
    played = wargame(
        "play", "tug-of-wargods", "--seed", "7", "--rolls", "10,6,6", "--no-input", "--json",
        "--no-save",
    )  # fmt: skip
    assert json.loads(played.stdout)["provenance"]["dice"] == told["dice"]


def test_dice_typed_in_at_the_table_are_told_as_such(wargame, tmp_path):
    path = tmp_path / "g.json"
    data = _play(wargame, path, "tug-of-wargods", "--seed", "7")
    rolls = [e for e in data["log"] if e["t"] == "roll"]
    for roll in rolls:
        roll["source"] = "manual"  # as `--dice manual` records it
    _write(path, data)
    shown = _outputs(wargame, path)
    count = sum(len(r["faces"]) for r in rolls)
    typed = f"dice: {count} typed in at the table (--dice manual, or for a side)"
    for name in ("verify", "replay", "report", "html"):
        assert typed in shown[name].lower() and "seed 7" not in shown[name], name


def test_who_decided_is_counted_side_by_side(wargame, tmp_path):
    path = tmp_path / "g.json"
    data = _play(wargame, path, "squad-alpha", "--seed", "3", "--turns", "1", "--choices", "B2")
    by = [(e["side"], e["by"]) for e in data["log"] if e["t"] == "choice"]
    assert by[0][1] == "script" and by.count((by[0][0], "script")) == 1
    bots = sum(1 for _, who in by if who == "bot")
    shown = _outputs(wargame, path)
    assert f"Decisions: {bots} by the computer, 1 by a script." in shown["verify"]
    told = json.loads(shown["verify-json"])["provenance"]
    assert told["decisions"] == {"human": 0, "bot": bots, "script": 1}
    scripted = by[0][0]
    assert told["decisions_by_side"][scripted]["script"] == 1
    mine = sum(1 for side, who in by if side == scripted and who == "bot")
    assert f"decisions: {mine} by the computer, 1 by a script" in shown["report"]
    assert f"decisions: {mine} by the computer, 1 by a script" in shown["replay"]


# -- 5. no switch turns the chain off -------------------------------------------------------------


def _finished_ixu(wargame, tmp_path) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "ixu.json"
    return path, _play(wargame, path, "battle-of-ixu", "--seed", "4")


def test_a_downgrade_does_not_switch_the_chain_off(wargame, tmp_path):
    path, data = _finished_ixu(wargame, tmp_path)
    data["version"] = 1  # the file keeps its `h` and `seal`, which no version 1 file had
    data["setup"]["players"] = {"A": "human", "B": "human"}
    for entry in data["log"]:
        if entry["t"] == "choice":
            entry["by"] = "human"
    loser = "A" if data["result"]["winner"] == "B" else "B"
    data["result"] = {"winner": loser, "reason": "Swords surrendered in shame"}
    _write(path, data, reseal=False)
    for args in (
        ("replay", str(path), "--verify"),
        ("replay", str(path), "--no-input"),
        ("replay", str(path), "--json"),
        ("replay", str(path), "--report", "-"),
        ("replay", str(path), "--html", str(tmp_path / "r.html")),
        ("fork", str(path), "--turn", "1"),
    ):
        one_error_line(wargame(*args))
    listed = json.loads(wargame("saves", "--json", "--saves-dir", str(tmp_path)).stdout)
    (row,) = listed
    assert row["status"] == "unreadable" and "the record was edited" in row["error"]


def test_only_the_version_changed_is_an_edit(wargame, tmp_path):
    path, data = _finished_ixu(wargame, tmp_path)
    data["version"] = 1
    _write(path, data, reseal=False)
    assert "the record was edited" in one_error_line(wargame("replay", str(path), "--verify"))


def test_an_unsealed_version_1_save_replays_and_says_unsealed(wargame, tmp_path):
    path, data = _finished_ixu(wargame, tmp_path)
    data["version"] = 1
    data.pop("seal")
    for entry in data["log"]:
        entry.pop("h")
    _write(path, data, reseal=False)
    shown = _outputs(wargame, path)
    for name in ("verify", "replay", "report", "html"):
        assert "nsealed: a version 1 save has no hash chain" in shown[name], name
    assert json.loads(shown["verify-json"])["provenance"]["sealed"] is False
    listing = wargame("saves", "--saves-dir", str(tmp_path))
    assert listing.returncode == 0 and "unsealed" in listing.stdout
    (row,) = json.loads(wargame("saves", "--json", "--saves-dir", str(tmp_path)).stdout)
    assert row["sealed"] is False and row["status"] == "finished"


def test_headers_and_the_listing_give_the_replayed_result(wargame, tmp_path):
    path, data = _finished_ixu(wargame, tmp_path)
    winner = data["result"]["winner"]
    data["result"] = {"winner": "A" if winner == "B" else "B", "reason": "surrendered in shame"}
    data["turns"] += 5
    _write(path, data)  # resealed: only the replay can tell
    shown = wargame("replay", str(path), "--no-input")
    assert shown.returncode == 0, shown.stderr
    head = shown.stdout.split("Turn 1")[0]
    assert "surrendered in shame" not in head and f"turn {data['turns'] - 5}:" in head
    assert f"{data['setup']['names'][winner]} won" in head
    (row,) = json.loads(wargame("saves", "--json", "--saves-dir", str(tmp_path)).stdout)
    assert row["winner"] == winner and row["turns"] == data["turns"] - 5
    assert "save says" in one_error_line(wargame("replay", str(path), "--verify"))


# -- 5. take-backs verified in full --------------------------------------------------------------


def _refused_everywhere(wargame, path: Path) -> None:
    for args in (("--verify",), ("--no-input",), ("--report", "-"), ("--json",)):
        line = one_error_line(wargame("replay", str(path), *args))
        assert "take-back " in line and "the record was edited" in line, line


@pytest.mark.parametrize("where", ["past the end", "at the end"])
def test_a_take_back_in_a_game_with_no_decisions_is_refused(wargame, tmp_path, where):
    path = tmp_path / "tug.json"
    data = _play(wargame, path, "tug-of-wargods", "--seed", "7")
    at = len(data["log"]) + (3 if where == "past the end" else 0)
    taken = {**TAKE_BACK["taken"], "prompt": "Surrender?", "by": "human"}
    data["takebacks"] = [{**TAKE_BACK, "at": at, "taken": taken, "new": None}]
    _refused_everywhere(wargame, _write(path, data))


def _taken_back(wargame, tmp_path) -> tuple[Path, dict[str, Any]]:
    path = tmp_path / "undone.json"
    data = _play(
        wargame, path, "seeds-of-wars", "--seed", "3", "--turns", "2", "--choices", "a2;undo;b2"
    )
    assert len(data["takebacks"]) == 1
    assert wargame("replay", str(path), "--verify").returncode == 0
    return path, data


@pytest.mark.parametrize(
    "forge",
    [
        lambda d: d["takebacks"][0]["taken"].update(key="z9"),  # never a legal answer there
        lambda d: d["takebacks"][0].update(side="A" if d["takebacks"][0]["side"] == "B" else "B"),
        lambda d: d["takebacks"][0].update(turn=d["takebacks"][0]["turn"] + 1),
        lambda d: d["takebacks"][0]["new"].update(by="bot"),
        lambda d: d["takebacks"][0]["new"].update(key="c2"),
        lambda d: d["takebacks"][0].update(new=None),
        lambda d: d["takebacks"][0].update(at=d["takebacks"][0]["at"] + 1),
        lambda d: d["takebacks"].insert(0, {**d["takebacks"][0], "at": len(d["log"])}),
    ],
    ids=["taken-key", "side", "turn", "new-by", "new-key", "new-none", "at", "order"],
)
def test_a_forged_take_back_is_refused(wargame, tmp_path, forge):
    path, data = _taken_back(wargame, tmp_path)
    forge(data)
    _refused_everywhere(wargame, _write(path, data))


def test_a_take_back_still_open_where_the_save_stops_verifies(wargame, tmp_path):
    path, data = _taken_back(wargame, tmp_path)
    done = data["takebacks"][0]
    data["log"] = data["log"][: done["at"]]  # stopped at the question asked again
    done["new"] = None
    data.update(status="in_progress", result=None)
    data["turns"] = max([e["n"] for e in data["log"] if e["t"] == "turn"], default=0)
    _write(path, data)
    verified = wargame("replay", str(path), "--verify")
    assert verified.returncode == 0, verified.stderr
    resumed = wargame("resume", str(path), "--no-input", "--turns", "1", "--json")
    assert resumed.returncode == 0, resumed.stderr
    assert wargame("replay", str(path), "--verify").returncode == 0


def test_an_open_take_back_on_a_finished_game_is_refused(wargame, tmp_path):
    path = tmp_path / "sa.json"
    data = _play(wargame, path, "squad-alpha", "--seed", "3", "--choices", "B2;undo;B1")
    (done,) = data["takebacks"]
    data["takebacks"].append({**done, "at": len(data["log"]), "new": None})
    _refused_everywhere(wargame, _write(path, data))


# -- tracebacks where exit 2 is promised ---------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "forge"),
    [
        ("tug-of-wargods", lambda d: d["setup"]["teams"]["A"]["models"].__setitem__(0, "Zeus")),
        ("tug-of-wargods", lambda d: d["setup"]["teams"].pop("B")),
        ("squad-alpha", lambda d: d["ruleset"].update(id="battle-of-ixu")),
        ("tug-of-wargods", lambda d: d["ruleset"].update(id="battle-of-ixu")),
    ],
    ids=["unit-renamed", "team-b-missing", "other-ruleset", "other-ruleset-tug"],
)
def test_replay_of_a_forged_team_is_one_line(wargame, tmp_path, ruleset, forge):
    path = tmp_path / "s.json"
    data = _play(wargame, path, ruleset, "--seed", "5", "--turns", "2")
    forge(data)
    _write(path, data)
    for args in (("--no-input",), ("--json",), ("--turn", "1"), ("--verify",)):
        one_error_line(wargame("replay", str(path), *args))


def _table(tmp_path: Path, height: float) -> Path:
    path = tmp_path / "blocked.toml"
    path.write_text(
        'name="B"\nwidth=12\nheight=12\n[[terrain]]\nname="wall"\nkind="blocking"\n'
        f"x=0\ny=0\nw=12\nh={height}\n"
    )
    return path


@pytest.mark.parametrize(
    ("ruleset", "height", "says"),
    [("squad-alpha", 12, "open ground for 0 of the 12"), ("mobs-and-morale", 5.5, "no room")],
)
def test_a_table_with_no_room_is_one_line_before_the_game(wargame, tmp_path, ruleset, height, says):
    table = f"table={_table(tmp_path, height)}"
    for args in (
        ("play", ruleset, "--no-input", "--seed", "1", "--no-save"),
        ("simulate", ruleset, "--games", "2", "--seed", "1"),
    ):
        done = wargame(*args, "--option", table)
        assert says in one_error_line(done) and not done.stdout.strip()


def test_a_large_mob_on_a_shallow_deployment_area_is_one_line(wargame):
    team = (
        "Ugrak=Chieftain, Hrok=Chieftain, Grum=Chieftain, Reds=8 Tribal Warrior under Ugrak, "
        "Blues=8 Tribal Warrior under Hrok, Greens=8 Tribal Warrior under Grum"
    )
    done = wargame(
        "play", "mobs-and-morale", "--no-input", "--seed", "1", "--no-save",
        "--option", "deploy_depth=1", "--team-a", team,
    )  # fmt: skip
    assert "no room in Side A's deployment area for Greens" in one_error_line(done)


def test_a_turn_whose_first_decision_is_asked_again_is_saved_with_its_start():
    """A save stops at the question a take-back asks again: the turn it stands in is kept
    (a turn with nothing in it is left out only when nothing was taken back there)."""
    from wargame_cli.saves.games import settled

    log = [{"t": "turn", "n": 1}, {"t": "roll"}, {"t": "turn", "n": 2}]
    assert settled(log, 2) == (log[:2], 1)
    assert settled(log, 2, [{"at": 3, "new": None}]) == (log, 2)
    assert settled(log, 2, [{"at": 3, "new": {"key": "k"}}]) == (log[:2], 1)
