"""Mobs and Morale on screen: the table map, the roster of creatures and mobs with their
pools, and the after-battle casualty table (e30). The only module here that imports rich."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from rich.console import Group
from rich.rule import Rule
from rich.table import Table
from rich.text import Text
from wargame_cli.rulesets.mobs_and_morale.moves import lead
from wargame_cli.rulesets.mobs_and_morale.state import RADIUS, STANDING, Battle, Creature, Mob

from wargame_cli.kit.sides import other
from wargame_cli.tabletop.grid import piece_letters
from wargame_cli.tabletop.mapfacts import MapFacts, Marker, Zone, side_case
from wargame_cli.tabletop.movement import gap
from wargame_cli.tabletop.table import TerrainKind
from wargame_cli.tabletop.view import TERRAIN_CELL, compact_map, one_line, table_map
from wargame_cli.text import SIDE_STYLE, clean
from wargame_cli.ui import facts
from wargame_cli.ui.live import generic
from wargame_cli.view import NOBODY_KNOWN, Players, ViewOf
from wargame_cli.wording import possessive

STATUS_STYLE = {STANDING: "", "dead": "dim strike", "fled": "dim", "straggler": "dim"}
TERRAIN_WORDS = {
    TerrainKind.BLOCKING: "blocking: no entry",
    TerrainKind.HARD: "scenery",
    TerrainKind.SOFT: "scenery",
}
# Choices whose outcome the next event states in full (a move, a deployment, an attack, a
# ruling, who falls or flees): echoing the answer too would only repeat it.
TOLD_BY_EVENTS = frozenset(
    {"turn", "move", "deploy", "action", "ruling", "casualty", "tracker", "power"}
)
# Rolls whose faces the next event states (attack, defence, morale, a controller's hold).
FACES_IN_EVENTS = frozenset({"e12", "e19", "e13", "e24", "e25"})


def map_label(c: Creature) -> str:
    """A creature's label on the map and in the roster, in its side's case (side A in capitals,
    side B in small letters), so the sides read apart without colour."""
    return side_case(clean(c.label)[:2], c.side)


def case_key(names: dict[str, str]) -> Text:
    """The line saying which case is which side."""
    line = Text("On the map: ")
    line.append("CAPITALS", style=SIDE_STYLE["A"])
    line.append(f" {clean(names.get('A', 'side A'))}, ")
    line.append("small letters", style=SIDE_STYLE["B"])
    line.append(f" {clean(names.get('B', 'side B'))}; the dead and fled are off the map")
    return line


def markers(b: Battle) -> list[Marker]:
    """The creatures standing on the table (the dead, fled and escaped are off it; the roster
    and mob table list them)."""
    return [
        Marker(map_label(c), c.pos, c.side, c.id, radius=RADIUS)
        for c in b.creatures.values()
        if c.standing and c.pos is not None
    ]


def terrain_key(b: Battle) -> Text:
    """One line naming the terrain on this table by its map symbol and letter."""
    line = Text()
    letters = piece_letters(b.table)
    for kind in TerrainKind:
        names = [
            f"{letters.get(p.name, '')} {p.name}".strip() for p in b.table.pieces if p.kind is kind
        ]
        if not names:
            continue
        symbol, style = TERRAIN_CELL[kind]
        if line:
            line.append("   ")
        line.append(symbol, style=style)
        line.append(f" {clean(', '.join(names))} ({TERRAIN_WORDS[kind]})")
    return line


def roster(b: Battle) -> Table:
    """Every creature on the table (and fallen characters), with its map label."""
    table = Table(title="Creatures", show_header=True, header_style="bold")
    for column in ("side", "map", "creature", "health", "P/F/D", "where", "status"):
        table.add_column(column)
    for c in b.creatures.values():
        if c.mob is not None and c.status != STANDING:
            continue  # fallen minions are counted in their mob's pools below
        where = c.pos.key() if c.pos is not None else "-"
        style = SIDE_STYLE.get(c.side, "")
        table.add_row(
            Text(c.side, style=style),
            Text(map_label(c), style=style),
            Text(clean(c.id), style=STATUS_STYLE.get(c.status, "")),
            f"{c.health}/{c.max_health}",
            f"{c.presence}/{c.fierce}/{c.defence}",
            where,
            c.status,
        )
    return table


def mobs(b: Battle) -> Table:
    """Each mob (named in its side's colour) with its controller, morale and pools."""
    table = Table(title="Mobs", show_header=True, header_style="bold")
    for column in ("mob", "controller", "standing", "morale", "dead pool", "casualty pool"):
        table.add_column(column)
    for m in b.mobs.values():
        boss = b.controller(m)
        table.add_row(
            Text(clean(m.name), style=SIDE_STYLE.get(m.side, "")),
            clean(boss.id) if boss else "uncontrolled",
            f"{len(b.figures(m))}/{len(m.members)}",
            str(m.morale),
            str(len(m.dead_pool)),
            str(len(m.casualty_pool)),
        )
    return table


def after_battle(b: Battle, names: dict[str, str]) -> Group:
    """e30: each side's casualty pool, every figure with its d10 and its fate; a side not
    rolled for (the GM's, unless npc_survival) is one line."""
    parts: list[Any] = []
    for side, rows in b.after.items():
        name = clean(names.get(side, side))
        if not rows:  # one line, not an empty table's frame
            parts.append(Text(f"{name}: no casualties", style=SIDE_STYLE.get(side, "")))
            continue
        if all(r["roll"] is None for r in rows):
            who = ", ".join(clean(r["creature"]) for r in rows)
            why = "the GM's call" if b.rules_version >= 3 else "npc_survival is off"
            parts.append(Text(f"{name}: not rolled for ({why}): {who}", style="dim"))
            continue
        table = Table(
            title=f"After the battle: {name}",
            title_style=SIDE_STYLE.get(side, ""),
            header_style="bold",
            caption="a d10 each: 5+ lives",
        )
        minions = any(r["mob"] for r in rows)
        for column in ("creature", "mob", "removed as", "d10", "fate"):
            if column != "mob" or minions:
                table.add_column(column)
        for row in rows:
            fate = row["fate"]
            style = "green" if fate in ("wounded", "missing") else "red" if fate == "lost" else ""
            table.add_row(
                clean(row["creature"]),
                *([clean(row["mob"] or "")] if minions else []),
                row["how"],
                "-" if row["roll"] is None else str(row["roll"]),
                Text(fate, style=style),
            )
        parts.append(table)
    return Group(*parts)


def areas(b: Battle, names: dict[str, str]) -> Text:
    """Where each side deploys (e1): the map does not draw the areas."""
    line = Text("Deployment areas: ")
    for i, (side, found) in enumerate(b.areas.items()):
        if i:
            line.append("; ")
        line.append(clean(names.get(side, side)), style=SIDE_STYLE.get(side, ""))
        for j, area in enumerate(found):
            r = area.rect
            named = len(found) > 1 or area.name != _strip(b, side)
            word = (" or " if j else " in ") + clean(area.name) if named else ""
            line.append(f"{word} x {r.x0:g}-{r.x1:g}, y {r.y0:g}-{r.y1:g}")
    return line


def _strip(b: Battle, side: str) -> str:
    """The name of a side's default area (the strip along its edge): not repeated."""
    return f"{possessive(b.sides[side].name)} deployment area"


def board(state: Battle, names: dict[str, str] | None = None, round_no: int | None = None) -> Group:
    title = f"{state.table.name} (round {state.round if round_no is None else round_no})"
    parts: list[Any] = [table_map(state.table, markers(state), title)]
    if state.table.pieces:
        parts.append(terrain_key(state))
    parts.append(case_key({s: st.name for s, st in state.sides.items()}))
    if any(c.pos is not None for c in state.creatures.values()):
        parts.append(roster(state))
        if state.mobs:
            parts.append(mobs(state))
    for side, st in state.sides.items():
        if st.retreating:
            line = Text(clean(st.name), style=SIDE_STYLE.get(side, ""))
            parts.append(line.append(" is retreating toward its table edge (e29)"))
    return Group(*parts)


def render_entry(
    entry: dict[str, Any], state: Battle, names: dict[str, str], players: Players = NOBODY_KNOWN
) -> Any:
    """The table before deployment, the board at the start of every round, the after-battle
    table at the end; answers the next event tells in full are not echoed."""
    if entry["t"] == "turn":
        return Group(Rule(f"Round {entry['n']}"), board(state, names, entry["n"]))
    if entry["t"] == "end":
        return Group(board(state, names), after_battle(state, names), generic(entry, names))
    if entry["t"] == "choice" and entry.get("kind") in TOLD_BY_EVENTS:
        return False
    if entry["t"] == "roll" and set(entry.get("rules", ())) <= FACES_IN_EVENTS:
        return False
    if entry["t"] == "event" and entry.get("kind") == "deploy" and _unseen(state, entry):
        return False  # a hidden deployment: the other side's placing is not on this screen
    if entry["t"] == "event" and entry.get("kind") == "deployment":
        table = table_map(state.table, [], f"{state.table.name}: setup")
        key = [terrain_key(state)] if state.table.pieces else []
        # the key goes with its map: the decision screen, which draws the board (and its key)
        # above, keeps only this entry's own lines
        return Group(Text(clean(entry["text"])), Group(table, *key), areas(state, names))
    return None


def _unseen(state: Battle, entry: dict[str, Any]) -> bool:
    """Is this deployment about pieces the state, as seen by the side deciding, leaves out?"""
    placed = entry.get("data", {}).get("at", {})
    return any(fid in state.creatures and state.creatures[fid].pos is None for fid in placed)


def seen_by(state: Battle, side: str | None) -> Battle:
    """e2, hidden: while the sides deploy unseen, the side deciding sees only its own pieces
    (a copy of the state whose other side has not deployed yet); otherwise the state."""
    if not state.hidden or side not in ("A", "B"):
        return state
    copy = replace(state, creatures=dict(state.creatures), unseen=other(side))
    for cid, c in state.creatures.items():
        if c.side != side and c.pos is not None:
            copy.creatures[cid] = replace(c, pos=None)
    copy._memo = {}
    copy._memo_at = -1
    return copy


# -- the decision screen's pieces -------------------------------------------------------------


COMPACT_ROWS = 5  # a mob's move menu is long: the compact board keeps to 8 lines


def _side_line(b: Battle, side: str) -> Text:
    """One line per side under the compact map: who stands, with health or figures left."""
    st = b.sides[side]
    line = Text(f"{side}:", style=SIDE_STYLE.get(side, ""))
    for c in b.characters(side):
        line.append(f" {map_label(c)} {c.health}/{c.max_health}")
    for m in b.live_mobs(side):
        line.append(f" {clean(m.name)} {len(b.figures(m))}/{len(m.members)}")
    waiting = [
        c for c in b.creatures.values() if c.side == side and c.pos is None and c.status == STANDING
    ]
    if b.unseen == side:  # a hidden deployment: its pieces are not shown, deployed or not
        line.append(" hidden until both sides have deployed")
    elif waiting:  # deployment: say who is still to come rather than leave the side blank
        line.append(f" {len(waiting)} to deploy")
    if st.retreating:
        line.append(" (retreating)")
    return line


def compact_board(state: Battle, names: dict[str, str] | None = None) -> Group:
    """The table at a coarser scale, then who stands on each side (health, figures left)."""
    title = f"{state.table.name} (round {state.round})"
    return Group(
        compact_map(state.table, markers(state), title, rows=COMPACT_ROWS),
        one_line([_side_line(state, side) for side in ("A", "B")]),
    )


DEPLOYING = ("setup", "deployment")  # the phases in which the key says where each side deploys


def _zones(b: Battle, side: str) -> list[Zone]:
    """A side's deployment areas (e1), each along the edge it touches, if any; said in words
    only while deploying (the key shows what applies now)."""
    zones = []
    for area in b.areas[side]:
        r = area.rect
        edge = "south" if r.y0 <= 0 else "north" if r.y1 >= b.table.height else ""
        named = f"{area.name}: " if len(b.areas[side]) > 1 else ""
        across = r.x0 <= 0 and r.x1 >= b.table.width  # the whole width: only y is news
        span = f"y {r.y0:g}-{r.y1:g}" if across else f"x {r.x0:g}-{r.x1:g}, y {r.y0:g}-{r.y1:g}"
        words = f"{named}deploys in {span} (e1)" if b.phase in DEPLOYING else ""
        zones.append(Zone(side, words, r, edge))
    return zones


def map_facts(b: Battle, names: dict[str, str] | None = None, choice: Any = None) -> MapFacts:
    """The one map's facts: every creature standing, each side's deployment area, the
    creature (or mob's lead figure) a question is about."""
    marks = tuple(markers(b))
    origin = None
    if choice is not None:
        pieces = {c.id: c for c in b.creatures.values()}
        for mob in b.mobs.values():
            if b.figures(mob):
                pieces[mob.name] = lead(b, mob)  # a typed spot moves the lead figure
        c = facts.actor(choice.prompt, pieces.items(), choice.side)
        origin = next((m for m in marks if c is not None and m.name == c.id), None)
    targets = []
    for o in choice.options if choice is not None else ():
        if o.key.startswith("attack:"):  # e11: each attack at the unit it strikes
            people = [f for f in b.unit_figures(o.key.removeprefix("attack:")) if f.pos]
            if people:
                targets.append((o.key, people[0].at))
    return MapFacts(
        b.table,
        marks,
        f"{b.table.name} (round {b.round})",
        tuple(zone for side in sorted(b.areas) for zone in _zones(b, side)),
        tuple((s, st.name) for s, st in b.sides.items()),
        origin,
        (one_line([_side_line(b, side) for side in ("A", "B")]),),
        tuple(targets),
        tuple((kind.value, words) for kind, words in TERRAIN_WORDS.items()),
    )


def _place(b: Battle, c: Creature) -> str:
    if c.pos is None:
        return "not yet deployed" if c.status == STANDING else c.status
    terrain = b.table.pieces_at(c.pos)
    return c.pos.key() + (f" in {', '.join(clean(p.name) for p in terrain)}" if terrain else "")


def creature_card(b: Battle, c: Creature, brief: bool = False) -> Any:
    """One creature: profile, health, move and reach, its mob's morale (a minion's), traits,
    where, and the enemies its attack reaches now."""
    reach = c.reach(float(b.options.get("reach", 2)))
    rows: list[tuple[str, Any]] = [
        ("profile", clean(c.profile) + (f", of {clean(c.mob)}" if c.mob else "")),
        ("P/F/D", f"presence {c.presence}, fierce {c.fierce}, defence {c.defence}"),
        (
            "health",
            f"{c.health}/{c.max_health}" + (f" ({c.status})" if c.status != STANDING else ""),
        ),
        _this_round(b, b.unit_of(c), c.move, reach),
    ]
    if c.mob is not None:  # a morale score is a mob's (e24): a character has none
        rows.append(("morale", f"{b.mobs[c.mob].morale}, its mob's (e24)"))
    rows.append(("position", _place(b, c)))
    if c.traits:
        rows.append(("traits", ", ".join(clean(t) for t in c.traits)))
    if c.standing:
        near = [e for e in b.standing(other(c.side)) if c.in_range(e, reach)]
        if near:
            rows.append(("in reach", ", ".join(f"{map_label(e)} {clean(e.id)}" for e in near)))
    return facts.card(f"{map_label(c)} {c.id}", c.side, rows, brief=brief)


def _this_round(b: Battle, unit: str, move: float, reach: float) -> tuple[str, str]:
    """What the unit may still do in its turn this round (e8: move and act, each once, in
    either order), or what it did once it has done any of it."""
    did = b.did.get(unit, set())
    moves, attacks = f'move up to {move:g}"', f'attack within {reach:g}"'
    if not did:
        return ("reach", f'moves {move:g}", attacks within {reach:g}"')
    moved, acted = "moved" in did, "acted" in did
    if "over" in did or (moved and acted):
        done = f"{'moved' if moved else 'did not move'} and {'acted' if acted else 'did not act'}"
        return ("this round", f"{done}: its turn is over (e10)")
    if moved:
        return ("this round", f"moved; may still act ({attacks}) (e8)")
    return ("this round", f"acted; may still {moves} (e8)")


def mob_card(b: Battle, m: Mob, brief: bool = False) -> Any:
    """One mob: its figures, controller, morale and pools, and its nearest enemy."""
    figures = b.figures(m)
    boss = b.controller(m)
    rows: list[tuple[str, Any]] = [
        ("figures", f"{len(figures)} of {len(m.members)} standing"),
        ("controller", clean(boss.id) if boss else "none (uncontrolled)"),
        ("morale", str(m.morale)),
        ("pools", f"dead {len(m.dead_pool)}, casualty {len(m.casualty_pool)}"),
    ]
    if figures:
        f = figures[0]
        rows.append(("each", f'P/F/D {f.presence}/{f.fierce}/{f.defence}, moves {f.move:g}"'))
        if b.did.get(f"mob:{m.name}"):
            reach = max(x.reach(float(b.options.get("reach", 2))) for x in figures)
            speed = min(x.move for x in figures)
            rows.append(_this_round(b, f"mob:{m.name}", speed, reach))
        foes = b.standing(other(m.side))
        if foes:
            near = min(foes, key=lambda e: min(gap(x.body(), e.body()) for x in figures))
            far = min(gap(x.body(), near.body()) for x in figures)
            rows.append(("nearest", f'{map_label(near)} {clean(near.id)}, {far:.1f}" away'))
    return facts.card(m.name, m.side, rows, brief=brief)


def card(state: Battle, choice: Any, names: dict[str, str] | None = None) -> Any:
    """The creature or mob the question names, with the odds its options state."""
    pieces: dict[str, Any] = {c.id: c for c in state.creatures.values()}
    pieces.update(state.mobs)
    found = facts.actor(choice.prompt, pieces.items(), choice.side)
    parts: list[Any] = []
    if isinstance(found, Creature):
        parts.append(creature_card(state, found, brief=True))
    elif isinstance(found, Mob):
        parts.append(mob_card(state, found, brief=True))
    chances = facts.odds(choice)
    if chances is not None:
        parts.append(chances)
    return Group(*parts) if parts else None


def cards(state: Battle, names: dict[str, str] | None = None) -> list[tuple[str, Any]]:
    """Every character and every mob."""
    out: list[tuple[str, Any]] = [
        (f"{map_label(c)} {clean(c.id)}", creature_card(state, c))
        for c in state.creatures.values()
        if c.mob is None
    ]
    out += [(clean(m.name), mob_card(state, m)) for m in state.mobs.values()]
    return out


VIEW = ViewOf(board, compact_board, card, cards, render_entry, seen_by, map_facts)
