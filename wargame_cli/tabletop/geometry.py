"""Points, distances and segment tests in inches."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from wargame_cli.text import decimal_number

EPS = 1e-9


@dataclass(frozen=True, slots=True)
class Point:
    x: float
    y: float

    def distance(self, other: Point) -> float:
        return math.hypot(self.x - other.x, self.y - other.y)

    def toward(self, other: Point, inches: float) -> Point:
        """The point `inches` along the way to `other` (past it if inches exceed the gap)."""
        gap = self.distance(other)
        if gap < EPS:
            return self
        f = inches / gap
        return Point(self.x + (other.x - self.x) * f, self.y + (other.y - self.y) * f)

    def offset(self, dx: float, dy: float) -> Point:
        return Point(self.x + dx, self.y + dy)

    def rounded(self, places: int = 2) -> Point:
        return Point(round(self.x, places), round(self.y, places))

    def key(self) -> str:
        """The text form used in choices, saves and typed answers: `x,y`."""
        return f"{_num(self.x)},{_num(self.y)}"

    @classmethod
    def parse(cls, text: str) -> Point:
        """`"3,4.5"`, `"3 4.5"` or `"(3, 4.5)"`; raises ValueError with the reason."""
        parts = [p for p in re.split(r"[\s,;()]+", text.strip()) if p]
        if len(parts) != 2:
            raise ValueError(f"{text!r} is not a position: type x,y in inches, e.g. 12,3.5")
        x, y = decimal_number(parts[0]), decimal_number(parts[1])
        if x is None or y is None or not (math.isfinite(x) and math.isfinite(y)):
            raise ValueError(f"{text!r} is not a position: x and y must be numbers")
        return cls(x, y)

    def as_list(self) -> list[float]:
        return [self.x, self.y]


def _num(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def segment_point_distance(a: Point, b: Point, p: Point) -> float:
    dx, dy = b.x - a.x, b.y - a.y
    length2 = dx * dx + dy * dy
    if length2 < EPS:
        return a.distance(p)
    t = max(0.0, min(1.0, ((p.x - a.x) * dx + (p.y - a.y) * dy) / length2))
    return p.distance(Point(a.x + t * dx, a.y + t * dy))


@dataclass(frozen=True, slots=True)
class Rect:
    """An axis-aligned rectangle, x0 <= x1 and y0 <= y1, in inches."""

    x0: float
    y0: float
    x1: float
    y1: float

    def contains(self, p: Point) -> bool:
        return self.x0 - EPS <= p.x <= self.x1 + EPS and self.y0 - EPS <= p.y <= self.y1 + EPS

    def strictly_contains(self, p: Point) -> bool:
        return self.x0 + EPS < p.x < self.x1 - EPS and self.y0 + EPS < p.y < self.y1 - EPS

    def clip(self, a: Point, b: Point) -> tuple[float, float] | None:
        """Liang-Barsky: the parameter span [t0, t1] of segment a->b inside the rectangle."""
        t0, t1 = 0.0, 1.0
        dx, dy = b.x - a.x, b.y - a.y
        for p, q in (
            (-dx, a.x - self.x0),
            (dx, self.x1 - a.x),
            (-dy, a.y - self.y0),
            (dy, self.y1 - a.y),
        ):
            if abs(p) < EPS:
                if q < 0:
                    return None
                continue
            r = q / p
            if p < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
            if t0 > t1:
                return None
        return t0, t1

    def crosses(self, a: Point, b: Point) -> bool:
        """Does segment a->b pass through the interior (more than grazing an edge)?"""
        return segment_crosses(self.x0, self.y0, self.x1, self.y1, a.x, a.y, b.x, b.y)

    def inflated(self, by: float) -> Rect:
        """The rectangle grown by `by` on every side: where a base of radius `by` would overlap
        it (corners squared off, which errs on the side of caution)."""
        return Rect(self.x0 - by, self.y0 - by, self.x1 + by, self.y1 + by)

    def nearest(self, p: Point) -> Point:
        return Point(min(max(p.x, self.x0), self.x1), min(max(p.y, self.y0), self.y1))

    @property
    def centre(self) -> Point:
        return Point((self.x0 + self.x1) / 2, (self.y0 + self.y1) / 2)


def segment_crosses(
    x0: float, y0: float, x1: float, y1: float, ax: float, ay: float, bx: float, by: float
) -> bool:
    """`Rect(x0, y0, x1, y1).crosses(a, b)` on plain numbers: the sight and path searches call
    it hundreds of thousands of times a game. The arithmetic is `clip`'s, step for step, so
    the answers are the same to the last bit."""
    t0, t1 = 0.0, 1.0
    dx, dy = bx - ax, by - ay
    if abs(dx) < EPS:
        if ax - x0 < 0 or x1 - ax < 0:
            return False
    else:
        r = (ax - x0) / -dx
        if -dx < 0:
            t0 = r if r > t0 else t0
        else:
            t1 = r if r < t1 else t1
        if t0 > t1:
            return False
        r = (x1 - ax) / dx
        if dx < 0:
            t0 = r if r > t0 else t0
        else:
            t1 = r if r < t1 else t1
        if t0 > t1:
            return False
    if abs(dy) < EPS:
        if ay - y0 < 0 or y1 - ay < 0:
            return False
    else:
        r = (ay - y0) / -dy
        if -dy < 0:
            t0 = r if r > t0 else t0
        else:
            t1 = r if r < t1 else t1
        if t0 > t1:
            return False
        r = (y1 - ay) / dy
        if dy < 0:
            t0 = r if r > t0 else t0
        else:
            t1 = r if r < t1 else t1
        if t0 > t1:
            return False
    if t1 - t0 < EPS:
        return False
    mx = ax + (bx - ax) * (t0 + t1) / 2
    my = ay + (by - ay) * (t0 + t1) / 2
    return x0 + EPS < mx < x1 - EPS and y0 + EPS < my < y1 - EPS


def ray_span(
    sx: float,
    sy: float,
    ux: float,
    uy: float,
    rects: list[tuple[float, float, float, float]],
    circles: list[tuple[float, float, float]],
    margin: float,
) -> tuple[float, float]:
    """Along the ray from (sx, sy) in the unit direction (ux, uy), which rectangles' insides
    and circles' insides (radius given) a way from the start must not enter: `(safe, bad)`,
    where every way shorter than `safe` stays at least `margin` clear of them all, and
    every way longer than `bad` goes at least `margin` deep into one. In between, only an
    exact test can tell. Searches that probe a way's length step by step ask this first."""
    safe = bad = math.inf
    for x0, y0, x1, y1 in rects:
        safe = min(
            safe, _slab_entry(sx, sy, ux, uy, x0 - margin, y0 - margin, x1 + margin, y1 + margin)
        )
        bad = min(
            bad, _slab_entry(sx, sy, ux, uy, x0 + margin, y0 + margin, x1 - margin, y1 - margin)
        )
    for ox, oy, radius in circles:
        safe = min(safe, _circle_entry(sx, sy, ux, uy, ox, oy, radius + margin))
        bad = min(bad, _circle_entry(sx, sy, ux, uy, ox, oy, radius - margin))
    return safe, bad


def _slab_entry(
    sx: float, sy: float, ux: float, uy: float, x0: float, y0: float, x1: float, y1: float
) -> float:
    """Where the ray first enters the closed rectangle (0 when it starts in it; inf: never)."""
    if x0 > x1 or y0 > y1:
        return math.inf
    lo, hi = 0.0, math.inf
    for s, u, a, b in ((sx, ux, x0, x1), (sy, uy, y0, y1)):
        if abs(u) < 1e-12:
            if s < a or s > b:
                return math.inf
            continue
        t0, t1 = (a - s) / u, (b - s) / u
        if t0 > t1:
            t0, t1 = t1, t0
        lo, hi = max(lo, t0), min(hi, t1)
        if lo > hi:
            return math.inf
    return lo


def _circle_entry(
    sx: float, sy: float, ux: float, uy: float, ox: float, oy: float, radius: float
) -> float:
    """Where the ray first comes within `radius` of (ox, oy) (0: it starts there; inf: never)."""
    if radius <= 0:
        return math.inf
    dx, dy = sx - ox, sy - oy
    c = dx * dx + dy * dy - radius * radius
    if c <= 0:
        return 0.0
    b = ux * dx + uy * dy
    disc = b * b - c
    if b >= 0 or disc <= 0:
        return math.inf
    return -b - math.sqrt(disc)
