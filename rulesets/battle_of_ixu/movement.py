"""Phase 2 (c5): each model in order may move up to its movement die in inches, on the shared
tabletop (straight moves, no overlapping bases); a move into contact is a charge."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.battle_of_ixu import bot
from wargame_cli.rulesets.battle_of_ixu.approach import approach_move
from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Phase, Warrior

from wargame_cli.engine.events import EventData
from wargame_cli.engine.requests import SPOT_HINT, Choice, Event
from wargame_cli.tabletop.destinations import (
    NEAR,
    Destination,
    MoveMenu,
    menu_entry,
    offer,
    point_of,
    typed_problem,
)
from wargame_cli.tabletop.geometry import Point


def destinations(state: IxuState, w: Warrior, enemies_only: bool = False) -> list[Destination]:
    """The menu of moves; `enemies_only` keeps just what the bot reads: the contact spots, or
    else the toward spot of the nearest enemy that has one (and stay). A person's menu leaves
    out the noise (`offer`'s tidy) but for the bot's pick, which it always lists."""
    foes = state.enemies(w)
    here = w.pos.key()
    if enemies_only:
        prefer = [e.id for e in bot.by_approach(state, w, foes)]
        found = offer(_move_of(state, w, enemies_only=True, prefer=tuple(prefer)))
        return [*(_gap_told(state, w, d) for d in found if d.point.key() != here), _stay(state, w)]
    pick = _short_pick(state, w)
    tidy = {d.point.key() for d in offer(_move_of(state, w, tidy=True))}
    full = offer(_move_of(state, w))
    listed = [
        _gap_told(state, w, d)
        for d in full
        if d.point.key() != here and (d.point.key() in tidy or d.point.key() == pick)
    ]
    if not state.engaged(w):  # the bot's way round, offered to a person
        way = approach_move(state, w)
        near = way is not None and any(d.point.distance(way.point) < NEAR for d in listed)
        new = way is not None and way.point.key() not in {d.point.key() for d in listed}
        if way is not None and new and (not near or way.point.key() == pick):
            listed.append(way)
    return [*listed, _stay(state, w)]


def _stay(state: IxuState, w: Warrior) -> Destination:
    engaged = " and ".join(e.name for e in state.engaged(w))
    return Destination(
        "stay", f"Stay where it is{f' (fighting {engaged})' if engaged else ''}", w.pos
    )


def describe(state: IxuState, w: Warrior, key: str) -> str:
    """The menu's label for `key`, the menu worked out only as far as that entry (a typed
    spot it does not list reads as typed)."""
    if key == w.pos.key():
        return _stay(state, w).option().label
    # the tidy menu's entry, else the whole menu's (the bot's pick is listed either way; a
    # typed spot on a left-out entry reads as that entry), else the way round
    found = menu_entry(_move_of(state, w, tidy=True), key) or menu_entry(_move_of(state, w), key)
    if found is None and not state.engaged(w):
        way = approach_move(state, w)
        found = way if way is not None and way.point.key() == key else None
        return key if found is None else found.option().label
    return key if found is None else _gap_told(state, w, found).option().label


def _move_of(state: IxuState, w: Warrior, **how: Any) -> MoveMenu:
    """The tabletop's move question: the table, the mover, its movement die, the enemies and
    every base in the way, named as the game names them; `how` lists them (`MoveMenu`)."""
    assert w.dice is not None
    enemies = tuple(e.body() for e in state.enemies(w))
    bodies = tuple(state.bodies(w))
    return MoveMenu(state.table, w.body(), w.dice.movement, enemies, bodies, state.name_of, **how)


def _gap_told(state: IxuState, w: Warrior, d: Destination) -> Destination:
    """A move toward an enemy says how far short of contact it ends, to judge next turn."""
    if not d.tag.startswith("toward:"):
        return d
    enemy = state.get(d.tag.removeprefix("toward:"))
    short = d.point.distance(enemy.pos) - w.radius - enemy.radius
    return Destination(d.tag, f'{d.label}, ending {short:.1f}" short of contact', d.point)


def movement_phase(state: IxuState) -> Phase:
    for w in state.in_order():
        assert w.dice is not None
        inches = w.dice.movement
        others = state.bodies(w)
        body = w.body()
        key = yield Choice(
            side=w.side,
            prompt=f'{w.name} at {w.pos.key()}: move up to {inches}"',
            options=lambda w=w: tuple(d.option() for d in destinations(state, w)),
            default=lambda w=w: _bot_move(state, w),
            rules=("c5",),
            kind="move",
            free_hint=SPOT_HINT,
            judge=lambda text, body=body, inches=inches, others=others: typed_problem(
                state.table, body, inches, others, text
            ),
            describe=lambda key, w=w: describe(state, w, key),
        )
        yield _moved(state, w, point_of(key))
    return None


def _bot_move(state: IxuState, w: Warrior) -> str:
    """The bot's pick, from the part of the menu it reads (the whole menu is built only when
    a person is asked)."""
    return _short_pick(state, w)


def _short_pick(state: IxuState, w: Warrior) -> str:
    """`_bot_move`'s work, which a person's menu reads to keep the suggestion listed."""
    if state.engaged(w):
        return w.pos.key()  # stay
    return bot.pick_move(state, w, destinations(state, w, enemies_only=True)).point.key()


def _moved(state: IxuState, w: Warrior, dest: Point) -> Event:
    """Move `w` and say so: a charge when it comes into contact with new enemies."""
    before = {e.id for e in state.engaged(w)}
    start, w.pos = w.pos, dest
    now = state.engaged(w)
    charged = [e for e in now if e.id not in before]
    left = [state.get(i) for i in sorted(before - {e.id for e in now})]
    inches = round(start.distance(dest), 2)
    assert w.dice is not None
    # positions are kept to 0.01", so a full move may measure a hair over the die (the
    # tabletop allows 0.01" for it): say the die, as a player measuring would
    said = min(inches, float(w.dice.movement))
    w.moved = said
    data: EventData = {
        "model": w.name,
        "side": w.side,
        "from": start.as_list(),
        "to": dest.as_list(),
        "inches": inches,
        "charged": [e.name for e in charged],
        "left": [e.name for e in left],
    }
    if charged:
        whom = " and ".join(e.name for e in charged)
        return Event(
            f'{w.name} charges {whom} ({said:g}" to {dest.key()})',
            rules=("c5", "c6"),
            kind="charge",
            data=data,
        )
    if inches == 0:  # kind "stand": a battle report leaves it out, nothing happened
        return Event(
            f"{w.name} stands fast at {dest.key()}", rules=("c5",), kind="stand", data=data
        )
    away = f", backing away from {' and '.join(e.name for e in left)}" if left else ""
    return Event(
        f'{w.name} moves {said:g}" to {dest.key()}{away}', rules=("c5",), kind="move", data=data
    )
