"""The tabletop as an SVG picture, shared by every tabletop ruleset (Squad Alpha, the Battle of
Ixu, Mobs and Morale): the table, its terrain shaded by kind and named, each base a circle of
its true size in its side's colour (grey and crossed when down) with its short label, and a key
under the table naming every label. Side A's edge is at the bottom, as on the terminal map.
Rulesets only list their bases (`picture.py`)."""

from __future__ import annotations

from dataclasses import dataclass

from wargame_cli.report.svg import DOWN_FILL, SIDE_FILL, svg, tag, text, title
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.table import Table, TerrainKind

SCALE = 22.0  # pixels per inch
MARGIN = 8.0
KEY_W, KEY_H = 170.0, 15.0  # one entry of the key under the table
TERRAIN_FILL = {
    TerrainKind.BLOCKING: ("#6b6b6b", "#444444"),
    TerrainKind.HARD: ("#d9c27a", "#9c8541"),
    TerrainKind.SOFT: ("#a9d18e", "#6e9c55"),
}


@dataclass(frozen=True, slots=True)
class Base:
    """One miniature's base: where it stands, its size, whose it is, its name."""

    label: str  # two or three characters, drawn on the base
    name: str
    pos: Point
    radius: float
    side: str
    down: bool = False


def tabletop(table: Table, bases: list[Base], label: str) -> str:
    """The table seen from above, one SVG element."""
    width, height = table.width * SCALE, table.height * SCALE

    def at(x: float, y: float) -> tuple[float, float]:
        return MARGIN + x * SCALE, MARGIN + (table.height - y) * SCALE

    parts = [
        tag("rect", x=MARGIN, y=MARGIN, width=width, height=height, fill="#f4efe1", stroke="#555")
    ]
    for piece in table.pieces:
        fill, edge = TERRAIN_FILL[piece.kind]
        left, top = at(piece.rect.x0, piece.rect.y1)
        w = (piece.rect.x1 - piece.rect.x0) * SCALE
        h = (piece.rect.y1 - piece.rect.y0) * SCALE
        parts.append(
            tag(
                "g",
                title(f"{piece.name} ({piece.kind.value})")
                + tag("rect", x=left, y=top, width=w, height=h, fill=fill, stroke=edge)
                + text(piece.name, x=left + 3, y=top + 11, font_size=10, fill="#222"),
            )
        )
    for base in sorted(bases, key=lambda b: not b.down):
        x, y = at(base.pos.x, base.pos.y)
        r = max(base.radius * SCALE, 8.0)
        fill = DOWN_FILL if base.down else SIDE_FILL.get(base.side, "#333")
        body = title(f"{base.name}{' (down)' if base.down else ''}")
        body += tag("circle", cx=x, cy=y, r=r, fill=fill, stroke="#111", stroke_width=1)
        if base.down:
            d = r * 0.7
            body += tag(
                "path",
                d=f"M{x - d:.1f},{y - d:.1f}L{x + d:.1f},{y + d:.1f}"
                f"M{x - d:.1f},{y + d:.1f}L{x + d:.1f},{y - d:.1f}",
                stroke="#fff",
                stroke_width=1.5,
            )
        body += text(base.label[:3], x=x, y=y + 3.5, font_size=9, fill="#fff", text_anchor="middle")
        parts.append(tag("g", body, class_=f"base side-{base.side}"))
    per_row = max(1, int(width // KEY_W))
    top = height + 2 * MARGIN + 4
    for i, base in enumerate(bases):
        x, y = MARGIN + (i % per_row) * KEY_W, top + (i // per_row) * KEY_H + 10
        fill = DOWN_FILL if base.down else SIDE_FILL.get(base.side, "#333")
        parts.append(
            text(base.label[:3], x=x, y=y, font_size=10, fill=fill, font_weight="bold")
            + text(
                f"{base.name}{' (down)' if base.down else ''}",
                x=x + 26,
                y=y,
                font_size=10,
                fill="#111",
                text_decoration="line-through" if base.down else None,
            )
        )
    key_h = -(-len(bases) // per_row) * KEY_H + 8
    return svg(width + 2 * MARGIN, height + 2 * MARGIN + key_h, "".join(parts), label)
