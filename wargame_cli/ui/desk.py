""" "Table…" at a question: a side's owner or the GM edits the table (`engine/edits.py`) or
corrects a die already rolled. The questions are asked here; the answer is an edit token the
runner makes the edit from (and refuses, with its reason, where the game cannot take it)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from wargame_cli.engine.dice import face_problem
from wargame_cli.engine.edits import Edit, EditRefused, check_words, token, typed_problem
from wargame_cli.engine.edits_dice import Die, dice_of
from wargame_cli.text import clean

TABLE = "\x00table"
TABLE_LABEL = "Table…"
BACK = "\x00back"


@dataclass
class Desk:
    """What "Table…" offers: the ruleset's edits (action -> its words), the log the dice are
    read from, and the sides' names; `trial`: why an edit would be refused now (its words
    tried on a copy of the game), or None, so a bad word is refused as it is typed and an
    action the question cannot take is never offered (`Runner.edit_problem`)."""

    actions: dict[str, str]
    log: Callable[[], list[Any]]
    names: dict[str, str]
    trial: Callable[[Edit], str | None] | None = None

    def problem(self, action: str, words: tuple[str, ...] = ()) -> str | None:
        return self.trial(Edit(action, words)) if self.trial is not None else None


def ask(desk: Desk, select: Callable[..., Any], text: Callable[..., str]) -> str | None:
    """The edit token, or None when the person went back to the question."""
    import questionary

    items = [
        questionary.Choice(f"{a}: {clean(words)}", a, disabled=_disabled(desk.problem(a)))
        for a, words in desk.actions.items()
    ]
    items.append(questionary.Choice("Back to the question", BACK))
    action = select("Edit the table: what?", items, next(i for i in items if not i.disabled))
    if action == BACK:
        return None
    if action == "die":
        words = _die(desk, select, text)
        if words is None:
            return None
    else:
        usage = desk.actions[action]
        typed = text(
            f"{usage}: type what follows {action!r}, a name with spaces in quotes (empty: back)",
            validate=lambda typed: _words_problem(typed, action, usage, desk),
        )
        if not typed.strip():
            return None
        words = _words(typed)
    who = [questionary.Choice("The GM", "GM")] + [
        questionary.Choice(f"{clean(name)}'s owner", side) for side, name in desk.names.items()
    ]
    by = select("Who makes this edit?", who, who[0])
    why = text("Why? (it goes in the log)", validate=_why_problem)
    return token(Edit(action, tuple(words), str(by), why.strip()))


def _die(desk: Desk, select: Callable[..., Any], text: Callable[..., str]) -> list[str] | None:
    """Which die (listed, numbered from 1 in the order rolled) and the face really thrown."""
    import questionary

    dice = dice_of(desk.log())
    if not dice:
        select("No die was rolled yet.", [questionary.Choice("Back", BACK)])
        return None
    items = [questionary.Choice(_line(d, desk.names), d.number) for d in dice]
    items.append(questionary.Choice("Back to the question", BACK))
    number = select("Correct which die?", items, items[-2])
    if number == BACK:
        return None
    die = dice[int(number) - 1]

    def check(s: str) -> bool | str:
        try:
            face = int(s)
        except ValueError:
            return "type the face, a whole number"
        return face_problem(face, die.size) or (face != die.face or f"it shows {face} already")

    face = text(
        f"Die {die.number} (d{die.size}) shows {die.face}: the face really thrown", validate=check
    )
    return [str(die.number), face.strip()]


def _words(typed: str) -> list[str]:
    """The words typed, a quoted name ("Chief Ugrak") one word."""
    import shlex

    return shlex.split(typed)


def _words_problem(typed: str, action: str, usage: str, desk: Desk) -> bool | str:
    """The words typed so far, checked as the game would take them: empty (back), or the
    first refusal (a name no figure has, a spot over another base...), or True."""
    try:
        words = _words(typed)
    except ValueError:
        return "a quote is not closed"
    if not words:
        return True  # empty: back to the question
    try:
        check_words(Edit(action, tuple(words)), usage)
    except EditRefused as exc:
        return str(exc)
    return typed_problem("", words, "", "") or desk.problem(action, tuple(words)) or True


def _disabled(reason: str | None) -> str | None:
    """A menu item the question cannot take, with why (questionary shows it greyed)."""
    return reason or None


def _why_problem(typed: str) -> bool | str:
    if not typed.strip():
        return "say why"
    return typed_problem("", [], "", typed) or True


def _line(d: Die, names: dict[str, str]) -> str:
    who = names.get(d.side or "", "")
    fixed = f", was {d.was}" if d.was is not None else ""
    whose = f"{clean(who)}: " if who else ""
    return f"{d.number}. {whose}{clean(d.reason)}: d{d.size} {d.face}{fixed}"
