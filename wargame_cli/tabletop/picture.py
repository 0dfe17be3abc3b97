"""The tabletop as an SVG picture, shared by every tabletop ruleset (Squad Alpha, the Battle of
Ixu, Mobs and Morale): the table, its terrain shaded by kind and named, each base a circle of
its true size in its side's colour (grey and crossed when down) with its short label, and a key
under the table naming every label. Side A's edge is at the bottom, as on the terminal map.
Rulesets only list their bases (`picture.py`).

A turn's picture also draws what happened in it (`marks`, from the turn's events): every move
as an arrow from where the piece stood, every attack or shot as a line from attacker to target
(dashed when it missed, solid when it hit, heavy when it killed), and an action a figure
used on another (a Hex) as its strike."""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.engine import events as vocabulary
from wargame_cli.report.svg import DOWN_FILL, SIDE_FILL, svg, tag, text, title
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.table import Table, TerrainKind

SCALE = 22.0  # pixels per inch, at the least
BASE_PX = 24.0  # a base is drawn at least this wide, so it and its label read
MOST_SCALE = 48.0  # pixels per inch, at the most (a table of tiny bases stays a page wide)
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


@dataclass(frozen=True, slots=True)
class Move:
    """A piece's move this turn: from where it stood to where it ended."""

    who: str
    start: Point
    end: Point
    side: str


@dataclass(slots=True)
class Strike:
    """An attack or a shot this turn, attacker to target; whether it hit, whether it killed."""

    who: str
    target: str
    start: Point
    end: Point
    side: str
    hit: bool = False
    kill: bool = False
    shot: bool = False  # from afar (a `shot` event): drawn straight, a blow in contact bowed


@dataclass
class Marks:
    moves: list[Move] = field(default_factory=list)
    strikes: list[Strike] = field(default_factory=list)


def _point(value: Any) -> Point | None:
    try:
        return Point(float(value[0]), float(value[1]))
    except (TypeError, ValueError, IndexError, KeyError):
        return None


def marks(
    events: Sequence[Mapping[str, Any]], where: Mapping[str, Base], side_of: Mapping[str, str]
) -> Marks:
    """What a turn's events show on the table, read in the one vocabulary
    (`engine/events.py`): `from` and `to` of a move; the strikers and `target` of an attack;
    a following hit to that target; a death of it. `where`: each piece's base by
    the names and ids the events use; `side_of` likewise its side. A piece's place during
    the turn is where its last move so far ended, else where it stands at the end."""
    out = Marks()
    now: dict[str, Point] = {}

    def at(name: str) -> Point | None:
        base = where.get(name)
        return now.get(name) or (base.pos if base is not None else None)

    for event in events:
        kind, data = str(event.get("kind", "")), event.get("data") or {}
        if not isinstance(data, Mapping):
            continue
        who = vocabulary.subject(data)
        if kind in vocabulary.MOVE:
            starts, ends = data.get("from"), data.get("to")
            if isinstance(starts, Mapping) and isinstance(ends, Mapping):  # a mob, figure by figure
                pairs = [(str(f), starts.get(f), ends[f]) for f in ends]
            else:
                pairs = [(who, starts, ends)]
            for figure, begin, finish in pairs:
                start, end = _point(begin), _point(finish)
                if start is not None and end is not None and start.distance(end) > 0.05:
                    out.moves.append(Move(figure, start, end, side_of.get(figure, "")))
                    now[figure] = end
        elif kind in vocabulary.ACT:  # an action of its own on a target (a Hex)
            actor, target = str(data.get("actor", "")), str(data.get("target", ""))
            a, b = at(actor), at(target)
            if a is not None and b is not None:
                hit = bool(data.get("works"))
                out.strikes.append(Strike(actor, target, a, b, side_of.get(actor, ""), hit))
        elif kind in vocabulary.STRIKE:
            for attacker in vocabulary.strikers(data):
                target = str(data.get("target", ""))
                a, b = at(str(attacker)), at(target)
                if a is None or b is None:
                    continue
                hit = int(data.get("hits", 0) or 0) > 0
                side = side_of.get(str(attacker), "")
                out.strikes.append(
                    Strike(str(attacker), target, a, b, side, hit, shot=kind == "shot")
                )
        elif kind in vocabulary.HIT | vocabulary.DEATH:
            target = vocabulary.target(data)
            for strike in reversed(out.strikes):
                if strike.target == target:
                    if kind in vocabulary.HIT and int(data.get("damage", 1) or 0) > 0:
                        strike.hit = True
                    if kind in vocabulary.DEATH and strike.hit:
                        strike.kill = True
                    break
    return out


def _head(tip: tuple[float, float], towards: tuple[float, float], colour: str) -> str:
    """An arrowhead at `tip`, pointing away from `towards` (no markers, so no ids)."""
    (x2, y2), (x1, y1) = tip, towards
    angle = math.atan2(y2 - y1, x2 - x1)
    size = 7.0
    left = (x2 - size * math.cos(angle - 0.45), y2 - size * math.sin(angle - 0.45))
    right = (x2 - size * math.cos(angle + 0.45), y2 - size * math.sin(angle + 0.45))
    head = f"M{x2:.1f},{y2:.1f}L{left[0]:.1f},{left[1]:.1f}L{right[0]:.1f},{right[1]:.1f}Z"
    return tag("path", d=head, fill=colour)


def _toward(p: tuple[float, float], q: tuple[float, float], by: float) -> tuple[float, float]:
    """`p` moved `by` pixels toward `q` (not past it)."""
    d = math.hypot(q[0] - p[0], q[1] - p[1])
    if d <= by or d == 0:
        return p
    return p[0] + (q[0] - p[0]) * by / d, p[1] + (q[1] - p[1]) * by / d


def _arrow(
    start: tuple[float, float], end: tuple[float, float], trim: float = 0.0, **attrs: Any
) -> str:
    """A straight arrow from `start` to `end`, its head `trim` short of it (a base's edge)."""
    end = _toward(end, start, trim)
    (x1, y1), (x2, y2) = start, end
    line = tag("line", x1=x1, y1=y1, x2=x2, y2=y2, fill="none", **attrs)
    return line + _head(end, start, attrs.get("stroke", "#333"))


SIDESTEP = 4.0  # pixels: a strike's line runs this far to its left of the centres' line


def _strike(
    start: tuple[float, float], end: tuple[float, float], trim: float = 0.0, **attrs: Any
) -> str:
    """A straight arrow from one base's edge to the other's, set a little to its left, so a
    blow back (set to its own left) runs beside the blow it answers, never on it."""
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ox, oy = (y2 - y1) / length * SIDESTEP, -(x2 - x1) / length * SIDESTEP
    a, b = (x1 + ox, y1 + oy), (x2 + ox, y2 + oy)
    if length > 2 * trim + 6:  # from edge to edge where they stand apart
        a, b = _toward(a, b, trim), _toward(b, a, trim)
    line = tag("line", x1=a[0], y1=a[1], x2=b[0], y2=b[1], fill="none", **attrs)
    return line + _head(b, a, attrs.get("stroke", "#333"))


def _drawn(found: Marks, at: Any, trim: float) -> list[str]:
    """Each move and strike as a group with its tooltip, each a straight arrow."""
    marked: list[tuple[str, str, Any, Move | Strike, dict[str, Any]]] = []
    for move in found.moves:
        colour = SIDE_FILL.get(move.side, "#333")
        style = {"stroke": colour, "stroke_width": 2, "stroke_opacity": 0.75}
        marked.append((f"{move.who} moves", "move", _arrow, move, style))
    for strike in found.strikes:
        what = "kills" if strike.kill else "hits" if strike.hit else "misses"
        style = {
            "stroke": "#111" if strike.kill else "#d35400" if strike.hit else "#777",
            "stroke_width": 3.5 if strike.kill else 2 if strike.hit else 1.5,
            "stroke_dasharray": None if strike.hit else "4 3",
        }
        if strike.shot:
            tip = f"{strike.who} shoots at {strike.target}: {what}"
            marked.append((tip, f"strike {what} shot", _arrow, strike, style))
            continue
        tip = f"{strike.who} attacks {strike.target}: {what}"
        marked.append((tip, f"strike {what}", _strike, strike, style))
    return [
        tag(
            "g",
            title(tip) + draw(at(m.start.x, m.start.y), at(m.end.x, m.end.y), trim, **style),
            class_=cls,
        )
        for tip, cls, draw, m, style in marked
    ]


LEGEND = (
    ("#555", None, 2.0, "move"),
    ("#777", "4 3", 1.5, "attack, missed"),
    ("#d35400", None, 2.0, "attack, hit"),
    ("#111", None, 3.5, "attack, killed"),
)


def _legend(x: float, y: float) -> str:
    out = []
    for i, (colour, dash, width, words) in enumerate(LEGEND):
        left = x + i * 120
        out.append(
            _arrow(
                (left, y - 4),
                (left + 24, y - 4),
                stroke=colour,
                stroke_width=width,
                stroke_dasharray=dash,
            )
            + text(words, x=left + 30, y=y, font_size=10, fill="#111")
        )
    return "".join(out)


def _scale(bases: list[Base]) -> float:
    """Pixels an inch: enough that the smallest base is `BASE_PX` across."""
    radii = [b.radius for b in bases if b.radius > 0]
    wanted = BASE_PX / (2 * min(radii)) if radii else SCALE
    return min(MOST_SCALE, max(SCALE, wanted))


def tabletop(table: Table, bases: list[Base], label: str, drawn: Marks | None = None) -> str:
    """The table seen from above, one SVG element; with `drawn`, the turn's moves and
    attacks over it and a legend under the key. Drawn at the scale where the smallest
    base is `BASE_PX` wide (at least `SCALE`, at most `MOST_SCALE` pixels an inch)."""
    scale = _scale(bases)
    width, height = table.width * scale, table.height * scale

    def at(x: float, y: float) -> tuple[float, float]:
        return MARGIN + x * scale, MARGIN + (table.height - y) * scale

    parts = [
        tag("rect", x=MARGIN, y=MARGIN, width=width, height=height, fill="#f4efe1", stroke="#555")
    ]
    for piece in table.pieces:
        fill, edge = TERRAIN_FILL[piece.kind]
        left, top = at(piece.rect.x0, piece.rect.y1)
        w = (piece.rect.x1 - piece.rect.x0) * scale
        h = (piece.rect.y1 - piece.rect.y0) * scale
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
        r = max(base.radius * scale, BASE_PX / 2)
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
        body += text(base.label[:3], x=x, y=y + 4, font_size=11, fill="#fff", text_anchor="middle")
        parts.append(tag("g", body, class_=f"base side-{base.side}"))
    if drawn is not None:
        trim = max([max(b.radius * scale, BASE_PX / 2) for b in bases] + [0.0])
        parts += _drawn(drawn, at, trim)
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
    if drawn is not None and (drawn.moves or drawn.strikes):
        parts.append(_legend(MARGIN, top + key_h + 6))
        key_h += KEY_H + 4
        if any(strike.shot for strike in drawn.strikes):  # a second line: what a straight one is
            words = "a straight attack line is a shot from afar; a bowed one, a blow in contact"
            parts.append(text(words, x=MARGIN, y=top + key_h + 6, font_size=10, fill="#111"))
            key_h += KEY_H
    return svg(width + 2 * MARGIN, height + 2 * MARGIN + key_h, "".join(parts), label)
