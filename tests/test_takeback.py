"""Take-backs: the runner takes back the latest decision by a person or a script, replays the
rest into a fresh game, and keeps the dice rolled after it on a tape."""

from __future__ import annotations

import json

import pytest

from tests.cli_helpers import one_error_line
from wargame_cli.engine.dice import ManualDice, RngDice, ScriptDice
from wargame_cli.engine.requests import TAKE_BACK, Choice, Event, Option, Outcome, Roll
from wargame_cli.engine.runner import Runner
from wargame_cli.saves import games

# Per ruleset, with seed 3: a first decision to take back and the one made instead.
TAKEN = {
    "squad-alpha": ("B2", "B1"),
    "battle-of-ixu": ("4,1,5", "5,1,4"),
    "seeds-of-wars": ("a2", "b2"),
    "mobs-and-morale": ("10.8,3", "18,3"),
}


class ToyGame:
    """A decision, dice whose size depends on it ("big" asks a d10), two d6, a question."""

    state = None

    def play(self):
        key = yield Choice(
            "A", "Which?", (Option("a", "A"), Option("b", "B"), Option("big", "Big")), "a"
        )
        first = yield Roll(dice=(10,) if key == "big" else (6,), reason="first", side="A")
        rest = yield Roll(dice=(6, 6), reason="rest", side="A", labels=("left", "right"))
        yield Choice("A", "Go on?", (Option("ok", "OK"),), "ok")
        yield Event(f"{key} {first} {rest}")
        return Outcome(winner="A", reason="done")

    def state_json(self):
        return {}


class Answers:
    def __init__(self, keys):
        self.keys = list(keys)
        self.by = "human"
        self.refusals = []

    def choose(self, choice, game):
        return self.keys.pop(0)

    def refused(self, choice, key, reason):
        self.refusals.append(reason)


def toy_runner(keys, dice):
    told = []
    runner = Runner(
        ToyGame(),
        dice,
        {"A": Answers(keys)},
        observer=lambda entry, game: told.append(entry),
        factory=ToyGame,
    )
    runner.run()
    return runner, told


def faces(runner):
    return [e["faces"] for e in runner.log if e["t"] == "roll"]


def test_manual_faces_come_out_again_without_asking():
    asked = []

    def ask(roll):
        asked.append(roll)
        return [3] * len(roll.dice) if len(asked) == 1 else [5] * len(roll.dice)

    runner, told = toy_runner(["a", TAKE_BACK, "b", "ok"], ManualDice(ask))
    assert len(asked) == 2, "the kept faces were asked for again"
    assert faces(runner) == [[3], [5, 5]]
    assert runner.log[-2]["text"] == "b (3,) (5, 5)"
    assert [e["source"] for e in runner.log if e["t"] == "roll"] == ["manual", "manual"]
    (done,) = runner.takebacks
    assert done["taken"]["key"] == "a" and done["new"]["key"] == "b" and done["at"] == 0
    assert [t["t"] for t in told].count("takeback") == 1


def test_seeded_dice_are_rewound_and_a_take_back_cannot_fish():
    straight, _ = toy_runner(["b", "ok"], RngDice(11))
    undone, _ = toy_runner(["a", TAKE_BACK, "b", "ok"], RngDice(11))
    assert undone.log == straight.log
    # "b" asks the same dice as "a": the faces are the ones "a" saw, whatever the seed
    for seed in range(20):
        first, _ = toy_runner(["a", TAKE_BACK, "b", "ok"], RngDice(seed))
        seen, _ = toy_runner(["a", "ok"], RngDice(seed))
        assert faces(first) == faces(seen)


def test_dice_of_another_size_are_new_and_the_screen_says_so():
    straight, _ = toy_runner(["big", "ok"], RngDice(11))
    undone, told = toy_runner(["a", TAKE_BACK, "big", "ok"], RngDice(11))
    assert undone.log == straight.log  # the rewound stream: same as never having chosen "a"
    notes = [t["text"] for t in told if t["t"] == "note"]
    assert len(notes) == 1 and "d10" in notes[0] and "d6" in notes[0]


def test_manual_dice_of_another_size_are_asked_for_with_their_labels():
    asked = []

    def ask(roll):
        asked.append(roll)
        return [2] * len(roll.dice)

    undone, told = toy_runner(["a", TAKE_BACK, "big", "ok"], ManualDice(ask))
    assert [r.dice for r in asked] == [(6,), (6, 6), (10,), (6, 6)]
    assert asked[-1].labels == ("left", "right")
    assert any(t["t"] == "note" for t in told)


def test_scripted_rolls_are_rewound():
    straight, _ = toy_runner(["b", "ok"], ScriptDice([4, 1, 2], RngDice(5)))
    undone, _ = toy_runner(["a", TAKE_BACK, "b", "ok"], ScriptDice([4, 1, 2], RngDice(5)))
    assert undone.log == straight.log and faces(undone) == [[4], [1, 2]]


def test_nothing_to_take_back_is_refused_and_asked_again():
    runner, _ = toy_runner([TAKE_BACK, "a", "ok"], RngDice(1))
    assert runner.controllers["A"].refusals == [
        "nothing to take back: no decision by a person or a script yet"
    ]
    assert runner.finished and not runner.takebacks


def test_bot_decisions_are_not_taken_back_alone():
    bot = Answers(["a", "ok"])
    bot.by = "bot"
    runner = Runner(ToyGame(), RngDice(1), {"A": bot}, factory=ToyGame)
    runner.run()
    assert runner.take_back() is not None and runner.finished


def _save(wargame, tmp_path, ruleset_id, name, choices):
    path = tmp_path / f"{name}.json"
    done = wargame(
        "play", ruleset_id, "--no-input", "--seed", "3", "--turns", "2",
        "--save", str(path), "--choices", choices, "--json",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return path, json.loads(path.read_text())


@pytest.mark.parametrize("ruleset_id", sorted(TAKEN))
def test_choices_undo_gives_the_log_of_the_new_decision(wargame, tmp_path, ruleset_id):
    first, instead = TAKEN[ruleset_id]
    _, straight = _save(wargame, tmp_path, ruleset_id, "straight", instead)
    path, undone = _save(wargame, tmp_path, ruleset_id, "undone", f"{first};undo;{instead}")
    assert undone["log"] == straight["log"]
    assert "takebacks" not in straight
    (done,) = undone["takebacks"]
    assert done["taken"]["key"] == first and done["new"]["key"] == instead
    assert done["side"] == undone["log"][done["at"]]["side"]
    verified = wargame("replay", str(path), "--verify", "--json")
    assert verified.returncode == 0 and json.loads(verified.stdout)["verified"] is True
    shown = wargame("replay", str(path), "--no-input")
    assert shown.returncode == 0 and shown.stdout.count("took back") == 1
    report = wargame("replay", str(path), "--report", "-")
    assert "## Take-backs" in report.stdout and "took back" in report.stdout


def test_repeated_take_backs_go_further_back(wargame, tmp_path):
    _, straight = _save(wargame, tmp_path, "squad-alpha", "straight", "B1")
    path, undone = _save(wargame, tmp_path, "squad-alpha", "undone", "B2;20.5,16.5;undo;undo;B1")
    assert undone["log"] == straight["log"]
    assert [t["taken"]["key"] for t in undone["takebacks"]] == ["20.5,16.5", "B2"]
    assert undone["takebacks"][0]["new"] is None and undone["takebacks"][1]["new"]["key"] == "B1"
    assert wargame("replay", str(path), "--verify").returncode == 0


def test_undo_with_nothing_to_take_back_is_one_line(wargame):
    done = wargame(
        "play", "squad-alpha", "--no-input", "--seed", "3", "--no-save", "--choices", "undo"
    )
    assert "nothing to take back" in one_error_line(done)


def test_a_forged_take_back_fails_verify(wargame, tmp_path):
    path, undone = _save(wargame, tmp_path, "seeds-of-wars", "undone", "a2;undo;b2")
    undone["takebacks"][0]["new"]["key"] = "c2"
    path.write_text(json.dumps(undone))
    done = wargame("replay", str(path), "--verify")
    assert done.returncode != 0 and "take-back" in done.stderr


def test_a_resumed_game_keeps_its_take_backs(tmp_path, wargame):
    path, undone = _save(wargame, tmp_path, "seeds-of-wars", "undone", "a2;undo;b2")
    session = games.open_save(path)
    assert session.runner.takebacks == undone["takebacks"]
    done = wargame("resume", str(path), "--no-input", "--turns", "1", "--json")
    assert done.returncode == 0, done.stderr
    assert json.loads(path.read_text())["takebacks"] == undone["takebacks"]
