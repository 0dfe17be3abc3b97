"""Requests are plain classes (a dataclass's __init__ was a tenth of a simulation) that keep a
frozen dataclass's value semantics: equality and hash over their fields, a readable repr, a
Choice that refuses changes, and words given as a function read once, on first use."""

from __future__ import annotations

import dataclasses

import pytest

from wargame_cli.engine.requests import Choice, Event, Option, Roll, TurnStart


def test_equal_requests_are_equal_and_hash_alike_whatever_form_their_words_take():
    plain = Roll((20,), "A1 shoots B2", side="A", rules=("d10",), labels=("A1",))
    lazy = Roll((20,), lambda: "A1 shoots B2", side="A", rules=("d10",), labels=("A1",))
    assert plain == lazy and hash(plain) == hash(lazy)
    assert plain != Roll((20,), "A1 shoots B3", side="A", rules=("d10",), labels=("A1",))
    hit = Event("hit", kind="hit", data={"a": 1})
    assert hit == Event(lambda: "hit", kind="hit", data={"a": 1})
    assert Event("hit", kind="hit") != Event("hit", kind="miss")
    assert TurnStart(2, ("d3",)) == TurnStart(2, ("d3",)) != TurnStart(3, ("d3",))
    assert hash(TurnStart(2)) == hash(TurnStart(2))
    assert Roll((6,), "x") != Event("x")  # another kind of request is never equal


def test_repr_names_every_field_as_a_dataclass_would():
    assert repr(TurnStart(4, ("a11",))) == "TurnStart(number=4, rules=('a11',))"
    assert repr(Event(lambda: "hit", ("d12",))) == (
        "Event(text='hit', rules=('d12',), kind='info', data=None)"
    )


def test_words_given_as_a_function_are_made_once_on_first_read():
    calls = []
    roll = Roll((20,), lambda: calls.append(1) or "why", side="B")
    assert calls == []
    assert roll.reason == "why" and roll.reason == "why" and calls == [1]
    choice = Choice("A", lambda: calls.append(2) or "Which?", (Option("a", "A"),), "a")
    assert calls == [1] and choice.prompt == "Which?" and choice.prompt == "Which?"
    assert calls == [1, 2]


def test_a_choice_compares_without_its_judge_and_refuses_changes():
    menu = (Option("a", "A"), Option("b", "B"))
    judged = Choice("A", "Which?", menu, "b", judge=lambda key: None if key in "ab" else "no")
    unjudged = Choice("A", "Which?", menu, "b")
    assert judged == unjudged and hash(judged) == hash(unjudged)
    assert judged != Choice("A", "Which?", menu, "a")
    with pytest.raises(dataclasses.FrozenInstanceError):
        judged.side = "B"
    with pytest.raises(dataclasses.FrozenInstanceError):
        del judged.kind
    assert judged.side == "A" and judged.legal("c") == "no" and judged.options[1].disabled is None
