"""The battlefield of spaces (d8, d9, d11): a grid of rows and columns, each side's Reserve row
at its rear edge, its battle lines in front of it, optional neutral rows between.

Pure geometry: which spaces exist, their names, neighbours and the way to each side's rear.
Row 0 is side A's Reserve, the last row side B's.
"""

from __future__ import annotations

import string
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache, lru_cache

Space = tuple[int, int]  # (row, column)


@dataclass(frozen=True, slots=True)
class Board:
    columns: int
    lines: int  # battle lines per side
    neutral: int = 0  # rows between the two sides' battle lines

    @property
    def rows(self) -> int:
        return 2 + 2 * self.lines + self.neutral

    def reserve_row(self, side: str) -> int:
        return 0 if side == "A" else self.rows - 1

    def rear_step(self, side: str) -> int:
        """The row offset of one space towards `side`'s Reserve."""
        return -1 if side == "A" else 1

    def home_rows(self, side: str) -> tuple[int, ...]:
        """Rows a side may deploy into: its Reserve and its battle lines, rear first."""
        rows = (
            range(0, 1 + self.lines)
            if side == "A"
            else range(self.rows - 1, self.rows - 2 - self.lines, -1)
        )
        return tuple(rows)

    def front_row(self, side: str) -> int:
        return self.home_rows(side)[-1]

    def in_reserve(self, side: str, space: Space) -> bool:
        return space[0] == self.reserve_row(side)

    def contains(self, space: Space) -> bool:
        return 0 <= space[0] < self.rows and 0 <= space[1] < self.columns

    def spaces(self) -> Iterator[Space]:
        for row in range(self.rows):
            for col in range(self.columns):
                yield (row, col)

    def neighbours(self, space: Space) -> tuple[Space, ...]:
        """Orthogonally adjacent spaces (d11): the only ones a step or a shot reaches."""
        return self.neighbour_table()[space]

    def neighbour_table(self) -> dict[Space, tuple[Space, ...]]:
        """`neighbours` of every space, worked out once per board size (searches step
        through it)."""
        return _neighbour_table(self.rows, self.columns)

    def adjacent(self, a: Space, b: Space) -> bool:
        return abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1

    def behind(self, side: str, space: Space) -> Space | None:
        """The space one step towards `side`'s Reserve, or None at the rear edge."""
        back = (space[0] + self.rear_step(side), space[1])
        return back if self.contains(back) else None

    # -- names ----------------------------------------------------------------------------
    def key(self, space: Space) -> str:
        """`b2`: column letter, row number counted from side A's Reserve (row 1)."""
        return f"{string.ascii_lowercase[space[1]]}{space[0] + 1}"

    def parse(self, text: str) -> Space | None:
        """The space `text` names (`key`'s form, any case, blanks around it), or None."""
        space = _parse(text)
        return space if space is not None and self.contains(space) else None

    def row_label(self, row: int) -> str:
        """`A Reserve`, `A Line 1` (front line is 1), `No man's land`, `B Line 1`, `B Reserve`."""
        last = self.rows - 1
        if row == 0:
            return "A Reserve"
        if row == last:
            return "B Reserve"
        if row <= self.lines:
            return f"A Line {self.lines - row + 1}"
        if row >= last - self.lines:
            return f"B Line {row - (last - self.lines) + 1}"
        return "No man's land"

    def distance(self, a: Space, b: Space) -> int:
        return abs(a[0] - b[0]) + abs(a[1] - b[1])


@cache
def _neighbour_table(rows: int, columns: int) -> dict[Space, tuple[Space, ...]]:
    table = {}
    for row in range(rows):
        for col in range(columns):
            near = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
            table[(row, col)] = tuple((r, c) for r, c in near if 0 <= r < rows and 0 <= c < columns)
    return table


@lru_cache(maxsize=4096)  # the rules and the checks parse every move's answer: once per text
def _parse(text: str) -> Space | None:
    """The (row, column) `text` names on a board big enough, or None."""
    text = text.strip().lower()
    digits = text[1:]
    if len(text) < 2 or text[0] not in string.ascii_lowercase:
        return None
    if not (digits.isascii() and digits.isdigit()):  # "c٤": not a space of this board
        return None
    return int(digits) - 1, string.ascii_lowercase.index(text[0])
