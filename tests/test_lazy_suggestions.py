"""A bot's suggestion is worked out only when a bot or a person is asked: replaying a save
(`replay --verify`, and `resume` before play goes on) never runs a bot."""

from __future__ import annotations

import pytest

from wargame_cli import registry
from wargame_cli.engine.requests import Choice, Lazy, Option
from wargame_cli.engine.session import bot_game
from wargame_cli.saves import games


def test_a_function_default_is_called_once_on_first_read():
    calls = []
    choice = Choice(
        "A", "Which?", (Option("a", "A"), Option("b", "B")), lambda: calls.append(1) or "b"
    )
    assert choice.legal("a") is None and calls == []
    assert choice.default == "b" and choice.default == "b" and calls == [1]
    assert Choice("A", "Which?", (Option("a", "A"),), "a").default == "a"


@pytest.mark.parametrize("ruleset_id", [i.id for i in registry.all_infos()])
def test_verify_never_asks_for_a_suggestion(tmp_path, monkeypatch, ruleset_id):
    session = bot_game(registry.get(ruleset_id), seed=5, max_turns=2)
    path = tmp_path / "game.json"
    games.save(session, path)
    suggestions = sum(1 for e in session.runner.log if e["t"] == "choice")
    real = Lazy.__get__

    def forbidden(self, obj, owner=None):
        if obj is not None and self.slot == "_default" and callable(obj.__dict__[self.slot]):
            raise AssertionError("a replay worked out a bot's suggestion")
        return real(self, obj, owner)

    monkeypatch.setattr(Lazy, "__get__", forbidden)
    verified = games.verify(path)
    assert verified.runner.log == session.runner.log
    assert suggestions or ruleset_id == "tug-of-wargods"


def test_a_function_menu_is_built_on_first_read_and_a_bot_answer_checked_without_it():
    built = []

    def menu():
        built.append(1)
        return (Option("1,1", "Here"), Option("2,2", "There"))

    def judge(text):
        return None if text in ("1,1", "2,2", "3,3") else f"{text} is off the table"

    choice = Choice("A", "Where?", menu, lambda: "2,2", free_hint="x,y", judge=judge)
    assert choice.legal(choice.default) is None and built == []
    assert choice.options[1].key == "2,2" and choice.options[0].label == "Here" and built == [1]
    assert choice.legal("9,9") == "9,9 is off the table" and built == [1]
    bad = Choice("A", "Where?", menu, lambda: "9,9", free_hint="x,y", judge=judge)
    assert bad.legal(bad.default) == "9,9 is off the table"
    unjudged = Choice("A", "Which?", lambda: (Option("a", "A"),), "b")
    assert unjudged.legal(unjudged.default) is not None


def test_the_ixu_bot_picks_from_its_short_menu_what_it_picked_from_the_whole_one(monkeypatch):
    """The bot reads only the contact and toward spots; picking from the whole menu gives
    the same move in every position of a few seeded games."""
    from wargame_cli.rulesets.battle_of_ixu import bot, movement

    compared = 0
    real = movement._bot_move

    def both(state, w):
        nonlocal compared
        whole = bot.pick_move(state, w, movement.destinations(state, w)).point.key()
        assert real(state, w) == whole
        compared += 1
        return whole

    monkeypatch.setattr(movement, "_bot_move", both)
    for seed in (1, 2, 3):
        bot_game(registry.get("battle-of-ixu"), seed=seed, max_turns=3)
    assert compared > 20


def test_the_mobs_character_bot_moves_as_it_did_with_the_whole_menu(monkeypatch):
    """A character's bot reads the contact spots or the first toward spot; the whole menu
    gives it the same move in every position of a few seeded games."""
    from wargame_cli.rulesets.mobs_and_morale import bot, moves

    compared = 0
    short = moves.destinations

    def both(b, c, enemies_only=False):
        nonlocal compared
        found = short(b, c, enemies_only)
        if enemies_only:
            leave_ok = moves.can_leave(b, c, b.bodies())
            edge = moves.toward_edge(b, c).key()
            whole = bot.character_move(b, c, short(b, c), leave_ok, edge)
            assert bot.character_move(b, c, found, leave_ok, edge) == whole
            compared += 1
        return found

    monkeypatch.setattr(moves, "destinations", both)
    for seed in (1, 2, 3, 4):
        bot_game(registry.get("mobs-and-morale"), seed=seed, max_turns=4)
    assert compared > 5
