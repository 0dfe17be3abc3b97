"""The map cursor in-process: cells allowed by the question's one predicate, counts and fast
moves, Tab through the targets with the line of fire, Enter answering as typing would."""

from __future__ import annotations

from wargame_cli.engine.requests import Choice, Option
from wargame_cli.tabletop.geometry import Point, Rect
from wargame_cli.tabletop.mapfacts import MapFacts, Marker
from wargame_cli.tabletop.table import Piece, Table, TerrainKind
from wargame_cli.ui.cursor import MapCursor
from wargame_cli.ui.pointing import can_point

TABLE = Table(12, 12, (Piece("wall", TerrainKind.BLOCKING, Rect(5, 0, 6, 4)),))
ROOK = Marker("A1", Point(2.5, 2.5), "A", "Rook")
VEX = Marker("B1", Point(9.5, 9.5), "B", "Vex")
FACTS = MapFacts(TABLE, (ROOK, VEX), "test", origin=ROOK, targets=(("shoot:B1", VEX.pos),))


def near(text: str) -> str | None:
    p = Point.parse(text)
    return None if p.distance(ROOK.pos) <= 4 else f"{p.key()} is too far"


def cursor(choice: Choice) -> MapCursor:
    return MapCursor(choice, FACTS, (80, 30))


def test_the_allowed_cells_are_those_the_question_allows_and_enter_picks_the_spot():
    choice = Choice("A", "where?", (Option("2.5,2.5", "stay"),), "2.5,2.5", (), "move", "x,y", near)
    assert can_point(FACTS, choice)
    c = cursor(choice)
    p = c.pointing
    assert (p.col, p.row) == (2, 2)  # the suggestion's cell
    assert p.allowed(3, 3) and not p.allowed(9, 9)
    c.step(1, 0)
    assert c.pick() == "3.5,2.5"  # the cell's centre, as it would be typed
    assert 'nearest enemy B1, 9.2" edge to edge' in p.facts_lines()[0]
    p.count = "5"
    c.step(1, 0)  # a count: five cells
    assert (p.col, p.row) == (8, 2)
    assert c.pick() is None and p.note.startswith("not allowed: 8.5,2.5 is too far")
    assert "not allowed" in p.facts_lines()[1]


def test_tab_aims_at_a_target_with_the_line_of_fire_and_enter_picks_its_option():
    options = (Option("move", "Move"), Option("shoot:B1", "Shoot Vex (kills 42%)"))
    choice = Choice("A", "move or shoot?", options, "move", (), "action")
    c = cursor(choice)
    p = c.pointing
    assert c.pick() is None  # no target in this cell
    ansi = c.tab()
    assert (p.col, p.row) == (9, 9) and p.aimed() == ("shoot:B1", VEX.pos)
    assert {(4, 4), (6, 6)} <= p.line_cells()
    assert "--" in ansi  # the line of fire written
    assert p.facts_lines()[1] == "target: Shoot Vex (kills 42%)"
    assert 'cursor at (9.5,9.5), 9.9" from A1 Rook' in p.facts_lines()[0]
    assert "in base contact with B1" in p.facts_lines()[0]
    assert c.pick() == "shoot:B1"


def test_the_rules_are_asked_once_a_cell_per_question_even_when_opened_again():
    asked: list[str] = []

    def judge(text: str) -> str | None:
        asked.append(text)
        return near(text)

    choice = Choice(
        "A", "where?", (Option("2.5,2.5", "stay"),), "2.5,2.5", (), "move", "x,y", judge
    )
    cursor(choice)
    first = len(asked)
    assert first == len(set(asked)) >= 12 * 12 - 4  # each cell once (blocking ones need not be)
    cursor(choice)  # Esc, then p again at the same question
    assert len(asked) == first


def test_a_target_suggested_opens_the_cursor_on_it_with_the_line_of_fire_drawn():
    options = (Option("move", "Move"), Option("shoot:B1", "Shoot Vex (kills 42%)"))
    c = cursor(Choice("A", "move or shoot?", options, "shoot:B1", (), "action"))
    assert (c.pointing.col, c.pointing.row) == (9, 9)
    assert c.screen().count("--") >= 4  # the line of fire, written with the map


def test_the_facts_under_the_map_wrap_at_words_and_the_keys_fit_80_columns():
    """At 80 columns a facts line never breaks inside a word (`7"` then `" from your edge`),
    a cut shows as an ellipsis after a whole word, and the keys line fits whole."""
    from wargame_cli.ui.cursor import foot_rows, keys_help

    text = (
        "allowed: 3.5,7: in Crates (hard cover), out of sight of 91% of the enemy half, "
        '7" from your edge'
    )
    rows = foot_rows(text, 79)
    assert len(rows) == 2 and all(len(r) <= 79 for r in rows)
    assert " ".join(rows) == text
    long = " ".join(["word"] * 60)
    cut = foot_rows(long, 79)
    assert len(cut) == 2 and cut[-1].endswith("word…") and len(cut[-1]) <= 79
    for targets in (False, True):
        keys = keys_help(targets, 79)
        assert len(keys) <= 79 and "Enter: pick" in keys and "Esc: back" in keys
        assert ("Tab" in keys) == targets
    assert "Shift+arrow" in keys_help(False, 139)


def _whole_inch_move(text: str) -> str | None:
    """Battle of Ixu's way: a warrior at 10,5 with a 1" move stands on whole inches."""
    p = Point.parse(text)
    if p.x != int(p.x) or p.y != int(p.y):
        return f"{p.key()}: warriors stand on whole inches"
    return None if p.distance(Point(10, 5)) <= 1 else f'{p.key()} is more than 1" away'


def test_a_1_inch_move_on_whole_inches_can_be_pointed_at_from_its_suggested_spot():
    """Cell centres (x.5) are all refused here: the cursor starts on the suggested spot
    itself, the menu's spots are each reachable, and a cell whose centre is refused stands
    for the whole-inch spot in it the rules allow."""
    warrior = Marker("A1", Point(10, 5), "A", "Tutok")
    facts = MapFacts(Table(24, 24), (warrior,), "test", origin=warrior)
    spots = ("10,6", "11,5", "10,4", "9,5")
    options = tuple(Option(key, f"to {key}") for key in spots)
    choice = Choice("A", "where?", options, "10,6", (), "move", "x,y", _whole_inch_move)
    for size in ((80, 24), (120, 45)):
        c = MapCursor(choice, facts, size)
        p = c.pointing
        assert p.spot().key() == "10,6" and p.allowed(p.col, p.row)  # starts on it, allowed
        assert c.pick() == "10,6"
        reached = {p.spot(col, row).key() for col, row in p.anchors()}
        assert set(spots) <= reached  # every spot the menu offers, each in a cell
        allowed = {
            p.spot(col, row).key()
            for col in range(p.grid.cols)
            for row in range(p.grid.rows)
            if p.allowed(col, row)
        }
        assert allowed and all(_whole_inch_move(key) is None for key in allowed)
        if p.grid.sx == p.grid.sy == 1:  # cells of 1": every legal spot has its cell
            legal = {f"{x},{y}" for x in range(24) for y in range(24)}
            assert {k for k in legal if _whole_inch_move(k) is None} <= allowed


def test_space_reaches_every_spot_in_a_coarse_cell_the_menu_or_typing_accepts():
    """Two menu spots in one cursor cell, and a 1" move on whole inches in cells of more
    than an inch: Space goes through the spots in the cursor's cell the question accepts,
    so every one of them can be pointed at and picked."""
    warrior = Marker("A1", Point(10, 5), "A", "Tutok")
    facts = MapFacts(Table(24, 24), (warrior,), "test", origin=warrior)
    legal = {
        f"{x},{y}" for x in range(24) for y in range(24) if _whole_inch_move(f"{x},{y}") is None
    }
    spots = ("10,6", "11,5", "10,4", "9,5")
    options = tuple(Option(key, f"to {key}") for key in spots)
    choice = Choice("A", "where?", options, "10,6", (), "move", "x,y", _whole_inch_move)
    c = MapCursor(choice, facts, (80, 20))
    p = c.pointing
    assert p.grid.sx * p.grid.sy > 1  # coarse: some cells hold two or more legal spots
    shared = [cell for cell in {p.grid.cell_of(Point.parse(k)) for k in legal}
              if sum(p.grid.cell_of(Point.parse(k)) == cell for k in legal) > 1]  # fmt: skip
    assert shared
    picked = set()
    for col, row in {p.grid.cell_of(Point.parse(k)) for k in legal}:
        p.col, p.row = col, row
        for _ in range(6):  # Space, then Enter picks the spot it shows
            c.space()
            key = c.pick()
            assert key is not None and _whole_inch_move(key) is None, p.note
            picked.add(key)
            assert key in p.facts_lines()[0]  # the facts line says where
    assert picked == legal
    assert "Space: the next" in p.facts_lines()[1]
    from wargame_cli.ui.cursor import keys_help

    assert "Space" in keys_help(False, 79, spots=True)  # the keys line names it
