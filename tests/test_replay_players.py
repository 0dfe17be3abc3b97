"""A replay tells its view who played each side from the save, not by guessing as it goes."""

from __future__ import annotations

from wargame_cli.cli.replay_pages import players_of


def save(players=None, log=()):
    setup = {"names": {"A": "a", "B": "b"}, "teams": {}}
    if players is not None:
        setup["players"] = players
    return {"setup": setup, "log": list(log)}


def choice(side, by):
    return {"t": "choice", "side": side, "by": by, "key": "x", "label": "x"}


def test_the_recorded_players_come_first():
    data = save({"A": "human", "B": "bot"}, [choice("A", "bot"), choice("B", "human")])
    assert players_of(data) == {"A": "human", "B": "bot"}


def test_an_older_save_says_by_its_log_who_decided():
    data = save(None, [choice("A", "bot"), choice("B", "human"), choice("B", "bot")])
    assert players_of(data) == {"A": "bot", "B": "human"}
    assert players_of(save({"A": "bot"}, [choice("B", "script")])) == {"A": "bot", "B": "human"}


def test_a_side_that_never_decided_is_not_known():
    assert players_of(save(None, [{"t": "roll", "side": "A"}])) == {}
    assert players_of(save({}, [])) == {}
