"""What a map is drawn from, as plain values (no rich): the table, the pieces on it and where
each side deploys. A ruleset's view states these facts (`View.map_facts`); the ui draws them at
whatever scale the screen has room for (`wargame_cli/ui/map.py`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wargame_cli.tabletop.geometry import Point, Rect
from wargame_cli.tabletop.table import Table


@dataclass(frozen=True, slots=True)
class Marker:
    """One miniature on the map: a two-character label, where it stands, whose it is."""

    label: str
    pos: Point
    side: str
    name: str
    down: bool = False
    contact: bool = False  # in base contact with an enemy: underlined, and `>` in the legend
    radius: float = 0.0  # the base's, for the cursor's distances edge to edge


# The table edges a side may have, as the map names them: side A's edge is y = 0 (south)
EDGES = ("south", "north", "west", "east")


@dataclass(frozen=True, slots=True)
class Zone:
    """Where a side deploys: an area (`rect`) or an edge of the table, in words."""

    side: str
    words: str
    rect: Rect | None = None
    edge: str = ""  # one of EDGES, or "" when the zone is not along an edge


@dataclass(frozen=True)
class MapFacts:
    """Everything a map shows. `origin`: the piece a question is about (its spot, for the
    cursor's distances); `notes`: renderables the ui draws under the map (a line per side);
    `targets`: at a target question, each option's key and the spot it aims at; `ground_words`:
    the key's words for a terrain kind where the ruleset's differ (no cover in Mobs and Morale)."""

    table: Table
    markers: tuple[Marker, ...]
    title: str = ""
    zones: tuple[Zone, ...] = ()
    names: tuple[tuple[str, str], ...] = ()  # each side's display name
    origin: Marker | None = None
    notes: tuple[Any, ...] = ()
    targets: tuple[tuple[str, Point], ...] = field(default=())
    ground_words: tuple[tuple[str, str], ...] = ()  # a terrain kind's words in this ruleset

    def ground_word(self, kind: str, default: str) -> str:
        """What the key calls terrain of `kind` (`soft cover`; a ruleset without cover says
        what its terrain is instead)."""
        return dict(self.ground_words).get(kind, default)

    def side_name(self, side: str) -> str:
        return dict(self.names).get(side, f"side {side}")


def side_case(label: str, side: str) -> str:
    """A label in its side's case, where case is the side's cue (Mobs and Morale): side A in
    capitals, side B in small letters, on the terminal and in the HTML alike."""
    return label.upper() if side == "A" else label.lower()
