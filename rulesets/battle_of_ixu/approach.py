"""The way round (c5): when a straight move gets a model no closer to a fight (a friend or an
enemy stands in the way; Ixu moves are straight lines), the move menu offers the first leg of
the shortest way round the bases to a free spot in contact with an enemy, so that the model
reaches the fight next turn. The bot takes it where it would otherwise idle (`bot.pick_move`);
a replay labels it without the bot."""

from __future__ import annotations

from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Warrior

from wargame_cli.tabletop.approach import Foe, entry
from wargame_cli.tabletop.approach import approach as way_round
from wargame_cli.tabletop.destinations import Destination
from wargame_cli.tabletop.geometry import Point


def approach_move(state: IxuState, warrior: Warrior) -> Destination | None:
    """`approach` as the move menu lists it (the same entry a person is offered)."""
    found = approach(state, warrior)
    if found is None:
        return None
    spot, enemy = found
    return entry(warrior.body(), spot, enemy.id, enemy.name)


def approach(state: IxuState, warrior: Warrior) -> tuple[Point, Warrior] | None:
    """Where to move this turn so as to reach a fight next turn, when no straight move gets
    closer (a friend or an enemy stands in the way): the shortest way round the bases to a
    free spot in contact with one of the two nearest enemies (an enemy friends already
    fight counts nearer: ganging up), followed as far as one straight move goes
    (`tabletop.approach`). None: no way."""
    assert warrior.dice is not None
    enemies = _nearest(state, warrior)[:2]
    foes = [
        Foe(enemy.body(), sum(1 for f in state.engaged(enemy) if f is not warrior))
        for enemy in enemies
    ]
    found = way_round(
        state.table, warrior.body(), float(warrior.dice.movement), state.bodies(warrior), foes
    )
    return None if found is None else (found[0], enemies[found[1]])


def _nearest(state: IxuState, warrior: Warrior) -> list[Warrior]:
    return sorted(state.enemies(warrior), key=lambda e: state.gap_to(warrior, e))
