"""The battle: setup, rounds of initiative, turns and morale, the end of the battle and the
casualty rolls afterwards (e1-e30). Pure: the game asks for dice and decisions and reports
events; it never prints, prompts or rolls."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.mobs_and_morale import bot, initiative, pools, survival
from wargame_cli.rulesets.mobs_and_morale.deploy import deploy
from wargame_cli.rulesets.mobs_and_morale.morale import morale_phase, to_casualties
from wargame_cli.rulesets.mobs_and_morale.state import (
    DEAD,
    EDGE,
    ESCAPED,
    Battle,
    Creature,
    Mob,
    SideState,
    to_json,
)
from wargame_cli.rulesets.mobs_and_morale.turns import Steps, take_turn

from wargame_cli.engine.requests import Choice, Event, Option, Outcome, Play, Roll, TurnStart
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.tabletop.areas import area_of, edge_strip
from wargame_cli.tabletop.table import Table
from wargame_cli.wording import plural, possessive


def new_battle(
    names: dict[str, str], teams: dict[str, dict[str, Any]], options: dict[str, Any]
) -> Battle:
    """Creatures from both teams with unique names, mobs, the table and the areas (e1)."""
    table = Table.from_data(options["table"])
    named = options["table"].get("areas", [])  # a scenario's own areas (version 3)
    areas = {
        s: tuple(area_of(a) for a in named if a["side"] == s)
        or (
            edge_strip(
                table, EDGE[s], options["deploy_depth"], f"{possessive(names[s])} deployment area"
            ),
        )
        for s in SIDES
    }
    b = Battle(table, areas, dict(options), {}, {}, {s: SideState(names[s]) for s in SIDES})
    letters: set[str] = set()  # one letter per mob: its figures are the letter and a digit
    labels: set[str] = set()  # every map label, so no two creatures share one
    for side in SIDES:
        team = teams[side]
        ids: dict[str, str] = {}  # the team's names -> unique creature ids
        for ch in team["characters"]:
            cid = ids[ch["name"]] = _unique(b, ch["name"], side)
            _add(b, side, cid, ch, None, _label(_character_labels(cid), labels))
        for m in team["mobs"]:
            name = _unique(b, m["name"], side)
            letter = _letter(name, letters)
            members: list[str] = []
            mob = Mob(name, side, None, members, max(x["morale"] for x in m["members"]))
            b.mobs[name] = mob
            for stats in m["members"]:
                for _ in range(stats["count"]):
                    n = len(members) + 1
                    cid = _unique(b, f"{name} {n}", side)
                    _add(b, side, cid, stats, name, _label(_figure_labels(letter, n), labels))
                    members.append(cid)
            if m["controller"] is not None:
                mob.controller = ids[m["controller"]]
    return b


def _letter(name: str, used: set[str]) -> str:
    """A mob's map letter: the first of its name's letters not taken, else any free one."""
    pool = [ch for ch in name.lower() if ch.isalpha()] + list("abcdefghijklmnopqrstuvwxyz")
    letter = next((ch for ch in pool if ch not in used), "?")
    used.add(letter)
    return letter


def _character_labels(name: str) -> list[str]:
    """`Br` for Brakka; `R2` for "Ranger 2" when `Ra` is taken; then its first letter and any
    other character of its name."""
    chars = [ch for ch in name if ch.isalnum()] or ["?"]
    first = chars[0].upper()
    return [name[:2], first + chars[-1]] + [first + ch for ch in chars[1:]]


def _figure_labels(letter: str, n: int) -> list[str]:
    """Figure n of a mob lettered `r`: r1..r9, then R0..R9 for 10-19, then r + another
    letter."""
    if n < 10:
        return [f"{letter}{n}"]
    if n < 20:
        return [f"{letter.upper()}{n - 10}"]
    return [letter + chr(ord("a") + n - 20)] if n < 46 else []


def _label(wanted: list[str], used: set[str]) -> str:
    """The first wanted label not yet used, else any free letter-digit pair."""
    spare = (
        f"{a}{d}"
        for a in "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
        for d in "0123456789"
    )
    label = next((w for w in [*wanted, *spare] if w not in used), "??")
    used.add(label)
    return label


def _unique(b: Battle, name: str, side: str) -> str:
    """The name, or when it is taken (the other side has a Brakka too), "Brakka (B)"."""

    def taken(n: str) -> bool:
        return n in b.creatures or n in b.mobs

    out, n = name, 1
    while taken(out):
        n += 1
        out = f"{name} ({side}{n if n > 2 else ''})"
    return out


def _add(
    b: Battle, side: str, cid: str, stats: dict[str, Any], mob: str | None, label: str
) -> None:
    b.creatures[cid] = Creature(
        id=cid,
        side=side,
        profile=stats["profile"],
        presence=stats["presence"],
        fierce=stats["fierce"],
        defence=stats["defence"],
        max_health=stats["health"],
        initiative=stats["initiative"],
        move=stats["move"],
        morale=stats["morale"],
        traits=tuple(stats["traits"]),
        minion=stats["minion"],
        mob=mob,
        label=label,
        attack_range=stats["ranged"]["range"] if "ranged" in stats else stats.get("reach"),
        ranged=stats["ranged"]["name"] if "ranged" in stats else "",
        actions=tuple(stats.get("actions", ())),
        damage=stats.get("damage", 0),  # a campaign's old wounds
    )


# for a creature the GM adds mid-battle (`edits.py`): named, labelled and made as these are
unique_name, add_creature = _unique, _add


def figure_label(letter: str, n: int, used: set[str]) -> str:
    """The map label of figure `n` of the mob lettered `letter` (a figure the GM adds)."""
    return _label(_figure_labels(letter, n), used)


def pick_label(name: str, used: set[str]) -> str:
    return _label(_character_labels(name), used)


class MobsGame:
    def __init__(self, battle: Battle, at_turn: bool = False) -> None:
        """`at_turn`: the game stands at a turn's start (a position restored), so its
        generator begins with that turn, its setting up done."""
        self.state = battle
        self.at_turn = at_turn

    def state_json(self) -> dict[str, Any]:
        return to_json(self.state)

    def play(self) -> Play:
        b = self.state
        limit = int(b.options["max_rounds"])  # 0: off (games with a person)
        told = limit if b.rules_version >= 2 else 0  # version 1: a plain cap, not announced
        if told and not self.at_turn:
            yield Event(
                f"Round limit: if the battle is still on after round {limit}, both sides draw "
                "off (max_rounds, a safeguard so that computer games end)",
                rules=("e29",),
                kind="round_limit",
                data={"max_rounds": limit},
            )
        if not self.at_turn:
            yield from deploy(b)
        while True:
            yield TurnStart(b.round + 1, rules=("e10", "e28"))
            b.round += 1  # after the engine's save point, so a stopped game shows its last round
            b.did = {}
            if b.round == told:
                yield Event(
                    f"Round {limit} is the last (max_rounds): unless the battle ends before, "
                    "both sides draw off after it",
                    rules=("e29",),
                    kind="round_limit",
                    data={"max_rounds": limit, "last": True},
                )
            yield from initiative_phase(b)
            b.phase = "turns"
            b.slots, b.at = slots(b), 0
            while b.at < len(b.slots):  # the GM's tracker may change the rest (version 3)
                slot = b.slots[b.at]
                done: set[str] = set()
                b.delayed = False
                for unit in slot:
                    if unit in done:
                        continue
                    # e5: the controller may let its mobs act first (they share its slot)
                    waiting = [u for u in slot[1:] if u not in done] if unit == slot[0] else []
                    done |= yield from take_turn(b, unit, waiting)
                    over = battle_over(b)
                    if over:
                        return (yield from finish(b, *over))
                    if b.delayed:
                        break  # its turn moved later: the tracker points at the next one
                if not b.delayed:
                    b.at += 1
            b.phase = "morale"
            yield from morale_phase(b)
            over = battle_over(b)
            if over:
                return (yield from finish(b, *over))
            b.phase = "end of round"
            yield from retreat_phase(b)
            over = battle_over(b)
            if over:
                return (yield from finish(b, *over))
            if limit and b.round >= limit:
                reason = (
                    f"round {b.round} was the last (max_rounds, a safeguard for computer "
                    "games): both sides draw off"
                )
                return (yield from finish(b, None, reason, ("e29",), "round limit (max_rounds)"))


def initiative_phase(b: Battle) -> Steps:
    """e4-e7 each round; minions act in their controller's slot (e5)."""
    b.phase = "initiative"
    ranked, scores = yield from initiative.roll_initiative(
        initiative.contenders(b), b.options["die"], b.options["success_on"], "initiative"
    )
    b.order = [u for slot in ranked for u in initiative.slot_units(b, slot.key)]
    text = ", ".join(
        initiative.describe(c, ranked, scores, [m[4:] for m in initiative.slot_units(b, c.key)[1:]])
        for c in ranked
    )
    yield Event(
        f"Round {b.round} initiative: {text}",
        rules=("e4", "e5", "e6", "e7"),
        kind="initiative",
        data={"order": [c.key for c in ranked], "successes": scores, "units": list(b.order)},
    )


def slots(b: Battle) -> list[list[str]]:
    """This round's initiative slots: a character with the mobs it controls (e5), or a mob
    on its own, in initiative order."""
    out: list[list[str]] = []
    for unit in b.order:
        if unit.startswith("mob:") and out and _controls(b, out[-1][0], unit):
            out[-1].append(unit)
        else:
            out.append([unit])
    return out


def _controls(b: Battle, unit: str, mob_unit: str) -> bool:
    mob = b.mobs[mob_unit[4:]]
    return not unit.startswith("mob:") and mob.controller == unit


def retreat_phase(b: Battle) -> Steps:
    """e28, e29: at the end of the round each side may retreat (or turn and fight again)."""
    for side in SIDES:
        if not b.standing(side):
            continue
        st = b.sides[side]
        ends = survival.end_options(b) if side == survival.GM and b.rules_version >= 3 else ()
        key = yield Choice(
            side=side,
            prompt=f"{st.name}: end of round {b.round}. Fight on or retreat?",
            options=(
                Option("fight", "Turn and fight" if st.retreating else "Fight on"),
                Option(
                    "retreat",
                    "Keep retreating" if st.retreating else "Retreat toward our table edge",
                ),
                *ends,
            ),
            default=lambda side=side: "retreat" if bot.should_retreat(b, side) else "fight",
            rules=("e28", "e29"),
            kind="retreat",
        )
        if key.startswith(survival.END):
            yield from survival.declare(b, key)
            return
        if (key == "retreat") != st.retreating:
            st.retreating = key == "retreat"
            yield Event(
                f"{st.name} {'retreats' if st.retreating else 'turns to fight'}",
                rules=("e29",),
                kind="retreat",
                data={"side": side, "retreating": st.retreating},
            )


def battle_over(b: Battle) -> tuple[str | None, str, tuple[str, ...], str] | None:
    """e29: a side destroyed, a side escaped, or both retreating (with the cause, in a few
    words for simulate's tally); or as the GM declared it (version 3)."""
    if b.declared is not None:
        winner, reason, cause = b.declared
        return winner, reason, ("e29",), cause
    gone = [s for s in SIDES if not b.standing(s)]
    if len(gone) == 2:
        return None, "no creature of either side stands on the table", ("e29",), "both sides gone"
    if gone:
        side = gone[0]
        name = b.sides[side].name
        escaped = any(c.status == ESCAPED for c in b.creatures.values() if c.side == side)
        if escaped:
            return other(side), f"{name} escaped by its table edge", ("e29",), "loser escaped"
        return other(side), f"{name} is destroyed", ("e29",), "loser destroyed"
    if all(b.sides[s].retreating for s in SIDES):
        return None, "both sides retreated", ("e29",), "both sides retreated"
    return None


def finish(
    b: Battle, winner: str | None, reason: str, rules: tuple[str, ...], cause: str = ""
) -> Steps:
    """e27 bookkeeping for the last round's dead, then e30: a d10 per casualty, 5+ lives."""
    b.phase = "after the battle"
    yield Event(f"The battle ends: {reason}", rules=rules, kind="end", data={"winner": winner})
    for mob in b.mobs.values():
        yield from to_casualties(b, mob)
    for side in SIDES:
        yield from _survival(b, side)
    b.result = reason
    b.phase = "over"
    return Outcome(
        winner=winner,
        reason=reason,
        rules=rules,
        data={
            "rounds": b.round,
            "after_battle": {s: list(rows) for s, rows in b.after.items()},
            "standing": {s: [c.id for c in b.standing(s)] for s in SIDES},
            "escaped": {
                s: [c.id for c in b.creatures.values() if c.side == s and c.status == ESCAPED]
                for s in SIDES
            },
        },
        cause=cause,
    )


def casualties(b: Battle, side: str) -> list[Creature]:
    ids = list(b.sides[side].fallen)
    for mob in b.mobs.values():
        if mob.side == side:
            ids += mob.casualty_pool
    return [b.creatures[i] for i in ids]


def _survival(b: Battle, side: str) -> Steps:
    fallen = casualties(b, side)
    rows: list[dict[str, Any]] = []
    b.after[side] = rows
    if not fallen:
        return
    chosen = [c.id for c in fallen] if side == "A" or b.options["npc_survival"] else []
    if side != "A" and b.rules_version >= 3:  # version 3: the GM picks, creature by creature
        chosen = yield from survival.pick(b, side, fallen, chosen)
    rolled = bool(chosen)
    faces: dict[str, int] = {}
    if rolled:
        thrown = yield Roll(
            dice=(pools.SURVIVAL_DIE,) * len(chosen),
            reason="a d10 for each casualty, 5+ lives",  # the roll's line names the side
            side=side,
            rules=("e30",),
            labels=tuple(chosen),
        )
        faces = dict(zip(chosen, thrown, strict=True))
    for c in fallen:
        face = faces.get(c.id)
        if face is None:
            fate = "not rolled (NPC)"
        elif not pools.survives(face):
            fate = "lost"
        else:
            fate = "wounded" if c.status == DEAD else "missing"
        rows.append({"creature": c.id, "mob": c.mob, "how": c.status, "roll": face, "fate": fate})
    lives = sum(r["fate"] in ("wounded", "missing") for r in rows)
    unrolled = len(rows) - len(faces)
    text = (
        f"{b.sides[side].name}: {lives} of the {len(faces)} rolled for "
        f"{'lives' if lives == 1 else 'live'} (wounded or missing); {unrolled} not rolled "
        "(the GM's call)"
        if rolled and unrolled
        else f"{b.sides[side].name}: {lives} of {plural(len(rows), 'casualty', 'casualties')} "
        f"{'lives' if lives == 1 else 'live'} (wounded or missing)"
        if rolled
        else f"{b.sides[side].name}: {plural(len(rows), 'casualty', 'casualties')}, not rolled "
        + ("(the GM's call)" if b.rules_version >= 3 else "(npc_survival is off)")
    )
    yield Event(text, rules=("e30",), kind="survival", data={"side": side, "rows": rows})
