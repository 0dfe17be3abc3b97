"""Table edits in the runner: an edit made at a question that can be asked again rebuilds it
(REASK), one made at any other question is refused, take-back takes an edit back, a die
correction keeps the decisions after it while they are legal, and dice by side."""

from __future__ import annotations

from typing import Any

import pytest

from wargame_cli.engine import edits
from wargame_cli.engine.dice import MANUAL, RNG, ManualDice, RngDice, SidedDice, parse_dice
from wargame_cli.engine.edits import Edit, EditRefused
from wargame_cli.engine.requests import (
    REASK,
    TAKE_BACK,
    Choice,
    Event,
    Option,
    Outcome,
    Roll,
    TurnStart,
    asked,
)
from wargame_cli.engine.runner import Runner
from wargame_cli.errors import DiceError, ReplayDivergence


class Counter:
    """A game with a number on the table: each turn a d6 is added to it and side A decides
    "stop" or "go" (a question built afresh from the number, `asked`), then a plain question
    that cannot be asked again."""

    def __init__(self) -> None:
        self.state: dict[str, int] = {"n": 0}

    def play(self) -> Any:
        for turn in (1, 2):
            yield TurnStart(turn)
            (face,) = yield Roll(dice=(6,), reason="add", side="A")
            self.state["n"] += face
            key = yield from asked(
                lambda: Choice(
                    "A",
                    f"n is {self.state['n']}",
                    (Option("go", "Go"), Option("stop", "Stop", None if self.state["n"] else "0")),
                    "go",
                    reasks=True,
                )
            )
            yield Choice("A", "plain", (Option("ok", "OK"),), "ok")
            yield Event(f"n={self.state['n']} {key}", kind="n", data={"n": self.state["n"]})
        return Outcome("A", f"n={self.state['n']}")

    def state_json(self) -> dict[str, int]:
        return dict(self.state)


def set_n(game: Any, edit: Edit) -> str:
    value = edit.number(0, "n", low=0)
    game.state["n"] = value
    return f"n is set to {value}"


class Keys:
    by = "human"

    def __init__(self, keys: list[str]) -> None:
        self.keys = keys
        self.refusals: list[str] = []

    def choose(self, choice: Choice, game: Any) -> str:
        return self.keys.pop(0)

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        self.refusals.append(reason)


def runner(keys: list[str], seed: int = 1) -> tuple[Runner, Keys]:
    person = Keys(keys)
    made = Runner(Counter(), RngDice(seed), {"A": person}, factory=Counter, editor=set_n)
    return made, person


def status(n: str) -> str:
    return edits.token(Edit("status", (n,), "GM", "test"))


def test_an_edit_rebuilds_a_question_asked_again_and_replays_in_place():
    play, person = runner([status("0"), "go", "ok", "go", "ok"])
    play.run()
    kinds = [e["t"] for e in play.log]
    assert kinds[:4] == ["turn", "roll", "edit", "choice"]
    assert play.log[3]["prompt"] == "n is 0"  # the question built again from the edited n
    assert play.log[2]["text"] == "n is set to 0" and play.log[2]["by"] == "GM"
    # a replay applies the edit where it stands and asks the same rebuilt question
    again = Runner(Counter(), RngDice(1), factory=Counter, editor=set_n)
    again.replay(play.log)
    assert again.log == play.log and again.outcome == play.outcome


def test_a_question_that_cannot_be_asked_again_refuses_table_edits():
    play, person = runner(["go", status("3"), "ok", "go", "ok"])
    play.run()
    assert person.refusals and "cannot be edited at this question" in person.refusals[0]
    assert not [e for e in play.log if e["t"] == "edit"]


def test_a_replayed_edit_the_rules_refuse_is_a_divergence():
    play, _ = runner([status("0"), "go", "ok", "go", "ok"])
    play.run()
    log = [dict(e) for e in play.log]
    log[2]["args"] = ["-4"]
    again = Runner(Counter(), RngDice(1), factory=Counter, editor=set_n)
    with pytest.raises(ReplayDivergence, match="refuse the edit"):
        again.replay(log)


def test_take_back_takes_the_latest_edit_back_and_asks_its_question_again():
    play, person = runner([status("0"), TAKE_BACK, "go", "ok", "go", "ok"])
    play.run()
    assert not [e for e in play.log if e["t"] == "edit"]
    assert play.log[2]["t"] == "choice" and play.log[2]["prompt"] != "n is 0"
    assert play.takebacks == []  # an edit taken back leaves no record


def test_end_closes_the_game_with_the_declared_winner():
    play, _ = runner([edits.token(Edit("end", ("B", "time", "is", "up"), "GM", "late"))])
    play.run()
    assert play.outcome is not None and play.outcome.winner == "B"
    assert play.outcome.reason == "time is up" and play.outcome.cause == "declared"
    assert [e["t"] for e in play.log][-2:] == ["edit", "end"]
    again = Runner(Counter(), RngDice(1), factory=Counter, editor=set_n)
    again.replay(play.log)
    assert again.outcome == play.outcome and again.log == play.log


def test_a_correction_keeps_later_decisions_while_legal_and_never_rerolls():
    play, _ = runner(["stop", "ok", "go", "ok"], seed=3)
    play.run()
    faces = [e["faces"][0] for e in play.log if e["t"] == "roll"]
    # die 1 (before every decision) corrected: each stays legal; the second die is reused
    play.edit(Edit("die", ("1", str(7 - faces[0])), "GM", "misread"))
    after = [e["faces"][0] for e in play.log if e["t"] == "roll"]
    assert after == [7 - faces[0], faces[1]]
    assert [e["key"] for e in play.log if e["t"] == "choice"] == ["stop", "ok", "go", "ok"]
    assert play.rederived["kept"] == 4 and play.rederived["dropped"] == 0
    again = Runner(Counter(), RngDice(3), factory=Counter, editor=set_n)
    again.replay(play.log)
    assert again.rng_mismatch is None and again.outcome == play.outcome


def test_a_correction_is_refused_for_a_face_the_die_cannot_show():
    play, _ = runner(["go", "ok", "go", "ok"])
    play.run()
    for words, why in ((("1", "7"), "does not fit a d6"), (("9", "1"), "only 2 dice")):
        with pytest.raises(EditRefused, match=why):
            play.edit(Edit("die", words, "GM", "x"))


def test_dice_by_side_and_an_empty_answer_let_the_computer_roll():
    asked_for: list[str | None] = []

    def ask(roll: Roll) -> list[int]:
        asked_for.append(roll.side)
        return [] if roll.reason == "hand over" else [4]

    rng = RngDice(5)
    typed = ManualDice(ask, rng)
    dice = SidedDice({"A": typed, "B": rng}, rng)
    assert dice.throw(Roll((6,), "mine", side="A")).source == MANUAL
    assert dice.throw(Roll((6,), "theirs", side="B")).source == RNG
    assert dice.throw(Roll((6,), "hand over", side="A")).source == RNG
    assert dice.throw(Roll((6,), "both", side=None)).source == MANUAL  # a person throws
    assert asked_for == ["A", "A", None] and rng.draws == 2
    assert parse_dice("A=manual,B=auto") == {"A": "manual", "B": "auto"}
    assert parse_dice("b=manual") == {"A": "auto", "B": "manual"}
    assert parse_dice("MANUAL") == {"A": "manual", "B": "manual"}
    with pytest.raises(DiceError):
        parse_dice("A=manual,C=auto")


def test_reask_never_reaches_the_rules():
    gen = asked(lambda: Choice("A", "q", (Option("x", "X"),), "x", reasks=True))
    first = next(gen)
    assert first.reasks
    again = gen.send(REASK)
    assert again is not first  # built afresh
    with pytest.raises(StopIteration) as stop:
        gen.send("x")
    assert stop.value.value == "x"
    with pytest.raises(TypeError):
        next(asked(lambda: Choice("A", "q", (Option("x", "X"),), "x")))


class GM:
    """Side B at the table: at the first ruling on a free action, an edit first, then "it
    succeeds"; every other question the bot's answer."""

    by = "human"

    def __init__(self) -> None:
        self.edited = False

    def choose(self, choice: Choice, game: Any) -> str:
        if choice.kind == "ruling" and not self.edited:
            self.edited = True
            return edits.token(Edit("damage", ("Chief Ugrak", "1"), "GM", "the curse works"))
        return "succeeds" if choice.kind == "ruling" else choice.default

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise AssertionError(reason)


class Acts:
    """Side A: each creature tries another action (search) and then ends its turn."""

    by = "human"

    def choose(self, choice: Choice, game: Any) -> str:
        if choice.kind == "turn":
            return "other" if choice.legal("other") is None else "end"
        return "search" if choice.kind == "action" else choice.default

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise AssertionError(reason)


def test_a_mobs_and_morale_ruling_carries_the_gms_edits_onto_the_table(tmp_path):
    from wargame_cli import registry
    from wargame_cli.engine.session import start
    from wargame_cli.ruleset import SIDES, Setup, resolve_options
    from wargame_cli.saves import games, store

    ruleset = registry.get("mobs-and-morale")
    options = resolve_options(ruleset.options, {"max_rounds": 0})
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    controllers: dict[str, Any] = {"A": Acts(), "B": GM()}
    session = start(ruleset, Setup(names, teams), options, 3, controllers=controllers)
    session.runner.run(stop_after_turn=1)
    log = session.runner.log
    (edit,) = [e for e in log if e["t"] == "edit"]
    assert edit["text"].startswith("Chief Ugrak takes 1 damage")
    ruling = log[log.index(edit) + 1]
    assert ruling["t"] == "choice" and ruling["kind"] == "ruling" and ruling["key"] == "succeeds"
    told = next(e for e in log[log.index(edit) :] if e["t"] == "event" and e["kind"] == "other")
    assert told["data"]["effect"] == "the GM edits the table (1 edit)"
    assert "no effect on the table" not in told["text"]
    path = tmp_path / "mm.json"
    store.write_atomic(path, games.to_save(session))
    again = games.verify(path)
    assert again.runner.log == log
