"""I. Deployment (d1, d2): the opposed roll decides who deploys first; units go one by one
into their side's Reserve or battle lines."""

from __future__ import annotations

from collections.abc import Generator
from itertools import zip_longest
from typing import Any

from wargame_cli.rulesets.seeds_of_wars import bot
from wargame_cli.rulesets.seeds_of_wars.board import Space
from wargame_cli.rulesets.seeds_of_wars.checks import Contender, opposed
from wargame_cli.rulesets.seeds_of_wars.prompts import ask, not_offered
from wargame_cli.rulesets.seeds_of_wars.state import Battle, Unit

from wargame_cli.engine.requests import Event, Option
from wargame_cli.kit.sides import SIDES, other


def contender(battle: Battle, side: str) -> Contender:
    """d1: 1d20 + Order + number of Scout units."""
    order, scouts = battle.orders[side], battle.scouts(side)
    return Contender(
        side,
        battle.names[side],
        order + scouts,
        f"Order {order} + {scouts} Scout{'s' if scouts != 1 else ''}",
    )


def order_of_deployment(battle: Battle) -> Generator[Any, Any, list[Unit]]:
    """Who deploys which unit when: the loser of the roll first (or as the winner chooses),
    alternately from the defender on a tie (d2)."""
    a, b = yield from opposed(contender(battle, "A"), contender(battle, "B"), "Deployment", ("d1",))
    units = {side: battle.side_units(side) for side in SIDES}
    if a == b:
        first = battle.defender
        yield Event(
            f"Deployment roll tied at {a}: the sides deploy alternately, "
            f"{battle.names[first]} (defender) first",
            rules=("d1", "d2"),
            kind="deploy_roll",
            data={"totals": {"A": a, "B": b}, "tie": True, "first": first},
        )
        pairs = zip_longest(units[first], units[other(first)])
        return [u for pair in pairs for u in pair if u is not None]
    winner = "A" if a > b else "B"
    loser = other(winner)
    first = loser
    if battle.options["deploy_order"] == "winner_chooses":
        pick = yield from ask(
            battle,
            winner,
            f"You won the deployment roll {max(a, b)} to {min(a, b)}: deploy first or second?",
            (
                Option("second", "Second: see the enemy's deployment first"),
                Option("first", "First"),
            ),
            "second",
            ("d1",),
            "deploy",
        )
        first = winner if pick == "first" else loser
    yield Event(
        f"Deployment roll: {battle.names['A']} {a}, {battle.names['B']} {b}; "
        f"{battle.names[first]} deploys all its units first",
        rules=("d1",),
        kind="deploy_roll",
        data={"totals": {"A": a, "B": b}, "tie": False, "winner": winner, "first": first},
    )
    return units[first] + units[other(first)]


def deploy(battle: Battle) -> Generator[Any, Any, None]:
    battle.step = "deployment"
    sequence = yield from order_of_deployment(battle)
    board = battle.board
    for i, unit in enumerate(sequence):
        home = [
            (row, col)
            for row in reversed(board.home_rows(unit.side))
            for col in range(board.columns)
        ]
        legal = [s for s in home if battle.room(unit.side, s) is None]
        key = yield from ask(
            battle,
            unit.side,
            lambda unit=unit: f"Deploy {unit.name} ({unit.kind.profile()}): which space?",
            lambda unit=unit, home=home: [
                Option(board.key(s), _space_label(battle, unit, s), battle.room(unit.side, s))
                for s in home
            ],
            lambda unit=unit, legal=legal: board.key(bot.deploy_space(battle, unit, legal)),
            ("d1", "d2"),
            "deploy",
            lambda key, unit=unit, home=home: _space_refusal(battle, unit, home, key),
        )
        unit.space = space = board.parse(key)
        assert space is not None  # a legal answer names a space
        who, row = battle.names[unit.side], space[0]
        yield Event(
            lambda who=who, unit=unit, key=key, row=row: (
                f"{who} deploys {unit.name} at {key} ({board.row_label(row)})"
            ),
            rules=("d1",),
            kind="deploy",
            data={
                "unit": unit.uid,
                "space": key,
                "next_side": sequence[i + 1].side if i + 1 < len(sequence) else None,
            },
        )


def _space_refusal(battle: Battle, unit: Unit, home: list[Space], key: str) -> str | None:
    """What the deployment menu's option for `key` would say, without building the menu."""
    space = battle.board.parse(key)
    if space is None or space not in home or battle.board.key(space) != key:
        open_keys = [battle.board.key(s) for s in home if battle.room(unit.side, s) is None]
        return not_offered(key, open_keys)
    return battle.room(unit.side, space)


def _space_label(battle: Battle, unit: Unit, space: Space) -> str:
    """`b2 (A Line 1): A1 Knights here; facing B1 Guard`: who is already there, and which
    enemies stand in the same column, so a player deploying unit after unit need no map."""
    board = battle.board
    label = f"{board.key(space)} ({board.row_label(space[0])})"
    here = [u.name for u in battle.at(space, unit.side)]
    facing = [
        e.name
        for e in battle.fighting(other(unit.side))
        if e.space is not None and e.space[1] == space[1]
    ]
    if here:
        label += f": {', '.join(here)} here"
    if facing:
        label += f"{';' if here else ':'} facing {', '.join(facing)}"
    return label + battle.reserve_warning(unit, space)
