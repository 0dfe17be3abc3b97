"""The lay of the field in words, for every tabletop ruleset's story: where a figure stands
(a side's left or right flank or its centre, as that side deployed; near its own edge, in
midfield, deep in the enemy's half; by a named piece of terrain), who stands beside or behind
whom, a charge across the field, a retreat toward an edge (distances: `voice.inches`).

A teller keeps one `Field` and shows it every place the log gives (`place`); the first place
of each figure is its deployment. Side A's forward is growing y (its own edge at y=0), side
B's the other way, as on the terminal map; a side's left is its own left, facing the enemy.
Nothing here prints a decimal: numbers in prose are whole inches."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from wargame_cli import wording
from wargame_cli.engine import events

NEAR = 2.5  # inches: "beside", "behind", "by the barn"


def _point(value: Any) -> tuple[float, float] | None:
    try:
        return float(value[0]), float(value[1])
    except (TypeError, ValueError, IndexError, KeyError):
        return None


@dataclass(frozen=True, slots=True)
class Piece:
    """A named piece of terrain: its rectangle."""

    name: str
    x0: float
    y0: float
    x1: float
    y1: float

    def distance(self, p: tuple[float, float]) -> float:
        dx = max(self.x0 - p[0], 0.0, p[0] - self.x1)
        dy = max(self.y0 - p[1], 0.0, p[1] - self.y1)
        return math.hypot(dx, dy)


@dataclass
class Field:
    width: float
    height: float
    names: dict[str, str]  # side -> the side's name ("the Axes")
    terrain: list[Piece] = field(default_factory=list)
    side_of: dict[str, str] = field(default_factory=dict)  # figure -> its side
    home: dict[str, tuple[float, float]] = field(default_factory=dict)  # where it deployed
    at: dict[str, tuple[float, float]] = field(default_factory=dict)  # where it stands now
    down: set[str] = field(default_factory=set)

    @classmethod
    def of_save(cls, save: dict[str, Any], names: dict[str, str]) -> Field:
        """The field a save was played on: its size and terrain from the options (`width`
        and `height`, or a `table` option's)."""
        options = save.get("options") or {}
        table = options["table"] if isinstance(options.get("table"), dict) else options
        terrain = []
        for t in table.get("terrain", []) if isinstance(table, dict) else []:
            try:
                x, y = float(t["x"]), float(t["y"])
                terrain.append(Piece(str(t["name"]), x, y, x + float(t["w"]), y + float(t["h"])))
            except (KeyError, TypeError, ValueError):
                continue
        try:
            width, height = float(table.get("width", 24)), float(table.get("height", 24))
        except (TypeError, ValueError):
            width, height = 24.0, 24.0
        return cls(width, height, names, terrain)

    # -- what the log shows ------------------------------------------------------------
    def place(self, who: str, side: Any, pos: Any) -> None:
        """`who` (of `side`, when known) stands at `pos`; its first place is its deployment."""
        p = _point(pos)
        if not who or p is None:
            return
        if side in self.names:
            self.side_of.setdefault(who, str(side))
        self.home.setdefault(who, p)
        self.at[who] = p

    def deployed(self, log: Any, side_of: Any) -> None:
        """Every figure where the log deploys it (a `deploy` event's `at`, figure by figure,
        or its subject's `pos`), before the story is told: a flank is judged from the whole
        deployment, never from the figures placed so far. `side_of(name)`: its side."""
        for entry in log if isinstance(log, list) else []:
            if not isinstance(entry, dict) or entry.get("t") != "event":
                continue
            data = entry.get("data")
            if entry.get("kind") != "deploy" or not isinstance(data, dict):
                continue
            at = data.get("at")
            if isinstance(at, dict):
                for figure, pos in at.items():
                    self.place(str(figure), side_of(str(data.get("unit", figure))), pos)
            elif "pos" in data:
                who = events.subject(data)
                self.place(who, side_of(who), data["pos"])

    def fall(self, who: str) -> None:
        self.down.add(who)

    # -- words -------------------------------------------------------------------------
    def _forward(self, side: str, p: tuple[float, float]) -> float:
        """How far `p` is from `side`'s own edge."""
        return p[1] if side == "A" else self.height - p[1]

    def _across(self, side: str, p: tuple[float, float]) -> float:
        """How far `p` is from `side`'s own left, as that side's figures deployed (0-1)."""
        xs = [self.home[w][0] for w, s in self.side_of.items() if s == side and w in self.home]
        lo, hi = (min(xs), max(xs)) if len(xs) > 1 and max(xs) - min(xs) > 1 else (0, self.width)
        t = (p[0] - lo) / (hi - lo)
        return t if side == "A" else 1 - t

    def flank(self, side: str, pos: Any) -> str:
        """ "the Axes' right flank", "the Swords' centre" for a point, as `side` deployed."""
        p = _point(pos)
        if p is None or side not in self.names:
            return ""
        t = self._across(side, p)
        part = "left flank" if t < 0.3 else "right flank" if t > 0.7 else "centre"
        return f"{possessive(self.names[side])} {part}"

    def depth(self, side: str, pos: Any) -> str:
        """ "near its own edge", "in midfield", "deep in the Swords' half"."""
        p = _point(pos)
        if p is None or side not in self.names:
            return ""
        f = self._forward(side, p) / self.height
        if f < 0.25:
            return "near its own edge"
        if f > 0.75:
            other = next((n for s, n in self.names.items() if s != side), "the enemy")
            return f"deep in {possessive(other)} half"
        return "in midfield"

    def by(self, who: str) -> str:
        """Who or what `who` stands by: "beside Tuze", "behind Tuze", "by the Barn"; ""."""
        p, side = self.at.get(who), self.side_of.get(who)
        if p is None:
            return ""
        friends = [
            (math.dist(p, q), w)
            for w, q in self.at.items()
            if w != who and w not in self.down and self.side_of.get(w) == side
        ]
        if friends and side is not None:
            d, friend = min(friends)
            if d <= NEAR:
                ahead = self._forward(side, self.at[friend]) - self._forward(side, p)
                return f"behind {friend}" if ahead > d * 0.7 else f"beside {friend}"
        pieces = [(t.distance(p), t.name) for t in self.terrain]
        if pieces and min(pieces)[0] <= NEAR / 2:
            return f"by the {min(pieces)[1]}"
        return ""

    def behind(self, who: str, target: str) -> bool:
        """Does `who` stand behind `target`, between it and its own side's edge?"""
        p, q, side = self.at.get(who), self.at.get(target), self.side_of.get(target)
        if p is None or q is None or side not in self.names:
            return False
        return self._forward(side, p) < self._forward(side, q) - 0.3

    def move(self, who: str, side: Any, start: Any, end: Any, charge: bool = False) -> str:
        """Words for a move seen from `who`'s side, to follow its verb: "across the field",
        "toward the Axes' edge", "toward the left edge", "on the Swords' left flank",
        "beside Tuze"; "" when nothing worth saying."""
        a, b = _point(start), _point(end)
        side = str(side) if side in self.names else self.side_of.get(who, "")
        if a is None or b is None or side not in self.names:
            return ""
        gain = self._forward(side, b) - self._forward(side, a)
        half = self.height / 2
        if gain > 0 and self._forward(side, a) < half <= self._forward(side, b):
            return "across the field"
        if charge:
            return ""
        if gain < -abs(b[0] - a[0]) / 2 and gain < -2:  # a real retreat, not a step round
            edge = min(b[0], self.width - b[0])
            if edge < 3 and abs(b[0] - a[0]) > 0.5:
                return f"toward the {'left' if (b[0] < a[0]) == (side == 'A') else 'right'} edge"
            return f"toward {possessive(self.names[side])} own edge"
        place = self.flank(side, b)
        if self.by(who) or not place:
            return self.by(who)
        if gain > abs(b[0] - a[0]) / 2:  # forward: up a flank, through the centre
            return f"{'through' if place.endswith('centre') else 'up'} {place}"
        return on(place) if gain < 0 else f"toward {place}"


def on(place: str) -> str:
    """A place with its preposition: "on the Axes' left flank", "in the Swords' centre"."""
    if not place:
        return ""
    return f"{'in' if place.endswith('centre') else 'on'} {place}"


def possessive(name: str) -> str:
    """A side's name as owner, with its article where English wants one: "the Axes'", "the
    Lantern Company's", but "Alpha Squad's" and "Side A's" (a name of one thing, no "the")."""
    if name.lower().startswith("the "):
        return wording.possessive(f"the {name[4:]}")
    if name.endswith("s") and not name.startswith("Side "):  # a plural name: "the Swords'"
        return wording.possessive(f"the {name}")
    return wording.possessive(name)
