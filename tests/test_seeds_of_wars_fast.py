"""Seeds of Wars' simulate shortcuts against their plain definitions: the game `simulate`
plays is the Runner's game, and the index of who fights where, the reach, the bot's valuer
and the flanking test agree with a plain scan in every position of seeded games, under option
sets that exercise each rule."""

from __future__ import annotations

from typing import Any

import pytest
from wargame_cli.rulesets.seeds_of_wars import bot, combat, movement
from wargame_cli.rulesets.seeds_of_wars.checks import MAX_BONUS, hit_chance
from wargame_cli.rulesets.seeds_of_wars.state import ROUTED, SHAKEN, STEADY, Battle, Unit

from wargame_cli import registry
from wargame_cli.engine.fast import face_source, play_fast, stream_seed
from wargame_cli.engine.session import start
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.ruleset import Setup, resolve_options

SEEDS = "seeds-of-wars"
VARIANTS: list[dict[str, Any] | None] = [
    None,
    {"flank": "outnumber", "shaken_can_charge": True, "engaged_can_move": True},
    {"engaged_can_shoot": True, "pass_rule": "first_pass_ends", "stack_limit": 1},
    {"columns": 5, "battle_lines": 2, "neutral_rows": 1, "auto_attack": False},
    {"deploy_order": "winner_chooses", "flank": "off", "columns": 1, "stack_limit": 3},
]


def _setup(variant: dict[str, Any] | None) -> tuple[Any, Setup, dict[str, Any]]:
    ruleset = registry.get(SEEDS)
    options = resolve_options(ruleset.options, variant)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    return ruleset, Setup(names=names, teams=teams), options


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_simulated_game_is_the_game_play_plays(variant):
    """Same dice in the same order, same decisions: the game `simulate` plays (no log) has
    the outcome, rounds and final state of the Runner's seeded bot game."""
    ruleset, setup, options = _setup(variant)
    for index in range(4):
        seed = stream_seed(3, index)
        game = ruleset.new_game(setup, options)
        played = play_fast(game, face_source(seed))
        session = start(ruleset, setup, options, seed)
        session.runner.run()
        assert played.outcome == session.runner.outcome
        assert played.turns == session.runner.turn
        assert game.state_json() == session.game.state_json()


# -- the plain definitions the shortcuts replaced ------------------------------------------
def plain_at(battle: Battle, space: Any, side: str | None) -> list[Unit]:
    return [
        u
        for u in battle.units
        if u.fate == "" and u.space == space and (side is None or u.side == side)
    ]


def plain_reach(battle: Battle, unit: Unit) -> dict[Any, int]:
    start = unit.space
    dist = {start: 0}
    frontier = [start]
    charge = movement.can_charge(battle, unit)
    for step in range(1, unit.kind.mv + 1):
        nxt = []
        for space in frontier:
            if space != start and plain_at(battle, space, other(unit.side)):
                continue
            for near in battle.board.neighbours(space):
                if near in dist or (plain_at(battle, near, other(unit.side)) and not charge):
                    continue
                dist[near] = step
                nxt.append(near)
        frontier = nxt
    limit = battle.options["stack_limit"]
    return {
        s: d for s, d in dist.items() if s == start or len(plain_at(battle, s, unit.side)) < limit
    }


def plain_position_value(battle: Battle, unit: Unit, space: Any) -> float:
    """The bot's position value as it was written before the valuer."""
    side, kind = unit.side, unit.kind
    enemies = plain_at(battle, space, other(side))
    value = 0.0
    if enemies:
        bonus = MAX_BONUS if space != unit.space else 0
        attack = max(hit_chance(kind.me + bonus, e.kind.de) * bot.target_weight(e) for e in enemies)
        threat = max(
            (hit_chance(e.kind.me, kind.de) for e in enemies if e.state != ROUTED), default=0.0
        )
        keen = 0.5 if kind.ra is not None else 1.0
        value += keen * attack - (1.0 if unit.state == SHAKEN else 0.5) * threat + 0.2 * keen
    elif kind.ra is not None:
        value += max(
            (
                hit_chance(kind.ra, e.kind.de) * bot.target_weight(e)
                for e in battle.units
                if e.side != side
                and e.fate == ""
                and e.space
                and battle.board.adjacent(space, e.space)
            ),
            default=0.0,
        )
    foes = [e.space for e in battle.units if e.side != side and e.fate == "" and e.space]
    if foes and unit.state == STEADY:
        nearest = min(battle.board.distance(space, f) for f in foes)
        value -= (0.1 if side == battle.attacker else 0.03) * nearest
    if battle.board.in_reserve(side, space):
        value -= bot.RESERVE_PENALTY
    return value


def check_position(battle: Battle) -> int:
    """Every shortcut against its plain definition in this position; how many were checked."""
    checked = 0
    fighting = [u for u in battle.units if u.fate == "" and u.space is not None]
    assert list(battle.fighting()) == fighting
    for side in SIDES:
        mine = [u for u in fighting if u.side == side]
        assert list(battle.fighting(side)) == mine
        assert battle.out_of_fight(side) == all(battle.in_reserve(u) for u in mine)
    assert battle.either_out() == any(battle.out_of_fight(s) for s in SIDES)
    for space in battle.board.spaces():
        for side in (None, *SIDES):
            assert list(battle.at(space, side)) == plain_at(battle, space, side)
    for unit in fighting:
        assert battle.engaged(unit) == bool(plain_at(battle, unit.space, other(unit.side)))
        reach = movement.reach(battle, unit)
        assert reach == plain_reach(battle, unit)
        value = bot.valuer(battle, unit)
        for space in reach:
            assert value(space) == plain_position_value(battle, unit, space)
            checked += 1
        for target in plain_at(battle, unit.space, other(unit.side)):
            others = battle.attacked.get(target.uid, set()) - {unit.uid}
            flank = battle.options["flank"]
            if flank == "attacked":
                assert combat.flanking(battle, unit, target) == bool(others)
            back, _ = movement.retreat_space(battle, target)
            plain = bot.wants_retreat(battle, target, unit)
            assert bot.wants_retreat(battle, target, unit, back) == plain
    for unit in battle.units:
        assert battle.unit(unit.uid) is next(u for u in battle.units if u.uid == unit.uid)
    for side in SIDES:
        acted: set[str] = set()
        refusals = {u.uid: combat.move_refusal(battle, u, acted) for u in battle.fighting(side)}
        assert bot.best_move(battle, side, acted, refusals) == bot.best_move(battle, side, acted)
    return checked


@pytest.mark.parametrize("variant", VARIANTS)
def test_shortcuts_equal_their_plain_definitions_in_seeded_games(variant):
    ruleset, setup, options = _setup(variant)
    checked = 0
    for index in range(3):
        game = ruleset.new_game(setup, options)

        def check(_req, game=game) -> None:
            nonlocal checked
            checked += check_position(game.state)

        play_fast(game, face_source(stream_seed(11, index)), on_choice=check)
    assert checked > 50  # positions with units on the field were really compared


def test_a_fresh_unit_is_the_dataclass_built_unit():
    _, setup, options = _setup(None)
    battle = registry.get(SEEDS).new_game(setup, options).state
    for unit in battle.units:
        plain = Unit(unit.uid, unit.side, unit.kind)
        assert unit == plain and vars(unit) == vars(plain)
