"""The interactive prompts driven in-process (prompt_toolkit pipe input, dummy output)."""

from __future__ import annotations

import io

import pytest
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console
from wargame_cli.rulesets.tug_of_wargods import teams
from wargame_cli.rulesets.tug_of_wargods.ruleset import RULESET

from wargame_cli.engine.bots import run_builder
from wargame_cli.engine.requests import Choice, Option, Roll, menu_or
from wargame_cli.ruleset import resolve_options
from wargame_cli.ui.prompts import HumanController, Prompter

DOWN, ENTER = "\x1b[B", "\r"


@pytest.fixture
def prompter():
    with create_pipe_input() as pipe:
        out = io.StringIO()
        p = Prompter(Console(file=out, width=100), input=pipe, output=DummyOutput())
        p.pipe, p.out = pipe, out
        yield p


def test_enter_takes_the_suggestion(prompter):
    choice = Choice("A", "Where?", (Option("x", "X"), Option("y", "Y")), default="y")
    prompter.pipe.send_text(ENTER)
    assert prompter.choose(choice, "Greentoe") == "y"


def test_disabled_options_are_skipped_by_the_cursor(prompter):
    choice = Choice(
        "A",
        "Pick",
        (Option("a", "A"), Option("b", "B", disabled="not now"), Option("c", "C")),
        default="a",
    )
    prompter.pipe.send_text(DOWN + ENTER)
    assert prompter.choose(choice, "Side A") == "c"


def test_typed_answer_is_checked_before_it_is_accepted(prompter):
    stay = (Option("1,1", "Stay"),)
    choice = Choice(
        "A",
        "Move to",
        stay,
        default="1,1",
        free_hint="x,y",
        judge=menu_or(stay, lambda s: None if s == "3,4" else f"{s} is out of reach"),
    )
    # select "Type it", type a refused value (validation keeps the prompt open), fix it
    prompter.pipe.send_text(DOWN + ENTER + "9,9" + ENTER + "\x7f\x7f\x7f" + "3,4" + ENTER)
    assert prompter.choose(choice, "Side A") == "3,4"


def test_manual_faces_must_fit_the_dice(prompter):
    roll = Roll(dice=(10, 6, 6), reason="Greentoe's pull", side="A")
    prompter.pipe.send_text("4 3 7" + ENTER + "\x7f" + "6" + ENTER)
    assert prompter.faces(roll) == [4, 3, 6]


def test_team_builder_through_the_prompts_builds_a_legal_team(prompter):
    options = resolve_options(RULESET.options, None)
    # quick picks: Greentoe is suggested; go down twice to "Build", then take suggestions
    prompter.pipe.send_text(DOWN + DOWN + ENTER + ENTER + ENTER + ENTER)
    team = run_builder(RULESET.build_team("A", options), HumanController(prompter, {}))
    assert not teams.problems(team["models"], options)
    assert team["models"][0] in ("Beloved of Sobek", "Minotaur")


def test_refused_answer_is_explained(prompter):
    class Stubborn:
        by = "human"

        def __init__(self):
            self.answers = ["b", "a"]

        def choose(self, choice, game):
            return self.answers.pop(0)

        def refused(self, choice, key, reason):
            prompter.refused(reason)

    from wargame_cli.engine.bots import run_builder as drive

    def builder():
        key = yield Choice(
            "A", "Pick", (Option("a", "A"), Option("b", "B", disabled="no Bs")), default="a"
        )
        return key

    assert drive(builder(), Stubborn()) == "a"
    assert "Refused: no Bs" in prompter.out.getvalue()


def test_a_typed_suggestion_is_offered_first_and_taken_by_enter(prompter):
    choice = Choice(
        "A",
        "Move to",
        (Option("1,1", "Stay"),),
        default="2,3",
        free_hint="x,y",
        judge=lambda s: None,
    )
    prompter.pipe.send_text(ENTER)
    assert prompter.choose(choice, "Side A") == "2,3"
