"""The map tells the truth: over seeded bot-against-bot games of every tabletop ruleset, at
80x24, 100x30 and 120x45, the decision screen's map is read back as a person reads it (the
axes give each cell's inches, the legend names who is in a marked cell) and every piece the
state holds is drawn in the cell that holds its true position, once, never elsewhere."""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from typing import Any

import pytest

from tests.view_helpers import setup, watched_game
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.dice import RngDice
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.session import start
from wargame_cli.tabletop.geometry import Point

PLAIN = re.compile(r"\x1b\[[0-9;]*m")
ROW = re.compile(r"^ *([0-9.]+)\|([^|]*)\|(?:  (.*))?$")  # the key may sit beside the cells
SIZES = [(80, 24), (100, 30), (120, 45)]
MAP_FROM = 7  # rows left to the board from which the screen always draws a map


def _squad_alpha(state: Any) -> list[tuple[str, Point, bool]]:
    return [(m.label, m.pos, not m.alive) for m in state.all_minis() if m.pos is not None]


def _ixu(state: Any) -> list[tuple[str, Point, bool]]:
    return [(w.id, w.pos, False) for w in state.standing()]


def _mobs(state: Any) -> list[tuple[str, Point, bool]]:
    from wargame_cli.rulesets.mobs_and_morale.view import map_label

    return [
        (map_label(c), c.pos, False)
        for c in state.creatures.values()
        if c.standing and c.pos is not None
    ]


PIECES: dict[str, Callable[[Any], list[tuple[str, Point, bool]]]] = {
    "squad-alpha": _squad_alpha,
    "battle-of-ixu": _ixu,
    "mobs-and-morale": _mobs,
}


MARK = r"[*@&%=~^$!?][1-9+*]"  # a marked cell: a sign, then how many it holds (`*2`, `@1`)


def read_map(lines: list[str]) -> tuple[dict[tuple[int, int], str], float, float, dict[str, str]]:
    """The drawn map as a person reads it: each cell's two characters by (column, row) with
    row 0 at the bottom, the inches a column and a row stand for, and each mark's legend."""
    plain = [PLAIN.sub("", line) for line in lines]
    rows = [(i, m) for i, line in enumerate(plain) if (m := ROW.match(line))]
    assert len(rows) >= 1, "\n".join(plain)
    labels = [float(m.group(1)) for _, m in rows]
    sy = labels[0] - labels[1] if len(labels) > 1 else None
    axis = plain[rows[-1][0] + 1]
    start = axis.index("+") + 1
    ticks = [(m.start(), float(m.group())) for m in re.finditer(r"[0-9.]+", axis[start:])]
    ticks = [(at, v) for at, v in ticks if at % 2 == 0]
    sx = ticks[1][1] / (ticks[1][0] // 2) if len(ticks) > 1 else None
    if sy is None:
        sy = sx
    if sx is None:
        sx = sy
    cells: dict[tuple[int, int], str] = {}
    bottom = len(rows) - 1
    for n, (_, m) in enumerate(rows):
        body = m.group(2)
        for col in range(len(body) // 2):
            cells[(col, bottom - n)] = body[2 * col : 2 * col + 2]
    legend: dict[str, str] = {}
    beside = [m.group(3) for _, m in rows if m.group(3)]
    tail = "  ".join(beside + plain[rows[-1][0] + 1 :])
    for mark, words in re.findall(rf"({MARK}) ((?:(?!  (?:{MARK}) ).)+)", tail):
        legend[mark] = words
    return cells, round(float(sx), 3), round(float(sy), 3), legend


def _named(words: str) -> set[str]:
    return {part.split()[0] for part in re.split(r" \+ |, ", words) if part.split()}


def check_truth(lines: list[str], pieces: list[tuple[str, Point, bool]], where: str) -> None:
    cells, sx, sy, legend = read_map(lines)
    cols = 1 + max(c for c, _ in cells)
    rows = 1 + max(r for _, r in cells)
    for label, pos, down in pieces:
        glyph = label[:2].lower() if down else label[:2]
        col = min(cols - 1, max(0, math.floor(pos.x / sx + 1e-9)))
        row = min(rows - 1, max(0, math.floor(pos.y / sy + 1e-9)))
        shown = cells[(col, row)]
        if re.fullmatch(MARK, shown):
            assert glyph in _named(legend[shown]), (where, label, pos, shown, legend)
        else:
            assert shown.strip() == glyph, (where, label, pos, shown, "\n".join(lines))
        elsewhere = [cr for cr, text in cells.items() if text.strip() == glyph and cr != (col, row)]
        assert not elsewhere, (where, label, pos, elsewhere)


def play_and_check(ruleset_id: str, seed: int, every: int = 4) -> int:
    screen, runner = watched_game(ruleset_id, seed)
    asked = checked = 0
    while runner.pending is not None and asked < 400:
        pending = runner.pending
        if isinstance(pending, Choice):
            asked += 1
            if asked % every == 0:
                wanted = min(len(pending.options) + 1, 14)
                pieces = PIECES[ruleset_id](screen.state)
                for width, height in SIZES:
                    layout = screen.compose(width, height, 1, wanted, pending, pending.side)
                    assert len(layout.lines) + 1 + layout.list_rows <= height
                    if layout.board != "map":  # results and the question came first
                        assert layout.board == "note" and width == 80, (width, height)
                        assert layout.board_room < MAP_FROM, layout.board_room  # else a map
                        continue
                    check_truth(layout.lines, pieces, f"{ruleset_id} seed {seed} #{asked}")
                    checked += 1
            screen.mark(pending.side)
        runner.step()
    return checked


@pytest.mark.parametrize("ruleset_id", sorted(PIECES))
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_piece_is_drawn_where_it_stands(ruleset_id, seed):
    assert play_and_check(ruleset_id, seed) >= 6


def test_a_shared_cell_is_marked_and_names_both():
    """Two bases in one cell: a mark, and the legend names both (neither is pushed away)."""
    from wargame_cli.tabletop.grid import cut
    from wargame_cli.tabletop.mapfacts import MapFacts, Marker
    from wargame_cli.tabletop.table import Table
    from wargame_cli.ui.map import draw
    from wargame_cli.ui.screen import Renderer

    facts = MapFacts(
        Table(12, 12),
        (
            Marker("A1", Point(4.2, 4.3), "A", "one"),
            Marker("B1", Point(4.8, 4.6), "B", "two"),
            Marker("A2", Point(9.5, 9.5), "A", "three", down=True),
            Marker("B2", Point(1.5, 9.5), "B", "four", down=True),
        ),
    )
    lines = Renderer().lines(draw(cut(facts, 1, 1), 80).text(), 80)
    pieces = [(m.label, m.pos, m.down) for m in facts.markers]
    check_truth(lines, pieces, "shared")
    cells, *_ = read_map(lines)
    assert cells[(4, 4)] == "*2"  # two pieces: the cell says how many
    assert cells[(9, 9)] == "a2" and cells[(1, 9)] == "b2"  # casualties keep their side


def _tables(ruleset_id: str, seed: int, decisions: int = 0) -> Any:
    """The map facts of a seeded bot game at its decision number `decisions` (from 0)."""
    ruleset, options, game_setup = setup(ruleset_id)
    bots = {side: BotController() for side in "AB"}
    session = start(ruleset, game_setup, options, seed, RngDice(seed), bots, None)
    runner = session.runner
    while not isinstance(runner.pending, Choice) or decisions > 0:
        decisions -= isinstance(runner.pending, Choice)
        runner.step()
    return ruleset.view().map_facts(runner.game.state, dict(game_setup.names))


@pytest.mark.parametrize("ruleset_id", ["squad-alpha", "mobs-and-morale"])  # Ixu: no terrain
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_terrain_vanishes_at_a_coarser_scale(ruleset_id, seed):
    """Every terrain piece the finest map draws is drawn, as its own kind, at every coarser
    scale the screen may pick (blocking never hidden by the ground around it), in a cell it
    covers; and the maps the screen draws at 80x24, 100x30 and 120x45 name it in their key."""
    from wargame_cli.tabletop.grid import cut
    from wargame_cli.ui.map import SCALES, fitted, key_items

    facts = _tables(ruleset_id, seed)
    table = facts.table
    finest = cut(facts, 0.5, 0.5)

    def drawn(grid: Any, piece: Any) -> bool:
        r = piece.rect
        return any(
            grid.grounds[row][col] == piece.kind.value
            and min(r.x1, (col + 1) * grid.sx) - max(r.x0, col * grid.sx) > 1e-6
            and min(r.y1, (row + 1) * grid.sy) - max(r.y0, row * grid.sy) > 1e-6
            for row in range(grid.rows)
            for col in range(grid.cols)
        )

    shown = [p for p in table.pieces if drawn(finest, p)]
    assert shown
    for sy in SCALES:
        if table.height / sy < 3 - 1e-9:
            break
        for sx in {s for s in SCALES if sy / 4 <= s <= max(1.0, sy / 2)}:  # as `fitted`
            grid = cut(facts, sx, sy)
            missing = [p.name for p in shown if not drawn(grid, p)]
            assert not missing, (sx, sy, missing)
    for width, height in SIZES:
        for rows in (6, 9, height - 6):
            grid = fitted(facts, width, rows).grid
            kinds = {g for line in grid.grounds for g in line}
            words = "  ".join(key_items(grid))
            assert {p.kind.value for p in shown} <= kinds, (width, rows)
            for kind, said in (("blocking", "blocking"), ("hard", "hard cover"), ("soft", "soft")):
                glyph = {"blocking": "##", "hard": "++", "soft": ".."}[kind]
                said = f"{glyph} {facts.ground_word(kind, said)}"  # the ruleset's own words
                assert (kind in kinds) == (said in words), (width, rows, kind, words)
    if ruleset_id == "mobs-and-morale":  # no cover in its rules: the key never says cover
        assert "cover" not in "  ".join(key_items(fitted(facts, 120, 40).grid))


def test_the_key_says_which_label_is_which_piece_as_far_as_room_allows():
    """With room, every piece is named by its label (`A1 Sgt Rook`); with less, whole names
    only, those the question and results name first; never a name cut in two."""
    from wargame_cli.ui.map import fitted, who_items

    facts = _tables("squad-alpha", 3, 30)
    placed = [m for m in facts.markers]
    assert placed
    roomy = "  ".join(PLAIN.sub("", line) for line in fitted(facts, 120, 45).ansi(120, None))
    for m in placed:
        assert f"{m.label} {m.name}" in roomy, (m.label, m.name)
    last = placed[-1]
    for rows in range(8, 40):
        drawing = fitted(facts, 80, rows, first=[last.name])
        lines = [PLAIN.sub("", line) for line in drawing.ansi(80, None)]
        assert len(lines) <= rows
        said = "  ".join(line.split("|")[-1] for line in lines)
        legend = said[said.find("who: ") :]
        named = re.findall(r"\b([AB][0-9]) ((?:(?!  )(?!\+\d+ more).)+)", legend)
        named = [(label, name.strip()) for label, name in named]
        if named:
            assert named[0] == (last.label, last.name)  # the one named first comes first
        whole = {(m.label, m.name) for m in placed}
        assert all(pair in whole for pair in named), named
        more = re.search(r"\+(\d+) more \(Look…\)", legend)
        items = len(who_items(facts))
        shown = len(re.findall(r"\b[ABab][0-9] ", legend))
        if "who: " in said:  # never a piece dropped silently: the legend says how many
            assert shown + (int(more.group(1)) if more else 0) == items, legend


def test_the_key_names_pieces_in_the_order_they_were_mentioned():
    """The question's piece before the pieces of the latest results (`first` in its order),
    then the rest: at 80x24 the one the question is about is the one whose name fits."""
    from wargame_cli.ui.map import who_items

    facts = _tables("squad-alpha", 3, 30)
    placed = [m for m in facts.markers if m.name]
    late, early = placed[-1], placed[0]
    items = who_items(facts, first=[late.name, early.name])
    assert items[0].startswith(f"{late.label} {late.name}")
    assert items[1].startswith(f"{early.label} {early.name}")
    items = who_items(facts, first=[early.name, late.name])
    assert items[:2] == [f"{early.label} {early.name}", f"{late.label} {late.name}"]


def test_the_x_axis_labels_are_evenly_spaced_on_whole_inches_where_they_can_be():
    """Column labels every same number of cells, never touching (2.4" cells: 0 12 24, not
    0 4.8 12 16.8), and read off the map they say the inches of the cell under them."""
    from wargame_cli.ui.map import fitted, label_step

    for sx, cols in ((0.5, 72), (1.0, 36), (1.2, 30), (2.0, 18), (2.4, 15), (3.0, 12)):
        step = label_step(sx, cols)
        labels = [f"{c * sx:g}" for c in range(0, cols, step)]
        assert all(len(label) + 1 <= 2 * step for label in labels), (sx, labels)
        assert all(float(label).is_integer() for label in labels), (sx, labels)
    facts = _tables("mobs-and-morale", 5, 8)
    for rows in (3, 6, 12, 24):
        grid = fitted(facts, 80, rows).grid
        drawn = [PLAIN.sub("", line) for line in fitted(facts, 80, rows).ansi(80, None)]
        ruler = next(line for line in drawn if line.lstrip().startswith("+"))
        at = [(m.start(), float(m.group())) for m in re.finditer(r"\d+(\.\d+)?", ruler)]
        gaps = {b[0] - a[0] for a, b in zip(at, at[1:], strict=False)}
        assert len(gaps) <= 1, (rows, ruler)  # evenly spaced
        for column, inches in at:
            assert inches == pytest.approx((column - ruler.index("+") - 1) / 2 * grid.sx)
