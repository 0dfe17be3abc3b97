"""Tables as data: TOML files, the `table` option stored in saves, drawings, and the map view."""

from __future__ import annotations

import json

import pytest
from rich.console import Console

from wargame_cli.errors import OptionError
from wargame_cli.tabletop.drawing import from_drawing
from wargame_cli.tabletop.geometry import Point, Rect
from wargame_cli.tabletop.scenario import TableData, TableOption, load_options_with_tables
from wargame_cli.tabletop.table import Table, TerrainKind
from wargame_cli.tabletop.view import Marker, board, table_map

TOML = """
name = "Yard"
width = 12
height = 10

[[terrain]]
name = "Shed"
kind = "blocking"
x = 4
y = 4
w = 2
h = 2

[[terrain]]
name = "Hedge"
kind = "soft"
x = 0
y = 8
w = 12
h = 1
"""


def test_a_table_file_loads_and_round_trips(tmp_path):
    path = tmp_path / "yard.toml"
    path.write_text(TOML)
    table = Table.load(path)
    assert (table.name, table.width, table.height) == ("Yard", 12, 10)
    assert [p.name for p in table.pieces] == ["Shed", "Hedge"]
    assert table.pieces[0].rect == Rect(4, 4, 6, 6)
    assert Table.from_data(json.loads(json.dumps(table.to_data()))) == table
    assert hash(Table.from_data(table.to_data())) == hash(table)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"width": 3, "height": 10}, "6-120"),
        ({"height": 10}, "numeric width"),
        (
            {
                "width": 12,
                "height": 10,
                "terrain": [{"kind": "lava", "x": 1, "y": 1, "w": 1, "h": 1}],
            },
            "terrain piece",
        ),
        (
            {
                "width": 12,
                "height": 10,
                "terrain": [{"kind": "hard", "x": 1, "y": 1, "w": 0, "h": 1}],
            },
            "no area",
        ),
        (
            {
                "width": 12,
                "height": 10,
                "terrain": [{"kind": "hard", "x": 20, "y": 1, "w": 2, "h": 1}],
            },
            "off the table",
        ),
        ({"width": 12, "height": 10, "terrain": {"kind": "hard"}}, "list of pieces"),
    ],
)
def test_bad_tables_are_refused_with_the_reason(data, message):
    with pytest.raises(OptionError, match=message):
        Table.from_data(data)


def test_the_table_option_stores_the_data_not_the_path(tmp_path):
    path = tmp_path / "yard.toml"
    path.write_text(TOML)
    default = Table(24, 24, (), "Open").to_data()
    spec = TableOption("table", TableData(default), "the table")
    value = spec.parse(str(path))
    assert isinstance(value, dict) and value["name"] == "Yard"
    assert json.loads(json.dumps(value)) == value  # a save holds it as plain JSON
    path.unlink()
    assert spec.check(json.loads(json.dumps(value))) == value  # replays without the file
    assert spec.parse("default") == default
    assert str(spec.default) == 'Open (24"x24", 0 terrain pieces)'
    with pytest.raises(OptionError, match="not found"):
        spec.parse(str(tmp_path / "missing.toml"))
    with pytest.raises(OptionError):
        spec.check(42)


def test_a_table_option_is_declared_in_options_toml(tmp_path):
    (tmp_path / "yard.toml").write_text(TOML)
    (tmp_path / "options.toml").write_text(
        '[table]\nkind = "table"\ndefault = "yard.toml"\ndoc = "the table"\nrule = "b5"\n\n'
        '[turns]\ndefault = 3\ndoc = "turns"\nminimum = 1\n'
    )
    table, turns = load_options_with_tables(tmp_path / "options.toml")
    assert isinstance(table, TableOption) and (table.doc, table.rule) == ("the table", "b5")
    assert table.default["name"] == "Yard" and str(table.default).startswith('Yard (12"x10"')
    assert not isinstance(turns, TableOption) and turns.default == 3
    (tmp_path / "options.toml").write_text('[table]\nkind = "table"\ndefault = "gone.toml"\n')
    with pytest.raises(OptionError, match="gone.toml"):
        load_options_with_tables(tmp_path / "options.toml")


def test_a_broken_table_file_is_refused(tmp_path):
    path = tmp_path / "bad.toml"
    path.write_text("width = [")
    spec = TableOption("table", TableData(Table(24, 24).to_data()), "the table")
    with pytest.raises(OptionError, match="bad.toml"):
        spec.parse(str(path))


def test_drawings_merge_cells_into_pieces():
    table, at = from_drawing(
        """
        ##....
        ##.+A+
        ~~~...
        """
    )
    assert (table.width, table.height) == (6, 3)
    kinds = {p.name: (p.kind, p.rect) for p in table.pieces}
    assert kinds["block 1"] == (TerrainKind.BLOCKING, Rect(0, 1, 2, 3))
    assert kinds["hard 1"] == (TerrainKind.HARD, Rect(3, 1, 6, 2))  # A stands in it
    assert kinds["soft 1"] == (TerrainKind.SOFT, Rect(0, 0, 3, 1))
    assert at == {"A": Point(4.5, 1.5)}
    with pytest.raises(ValueError, match="twice"):
        from_drawing("A..A")


def render(renderable) -> str:
    console = Console(width=120, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def test_the_map_shows_terrain_labels_and_a_legend():
    table, at = from_drawing(
        """
        ......
        .#+~..
        ......
        """
    )
    markers = [
        Marker("A1", at.get("x", Point(0.5, 0.5)), "A", "Rook"),
        Marker("B1", Point(5.5, 2.5), "B", "Vex", down=True),
    ]
    text = render(board(table, markers, "Test"))
    assert "a#" in text and "b+" in text and "c." in text  # each piece tagged with its letter
    assert "A1" in text and "b1" in text  # a casualty: its own label in small letters
    assert "b1  Vex (5.5,2.5)" in text
    assert "Rook (0.5,0.5)" in text and "cover from fire (hard): b hard 1" in text
    assert "blocking (no sight, no entry): a block 1" in text
    assert "cover from view (soft): c soft 1" in text


def test_a_piece_letter_moves_aside_for_a_miniature():
    table, _ = from_drawing("++++\n++++")
    first = render(table_map(table, [Marker("A1", Point(0.5, 1.5), "A", "Rook")]))
    assert "A1a+" in first


def test_two_bases_in_one_cell_are_marked_and_both_named():
    markers = [Marker("A1", Point(3.05, 3.05), "A", "a"), Marker("B1", Point(3.75, 3.75), "B", "b")]
    text = render(table_map(Table(8, 8), markers))
    assert "*2" in text  # the shared cell says how many it holds, in the map
    assert "*2 A1 3,3 + B1" in text and "3.8,3.8" in text  # and who is there, under it
