"""The screen hooks every ruleset's view supplies (docs/writing-a-ruleset.md): a compact board
that fits 14 lines at 80 columns, the acting piece's card, and a card for every piece."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.view_helpers import IDS, Watching, at_decisions, at_events, text_of
from wargame_cli import registry
from wargame_cli.engine.requests import Choice, Option
from wargame_cli.view import View

SKIRMISH = ("squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale")
SHORT = {
    "squad-alpha": {"max_turns": 2},
    "battle-of-ixu": {"max_turns": 3},
    "seeds-of-wars": {"max_rounds": 3},
    "mobs-and-morale": {"max_rounds": 3},
}


def view(ruleset_id: str) -> Any:
    return registry.get(ruleset_id).view()


def fits(lines: list[str], width: int = 80) -> bool:
    return all(len(line) <= width for line in lines)


@pytest.mark.parametrize("ruleset_id", SKIRMISH)
def test_the_compact_board_fits_14_lines_at_80_columns_at_every_decision(ruleset_id):
    hooks = view(ruleset_id)
    shown = at_decisions(
        ruleset_id,
        lambda state, choice, names: text_of(hooks.compact_board(state, names)),
        options=SHORT[ruleset_id],
    )
    assert len(shown) > 10
    for lines in shown:
        assert 3 <= len(lines) <= 14, "\n".join(lines)
        assert fits(lines), "\n".join(lines)


def test_tug_compact_board_fits_after_every_pull():
    hooks = view("tug-of-wargods")
    shown = [
        lines
        for lines in at_events(
            "tug-of-wargods",
            lambda entry, state, names: (
                text_of(hooks.compact_board(state, names)) if entry["t"] == "event" else None
            ),
        )
        if lines is not None
    ]
    assert shown
    for lines in shown:
        assert len(lines) <= 14 and fits(lines), "\n".join(lines)
        assert any(line.startswith("A Greentoe") for line in lines)


# The question's prompt, the words its acting piece's card must show, for one kind of choice.
ACTING = {
    "squad-alpha": ("action", ("training", "command", "die", "test", "reach", "status")),
    "battle-of-ixu": ("move", ("experience", "damage", "dice", "reach", "at")),
    "seeds-of-wars": ("move", ("profile", "state", "Ht taken", "reach")),
    "mobs-and-morale": ("move", ("P/F/D", "health", "reach")),  # morale: a mob's, e24
}


def _actor_name(ruleset_id: str, state: Any, choice: Choice) -> str:
    """The acting piece, read from the game (not from the card)."""
    if ruleset_id == "squad-alpha":
        return next(m.name for m in state.all_minis() if choice.prompt.startswith(m.name + " "))
    if ruleset_id == "battle-of-ixu":
        return next(w.name for w in state.warriors if choice.prompt.startswith(w.name + " "))
    if ruleset_id == "seeds-of-wars":
        return next(u.name for u in state.units if f" {u.name} " in choice.prompt)
    return next(c.id for c in state.creatures.values() if choice.prompt.startswith(c.id + ":"))


@pytest.mark.parametrize("ruleset_id", SKIRMISH)
def test_the_card_names_the_acting_piece_with_its_stats(ruleset_id):
    hooks = view(ruleset_id)
    kind, words = ACTING[ruleset_id]

    def seen(state: Any, choice: Choice, names: dict[str, str]) -> Any:
        if choice.kind != kind:
            return None
        if ruleset_id == "mobs-and-morale" and "lead figure" in choice.prompt:
            return None  # a mob's move: its card is the mob's
        if ruleset_id == "seeds-of-wars" and "which unit" in choice.prompt:
            return None  # no unit yet: the card lists the candidates
        return _actor_name(ruleset_id, state, choice), text_of(hooks.card(state, choice, names))

    shown = [s for s in at_decisions(ruleset_id, seen, options=SHORT[ruleset_id]) if s]
    assert len(shown) >= 3
    for name, lines in shown:
        text = " ".join(" ".join(lines).split())  # one paragraph, wrapped at 80
        assert name in lines[0], text  # the title: side letter and name
        assert re.match(r"\[[AB]\] ", lines[0]), text
        for word in words:
            assert word in text, (word, text)
        assert fits(lines), text


def test_squad_alpha_card_gives_the_test_odds_the_options_compute():
    hooks = view("squad-alpha")
    shown = at_decisions(
        "squad-alpha",
        lambda state, choice, names: (
            (choice, text_of(hooks.card(state, choice, names))) if choice.kind == "action" else None
        ),
        options=SHORT["squad-alpha"],
    )
    choice, lines = next(s for s in shown if s)
    move = next(o.label for o in choice.options if o.key == "move")
    chance = re.search(r"\d+%", move).group(0)
    text = " ".join(" ".join(lines).split())
    assert f'Move: up to 4" if the test passes: {chance}' in text and f"({chance})" in text


def test_seeds_of_wars_card_lists_the_units_offered_and_each_attacks_chance():
    hooks = view("seeds-of-wars")
    shown = at_decisions(
        "seeds-of-wars",
        lambda state, choice, names: (
            (choice, text_of(hooks.card(state, choice, names)))
            if choice.kind == "melee" and "which unit" in choice.prompt
            else None
        ),
        options=SHORT["seeds-of-wars"],
    )
    choice, lines = next(s for s in shown if s)
    text = " ".join(" ".join(lines).split())  # the odds are one paragraph, wrapped
    option = next(o for o in choice.options if ">" in o.key and o.disabled is None)
    need = int(re.search(r"needs (\d+)\+", option.label).group(1))
    attacker, target = option.key.split(">")
    assert f"{attacker} -> {target}: needs {need}+ ({(21 - need) * 5}%)" in text
    assert any(line.startswith(attacker + " ") and "Ht taken" in line for line in lines)


def test_squad_alpha_card_for_which_miniature_acts_next_lists_the_candidates():
    hooks = view("squad-alpha")
    shown = at_decisions(
        "squad-alpha",
        lambda state, choice, names: (
            (state, choice, text_of(hooks.card(state, choice, names)))
            if choice.kind == "order"
            else None
        ),
        options=SHORT["squad-alpha"],
    )
    state, choice, lines = next(s for s in shown if s)
    for option in choice.options:
        if option.disabled is None:
            mini = state.mini(option.key)
            assert any(line.startswith(mini.label) and mini.name in line for line in lines)


@pytest.mark.parametrize("ruleset_id", SKIRMISH)
def test_cards_cover_every_piece(ruleset_id):
    hooks = view(ruleset_id)
    shown = at_decisions(
        ruleset_id,
        lambda state, choice, names: (state, hooks.cards(state, names)),
        options=SHORT[ruleset_id],
        limit=30,
    )
    state, cards = shown[-1]
    titles = [title for title, _ in cards]
    pieces = {
        "squad-alpha": lambda: [m.name for m in state.all_minis()],
        "battle-of-ixu": lambda: [w.name for w in state.warriors],
        "seeds-of-wars": lambda: [u.name for u in state.units],
        "mobs-and-morale": lambda: (
            [c.id for c in state.creatures.values() if c.mob is None] + list(state.mobs)
        ),
    }[ruleset_id]()
    for piece in pieces:
        assert any(piece in title for title in titles), piece
    for title, card in cards:
        lines = text_of(card)
        assert title in lines[0] and fits(lines), lines


def test_tug_card_shows_the_asking_team_and_the_odds():
    hooks = view("tug-of-wargods")
    ask = Choice("B", "Clearsky: type the faces", (Option("x", "x"),), "x")
    shown = at_events(
        "tug-of-wargods",
        lambda entry, state, names: (
            (state, text_of(hooks.card(state, ask, names))) if entry["t"] == "event" else None
        ),
    )
    state, lines = next(s for s in shown if s)
    text = " ".join(" ".join(lines).split())
    assert lines[0].startswith("[B] Clearsky: dice")
    assert "d8 + d6 + d4" in text and "Chance to win" in text
    assert [title for title, _ in hooks.cards(state, {})] == ["Greentoe", "Clearsky"]


@pytest.mark.parametrize("ruleset_id", IDS)
def test_every_view_supplies_every_screen_hook(ruleset_id):
    """Each built-in view is a `View` that draws its own board, compact board and cards (the
    base class's defaults draw none)."""
    hooks = view(ruleset_id)
    assert isinstance(hooks, View)
    for name in ("board", "compact_board", "card", "cards", "render_entry"):
        assert getattr(type(hooks), name) is not getattr(View, name), name


def test_a_question_about_a_sides_own_piece_shows_that_piece_not_the_attacker():
    """Seeds of Wars asks the defender "B1 Guard attacks A5 Light Horse ... Retreat?": the card
    is A5's when side A is asked."""
    hooks = view("seeds-of-wars")

    def seen(state: Any, choice: Choice, names: dict[str, str]) -> Any:
        if choice.kind != "retreat":
            return None
        return choice.side, text_of(hooks.card(state, choice, names))

    shown = [s for s in at_decisions("seeds-of-wars", seen, options=SHORT["seeds-of-wars"]) if s]
    assert shown
    for side, lines in shown:
        assert lines[0].startswith(f"[{side}] {side}"), lines


@pytest.mark.parametrize("ruleset_id", IDS)
def test_a_view_keeps_nothing_between_calls(ruleset_id):
    """Two logs of the same game, each with its own redraw memory, show the same lines: the
    view itself remembers nothing of what either was shown (no registry by state, no memo)."""
    hooks = view(ruleset_id)
    players = {"A": "human", "B": "bot"}
    one, two = Watching(hooks, players), Watching(hooks, players)

    def seen(shown: Any) -> Any:
        return shown if shown is None or shown is False else text_of(shown, 100)

    def both(entry: dict[str, Any], state: Any, names: dict[str, str]) -> tuple[Any, Any]:
        return seen(one(entry, state, names)), seen(two(entry, state, names))

    pairs = at_events(ruleset_id, both, options=SHORT.get(ruleset_id))
    assert len(pairs) > 10
    assert all(first == second for first, second in pairs)
    assert any(first not in (None, False) for first, _ in pairs)
