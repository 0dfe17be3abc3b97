"""Seeds of Wars on screen (rich): the battlefield grid with every unit's state and Ht taken,
beside a panel of unit profiles. The only module of the ruleset that imports rich."""

from __future__ import annotations

import re
from collections.abc import Callable
from copy import copy
from typing import Any

from rich import box
from rich.console import Console, ConsoleOptions, Group, RenderResult
from rich.measure import Measurement
from rich.panel import Panel
from rich.rule import Rule
from rich.table import Table
from rich.text import Text
from wargame_cli.rulesets.seeds_of_wars.checks import TARGET, morale_passes, recovery_passes
from wargame_cli.rulesets.seeds_of_wars.combat import fighter_refusal, move_refusal, shooter_refusal
from wargame_cli.rulesets.seeds_of_wars.state import DESTROYED, ROUTED, SHAKEN, STEADY, Battle, Unit

from wargame_cli.kit.sides import SIDES
from wargame_cli.text import SIDE_STYLE, clean
from wargame_cli.ui import facts
from wargame_cli.view import NOBODY_KNOWN, Once, Players, ViewOf
from wargame_cli.wording import percent, plural

STATE_STYLE = {SHAKEN: "yellow", ROUTED: "bold magenta"}
MAP_EVENTS = ("move", "flee", "retreat")  # after these the grid is shown again
# Decisions the next lines restate ("A1 Knights moves b2 to a3", "... attacks ...", the
# retreat roll): their echo line is left out.
RESTATED = ("deploy", "move", "shoot", "melee", "retreat", "round_end")  # round_end: fight on
# Single-die tests whose event shows the face and the sum (attacks, recovery, morale): their
# roll line is left out. Opposed rolls keep theirs: the event gives only the totals.
SHOWN_IN_EVENT = (("d10", "d11"), ("d12",), ("d4",), ("d14",))
GAP = 2  # columns between the grid and the panel
PANEL_FRAME = 4  # a Panel's borders and padding


def _unit_line(unit: Unit) -> Text:
    line = Text()
    line.append(f"{unit.uid} {clean(unit.kind.name)}", style=SIDE_STYLE[unit.side])
    line.append("\n ")
    line.append(unit.state, style=STATE_STYLE.get(unit.state, "green"))
    if unit.taken:  # hits taken, out of its Ht (none taken: no line, the cell stays narrow)
        line.append(f"\n Ht taken {unit.taken}/{unit.kind.ht}", style="bold")
    return line


def _unit_row(unit: Unit) -> Text:
    """A unit in one line: `A1 Knights Steady`, `B2 Spearmen Shaken, Ht taken 1/3`."""
    line = Text(f"{unit.uid} {clean(unit.kind.name)} ", style=SIDE_STYLE[unit.side])
    line.append(unit.state, style=STATE_STYLE.get(unit.state, "green"))
    if unit.taken:
        line.append(f", Ht taken {unit.taken}/{unit.kind.ht}", style="bold")
    return line


def grid(battle: Battle, title: str | None = None, brief: bool = False) -> Panel | Group:
    """Side B's Reserve at the top, side A's at the bottom; one cell per space (`brief`: a
    line a unit, thinner lines)."""
    board = battle.board
    table = Table(
        show_header=True,
        show_lines=True,
        header_style="bold",
        expand=False,
        box=box.SQUARE if brief else box.HEAVY_HEAD,
    )
    table.add_column("row", style="dim", no_wrap=True)
    for col in range(board.columns):
        table.add_column(board.key((0, col))[0], min_width=12)
    for row in range(board.rows - 1, -1, -1):
        label = board.row_label(row)
        style = SIDE_STYLE.get(label[0], "") if label[:2] in ("A ", "B ") else "dim"
        cells: list[Any] = [Text(f"{row + 1} {label}", style=style)]
        for col in range(board.columns):
            units = battle.at((row, col))
            show = _unit_row if brief else _unit_line
            cells.append(Text("\n").join(show(u) for u in units) if units else Text("."))
        table.add_row(*cells)
    if title is None:
        title = _title(battle)
    if brief:  # the title in a line of its own, no frame: two rows fewer
        return Group(Text(title, style="bold"), table)
    return Panel(table, title=Text(title), expand=False)


def _edged(battle: Battle, shown: Any) -> Group:
    """`shown` between the lines naming whose edge is at the top and at the bottom."""
    a, b = (clean(battle.names[side]) for side in ("A", "B"))
    top = Text(f"^ top: side B's edge ({b})", style="dim")
    return Group(top, shown, Text(f"v bottom: side A's edge ({a})", style="dim"))


# The six steps of a combat round (d3), numbered as the rules number them.
STEPS = ("recovery", "initiative", "movement", "ranged", "melee", "morale")


def step_name(step: str) -> str:
    """`step 3 of 6, movement` for a round's step; other phases as they are."""
    if step in STEPS:
        return f"step {STEPS.index(step) + 1} of 6, {step}"
    return step


def _title(battle: Battle) -> str:
    if battle.result is not None:
        return "The battle is over"
    if battle.round == 0:
        return "Deployment"
    title = f"Round {battle.round}, {step_name(battle.step)}"
    if battle.initiative:
        title += f" (initiative: {clean(battle.names[battle.initiative])})"
    return title


def _where(battle: Battle, unit: Unit) -> Text:
    """Its space on the grid (which shows its state and Ht taken), or what became of it."""
    if unit.fighting:
        return Text(battle.space_name(unit))
    return Text(unit.fate or "-", style="dim")


STATS = ("Mv", "Ra", "Me", "De", "Mo", "Ht")


def _profile_cells(battle: Battle, unit: Unit) -> list[Text]:
    """unit, Mv, Ra, Me, De, Mo, Ht, at, tags."""
    k = unit.kind
    return [
        Text(f"{unit.uid} {clean(k.name)}", style=SIDE_STYLE[unit.side]),
        Text(str(k.mv)),
        Text("-" if k.ra is None else f"{k.ra:+d}"),
        Text(f"{k.me:+d}"),
        Text(str(k.de)),
        Text(f"{k.mo:+d}"),
        Text(str(k.ht)),
        _where(battle, unit),
        Text(clean(", ".join(k.tags))),
    ]


def profiles(battle: Battle) -> Panel:
    """The side panel: every unit's profile and where it is (its space on the grid, which
    shows its state and Ht taken) or its fate once it has left the battle. One table per side,
    their columns pinned to the same widths so they line up; only the tags, last, may wrap."""
    rows = {side: [_profile_cells(battle, u) for u in battle.side_units(side)] for side in SIDES}
    headers = ("unit", *STATS, "at", "tags")
    rows_all = rows["A"] + rows["B"]
    # "at" as wide as its widest fate from the start, so the layout stays put all battle
    widths = [
        max([len(h) if h != "at" else len(DESTROYED)] + [row[i].cell_len for row in rows_all])
        for i, h in enumerate(headers)
    ]
    parts = []
    for side in SIDES:
        table = Table(
            box=box.SIMPLE_HEAD,
            header_style="bold",
            expand=False,
            pad_edge=False,
            padding=0,  # the box's blank divider keeps one space between columns
            show_edge=False,
            show_header=side == SIDES[0],
            title=Text(
                f"{clean(battle.names[side])}: {battle.role(side)}, Order {battle.orders[side]}"
            ),
            title_style=SIDE_STYLE[side],
            title_justify="left",
        )
        for i, header in enumerate(headers):
            if header == "tags":
                table.add_column(header)
            else:
                table.add_column(
                    header,
                    no_wrap=True,
                    min_width=widths[i],
                    justify="right" if header in STATS else "left",
                )
        for row in rows[side]:
            table.add_row(*row)
        parts.append(table)
    return Panel(Group(*parts), title="Units", expand=False)


class SideBySide:
    """The grid with the panel at its right when the terminal is wide enough (the panel
    narrowed down to its minimum, its tags wrapping, if need be), else the panel under it."""

    def __init__(self, left: Any, right: Panel) -> None:
        self.left, self.right = left, right

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        left = Measurement.get(console, options, self.left).maximum
        right = Measurement.get(console, options, self.right).maximum
        room = options.max_width - left - GAP
        # a Panel measures at its widest; what it can shrink to is its contents' minimum
        inner = Measurement.get(console, options, self.right.renderable).minimum
        if room >= inner + PANEL_FRAME:
            panel = copy(self.right)
            panel.width = min(room, right)
            layout = Table.grid(padding=(0, GAP))
            layout.add_column(width=left)
            layout.add_column(width=panel.width)
            layout.add_row(self.left, panel)
            yield layout
        else:
            yield self.left
            yield self.right


def board(
    battle: Battle, names: dict[str, str] | None = None, title: str | None = None
) -> SideBySide:
    """The grid with the profile panel at its side."""
    return SideBySide(grid(battle, title), profiles(battle))


def result(battle: Battle) -> Table:
    """d17: each side's destroyed, captured and escaped units, and those that held the field."""
    table = Table(title="Result", title_style="bold", show_lines=True, expand=False)
    table.add_column("side", no_wrap=True)
    for what in ("destroyed", "captured", "escaped", "held the field"):
        table.add_column(what)
    assert battle.result is not None
    for side in SIDES:
        tally = battle.result["sides"][side]
        table.add_row(
            Text(f"{clean(battle.names[side])} ({battle.role(side)})", style=SIDE_STYLE[side]),
            *(
                Text("\n".join(clean(n) for n in tally[key]) or "-")
                for key in ("destroyed", "captured", "escaped", "held_the_field")
            ),
        )
    return table


def _step_heading(battle: Battle) -> Text:
    """The heading of the step of a round (d3) the rules are in while they yield an entry."""
    return Text(f"Round {battle.round}, {step_name(battle.step)}", style="bold underline")


def _generic(entry: dict[str, Any], names: dict[str, str]) -> Any:
    from wargame_cli.ui.live import generic

    return generic(entry, names, "round")


def render_entry(
    entry: dict[str, Any], battle: Battle, names: dict[str, str], players: Players = NOBODY_KNOWN
) -> Any:
    """Round headers with the full board; a heading the first time the log reaches a new step
    of a round (d3); the grid again after units move, and after each side's deployment; the
    result as a table. False: a decision or a roll the next event restates. None: the
    generic line."""
    kind = entry["t"]
    if kind == "turn":
        n = entry["n"]
        return Group(Rule(f"Round {n}"), board(battle, names, f"Round {n} begins"))
    shown = _entry(entry, battle, names)
    if battle.step not in STEPS:
        return shown

    def first() -> Any:
        heading = _step_heading(battle)
        if shown is False:
            return heading
        return Group(heading, shown if shown is not None else _generic(entry, names))

    return Once(key=(battle.round, battle.step), first=first, later=shown)


def _entry(entry: dict[str, Any], battle: Battle, names: dict[str, str]) -> Any:
    """An entry other than a round's start, without the step's heading."""
    kind = entry["t"]
    if kind == "choice" and entry.get("kind") in RESTATED:
        return False
    if kind == "roll" and tuple(entry.get("rules") or ()) in SHOWN_IN_EVENT:
        return False
    if kind != "event":
        return None
    event = entry.get("kind")
    text = Text(clean(entry["text"]))
    if event in MAP_EVENTS:
        return Group(text, grid(battle))
    if event == "deploy_roll":
        return Group(text, grid(battle))  # the field before anyone deploys
    if event == "deploy":
        data = entry.get("data") or {}
        unit = battle.unit(data["unit"]) if "unit" in data else None
        if unit is not None and data.get("next_side", "") in (unit.side, None):
            # the same side deploys again (the prompt's labels say what is where), or the
            # round's board follows at once
            return text
        return Group(text, grid(battle))
    if event == "captured":
        text.stylize("bold")
        return text
    if event == "result" and battle.result is not None:
        return Group(board(battle, names), result(battle))
    return None


# -- the decision screen's pieces -------------------------------------------------------------

STATE_MARK = {STEADY: "", SHAKEN: "/Sh", ROUTED: "/Ro"}


def _token(unit: Unit, named: bool = False) -> Text:
    """`A1`, `A1/Sh+1`: a unit on the compact grid with its state and Ht taken (`named`:
    `A1 Knights/Sh+1`)."""
    token = Text(unit.uid, style=SIDE_STYLE[unit.side])
    if named:
        token.append(f" {clean(unit.kind.name)}", style=SIDE_STYLE[unit.side])
    token.append(STATE_MARK.get(unit.state, ""), style=STATE_STYLE.get(unit.state, ""))
    if unit.taken:
        token.append(f"+{unit.taken}", style="bold")
    return token


def compact_board(
    battle: Battle, names: dict[str, str] | None = None, named: bool = False
) -> Group:
    """The title and the grid one line per row, units by id (`/Sh` Shaken, `/Ro` Routed, `+N`
    Ht taken, with a key once any is) and a `who:` line saying which id is which unit: a few
    lines, leaving room for long menus (`named`: each unit's name after its id, a row's units
    one a line, no `who:` line)."""
    board_ = battle.board
    grid_ = Table.grid(padding=(0, 2))
    grid_.add_column(no_wrap=True)
    for _ in range(board_.columns):
        grid_.add_column()
    for row in range(board_.rows - 1, -1, -1):
        label = board_.row_label(row)
        style = SIDE_STYLE.get(label[0], "") if label[:2] in ("A ", "B ") else "dim"
        cells: list[Any] = [Text(label, style=style)]
        for col in range(board_.columns):
            units = battle.at((row, col))
            cell = Text(f"{board_.key((row, col))}:", style="dim")
            for n, u in enumerate(units):
                cell.append("\n    " if named and n else " ")
                cell.append_text(_token(u, named))
            cells.append(cell)
        grid_.add_row(*cells)
    parts: list[Any] = [Text(_title(battle), style="bold"), grid_]
    if not named:  # ids alone on the grid: which id is which unit (before the key: a board
        # cut to the rows left keeps it)
        who = "  ".join(f"{u.uid} {clean(u.kind.name)}" for u in battle.fighting())
        parts.append(Text(f"who: {who}", style="dim"))
    return Group(*parts, grid_key(battle))


def middle_boards(battle: Battle, names: dict[str, str] | None = None) -> list[Any]:
    """The grid with every space a box, each unit by id, name and state (Ht taken), the rows
    labelled and each side's edge named: three lines a unit, then one; then the compact grid
    with the units' names (for a screen between 80x24 and the full board's size)."""
    return [
        _edged(battle, grid(battle)),
        _edged(battle, grid(battle, brief=True)),
        compact_board(battle, names, named=True),
    ]


def grid_key(battle: Battle) -> Text:
    """What the grid's marks mean: the spaces (column letter, row number; side A's edge at
    the bottom), each side's unit ids, and the state marks once any unit carries one."""
    board_ = battle.board
    first, last = board_.key((0, 0)), board_.key((board_.rows - 1, board_.columns - 1))
    words = [f"spaces {first}-{last} (side A's edge at the bottom)"]
    words += [f"{side}1: {clean(battle.names[side])}" for side in ("A", "B")]
    if any(u.taken or u.state != STEADY for u in battle.fighting()):
        words.append("/Sh Shaken, /Ro Routed, +N Ht taken")
    return Text("key: " + "; ".join(words), style="dim")


def unit_card(battle: Battle, unit: Unit, brief: bool = False) -> Any:
    """One unit: its profile, state, Ht taken, where it is and what it can reach."""
    k = unit.kind
    rows: list[tuple[str, Any]] = [
        (
            "profile",
            f"Mv {k.mv} Ra {'-' if k.ra is None else f'{k.ra:+d}'} Me {k.me:+d} "
            f"De {k.de} Mo {k.mo:+d} Ht {k.ht}",
        ),
        ("state", Text(unit.state, style=STATE_STYLE.get(unit.state, "green"))),
        ("Ht taken", f"{unit.taken} of {k.ht} ({unit.left} left)"),
        ("position", _where(battle, unit) if unit.fate or unit.space else Text("not deployed yet")),
    ]
    if k.tags:
        rows.append(("tags", ", ".join(clean(t) for t in k.tags)))
    if unit.fighting and unit.space is not None:
        foes = battle.enemies_at(unit.side, unit.space)
        if foes:
            rows.append(("engaged", ", ".join(clean(f.name) for f in foes)))
        rows += _reach(battle, unit)
    return facts.card(unit.name, unit.side, rows, brief=brief)


ROUND_STEPS = ("recovery", "initiative", "movement", "ranged", "melee", "morale")  # d3-d14
Refusal = Callable[[Battle, Unit, set[str]], "str | None"]


def _reach(battle: Battle, unit: Unit) -> list[tuple[str, Any]]:
    """What the unit may do in this round's steps, as the menus would say: its move (d8), shot
    (d10, d11) and melee (d12), or why not (engaged, Routed, already done in this step)."""
    k = unit.kind
    if battle.step == "over":
        return [("reach", "none: the battle is over (d16)")]
    now = ROUND_STEPS.index(battle.step) if battle.step in ROUND_STEPS else 0

    def why_not(step: str, refusal: Refusal) -> str | None:
        if ROUND_STEPS.index(step) < now:
            return f"the {step} step is over this round"
        return refusal(battle, unit, battle.acted if battle.step == step else set())

    moves = why_not("movement", move_refusal)
    parts = [f"moves up to {plural(k.mv, 'space')} (d8)" if moves is None else f"no move: {moves}"]
    if k.ra is not None:
        shot = why_not("ranged", shooter_refusal)
        parts.append(f"shoots, Ra {k.ra:+d} (d10, d11)" if shot is None else f"no shot: {shot}")
    if battle.engaged(unit):
        fight = why_not("melee", fighter_refusal)
        parts.append(f"fights, Me {k.me:+d} (d12)" if fight is None else f"no melee: {fight}")
    rows: list[tuple[str, Any]] = [("reach", "; ".join(parts))]
    if unit.damaged_this_round and now < ROUND_STEPS.index("morale"):
        held = _chance(lambda face: morale_passes(face, k.mo, unit.taken))
        sums = f"1d20 + Mo {k.mo} - {unit.taken} Ht taken, {TARGET} or more"
        rows.append(("morale", f"checked at step 6: {sums} ({percent(held)}) (d14)"))
    elif unit.state in (SHAKEN, ROUTED):
        back = percent(_chance(lambda face: recovery_passes(face, k.mo)))
        rows.append(
            (
                "recovery",
                f"at each round's step 1: 1d20 + Mo {k.mo}, {TARGET} or more ({back}) (d4)",
            )
        )
    return rows


def _chance(passes: Callable[[int], bool]) -> float:
    """The share of 1d20's faces that pass."""
    return sum(map(passes, range(1, 21))) / 20


NEEDS = re.compile(r"needs (\d+)\+ on 1d20")


def _d20_odds(choice: Any) -> Text | None:
    """`A1 -> B5: needs 3+ (95%)` for each option that states what it needs on 1d20."""
    lines = []
    for option in choice.options:
        found = NEEDS.search(option.label)
        if option.disabled is None and found:
            need = int(found.group(1))
            chance = max(0, min(20, 21 - need)) / 20
            who = option.key.replace(">", " -> ")
            lines.append(f"{who}: needs {need}+ ({percent(chance)})")
    return facts.odds_line(lines)


def _candidates(battle: Battle, choice: Any) -> Table | None:
    """One line per unit the options offer (`which unit moves?`)."""
    uids = {u.uid: u for u in battle.units}
    seen: list[Unit] = []
    for option in choice.options:
        unit = uids.get(option.key.split(">")[0])
        if option.disabled is None and unit is not None and unit not in seen:
            seen.append(unit)
    if not seen:
        return None
    table = Table.grid(padding=(0, 1))
    for u in seen:
        k = u.kind
        table.add_row(
            Text(u.name, style=SIDE_STYLE[u.side]),
            battle.space_name(u),
            Text(u.state, style=STATE_STYLE.get(u.state, "green")),
            f"Ht taken {u.taken}/{k.ht}",
            f"Mv {k.mv} Me {k.me:+d} De {k.de}",
        )
    return table


def card(battle: Battle, choice: Any, names: dict[str, str] | None = None) -> Any:
    """The unit the question names (`Deploy A1 Knights`, `A1 Knights attacks ...`), or the
    units its options offer; with the chance each attack or shot has (from its 1d20 need)."""
    unit = facts.actor(choice.prompt, [(u.uid, u) for u in battle.units], choice.side)
    parts: list[Any] = []
    if unit is not None:
        parts.append(unit_card(battle, unit, brief=True))
    else:
        listed = _candidates(battle, choice)
        if listed is not None:
            parts.append(listed)
    chances = _d20_odds(choice) or facts.odds(choice)
    if chances is not None:
        parts.append(chances)
    return Group(*parts) if parts else None


def cards(battle: Battle, names: dict[str, str] | None = None) -> list[tuple[str, Any]]:
    return [(clean(u.name), unit_card(battle, u)) for u in battle.units]


VIEW = ViewOf(board, compact_board, card, cards, render_entry, middle_boards=middle_boards)
