"""The default evaluation of a position: material and health, read from the state.

Generic, so a ruleset needs no code for the search bot to play it: the game's `state` is
walked for pieces (objects with a `side` attribute naming a side, or values of a dict keyed
by the sides), and each side's worth is its pieces still in the game plus the health they
keep. A ruleset whose state says this another way overrides `Ruleset.evaluate`.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from wargame_cli.ruleset import SIDES

OUT_WORDS = frozenset({"dead", "destroyed", "fled", "escaped", "routed", "removed", "killed"})
HEALTH = ("health", "max_health", "hp", "wounds", "ht")
LOST = ("damage", "taken")
PIECE = 1.0  # a piece in the game is worth this, plus the share of its health it keeps


def material(game: Any, side: str) -> float:
    """`side`'s pieces and health less the other side's."""
    worth = {s: 0.0 for s in SIDES}
    for owner, piece in pieces(getattr(game, "state", game)):
        worth[owner] += piece_worth(piece)
    other = next(s for s in SIDES if s != side)
    return worth[side] - worth[other]


def pieces(state: Any) -> list[tuple[str, Any]]:
    """Every (side, piece) in the state tree, each object read once."""
    found: list[tuple[str, Any]] = []
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
        elif dataclasses.is_dataclass(value) and not isinstance(value, type):
            seen.add(id(value))
            side = getattr(value, "side", owner)
            if side in SIDES and _is_piece(value):
                found.append((side, value))
                return
            for f in dataclasses.fields(value):
                if f.compare:
                    walk(getattr(value, f.name), None, depth + 1)

    walk(state, None, 0)
    return found


def _is_piece(value: Any) -> bool:
    names = {f.name for f in dataclasses.fields(value)}
    return bool(names & {"alive", "dead", "status", "fate", *HEALTH})


def piece_worth(piece: Any) -> float:
    """1 for a piece still in the game plus the share of its health left (0 when out)."""
    if getattr(piece, "alive", True) is False or getattr(piece, "dead", False) is True:
        return 0.0
    if getattr(piece, "fate", "") or str(getattr(piece, "status", "")).lower() in OUT_WORDS:
        return 0.0  # a fate of any kind (destroyed, left the field) or a status that is out
    health = _number(piece, HEALTH)
    if health is None:
        kind = getattr(piece, "kind", None)
        health = _number(kind, HEALTH) if kind is not None else None
    lost = _number(piece, LOST) or 0
    if health is None or health <= 0:
        return PIECE
    if lost == 0 and not any(hasattr(piece, n) for n in LOST):
        return PIECE + min(health, 10) / 10  # a count of wounds left (no maximum known)
    return PIECE + max(0, health - lost) / health


def _number(obj: Any, names: tuple[str, ...]) -> int | None:
    for name in names:
        value = getattr(obj, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None
