"""Conformance: in a mirror match (a ready team against itself) no seat wins more than its
interval allows. A bot that breaks ties by absolute position (rows counted from A's edge)
favours one seat; this caught Seeds of Wars' (`best_destination`, before its ties were taken
from each side's own front). Bonferroni over every mirror: a 99.9% interval each.

Mobs and Morale's mirrors play on its default table's open ground (the same size, no
terrain): the seed has the GM lay out the board for a scene, not a fair field (e1), and the
default Grey Hill clearing is not symmetric (its cairn is 2" x 3", its standing stones
3" x 2"), so a seat's edge there is the scene's, told by `simulate --swap`; this test is about
the rules and the bots (bench/README.md has the mirrors on both tables)."""

from __future__ import annotations

from typing import Any

import pytest

from wargame_cli import registry
from wargame_cli.cli.simulate_lab import ready_teams
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.simulate import batch, seats

Z999 = 3.2905  # two-sided 99.9% each: the 50-odd fair mirrors all pass together 95% of the time
# enough games to show a seat bias like Seeds of Wars' was, few enough to keep the suite quick
GAMES = {
    "tug-of-wargods": 1000,
    "seeds-of-wars": 400,
    "battle-of-ixu": 120,
    "mobs-and-morale": 100,
    "squad-alpha": 24,
}
# The mirror at each bot level (`simulate --mirrors` does the same for a designer): a seat's
# edge may be a bot's. Other levels' games go through the full engine, so fewer where they
# are slow (a random Battle of Ixu or Squad Alpha game takes seconds, wandering to the turn
# limit): here the levels that are quick, every level of every ruleset in bench/mirrors.py.
# Mobs and Morale's random bots wander to the round limit (a draw) now that no bot takes the
# GM's ruling to end a battle: a mirror of draws tests no seat, so it is left to the bench.
LEVEL_GAMES = {
    "random": {"tug-of-wargods": 1000, "seeds-of-wars": 200},
    "search": {"tug-of-wargods": 400},
}


def _mirrors() -> list[tuple[str, str]]:
    out = []
    for info in registry.all_infos():
        ruleset = registry.get(info.id)
        options = resolve_options(ruleset.options, None)
        out += [(info.id, name) for name, _ in ready_teams(ruleset, options)]
    return out


def test_every_ruleset_is_tested():
    assert {rid for rid, _ in _mirrors()} == set(GAMES)


def _fair_field(ruleset_id: str) -> dict[str, Any]:
    """The options a mirror plays on: the defaults, Mobs and Morale's table cleared."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    if ruleset_id != "mobs-and-morale":
        return options
    table = {k: v for k, v in options["table"].items() if k != "terrain"}
    return resolve_options(ruleset.options, {"table": {**table, "name": "open ground"}})


def _at_levels() -> list[tuple[str, str, str, int]]:
    out = [(rid, team, "default", GAMES[rid]) for rid, team in _mirrors()]
    for level, games in LEVEL_GAMES.items():
        out += [(rid, team, level, games[rid]) for rid, team in _mirrors() if rid in games]
    return out


@pytest.mark.parametrize(("ruleset_id", "team", "level", "games"), _at_levels())
def test_no_seat_wins_a_mirror_match(ruleset_id, team, level, games):
    ruleset = registry.get(ruleset_id)
    options = _fair_field(ruleset_id)
    found = ruleset.preset_named(team, options)
    assert found is not None
    setup = Setup(names={"A": team, "B": team}, teams={"A": found[0], "B": found[0]})
    levels = None if level == "default" else {"A": level, "B": level}
    job = batch.Job(ruleset_id, setup, options, 23, games, levels=levels)
    tally = batch.run(job, ruleset, 2)
    seat = seats.seat_advantage([tally], Z999)
    assert seat.a + seat.b >= games * (0.8 if level == "default" else 0.5)  # decisive, mostly
    assert seat.fair(), f"seat A won {seat.a} of {seat.a + seat.b} ({seat.lo:.3f}-{seat.hi:.3f})"


def test_every_level_is_tested_somewhere():
    for info in registry.all_infos():
        if info.id in GAMES:
            offered = set(registry.get(info.id).bot_policies())
            assert offered <= {"default", *LEVEL_GAMES}, info.id


def test_mobs_and_morale_mirrors_play_on_open_ground():
    options = _fair_field("mobs-and-morale")
    assert options["table"]["terrain"] == [] and options["table"]["width"] == 36
    assert _fair_field("squad-alpha") == resolve_options(registry.get("squad-alpha").options, None)


def test_seat_advantage_tells_a_biased_seat_from_chance():
    biased = batch.Tally()
    biased.results[("A", 5, "x")] = 600
    biased.results[("B", 5, "x")] = 400
    even = batch.Tally()
    even.results[("A", 5, "x")] = 510
    even.results[("B", 5, "x")] = 490
    even.results[(None, 9, "y")] = 7
    assert not seats.seat_advantage([biased]).fair()
    result = seats.seat_advantage([even])
    assert result.fair() and result.draws == 7 and result.share == 0.51
