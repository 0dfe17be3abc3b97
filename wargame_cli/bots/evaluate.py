"""The default evaluation of a position: material and health, read from the state.

Generic, so a ruleset needs no code for the search bot to play it: the game's `state` is
walked for pieces (dataclasses with a `side` field naming a side, or dataclass values of a
dict keyed by the sides), and each side's worth is its pieces still in the game plus the
share of their health they keep. Fields are read as the serialiser reads them (by the
dataclass's declared fields), never probed for. A ruleset whose state says this another way
overrides `Ruleset.evaluate`.
"""

from __future__ import annotations

import dataclasses
from operator import attrgetter
from typing import Any

from wargame_cli.ruleset import SIDES

OUT_WORDS = frozenset({"dead", "destroyed", "fled", "escaped", "routed", "removed", "killed"})
HEALTH = ("health", "max_health", "hp", "wounds", "ht")
LOST = ("damage", "taken")
MARKS = frozenset({"alive", "dead", "status", "fate", *HEALTH})
PIECE = 1.0  # a piece in the game is worth this, plus the share of its health it keeps


def material(game: Any, side: str) -> float:
    """`side`'s pieces and health less the other side's, in `game.state`."""
    worth = dict.fromkeys(SIDES, 0.0)
    for owner, piece in pieces(game.state):
        worth[owner] += piece_worth(piece)
    other = next(s for s in SIDES if s != side)
    return worth[side] - worth[other]


def fields_of(value: Any) -> dict[str, Any]:
    """A dataclass instance's compared fields by name (caches, `compare=False`, left out)."""
    return {f.name: attrgetter(f.name)(value) for f in dataclasses.fields(value) if f.compare}


def _is_record(value: Any) -> bool:
    return dataclasses.is_dataclass(value) and not isinstance(value, type)


def pieces(state: Any) -> list[tuple[str, dict[str, Any]]]:
    """Every (side, piece's fields) in the state tree, each object read once."""
    found: list[tuple[str, dict[str, Any]]] = []
    seen: set[int] = set()

    def walk(value: Any, owner: str | None, depth: int) -> None:
        if depth > 6 or id(value) in seen:
            return
        if isinstance(value, dict):
            for k, v in value.items():
                walk(v, k if k in SIDES else None, depth + 1)
        elif isinstance(value, list | tuple | set | frozenset):
            for v in value:
                walk(v, None, depth + 1)
        elif _is_record(value):
            seen.add(id(value))
            fields = fields_of(value)
            side = fields.get("side", owner)
            if side in SIDES and MARKS & fields.keys():
                found.append((side, fields))
                return
            for v in fields.values():
                walk(v, None, depth + 1)

    walk(state, None, 0)
    return found


def piece_worth(piece: dict[str, Any]) -> float:
    """1 for a piece still in the game plus the share of its health left (0 when out)."""
    if piece.get("alive", True) is False or piece.get("dead", False) is True:
        return 0.0
    if piece.get("fate") or str(piece.get("status", "")).lower() in OUT_WORDS:
        return 0.0  # a fate of any kind (destroyed, left the field) or a status that is out
    health = _number(piece, HEALTH)
    kind = piece.get("kind")
    if health is None and _is_record(kind):
        health = _number(fields_of(kind), HEALTH)  # a profile's (e.g. a unit type's hits)
    if health is None or health <= 0:
        return PIECE
    if not set(LOST) & piece.keys():
        return PIECE + min(health, 10) / 10  # a count of wounds left (no maximum known)
    lost = _number(piece, LOST) or 0
    return PIECE + max(0, health - lost) / health


def _number(fields: dict[str, Any], names: tuple[str, ...]) -> int | None:
    for name in names:
        value = fields.get(name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None
