"""Readable without colour and at 80 columns (issue 10, item 4; issue 12, items 12 and 13): the
sides told apart by glyph, a piece in terrain keeping its side colour, bases sharing a cell in
their true order, the dead off the map, Tug's track and captions."""

from __future__ import annotations

import re
from typing import Any

import pytest
from rich.console import Console
from wargame_cli.rulesets.battle_of_ixu import view as ixu_view
from wargame_cli.rulesets.mobs_and_morale import view as mobs_view
from wargame_cli.rulesets.seeds_of_wars import view as seeds_view
from wargame_cli.rulesets.tug_of_wargods import view as tug_view

from tests.test_tug_rules import game as tug_game
from tests.test_tug_rules import play_turns
from tests.view_helpers import IDS, Watching, at_decisions, at_events, setup, text_of
from wargame_cli import registry
from wargame_cli.tabletop.drawing import from_drawing
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.view import Marker, table_map
from wargame_cli.text import SIDE_STYLE

# --- the sides told apart without colour ---------------------------------------------------


def _at_a_decision(ruleset_id: str, render: Any, nth: int = 25) -> Any:
    """`render(hooks, state, names)` at the `nth` decision of a bot game, while it waits."""
    hooks = registry.get(ruleset_id).view()
    shown = at_decisions(
        ruleset_id,
        lambda state, choice, names: render(hooks, state, names),
        limit=nth,
    )
    return shown[-1]


MAP_LABEL = {
    "squad-alpha": (r"\bA\d\b", r"\bB\d\b"),
    "battle-of-ixu": (r"A\d", r"B\d"),
    "seeds-of-wars": (r"A\d", r"B\d"),
}


@pytest.mark.parametrize("ruleset_id", ["squad-alpha", "battle-of-ixu", "seeds-of-wars"])
@pytest.mark.parametrize("compact", [False, True])
def test_without_colour_every_map_marks_each_piece_with_its_side_letter(ruleset_id, compact):
    text = _at_a_decision(
        ruleset_id,
        lambda hooks, state, names: "\n".join(
            text_of((hooks.compact_board if compact else hooks.board)(state, names), 80)
        ),
    )
    a, b = MAP_LABEL[ruleset_id]
    assert re.search(a, text) and re.search(b, text), text


def test_without_colour_mobs_and_morale_draws_side_a_in_capitals_and_side_b_in_small_letters():
    def check(hooks: Any, state: Any, names: dict[str, str]) -> bool:
        text = "\n".join(text_of(hooks.board(state, names), 120))
        assert "On the map: CAPITALS The Lantern Company, small letters The Grey Hill" in text
        for c in state.standing():
            label = mobs_view.map_label(c)
            assert label == (label.upper() if c.side == "A" else label.lower())
            assert label in text
        labels_a = {mobs_view.map_label(c) for c in state.standing("A")}
        labels_b = {mobs_view.map_label(c) for c in state.standing("B")}
        assert not labels_a & labels_b
        return True

    assert _at_a_decision("mobs-and-morale", check)


def test_tug_track_without_colour_names_each_models_side_even_across_the_line():
    g = tug_game()
    play_turns(g, [6, 6, 6, 1, 1, 1], 1)  # 18 vs 3: B pulled 7.5", two of B's models across
    line = text_of(tug_view.Track(g.state), 80)[1]
    assert line.index("B1") < line.index("|")  # B's front model is drawn on A's side
    assert line.index("A1") < line.index("|")
    start = tug_game()
    first = text_of(tug_view.Track(start.state), 80)[1]
    assert first.index("B1") > first.index("|")
    assert first != line


@pytest.mark.parametrize("ruleset_id", IDS)
def test_no_color_play_output_tells_the_sides_apart(wargame, ruleset_id):
    """Through the real entry point with NO_COLOR set (the fixture sets it) at 80 columns."""
    result = wargame(
        "play",
        ruleset_id,
        "--no-input",
        "--seed",
        "5",
        "--no-save",
        "--turns",
        "1",
        env={"COLUMNS": "80"},
    )
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "\x1b[" not in out
    if ruleset_id == "mobs-and-morale":
        assert "On the map: CAPITALS" in out
    elif ruleset_id == "tug-of-wargods":
        assert re.search(r"-A3A2A1-+\|-+B1B2B3-", out), out
    else:
        assert re.search(r"A\d", out) and re.search(r"B\d", out)
    assert all(len(line) <= 80 for line in out.splitlines())
    assert "…" not in out  # nothing cut


# --- the terrain colour bug --------------------------------------------------------------


def _styles(renderable: Any, text: str) -> list[Any]:
    console = Console(width=120, color_system="truecolor")
    return [s.style for s in console.render(renderable) if s.text == text]


def test_a_piece_in_terrain_keeps_its_side_colour_on_the_terrain_background():
    table, at = from_drawing(
        """
        ........
        .+1+.~2~
        ........
        """
    )
    markers = [Marker("A1", at["1"], "A", "Ann"), Marker("B2", at["2"], "B", "Bob")]
    shown = table_map(table, markers)
    (a_style,) = _styles(shown, "A1")
    (b_style,) = _styles(shown, "B2")
    assert a_style.color.name == "cyan" and a_style.bold
    assert a_style.bgcolor is not None and a_style.bgcolor.name == "grey19"  # hard cover
    assert b_style.color.name == "red"
    assert b_style.bgcolor is not None and b_style.bgcolor.name == "grey11"  # soft cover
    assert SIDE_STYLE["A"] == "bold cyan"


# --- bases sharing a cell, contact, the dead ---------------------------------------------


@pytest.mark.parametrize(
    "first, second",
    [((5.2, 5.5), (5.8, 5.5)), ((5.5, 5.2), (5.5, 5.8)), ((5.1, 5.1), (6.9, 6.9))],
)
def test_bases_are_drawn_in_the_cells_of_their_true_positions(first, second):
    """Never pushed into a neighbouring cell: one cell, a mark; two cells, each its own."""
    from wargame_cli.tabletop.grid import cut
    from wargame_cli.tabletop.mapfacts import MapFacts
    from wargame_cli.tabletop.table import Table

    a = Marker("A1", Point(*first), "A", "Ann")
    b = Marker("B1", Point(*second), "B", "Bob")
    for order in ((a, b), (b, a)):
        grid = cut(MapFacts(Table(12, 12), order), 1, 1)
        cells = {grid.cell_of(m.pos) for m in order}
        if len(cells) == 1:
            [(col, row)] = cells
            assert grid.glyphs[row][col] == "*2"  # two pieces: the cell says how many
            assert {m.label for m in grid.conflicts[0].who} == {"A1", "B1"}
        else:
            for m in order:
                col, row = grid.cell_of(m.pos)
                assert grid.glyphs[row][col] == m.label


def test_ixu_marks_base_contact_on_the_map_and_in_the_legend():
    def seen(state, choice, names):
        engaged = [w for w in state.standing() if state.engaged(w)]
        if not engaged:
            return None

        w = engaged[0]
        foe = state.engaged(w)[0]
        underlined = [
            s.text
            for s in Console(width=120).render(ixu_view.board(state))
            if s.style is not None and s.style.underline
        ]
        return (
            w.id,
            foe.id,
            "\n".join(text_of(ixu_view.board(state), 120)),
            underlined,
            "\n".join(text_of(ixu_view.compact_board(state), 80)),
        )

    found = [s for s in at_decisions("battle-of-ixu", seen, options={"max_turns": 4}) if s]
    assert found
    w, foe, text, underlined, compact = found[0]
    assert re.search(rf"{w} .*contact: .*{foe}", text), text
    for piece in (w, foe):  # underlined, or in a shared cell whose mark names it
        assert piece in underlined or re.search(rf"[*@&%=~^$!?][1-9+] .*{piece} ", text), text
    assert "underlined: in base contact" in compact


def test_mobs_and_morale_takes_the_dead_and_fled_off_the_map():
    def seen(entry, state, names):
        gone = [c for c in state.creatures.values() if c.status != "standing"]
        if entry["t"] != "event" or not gone:
            return None
        return (
            gone,
            [m.name for m in mobs_view.markers(state)],
            text_of(mobs_view.table_map(state.table, mobs_view.markers(state)), 120),
        )

    found = [s for s in at_events("mobs-and-morale", seen, seed=4) if s]
    assert found
    gone, names, lines = found[-1]
    for c in gone:
        assert c.id not in names
    assert any(c.label and mobs_view.map_label(c) not in "\n".join(lines) for c in gone)


def test_squad_alpha_board_at_an_activation_marks_the_acting_miniature_acting_not_acted():
    """The board drawn as a person's miniature activates (after "which miniature acts
    next?") shows it acting, not as having acted already."""
    from wargame_cli.rulesets.squad_alpha import view as squad_view

    from tests.test_squad_alpha_view import NAMES, Person, boards_in
    from wargame_cli.engine.bots import BotController
    from wargame_cli.engine.session import start

    ruleset, opts, game_setup = setup("squad-alpha", {"max_turns": 2})
    rows: list[str] = []
    watching = Watching(squad_view.VIEW, {"A": "human", "B": "bot"})

    def observe(entry: dict, game: Any) -> None:
        shown = watching(entry, game.state, NAMES)
        if entry["t"] == "event" and entry.get("kind") == "activate" and boards_in(shown):
            name = game.state.mini(entry["data"]["id"]).name
            lines = text_of(shown, 80)
            rows.extend(line for line in lines if f" {name} " in line and "rating" not in line)

    controllers = {"A": Person(), "B": BotController()}
    start(ruleset, game_setup, opts, 11, controllers=controllers, observer=observe).runner.run()
    assert rows
    for row in rows:
        assert "acting now" in row and "acted" not in row, row


# --- Seeds of Wars: Ht taken, step headings ------------------------------------------------


def test_seeds_of_wars_board_says_ht_taken():
    def seen(state: Any, choice: Any, names: dict[str, str]) -> Any:
        hit = [u for u in state.fighting() if u.taken]
        if not hit:
            return None
        shown = f"Ht taken {hit[0].taken}/{hit[0].kind.ht}"
        return shown, "\n".join(text_of(seeds_view.grid(state), 120))

    found = [s for s in at_decisions("seeds-of-wars", seen, options={"max_rounds": 3}) if s]
    assert found
    shown, text = found[0]
    assert shown in text
    assert not re.search(r"Ht \d/\d", text)  # never a bare "Ht 1/3" (read as hits left)


def test_seeds_of_wars_announces_each_step_of_a_round():
    shown = at_events(
        "seeds-of-wars",
        Watching(seeds_view.VIEW),
        options={"max_rounds": 2},
    )
    text = "\n".join(line for s in shown if s not in (None, False) for line in text_of(s, 120))
    headings = re.findall(r"^Round (\d+), step (\d) of 6, (\w+)$", text, re.M)
    for n in ("1", "2"):
        steps = [(int(h[1]), h[2]) for h in headings if h[0] == n]
        assert steps == sorted(steps), headings  # each announced once, in order
        assert {(2, "initiative"), (3, "movement"), (4, "ranged"), (5, "melee")} <= set(steps)


# --- Tug: the tie caption, the centre line, the line-up ------------------------------------


def test_tug_tie_caption_states_the_stacked_penalty():
    g = tug_game(tie_penalty_stacks=True)
    play_turns(g, [4, 3, 6, 4, 4, 5, 4, 3, 6, 4, 4, 5], 2)  # two ties in a row
    assert g.state.sides["A"].penalty == 2
    caption = tug_view.dice_table(g.state).caption
    assert "-2 on the next roll" in caption
    assert "Next roll: A -2, B -2 (a16, after ties)" in "\n".join(text_of(tug_view.track(g.state)))
    g1 = tug_game()
    play_turns(g1, [4, 3, 6, 4, 4, 5, 4, 3, 6, 4, 4, 5], 2)
    assert "-1 on the next roll" in tug_view.dice_table(g1.state).caption


def test_tug_centre_line_stays_when_a_model_stands_exactly_on_it():
    g = tug_game()
    play_turns(g, [6, 3, 3, 2, 1, 1], 1)  # B's front exactly at 0"
    assert g.state.sides["B"].front == 0.0
    track, ruler = text_of(tug_view.Track(g.state), 80)[1:3]
    centre = ruler.index("0")
    assert track[centre] == "|"
    assert track[centre + 1 : centre + 3] == "B1"


def test_tug_shows_the_starting_line_up_before_the_first_roll():
    def seen(entry: dict, state: Any, names: dict[str, str]) -> tuple[dict, list[str]]:
        shown = tug_view.render_entry(entry, state, names)
        return entry, text_of(shown, 80) if shown not in (None, False) else []

    shown = at_events("tug-of-wargods", seen)
    first_roll = next(i for i, (e, _) in enumerate(shown) if e["t"] == "roll")
    text = "\n".join(line for _, lines in shown[:first_roll] for line in lines)
    assert "The starting line-up" in text
    assert re.search(r"A3A2A1-+\|-+B1B2B3", text)
    assert '4" (own side)' in text


def test_tug_track_never_wraps_at_80_columns():
    g = tug_game(start=30)
    lines = text_of(tug_view.track(g.state), 80)
    assert all(len(line) <= 80 for line in lines)
    assert "|" in lines[1] and "A1" in lines[1] and "B1" in lines[1]


# --- nothing cut -----------------------------------------------------------------------------

LONG = {
    "squad-alpha": {"max_turns": 3},
    "battle-of-ixu": {"max_turns": 4},
    "seeds-of-wars": {"max_rounds": 3},
    "mobs-and-morale": {"max_rounds": 3},
}


@pytest.mark.parametrize("ruleset_id", list(LONG))
def test_no_board_or_card_cuts_a_word_at_80_or_120_columns(ruleset_id):
    hooks = registry.get(ruleset_id).view()

    decisions = iter(range(60))

    def seen(state: Any, choice: Any, names: dict[str, str]) -> list[str]:
        out: list[str] = []
        if next(decisions, 1) % 3:  # every third decision is looked at
            return out
        for width in (80, 120):
            out += text_of(hooks.board(state, names), width)
            out += text_of(hooks.card(state, choice, names), width)
        return out

    shown = at_decisions(ruleset_id, seen, options=LONG[ruleset_id], limit=60)
    for lines in shown:
        assert not any("…" in line for line in lines), "\n".join(lines)


def test_squad_alpha_board_hook_around_which_miniature_acts_next():
    """The screen's board: at "which miniature acts next?" no candidate is marked acted, and
    at the chosen miniature's own question it is the one acting now."""
    from wargame_cli.rulesets.squad_alpha import view as squad_view

    def seen(state: Any, choice: Any, names: dict[str, str]) -> Any:
        if choice.kind not in ("order", "action"):
            return None
        lines = text_of(squad_view.board(state, names), 80)
        if choice.kind == "order":
            names_ = [state.mini(o.key).name for o in choice.options]
        else:
            names_ = [state.mini(state.acting).name]
        rows = [line for n in names_ for line in lines if f" {n} " in line and "rating" not in line]
        return choice.kind, rows

    shown = [s for s in at_decisions("squad-alpha", seen, options={"max_turns": 2}) if s]
    kinds = {kind for kind, _ in shown}
    assert kinds == {"order", "action"}
    for kind, rows in shown:
        assert rows
        for row in rows:
            if kind == "order":
                assert "acted" not in row and "acting" not in row, row
            else:
                assert "acting now" in row, row


def test_ixu_roster_at_80_columns_keeps_every_column_once_someone_has_fallen():
    def seen(state: Any, choice: Any, names: dict[str, str]) -> Any:
        if not any(w.dead for w in state.warriors):
            return None
        ranked = {wid: i + 1 for i, wid in enumerate(state.order)}
        facts_ = [
            (
                w.id,
                w.name,
                f"fell, turn {w.died_turn}" if w.dead else f"{w.damage}/{w.health}",
                ranked.get(w.id) if not w.dead else None,
            )
            for w in state.warriors
        ]
        return facts_, text_of(ixu_view.roster(state), 80)

    found = [s for s in at_decisions("battle-of-ixu", seen, seed=2) if s]
    assert found
    for facts_, lines in found[::5]:
        text = "\n".join(lines)
        assert all(len(line) <= 80 for line in lines) and "…" not in text
        flat = " ".join(text.split())  # a stacked row may wrap
        for wid, name, damage, rank in facts_:
            row = next(line for line in lines if f"{wid} {name}" in line)
            assert damage in flat, (damage, text)
            if rank is not None:
                assert re.search(rf"(^|#|│ ){rank}\b", row), row


def test_mobs_and_morale_before_deployment_says_who_is_still_to_come():
    from tests.test_mobs_and_morale_rules import battle

    b = battle()
    lines = text_of(mobs_view.compact_board(b, {"A": "Party", "B": "Tribe"}), 80)
    status = next(x for x in lines if x.startswith("A:"))
    assert "to deploy" in status and "B:" in status
    first = next(iter(b.creatures.values()))
    card = "\n".join(text_of(mobs_view.creature_card(b, first), 80))
    assert "not yet deployed" in card and "at standing" not in card
