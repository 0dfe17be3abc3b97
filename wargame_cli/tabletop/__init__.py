"""The shared tabletop: a table measured in inches, terrain, bases, movement and line of sight.

Squad Alpha, the Battle of Ixu and Mobs and Morale stand on it; none of them has geometry of
its own. Pure: no rendering here (see `view.py`).

- `geometry`: points (`x,y` text form), segments, rectangles.
- `table`: the table and its terrain pieces (blocking, hard cover, soft cover), TOML/JSON data.
- `sight`: line of sight and cover from the firer's perspective.
- `movement`: bases, contact, where a base may stand (`standing_problem`) and move
  (`move_problem`): one check each, giving the reason or None.
- `paths`: walking distances around impassable terrain; `route_toward`, `ring_spots`.
- `destinations`: the short list of meaningful places to move to, and typed coordinates.
- `placement`: cells, table edges, spots hidden from watchers (deployment).
- `areas`: deployment areas and fitting a group of bases into one.
- `scenario`: a table as a ruleset option whose value (kept in saves) is the table's data.
- `drawing`: tables drawn as text, one character per inch (tests, quick scenarios).
- `view`: the rich map, markers and legend.
"""

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.table import Piece, Table, TerrainKind

__all__ = ["Piece", "Point", "Table", "TerrainKind"]
