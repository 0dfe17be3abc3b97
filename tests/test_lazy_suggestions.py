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
    assert choice.refusal("a") is None and calls == []
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
        if obj is not None and callable(obj.__dict__[self.slot]):
            raise AssertionError("a replay worked out a bot's suggestion")
        return real(self, obj, owner)

    monkeypatch.setattr(Lazy, "__get__", forbidden)
    verified = games.verify(path)
    assert verified.runner.log == session.runner.log
    assert suggestions or ruleset_id == "tug-of-wargods"
