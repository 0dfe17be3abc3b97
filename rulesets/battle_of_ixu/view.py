"""The Battle of Ixu on screen (rich): the field map from the shared tabletop view, with a
legend of who stands where, and a roster of every god's dice and wounds. The only module of
the ruleset that imports rich."""

from __future__ import annotations

from typing import Any

from rich.console import Group
from rich.table import Table
from rich.text import Text
from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Warrior

from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.mapfacts import MapFacts, Marker, Zone
from wargame_cli.tabletop.view import compact_map, map_key, one_line, table_map
from wargame_cli.text import SIDE_STYLE, clean
from wargame_cli.ui import facts
from wargame_cli.view import NOBODY_KNOWN, Players, ViewOf
from wargame_cli.wording import percent, plural

ECHOED = ("attribute", "move", "target")  # choice kinds whose event repeats them


def _dice(w: Warrior) -> str:
    if w.dice is None:
        return "-"
    return f'{w.dice.movement}" / {w.dice.combat} / {w.dice.defence}'


def _damage(w: Warrior) -> Text:
    if w.dead:
        return Text(f"fell, turn {w.died_turn}", style="dim")
    return Text(f"{w.damage}/{w.health}", style="bold red" if w.damage else "")


def _shown(state: IxuState) -> tuple[dict[str, int], list[Warrior]]:
    ranked = {wid: i + 1 for i, wid in enumerate(state.order)}
    return ranked, sorted(state.warriors, key=lambda w: (w.dead, ranked.get(w.id, 99), w.id))


def _name(w: Warrior) -> Text:
    return Text(f"{w.id} {clean(w.name)}", style="dim strike" if w.dead else SIDE_STYLE[w.side])


def roster(state: IxuState) -> facts.Fit:
    """Every model in this turn's order (then the fallen): experience, dice, wounds; one
    stacked block per model when the table would not fit the terminal."""
    title = f"Turn {state.turn}: {state.phase}"
    table = Table(title=title, header_style="bold", expand=False)
    for column in ("#", "model", "experience", "rolled", "move/combat/defence", "damage"):
        table.add_column(column, no_wrap=True)
    ranked, shown = _shown(state)
    for w in shown:
        table.add_row(
            str(ranked.get(w.id, "")) if not w.dead else "",
            _name(w),
            f"{w.experience} {w.rating}",
            " ".join(map(str, sorted(w.rolled, reverse=True))) or "-",
            _dice(w),
            _damage(w),
        )
    stacked = Table.grid(padding=(0, 1))
    stacked.add_column(no_wrap=True)
    stacked.add_column()
    for w in shown:
        order = f"#{ranked[w.id]} " if w.id in ranked and not w.dead else ""
        head = Text(order) + _name(w)
        line = Text(f"exp {w.experience} {w.rating}; rolled ")
        line.append(" ".join(map(str, sorted(w.rolled, reverse=True))) or "-")
        line.append(f"; move/combat/defence {_dice(w)}; damage ")
        line.append_text(_damage(w))
        stacked.add_row(head, line)
    return facts.Fit(table, Group(Text(title, style="italic"), stacked))


def _legend(state: IxuState) -> Table:
    """Who each map label is and where it stands (and whom it touches): a column per side (the
    field is open plain, so no terrain key)."""
    grid = Table.grid(padding=(0, 3))
    columns = [state.standing(side) for side in ("A", "B")]
    for _ in columns:
        grid.add_column(no_wrap=True)
    for row in range(max(len(c) for c in columns)):
        cells = []
        for column in columns:
            if row < len(column):
                w = column[row]
                cell = Text(w.id, style=SIDE_STYLE[w.side])
                cell.append(f" {clean(w.name)} ({w.pos.key()})", style="")
                foes = state.engaged(w)
                if foes:
                    cell.append(f" contact: {' '.join(f.id for f in foes)}", style="bold")
                cells.append(cell)
            else:
                cells.append(Text(""))
        grid.add_row(*cells)
    return grid


def field(state: IxuState, title: str) -> Group:
    """The map of the plains with its legend."""
    return Group(table_map(state.table, _markers(state), title), _legend(state))


def board(state: IxuState, names: dict[str, str] | None = None) -> Group:
    """The whole situation: the map, then every god's dice and wounds."""
    title = f"The plains of Ixu, turn {state.turn}" if state.turn else "The plains of Ixu"
    return Group(field(state, title), roster(state))


def _phase_done(state: IxuState, entry: dict[str, Any], phase: str) -> bool:
    """Is `entry` the last model's event of `phase` this turn?"""
    order = state.in_order()
    data = entry.get("data") or {}
    return state.phase == phase and bool(order) and data.get("model") == order[-1].name


def render_entry(
    entry: dict[str, Any], state: IxuState, names: dict[str, str], players: Players = NOBODY_KNOWN
) -> Any:
    """The whole board before the first dice; each turn the roster once dice are attributed
    and the map once everyone has moved; deaths stand out. Rolls and decisions are not
    echoed: the event after each one states its faces and result."""
    if entry["t"] == "roll" or (entry["t"] == "choice" and entry.get("kind") in ECHOED):
        return False
    if entry["t"] != "event":
        return None
    kind = entry.get("kind")
    text = Text(clean(entry["text"]))
    if kind == "death":
        text.stylize("bold red")
        return text
    if kind == "charge":
        text.stylize("bold")
    if kind == "order" and state.turn == 1:  # where everyone stands before the first dice
        return Group(text, board(state, names))
    if kind == "attribute" and _phase_done(state, entry, "attribution"):
        return Group(text, roster(state))
    if kind in ("move", "charge", "stand") and _phase_done(state, entry, "movement"):
        return Group(text, field(state, f"After the movement, turn {state.turn}"))
    return text


def _markers(state: IxuState) -> list[Marker]:
    return [
        Marker(
            w.id,
            w.pos,
            w.side,
            f"{w.name} ({clean(state.names[w.side])})",
            contact=bool(state.engaged(w)),
            radius=w.radius,
        )
        for w in state.standing()
    ]


# -- the decision screen's pieces -------------------------------------------------------------


def _title(state: IxuState) -> str:
    return f"Ixu, turn {state.turn}: {state.phase}" if state.turn else "The plains of Ixu"


def _side_lines(state: IxuState) -> list[Text]:
    lines = []
    for side in ("A", "B"):
        line = Text(f"{side} {clean(state.names[side])}:", style=SIDE_STYLE[side])
        for w in state.standing(side):
            line.append(f" {w.id} {w.remaining}/{w.health}")
        lines.append(line)
    return lines


def map_facts(state: IxuState, names: dict[str, str] | None = None, choice: Any = None) -> MapFacts:
    """The one map's facts: every model standing, each side's edge (c5: each warband in line
    along its own edge), the model a question is about."""
    marks = tuple(_markers(state))
    deploying = state.phase == "deployment"  # the key says how only while it matters
    words = "deployed: in line along the own edge (c5)" if deploying else ""
    zones = (Zone("A", words, edge="south"), Zone("B", words, edge="north"))
    origin = None
    if choice is not None:
        w = facts.actor(choice.prompt, ((x.name, x) for x in state.warriors), choice.side)
        origin = next((m for m in marks if w is not None and m.label == w.id), None)
    targets: tuple[tuple[str, Point], ...] = ()
    if choice is not None and choice.kind == "target":  # c6: whom to fight
        at = {x.id: x.pos for x in state.standing()}
        targets = tuple((o.key, at[o.key]) for o in choice.options if o.key in at)
    return MapFacts(
        state.table,
        marks,
        _title(state),
        zones,
        tuple(state.names.items()),
        origin,
        (one_line(_side_lines(state)),),
        targets,
    )


def compact_board(state: IxuState, names: dict[str, str] | None = None) -> Group:
    """The field at a coarser scale and a line with each side's models and health left."""
    marks = _markers(state)
    return Group(
        compact_map(state.table, marks, _title(state)),
        *map_key(marks),
        one_line(_side_lines(state)),
    )


def warrior_card(state: IxuState, w: Warrior, brief: bool = False) -> Any:
    """One model: experience, health and damage, this turn's dice, place, contact, and what
    it did and may still do this turn."""
    ranked = {wid: i + 1 for i, wid in enumerate(state.order)}
    rows: list[tuple[str, Any]] = [
        (
            "experience",
            f"{w.experience} ({w.rating}): rolls {plural(w.pool, 'die', 'dice')} a turn",
        ),
        ("damage", _damage(w)),
    ]
    if w.ranged is not None:
        rows.append(("ranged", f"{w.ranged.words()}: shoots in phase 3 when not in contact (c9)"))
    if not w.dead:
        rows.append(("left", f"{w.remaining} of {w.health} health"))
        if w.id in ranked:
            rows.append(("order", f"#{ranked[w.id]} of {len(state.order)} this turn"))
        rows.append(("rolled", " ".join(map(str, sorted(w.rolled, reverse=True))) or "-"))
        rows.append(("dice", f"move/combat/defence {_dice(w)}"))
        rows.append(("at", w.pos.key()))
        foes = state.engaged(w)
        if foes:
            rows.append(("contact", ", ".join(f"{f.id} {clean(f.name)}" for f in foes)))
        rows += _turn_rows(state, w)
        enemies = state.enemies(w)
        if enemies:
            near = min(enemies, key=lambda e: state.gap_to(w, e))
            rows.append(
                ("nearest", f'{near.id} {clean(near.name)}, {state.gap_to(w, near):.1f}" away')
            )
    return facts.card(f"{w.id} {w.name}", w.side, rows, brief=brief)


def _turn_rows(state: IxuState, w: Warrior) -> list[tuple[str, Any]]:
    """What the model itself did and may still do this turn: its move (c5) until it has
    moved, then how far it went; its fight (c6) until it has had it; its health check (c8)
    once it is damaged."""
    if w.dice is None:
        return []
    rows: list[tuple[str, Any]] = []
    if w.moved is not None:
        rows.append(("moved", f'{w.moved:g}" this turn' if w.moved else "no, it stood fast"))
    elif state.phase in ("attribution", "movement"):
        rows.append(("reach", f'moves up to {w.dice.movement}" this turn (c5)'))
    rows.append(("fight", _fight(state, w)))
    if w.damaged_this_turn:
        falls = percent(min(1.0, w.damage / 10))
        check = f"at the turn's end, falls on a d10 of {w.damage} or less ({falls}) (c8)"
        rows.append(("check", "passed this turn (c8)" if w.checked else check))
    return rows


def _fight(state: IxuState, w: Warrior) -> str:
    """Its fight this turn (c6): whom it attacked, or whom it may attack and when."""
    assert w.dice is not None
    if w.attacked == "hold":
        return "held back this turn (c6)"
    if w.attacked is not None:
        shot = w.ranged is not None and not state.engaged(w)
        verb, rule = ("shot at", "c9") if shot else ("attacked", "c6")
        return f"{verb} {clean(state.name_of(w.attacked))} this turn ({rule})"
    foes = state.engaged(w)
    if w.ranged is not None and not foes and state.phase in ("attribution", "movement"):
        return f'none in contact: may shoot one within {w.ranged.range:g}" in phase 3 (c9)'
    shots = state.in_range(w) if state.phase == "combat" else []
    if shots and w.ranged is not None:
        whom = " or ".join(clean(f.name) for f in shots)
        dice = plural(w.ranged.count(w.dice.combat), "die", "dice")
        return f"may shoot {whom} with {dice} {'now' if w.fought else 'at its turn'} (c9)"
    if (w.fought and not foes) or state.phase == "health":
        return "no enemy in contact at its turn: no fight this turn (c6)"
    when = ("now" if w.fought else "at its turn") if state.phase == "combat" else "in phase 3"
    if foes:
        whom = " or ".join(clean(f.name) for f in foes)
        return f"may attack {whom} with {plural(w.dice.combat, 'die', 'dice')} {when} (c6)"
    if state.phase == "combat":
        return "no enemy in contact: no fight this turn (c6)"
    if w.moved is None:
        return "none in contact yet: fights in phase 3 if it or an enemy moves into contact (c6)"
    return "none in contact now: fights in phase 3 only if an enemy moves into contact (c6)"


def card(state: IxuState, choice: Any, names: dict[str, str] | None = None) -> Any:
    """The model the question is about, with the odds its options state."""
    w = facts.actor(choice.prompt, ((x.name, x) for x in state.warriors), choice.side)
    parts: list[Any] = [warrior_card(state, w, brief=True)] if w is not None else []
    chances = facts.odds(choice)
    if chances is not None:
        parts.append(chances)
    return Group(*parts) if parts else None


def cards(state: IxuState, names: dict[str, str] | None = None) -> list[tuple[str, Any]]:
    return [(f"{w.id} {clean(w.name)}", warrior_card(state, w)) for w in state.warriors]


VIEW = ViewOf(board, compact_board, card, cards, render_entry, map_facts=map_facts)
