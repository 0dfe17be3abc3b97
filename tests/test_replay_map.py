"""Replay's screen draws the one map, the decision screen's own drawing sized to the rows the
navigation and the turn's lines leave, at 80x24 and 120x45: every piece in the cell of its
true position as it stood at that stop, and a bigger terminal gets a bigger map."""

from __future__ import annotations

from typing import Any

import pytest
from rich.console import Console

from tests.test_map_truth import PLAIN, ROW, check_truth

SIZES = [(80, 24), (120, 45)]


def _reader(path: Any, width: int, height: int) -> Any:
    from wargame_cli import history, registry
    from wargame_cli.cli.replay_pages import names_of, players_of
    from wargame_cli.cli.replay_screen import Book, Reader
    from wargame_cli.saves import store

    data = store.load(path)
    ruleset = registry.get(data["ruleset"]["id"])
    out = Console(width=width, height=height, force_terminal=True)
    book = Book(ruleset, names_of(data), players_of(data), out, max(8, height - 14))
    h = history.load(path, on_turn_end=book.turn_end, observer=book.entry)
    return Reader(book, ruleset.turn_word, h.last, [])


@pytest.mark.parametrize("ruleset_id", ["squad-alpha", "mobs-and-morale"])
def test_replay_draws_the_one_map_truthfully_and_bigger_on_a_bigger_screen(
    wargame, tmp_path, ruleset_id
):
    save = tmp_path / "game.json"
    result = wargame("play", ruleset_id, "--no-input", "--seed", "4", "--save", str(save))
    assert result.returncode == 0, result.stderr
    cells = {}
    for width, height in SIZES:
        reader = _reader(save, width, height)
        drawn = 0
        for at in range(0, len(reader.book.stops), 7):
            reader.at = at
            fit = reader.top(width, height, 1, 9, None)
            assert len(fit.lines) + 1 + fit.list_rows <= height
            plain = [PLAIN.sub("", line) for line in fit.lines]
            if not any(ROW.match(line) for line in plain):
                continue
            facts = reader.stop.facts
            pieces = [(m.label, m.pos, m.down) for m in facts.markers]
            check_truth(fit.lines, pieces, f"{ruleset_id} {width}x{height} stop {at}")
            assert any("key: " in line for line in plain)
            drawn += 1
            cells.setdefault(at, {})[width] = sum(1 for line in plain if ROW.match(line))
        assert drawn >= len(reader.book.stops) // 7 // 2, (width, drawn)
    bigger = [at for at, by in cells.items() if len(by) == 2 and by[120] > by[80]]
    assert len(bigger) >= len(cells) // 2, cells


def test_each_decision_stop_draws_the_position_at_that_decision(wargame, tmp_path):
    """A stop at a decision keeps the map of the table as it stood when that decision was
    asked (not the turn's start, not its end): the same facts the state then gives, with the
    piece the decision names as the map's piece (its key names it first)."""
    import copy

    from wargame_cli import history, registry
    from wargame_cli.cli.replay_pages import names_of, players_of
    from wargame_cli.cli.replay_screen import Book
    from wargame_cli.saves import store

    save = tmp_path / "game.json"
    args = ("--no-input", "--seed", "4", "--option", "max_turns=1", "--save", str(save))
    assert wargame("play", "squad-alpha", *args).returncode == 0
    data = store.load(save)
    ruleset = registry.get(data["ruleset"]["id"])
    book = Book(ruleset, names_of(data), players_of(data), Console(width=80), 10)
    asked: list[Any] = []

    def entry(e: Any, game: Any) -> None:
        if e.get("t") == "choice":
            asked.append(copy.deepcopy(game.state))
        book.entry(e, game)

    history.load(save, on_turn_end=book.turn_end, observer=entry)
    stops = [s for s in book.stops if s.decision]
    assert len(stops) == len(asked) > 20
    moved = 0
    for n, (stop, state) in enumerate(zip(stops, asked, strict=True)):
        then = book.view.map_facts(state, book.names)
        assert [(m.label, m.pos, m.down) for m in stop.facts.markers] == [
            (m.label, m.pos, m.down) for m in then.markers
        ], n
        if (
            n
            and stop.turn == stops[n - 1].turn
            and stop.facts.markers != stops[n - 1].facts.markers
        ):
            moved += 1  # within a turn the stops differ: not the turn's start or end
    assert moved
    named = [s for s in stops if s.facts.origin is not None]  # the piece the decision names
    assert len(named) > len(stops) // 3
    for stop in named:
        entry = book.screen.entries[stop.end - 1]
        assert entry["t"] == "choice" and stop.facts.origin.name in entry["prompt"], entry
