"""The shared tabletop: a table measured in inches, terrain, bases, movement and line of sight.

Squad Alpha, the Battle of Ixu and Mobs and Morale stand on it; none of them has geometry of
its own. Pure: no rendering here (see `view.py`).
"""

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.table import Piece, Table, TerrainKind

__all__ = ["Piece", "Point", "Table", "TerrainKind"]
