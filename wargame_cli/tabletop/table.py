"""The table: its size and terrain pieces, readable from and writable to TOML/JSON data."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from wargame_cli.errors import OptionError
from wargame_cli.kit import serial
from wargame_cli.tabletop.geometry import Point, Rect

MAX_PIECES = 200


class TerrainKind(StrEnum):
    """Blocking stops sight and movement; hard cover is cover from fire (walls, rubble);
    soft cover is cover from view (hedges, woods, crops)."""

    BLOCKING = "blocking"
    HARD = "hard"
    SOFT = "soft"


KINDS = [kind.value for kind in TerrainKind]  # as a table file writes them
MEANS = {TerrainKind.BLOCKING: "no entry, no sight", TerrainKind.HARD: "hard cover"}
MEANS[TerrainKind.SOFT] = "soft cover"


def _kinds_told() -> str:
    """The kinds in words, for a refusal: `blocking (no entry, no sight), hard (...)`."""
    return ", ".join(f"{kind.value} ({MEANS.get(kind, kind.value)})" for kind in TerrainKind)


@dataclass(frozen=True)
class Piece:
    name: str
    kind: TerrainKind
    rect: Rect

    def to_data(self) -> dict[str, Any]:
        r = self.rect
        return {
            "name": self.name,
            "kind": self.kind.value,
            "x": r.x0,
            "y": r.y0,
            "w": r.x1 - r.x0,
            "h": r.y1 - r.y0,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Piece:
        called = f"terrain piece {str(data.get('name', ''))[:40]!r}"
        kind = data.get("kind")
        if kind not in KINDS:
            raise OptionError(
                f"{called}: kind {str(kind)[:40]!r} is not one of the kinds: {_kinds_told()}"
            )
        try:
            x, y, w, h = (float(data[k]) for k in ("x", "y", "w", "h"))
        except KeyError as exc:
            raise OptionError(
                f"{called}: it needs x, y, w and h (inches); {exc} is missing"
            ) from None
        except (ValueError, TypeError, OverflowError):
            raise OptionError(f"{called}: x, y, w and h are numbers (inches)") from None
        kind = TerrainKind(kind)
        if not all(math.isfinite(v) for v in (x, y, w, h)):
            raise OptionError(f"terrain piece {data.get('name')!r}: not a finite number")
        if w <= 0 or h <= 0:
            raise OptionError(f"terrain piece {data.get('name')!r} has no area")
        return cls(str(data.get("name", kind.value)), kind, Rect(x, y, x + w, y + h))


@dataclass(frozen=True)
class Table:
    """A `width` x `height` inch table; (0, 0) is side A's left corner, y grows toward B."""

    width: float
    height: float
    pieces: tuple[Piece, ...] = field(default=())
    name: str = "table"
    # What is worked out about the table (sight lines, walking distances, cells), by name:
    # it lives and dies with the table and is never part of what the table is (see
    # `table_cache`). The dict is the table's own; only its contents change.
    memos: dict[str, Any] = field(
        default_factory=dict, init=False, repr=False, compare=False, hash=False
    )

    def __hash__(self) -> int:
        """Computed once: tables key the caches of walking distances and sight."""
        cached: int | None = self.memos.get("hash")
        if cached is None:
            cached = self.memos["hash"] = hash((self.width, self.height, self.pieces, self.name))
        return cached

    def on_table(self, p: Point, radius: float = 0.0) -> bool:
        return (
            radius - 1e-9 <= p.x <= self.width - radius + 1e-9
            and radius - 1e-9 <= p.y <= self.height - radius + 1e-9
        )

    def pieces_at(self, p: Point) -> list[Piece]:
        return [piece for piece in self.pieces if piece.rect.contains(p)]

    def blocking_at(self, p: Point) -> Piece | None:
        return next(
            (
                pc
                for pc in self.pieces
                if pc.kind is TerrainKind.BLOCKING and pc.rect.strictly_contains(p)
            ),
            None,
        )

    def to_data(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "width": self.width,
            "height": self.height,
            "terrain": [p.to_data() for p in self.pieces],
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Table:
        try:
            width, height = float(data["width"]), float(data["height"])
        except (KeyError, ValueError, TypeError, OverflowError):
            raise OptionError("a table needs a numeric width and height (inches)") from None
        if not (6 <= width <= 120 and 6 <= height <= 120):
            raise OptionError(f"table {width}x{height}: each side must be 6-120 inches")
        terrain = data.get("terrain", [])
        if not isinstance(terrain, list) or not all(isinstance(p, dict) for p in terrain):
            raise OptionError("a table's terrain is a list of pieces ([[terrain]] in TOML)")
        if len(terrain) > MAX_PIECES:
            raise OptionError(f"a table has at most {MAX_PIECES} terrain pieces")
        pieces = tuple(Piece.from_data(p) for p in terrain)
        for piece in pieces:
            r = piece.rect
            if r.x1 <= 0 or r.y1 <= 0 or r.x0 >= width or r.y0 >= height:
                raise OptionError(f"terrain piece {piece.name!r} lies off the table")
        return _canonical(cls(width, height, pieces, str(data.get("name", "table"))))

    @classmethod
    def load(cls, path: str | Path) -> Table:
        return cls.from_data(read_file(path))


def read_file(path: str | Path) -> Any:
    """A table file's raw TOML data, read as untrusted input (a size cap, one-line errors)."""
    from wargame_cli.saves import untrusted

    path = Path(path)
    try:
        return untrusted.read_toml(path, 2**20)
    except OSError as exc:
        raise OptionError(f"table file {path}: {exc.strerror or exc}") from None
    except untrusted.Untrusted as exc:
        raise OptionError(f"table file {path}: {exc}") from None


def table_cache(table: Table, name: str, limit: int) -> dict[Any, Any]:
    """A memo kept on the table itself (sight lines, walking distances, cells), in
    `table.memos[name]`: it lives and dies with the table and holds at most `limit`
    entries, cleared when full, so a long simulation's memory stays flat. The hottest
    callers read `table.memos` directly and call this only to make or clear it."""
    memo: dict[Any, Any] | None = table.memos.get(name)
    if memo is None:
        memo = table.memos[name] = {}
    elif len(memo) >= limit:
        memo.clear()
    return memo


def forget_memos(table: Table) -> None:
    """Drop everything remembered about the table (tests use it to check that nothing
    remembered changes an answer)."""
    table.memos.clear()


_CANONICAL: dict[Table, Table] = {}


def _canonical(table: Table) -> Table:
    """One object per distinct table, so the caches keyed by tables (sight lines, walking
    distances) find it by identity instead of comparing every piece."""
    if len(_CANONICAL) > 256:
        _CANONICAL.clear()
    return _CANONICAL.setdefault(table, table)


# a table read back from a game's position is the one object for that table, whose memos
# other games have warmed already
serial.restored_as(Table, _canonical)
