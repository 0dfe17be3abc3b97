"""Squad Alpha on screen: the tabletop map beside a roster table per squad (name, training,
command, attributed die, position, status), and the terrain legend.

The board is drawn when it helps a decision and only if a miniature moved or fell since it was
last drawn: before a person places a miniature, at the start of each turn (before the dice
are attributed), before a person's first activation in a step (later ones in that step only
if an enemy moved), and once per step for onlookers (bot against bot, replays). Everything
else is one line; dice and decisions are not echoed, since the line after each one states
its faces or its result.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.panel import Panel
from rich.table import Table as RichTable
from rich.text import Text
from wargame_cli.rulesets.squad_alpha.movement import MOVE_INCHES
from wargame_cli.rulesets.squad_alpha.odds import highest_passing, pass_chance
from wargame_cli.rulesets.squad_alpha.state import HOME_EDGE, GameState, Mini, Squad

from wargame_cli.kit.sides import other
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.mapfacts import MapFacts, Marker, Zone
from wargame_cli.tabletop.sight import blocker
from wargame_cli.tabletop.view import compact_map, legend, map_key, one_line, table_map
from wargame_cli.text import SIDE_STYLE, clean
from wargame_cli.ui import facts
from wargame_cli.ui.drawn import DRAWN, Drawn, beside
from wargame_cli.ui.live import generic
from wargame_cli.view import NOBODY_KNOWN, Players, Redraw, ViewOf
from wargame_cli.wording import percent

SIDE_COLUMN = 62  # the rosters' usual width; narrower screens get them under the map


def markers(state: GameState) -> list[Marker]:
    return [
        Marker(
            m.label,
            m.pos,
            m.side,
            m.name,
            down=not m.alive,
            contact=bool(state.contacts(m)),
            radius=state.base_radius,
        )
        for m in state.all_minis()
        if m.pos is not None
    ]


def _status(state: GameState, m: Mini, acting: str | None = None) -> Text:
    words, style = _status_words(state, m, acting)
    return Text(words, style=style)


def _status_words(state: GameState, m: Mini, acting: str | None = None) -> tuple[str, str]:
    if not m.alive:
        return "casualty", "dim strike"
    if m.pos is None:
        return "to deploy", "dim"
    if m.id == acting:
        return "acting now", "bold"
    foes = state.contacts(m)
    if foes:
        return f"melee: {', '.join(f.label for f in foes)}", "bold yellow"
    if m.die is not None and m.acted:
        return "acted", "dim"
    return "active", ""


def roster(state: GameState, squad: Squad, acting: str | None = None) -> RichTable:
    return _roster_table(_roster_rows(state, squad, acting))


def _roster_rows(state: GameState, squad: Squad, acting: str | None) -> tuple[Any, ...]:
    """Everything a squad's roster shows, as plain values: the key its drawing is kept by."""
    rating = state.current_rating(squad.side)
    leader = state.leader(squad.side)
    head = (squad.side, clean(squad.name), clean(leader.name), rating, squad.casualties)
    rows = tuple(
        (
            m.label,
            m.side,
            m.alive,
            clean(m.name),
            m.training,
            f"{m.rating}{'*' if m.id == squad.leader_id else ''}",
            str(m.die) if m.die is not None and m.alive else "-",
            m.pos.key() if m.pos is not None else "-",
            _status_words(state, m, acting),
        )
        for m in squad.minis
    )
    return (head, rows)


ROSTER_HEADERS = ("", "name", "training", "cmd", "die", "at", "status")


def _roster_width_at_most(shown: tuple[Any, ...]) -> int:
    """A bound on the roster's width, from its cells' lengths (each column as wide as its
    longest cell, a space each side, a rule between): laying it out costs milliseconds."""
    _, rows = shown
    columns = [
        [label, name, training, cmd, die, at, status[0]]
        for label, _, _, name, training, cmd, die, at, status in rows
    ]
    widths = [
        max([cell_len(header)] + [cell_len(row[i]) for row in columns])
        for i, header in enumerate(ROSTER_HEADERS)
    ]
    return sum(widths) + 3 * len(widths) - 3


def _roster_table(shown: tuple[Any, ...]) -> RichTable:
    (side, name, leader, rating, casualties), rows = shown
    title = Text(name, style=SIDE_STYLE.get(side, "bold"))
    title.append(
        f"  leader {leader}, rating {rating}" + (f" ({casualties} down)" if casualties else ""),
        style="bold red" if rating < 0 else "",
    )
    table = RichTable(title=title, title_justify="left", show_edge=False, pad_edge=False)
    for column in ROSTER_HEADERS:
        table.add_column(column)
    for label, mini_side, alive, mini_name, training, cmd, die, at, status in rows:
        table.add_row(
            Text(label, style=SIDE_STYLE.get(mini_side, "bold") if alive else "dim"),
            mini_name,
            training,
            cmd,
            die,
            at,
            Text(*status),
        )
    return table


def headline(state: GameState) -> str:
    if state.phase == "deployment":
        return "Deployment"
    if state.turn == 0:
        return "Deployed"
    if state.phase == "over":
        return f"Turn {state.turn}: game over"
    who = state.squads[state.initiative].name if state.initiative else "-"
    step = f", step {state.step}" if state.step else ""
    return f"Turn {state.turn}{step}; initiative: {clean(who)}"


LEGEND_NOTE = "* leader; cmd = command rating; die = the die attributed this turn"


@dataclass
class Board:
    """The map with the rosters and legend beside it, or under it on a narrow screen.

    Beside the map, each part is drawn from `DRAWN` when what it shows has not changed (the
    map while nobody moved, a roster while its rows read the same, the legend always): a
    full board is redrawn after nearly every decision, and drawing its tables afresh costs
    tens of milliseconds."""

    state: GameState
    acting: str | None = None  # the miniature activating now (already marked to have acted)

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        state = self.state
        rows = [_roster_rows(state, state.squads[s], self.acting) for s in ("A", "B")]
        marks = tuple(markers(state))
        title = headline(state)
        map_width = 2 * round(state.table.width) + 8
        # the rosters whole beside the map, or under it (never squeezed into cut cells)
        if all(_roster_width_at_most(r) <= SIDE_COLUMN for r in rows):
            side_width = SIDE_COLUMN  # no need to lay the rosters out to know they fit
        else:
            side_width = max(
                DRAWN.width(console, options, ("roster", r), _roster_table, r) for r in rows
            )
        if options.max_width < map_width + 2 + max(SIDE_COLUMN, side_width):
            yield Group(table_map(state.table, list(marks), title), _side(state, rows))
            return
        yield from _beside(console, options, state, rows, marks, title)


def _side(state: GameState, rows: list[tuple[Any, ...]]) -> Group:
    return Group(
        _roster_table(rows[0]),
        Text(""),
        _roster_table(rows[1]),
        Text(""),
        legend([], state.table),
        Text(LEGEND_NOTE, style="dim"),
    )


def _beside(
    console: Console,
    options: ConsoleOptions,
    state: GameState,
    rows: list[tuple[Any, ...]],
    marks: tuple[Marker, ...],
    title: str,
) -> RenderResult:
    """The map and the side column as a two-column grid whose cells are drawn lines."""
    table = state.table
    parts: list[tuple[Any, Any, Any]] = [
        (("roster", rows[0]), _roster_table, rows[0]),
        (("blank",), Text, ""),
        (("roster", rows[1]), _roster_table, rows[1]),
        (("blank",), Text, ""),
        (("legend", table), lambda t: legend([], t), table),
        (("note",), lambda words: Text(words, style="dim"), LEGEND_NOTE),
    ]
    drawn_map = _drawn_map(console, options, table, marks, title)
    # the side column's widest part, narrowed to what the map leaves (as rich's grid does);
    # the rosters are measured only when the legend and note do not fill that already
    room = options.max_width - drawn_map.width - 2
    fixed = [part for part in parts if part[0][0] != "roster"]
    widest = max(DRAWN.width(console, options, key, make, arg) for key, make, arg in fixed)
    if widest < room:
        widest = max(DRAWN.width(console, options, key, make, arg) for key, make, arg in parts)
    width = min(widest, room)
    lines = []
    for key, make, arg in parts:
        lines.extend(DRAWN.get(console, options, key, make, arg, width).lines)
    yield from beside(drawn_map, Drawn(lines, width), gap=2)


def _drawn_map(
    console: Console, options: ConsoleOptions, table: Any, marks: tuple[Marker, ...], title: str
) -> Drawn:
    """The map's lines: its body kept while nobody moves, its top edge (which carries the
    headline, new at every step) drawn alone."""
    body = DRAWN.get(
        console,
        options,
        ("map", table, marks),
        lambda m: table_map(table, list(m)),
        marks,
        no_wrap=True,
    )
    if cell_len(clean(title)) + 6 >= body.width:  # a title this long sets the frame's width
        return DRAWN.get(
            console,
            options,
            ("map", table, marks, title),
            lambda m: table_map(table, list(m), title),
            marks,
            no_wrap=True,
        )

    def edge(width: int) -> Panel:
        return Panel(Text(" " * (width - 4)), title=clean(title) or " ", expand=False)

    top = DRAWN.get(console, options, ("map edge", title), edge, body.width, no_wrap=True)
    return Drawn(top.lines[:1] + body.lines[1:], body.width)


def board(state: GameState, names: dict[str, str] | None = None) -> Board:
    """The whole board (also drawn on resume and at the end)."""
    return Board(state, state.acting)


# -- the decision screen's pieces -------------------------------------------------------------


def _squad_line(state: GameState, squad: Squad) -> Text:
    """One line per squad under the compact map: leader, rating, who is still to act."""
    line = Text(f"{squad.side} ", style=SIDE_STYLE.get(squad.side, "bold"))
    line.append(clean(squad.name), style=SIDE_STYLE.get(squad.side, "bold"))
    line.append(f": rating {state.current_rating(squad.side)}")
    if squad.casualties:
        line.append(f", {squad.casualties} down")
    waiting = [
        m.label for m in squad.living if m.die is not None and not m.acted and m.pos is not None
    ]
    if state.phase != "deployment" and waiting:
        line.append(f"; to act: {' '.join(waiting)}")
    return line


def compact_board(state: GameState, names: dict[str, str] | None = None) -> Group:
    """The map at a coarser scale and each squad's rating and who is still to act."""
    marks = markers(state)
    return Group(
        compact_map(state.table, marks, headline(state)),
        *map_key(marks),
        one_line([_squad_line(state, state.squads[side]) for side in ("A", "B")]),
    )


def map_facts(
    state: GameState, names: dict[str, str] | None = None, choice: Any = None
) -> MapFacts:
    """The one map's facts: every placed miniature, each squad's edge (b5: deploy out of the
    enemy's sight, or near the own edge when nowhere is: said while deploying), the miniature
    a question is about."""
    marks = tuple(markers(state))
    deploying = state.phase == "deployment"  # the key says how only while it matters
    zones = tuple(
        Zone(side, "deploy: out of the enemy's sight (b5)" if deploying else "", edge=edge)
        for side, edge in HOME_EDGE.items()
    )
    origin = None
    targets: list[tuple[str, Point]] = []
    if choice is not None:
        m = facts.actor(choice.prompt, ((x.name, x) for x in state.all_minis()), choice.side)
        if m is not None and m.pos is not None:
            origin = next((k for k in marks if k.label == m.label), None)
        if choice.kind == "action":  # b11: the shots, each at its target
            placed = {x.id: x.pos for x in state.all_minis() if x.pos is not None}
            for o in choice.options:
                spot = placed.get(o.key.removeprefix("shoot:"))
                if o.key.startswith("shoot:") and spot is not None:
                    targets.append((o.key, spot))
    return MapFacts(
        state.table,
        marks,
        headline(state),
        zones,
        tuple((side, sq.name) for side, sq in state.squads.items()),
        origin,
        (one_line([_squad_line(state, state.squads[side]) for side in ("A", "B")]),),
        tuple(targets),
    )


def _where(state: GameState, m: Mini) -> str:
    if m.pos is None:
        return "not deployed yet"
    terrain = [p for p in state.table.pieces_at(m.pos)]
    place = f" in {', '.join(clean(p.name) for p in terrain)}" if terrain else " in the open"
    return f"{m.pos.key()}{place}"


def mini_card(
    state: GameState,
    m: Mini,
    acting: str | None = None,
    brief: bool = False,
    moving: bool = False,
) -> Any:
    """One miniature: training and dice, command, die this turn, the test it needs, where it
    stands, its status and its reach."""
    rows: list[tuple[str, Any]] = [
        ("training", f"{m.training}: {m.dice} {'die' if m.dice == 1 else 'dice'} per test (b12)"),
        (
            "command",
            f"rating {m.rating}" + (" (leader)" if m.id == state.squads[m.side].leader_id else ""),
        ),
        ("die", str(m.die) if m.die is not None and m.alive else "-"),
        ("position", _where(state, m)),
        ("status", _status(state, m, acting)),
    ]
    rows += _turn_rows(state, m, moving)
    return facts.card(f"{m.label} {m.name}", m.side, rows, brief=brief)


def _turn_rows(state: GameState, m: Mini, moving: bool = False) -> list[tuple[str, Any]]:
    """What the miniature itself may do this turn: the test its own die sets (b10, b12, b13,
    b24), whether it has acted, and its reach: a miniature in base contact may only fight
    (b18), one out of it moves (b14) or shoots (b11, b15); `moving`: it passed its move test
    and is asked where to (no shot now)."""
    if not m.active:
        return []
    rows: list[tuple[str, Any]] = []
    if m.die is not None:
        mod = state.modifier(m.side)
        need = highest_passing(m.die, mod)
        chance = percent(pass_chance(m.dice, m.die, mod))
        test = f"acts at step {m.die}: {need} or less on a die ({chance})"
        if m.acted and m.id != state.acting:
            test = f"acted at step {m.die} this turn"
        rows.append(("test", test))
    foes = state.contacts(m)
    if foes:
        names = ", ".join(f"{f.label} {clean(f.name)}" for f in foes)
        done = m.die is not None and m.acted and m.id != state.acting
        when = "acted this turn; at its next activation it " if done else ""
        rows.append(
            ("melee", f"in base contact with {names}: {when}must fight, no move or shot (b18)")
        )
    elif m.die is not None and m.acted and m.id != state.acting:
        rows.append(("reach", "acted this turn: no move or shot until the next (b10, b11)"))
    elif moving:
        rows.append(("reach", f'moves up to {MOVE_INCHES:g}" now: its move test passed (b14)'))
    else:
        rows.append(("reach", f'moves up to {MOVE_INCHES:g}" (b14) or {_shot(state, m)}'))
    return rows


def _shot(state: GameState, m: Mini) -> str:
    """What it could shoot (b15): an enemy in its line of sight, or none in sight."""
    assert m.pos is not None
    seen = [
        e
        for e in state.enemies(m.side)
        if e.pos is not None and not blocker(state.table, m.pos, e.pos)
    ]
    return "shoots an enemy in sight (b15)" if seen else "shoots (b15): no enemy in sight now"


def card(state: GameState, choice: Any, names: dict[str, str] | None = None) -> Any:
    """The acting miniature's card (the one the question names), with the odds the options
    state; for "which miniature acts next?" the candidates' cards, one line each, and for
    attributing dice the deciding squad's, one line each."""
    m = facts.actor(choice.prompt, ((x.name, x) for x in state.all_minis()), choice.side)
    # attributing the dice is about the whole squad (the prompt names only what the enemy
    # holds), until one miniature's die is asked for
    whole_squad = choice.kind == "attribute" and (m is None or m.side != choice.side)
    m = None if whole_squad else m
    parts: list[Any] = []
    if m is not None:
        moving = choice.kind == "move" and m.id == state.acting
        parts.append(mini_card(state, m, acting=state.acting, brief=True, moving=moving))
    else:
        candidates = (
            list(state.squads[choice.side].living)
            if whole_squad
            else [
                state.mini(o.key)
                for o in choice.options
                if o.disabled is None and o.key[:1] in "AB" and o.key[1:].isdigit()
            ]
        )
        if candidates:
            grid = RichTable.grid(padding=(0, 1))
            for c in candidates:
                grid.add_row(
                    Text(c.label, style=SIDE_STYLE.get(c.side, "bold")),
                    clean(c.name),
                    f"{c.training} ({c.dice}d)",
                    f"cmd {c.rating}",
                    f"die {c.die}" if c.die is not None else "",
                    c.pos.key() if c.pos is not None else "to deploy",
                )
            parts.append(grid)
    chances = facts.odds(choice)
    if chances is not None:
        parts.append(chances)
    return Group(*parts) if parts else None


def cards(state: GameState, names: dict[str, str] | None = None) -> list[tuple[str, Any]]:
    """Every miniature's card, side A first."""
    acting = state.acting
    return [(f"{m.label} {clean(m.name)}", mini_card(state, m, acting)) for m in state.all_minis()]


def order_of_play(state: GameState) -> RichTable:
    """Who acts at each step this turn, the initiative side first (b10)."""
    assert state.initiative is not None
    first, second = state.initiative, other(state.initiative)
    table = RichTable(
        title=f"Turn {state.turn}: who acts at each step",
        title_justify="left",
        show_edge=False,
        pad_edge=False,
    )
    table.add_column("step")
    for side in (first, second):
        table.add_column(
            Text(clean(state.squads[side].name), style=SIDE_STYLE.get(side, "bold"))
            + Text(" (first)" if side == first else "", style="dim")
        )
    for step in range(1, 7):
        cells = [
            ", ".join(
                f"{clean(m.name)} ({m.training[0]})"
                for m in state.squads[side].living
                if m.die == step
            )
            or "-"
            for side in (first, second)
        ]
        table.add_row(str(step), *cells)
    return table


# -- when to draw the board ------------------------------------------------------------------
# The view says where the board would help and what it is drawn from; whether it is drawn
# again is the ui's redraw policy (`wargame_cli/ui/redraw.py`), which remembers what it drew.


def _positions(state: GameState) -> dict[str, tuple[Any, bool]]:
    """What the board shows of each miniature: where it stands and whether it stands."""
    return {m.id: (m.pos, m.alive) for m in state.all_minis()}


def _person(players: Players, side: str) -> bool:
    """A side whose player is not known counts as a person (it may be one)."""
    return players.get(side) != "bot"


def _onlookers(players: Players) -> bool:
    return not any(_person(players, side) for side in ("A", "B"))


def _redraw(
    state: GameState,
    text: Text,
    *,
    before: bool = True,
    acting: str | None = None,
    within: str | None = None,
    always: bool = False,
    wanted: bool = True,
) -> Redraw:
    """The board with `text` (before it, or after it), drawn if a miniature moved or fell
    since the board was last drawn; `within`: once drawn at this step, only if an enemy of
    that side moved."""
    drawn = Group(text, Board(state, acting)) if before else Group(Board(state, acting), text)
    enemies = (
        {e.id: (e.pos, e.alive) for e in state.enemies(within)} if within is not None else None
    )
    return Redraw(
        drawn=drawn,
        plain=text,
        key=_positions(state),
        at=(state.turn, state.step),
        within=enemies,
        always=always,
        wanted=wanted,
    )


def _next_placer(state: GameState, side: str) -> str | None:
    """Who places after `side` (deployment alternates; a larger squad keeps placing)."""
    for candidate in (other(side), side):
        if any(m.pos is None for m in state.squads[candidate].minis):
            return candidate
    return None


def _decides(state: GameState, mini: Mini) -> bool:
    """Does the activated miniature's owner choose something now (not a lone forced melee)?"""
    return len(state.contacts(mini)) != 1


def render_entry(
    entry: dict[str, Any], state: GameState, names: dict[str, str], players: Players = NOBODY_KNOWN
) -> Any:
    """The board when it helps a decision (see the module's docstring): before a person
    places, at the start of each turn, before a person's first activation in a step, once a
    step for onlookers; every other event one line."""
    if entry["t"] in ("roll", "choice"):
        return False
    if entry["t"] == "end":
        return Group(board(state), generic(entry, names))
    if entry["t"] != "event":
        return None
    kind, data = entry.get("kind"), entry.get("data") or {}
    text = Text(clean(entry["text"]))
    if kind == "rolloff" and not data.get("tie") and state.phase == "deployment":
        return _redraw(state, text, always=True)
    if kind == "deploy":
        placer = _next_placer(state, data.get("id", "A")[0])
        if placer is not None and _person(players, placer):
            return _redraw(state, text)
        return text
    if kind in ("deployed", "initiative"):
        return _redraw(state, text)
    if kind == "attribute" and data.get("side") == state.initiative:
        return Group(text, order_of_play(state))
    if kind == "step":
        text.stylize("bold underline")  # a heading: the lines after it happened in this step
        order = data.get("order") or [["A", []]]
        wanted = _onlookers(players) or _person(players, order[0][0])
        return _redraw(state, text, before=False, wanted=wanted)
    if kind == "activate":
        mini = state.mini(data["id"]) if "id" in data else None
        if mini is not None and _person(players, mini.side) and _decides(state, mini):
            return _redraw(state, text, before=False, acting=mini.id, within=mini.side)
        return text
    if kind == "kill":
        return Text(clean(entry["text"]), style="bold red")
    if kind == "rating" and data.get("rating", 0) < 0:
        return Text(clean(entry["text"]), style="yellow")
    return text


VIEW = ViewOf(board, compact_board, card, cards, render_entry, map_facts=map_facts)
