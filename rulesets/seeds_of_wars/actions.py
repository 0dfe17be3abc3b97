"""Steps 3-5: sides alternate, one unit acting at a time, until they pass (d7); a unit acts
once per step. Movement (d8, d9), ranged combat (d10, d11), melee with the retreat before
combat (d12, d13)."""

from __future__ import annotations

from collections.abc import Callable, Generator
from typing import Any

from wargame_cli.rulesets.seeds_of_wars import bot
from wargame_cli.rulesets.seeds_of_wars.checks import DIE, Contender, hits, opposed
from wargame_cli.rulesets.seeds_of_wars.combat import (
    beats,
    damage,
    fighter_refusal,
    melee_bonus,
    move_refusal,
    needs,
    shooter_refusal,
    shot_targets,
)
from wargame_cli.rulesets.seeds_of_wars.movement import move_refusal as space_refusal
from wargame_cli.rulesets.seeds_of_wars.movement import reachable as reach_of
from wargame_cli.rulesets.seeds_of_wars.movement import retreat_space
from wargame_cli.rulesets.seeds_of_wars.prompts import ask, not_offered
from wargame_cli.rulesets.seeds_of_wars.state import Battle, Unit

from wargame_cli.engine.events import EventData
from wargame_cli.engine.requests import Event, Option, Roll
from wargame_cli.kit.sides import other
from wargame_cli.wording import percent, possessive

ACTED, PASSED, NOTHING = "acted", "passed", "nothing"
PASS = "pass"
NOUNS = {"moves": "moves", "shoots": "shots", "attacks": "attacks"}
STAY = "stay"

Activation = Callable[[Battle, str, set[str]], Generator[Any, Any, str]]


def alternate(
    battle: Battle, step: str, activation: Activation, rules: tuple[str, ...]
) -> Generator[Any, Any, None]:
    """d7: from the initiative winner, sides take turns; a side that passes is done for the
    step and the other finishes (`pass_rule=first_pass_ends`: the first pass a side chooses
    ends the step; a side with no unit able to act is done, but ends nothing for the other)."""
    assert battle.initiative is not None
    battle.step = step
    acted: set[str] = set()
    battle.acted = acted  # the same set: a card tells who has acted in this step
    passed: set[str] = set()
    chose_to_pass = False
    side = battle.initiative
    while len(passed) < 2:
        if chose_to_pass and battle.options["pass_rule"] == "first_pass_ends":
            break
        if battle.either_out():
            break
        if side not in passed:
            done = yield from activation(battle, side, acted)
            if done != ACTED:
                passed.add(side)
                chose_to_pass = chose_to_pass or done == PASSED or battle.rules_version < 3
                why = "" if done == PASSED else ": no unit can act"
                name = battle.names[side]
                yield Event(
                    lambda name=name, why=why: f"{name} passes the {step} step{why}",
                    rules=rules + ("d7",),
                    kind="pass",
                    data={"side": side, "step": step, "forced": done == NOTHING},
                )
        side = other(side)


def pick_unit(
    battle: Battle,
    side: str,
    what: str,
    refusals: dict[str, str | None],
    suggestion: Callable[[], str | None],
    rules: tuple[str, ...],
    kind: str,
) -> Generator[Any, Any, Unit | None]:
    """Which unit acts (or pass); None without asking when no unit can act."""
    if all(r is not None for r in refusals.values()):
        return None

    def options() -> list[Option]:
        menu = [Option(uid, battle.describe(battle.unit(uid)), r) for uid, r in refusals.items()]
        return [*menu, Option(PASS, f"Pass: no more {NOUNS[what]} this step")]

    def check(key: str) -> str | None:
        """What the menu's option for `key` would say, without building the menu."""
        if key == PASS:
            return None
        return refusals[key] if key in refusals else not_offered(key)

    number, step, role = battle.round, battle.step, battle.role(side)
    key = yield from ask(
        battle,
        side,
        lambda: f"Round {number}, {step} ({role}): which unit {what}?",
        options,
        lambda: suggestion() or PASS,
        rules,
        kind,
        check,
    )
    return None if key == PASS else battle.unit(key)


# -- step 3: movement ---------------------------------------------------------------------
def move(battle: Battle, side: str, acted: set[str]) -> Generator[Any, Any, str]:
    units = battle.fighting(side)
    refusals = {u.uid: move_refusal(battle, u, acted) for u in units}

    def suggestion() -> str | None:
        best = bot.best_move(battle, side, acted, refusals)
        return best[0] if best else None

    unit = yield from pick_unit(
        battle,
        side,
        "moves",
        refusals,
        suggestion,
        ("d7", "d8"),
        "move",
    )
    if unit is None:
        return NOTHING if all(refusals.values()) else PASSED
    assert unit.space is not None
    key = yield from _ask_destination(battle, unit)
    dest = None if key == STAY else battle.board.parse(key)
    acted.add(unit.uid)
    if dest is None:
        yield Event(
            f"{unit.name} holds {battle.space_name(unit)}",
            rules=("d8",),
            kind="hold",
            data={"unit": unit.uid},
        )
        return ACTED
    here = battle.space_name(unit)
    foes = battle.enemies_at(side, dest)
    unit.space = dest
    unit.charged = frozenset(f.uid for f in foes)
    key = battle.space_name(unit)

    def text() -> str:
        moved = f"{unit.name} moves {here} to {key}"
        if foes:
            moved += f" and must stop: it charges {', '.join(f.name for f in foes)}"
        return moved

    yield Event(
        text,
        rules=("d8", "d9") if foes else ("d8",),
        kind="move",
        data={"unit": unit.uid, "from": here, "to": key, "charging": sorted(unit.charged)},
    )
    return ACTED


def _ask_destination(battle: Battle, unit: Unit) -> Generator[Any, Any, str]:
    """Step 3's question for the unit that moves: where it goes (or `STAY`); the menu of
    spaces is built only when someone reads it. (A function returning `ask`'s generator,
    not a generator around it: one level fewer for the question to pass through.)"""
    assert unit.space is not None
    side = unit.side
    board = battle.board
    reachable = reach_of(battle, unit)
    here = board.key(unit.space)
    start = unit.space

    def listed(space: tuple[int, int]) -> bool:
        """Spaces beyond Mv are not listed; nearer ones out of reach say why."""
        return space != start and board.distance(start, space) <= unit.kind.mv

    def label(space: tuple[int, int]) -> str:
        label = f"{board.key(space)} ({board.row_label(space[0])})"
        if space in reachable:
            label += f", {reachable[space]} space{'s' if reachable[space] > 1 else ''}"
            foes = battle.enemies_at(side, space)
            if foes:
                label += f": charge {', '.join(f.name for f in foes)} and stop (d9)"
            label += battle.reserve_warning(unit, space)
        return label

    stay = f"Stay at {here}"

    def options() -> list[Option]:
        menu = [Option(STAY, stay)]
        for space in board.spaces():
            if listed(space):
                refusal = space_refusal(battle, unit, space, reachable)
                menu.append(Option(board.key(space), label(space), refusal))
        return menu

    def describe(key: str) -> str:
        """The menu's label for a key `judge` accepts, without building the menu."""
        if key == STAY:
            return stay
        space = board.parse(key)
        assert space is not None  # a key `judge` accepts names a space
        return label(space)

    def judge(key: str) -> str | None:
        """Why `key` is refused (the menu's disabled reason), without building the menu."""
        if key == STAY:
            return None
        space = board.parse(key)
        if space is None or not listed(space) or board.key(space) != key:
            return not_offered(key)
        return space_refusal(battle, unit, space, reachable)

    def default() -> str:
        best, _ = bot.best_destination(battle, unit)
        return STAY if best == unit.space else board.key(best)

    number = battle.round
    return ask(
        battle,
        side,
        lambda: (
            f"Round {number}, movement: where does {unit.name} at {here} go (Mv {unit.kind.mv})?"
        ),
        options,
        default,
        ("d8", "d9"),
        "move",
        judge,
        describe,
    )


# -- steps 4 and 5: one prompt names the attacker and its target --------------------------
TAKEN_FOR_YOU = " (the only legal action, taken for you: option auto_attack)"


def only_attack(
    battle: Battle,
    pairs: list[tuple[Unit, Unit]],
    suggestion: Callable[[], tuple[str, str] | None],
) -> bool:
    """Option `auto_attack`: a side with a single possible attack (a shot in step 4, a blow in
    step 5), one the bot would make, makes it without being asked. Only where a pass could gain
    nothing: an attack draws no return blow, and while the other side finishes its attacks
    anyway (`pass_rule=other_finishes`) a pass merely gives the attack up."""
    return (
        battle.options["auto_attack"]
        and battle.options["pass_rule"] == "other_finishes"
        and len(pairs) == 1
        and suggestion() == (pairs[0][0].uid, pairs[0][1].uid)
    )


def pick_attack(
    battle: Battle,
    side: str,
    what: str,
    refusals: dict[str, str | None],
    pairs: list[tuple[Unit, Unit]],
    label: Callable[[Unit, Unit], str],
    suggest: Callable[[], tuple[str, str] | None],
    rules: tuple[str, ...],
    kind: str,
) -> Generator[Any, Any, tuple[Unit, Unit, str] | None]:
    """Which unit attacks which enemy (or pass), in one question: every legal pair is an
    option (`label` says what it is), and each unit that cannot act is listed once with the
    reason. None without asking when no unit can act; the only attack without asking when
    `only_attack` says so, with `TAKEN_FOR_YOU` as the note its lines end with (no one was
    asked: the screen says so). `suggest` (the bot's pair) is worked out only when the rules
    need it (`auto_attack`'s single attack), a bot or a person asks, so a replay runs no
    bot."""
    if not pairs:
        return None
    worked_out: list[tuple[str, str] | None] = []

    def suggestion() -> tuple[str, str] | None:
        if not worked_out:
            worked_out.append(suggest())
        return worked_out[0]

    if battle.rules_version < 2:  # version 1 asked for the unit, then for its target
        asked = _unit_then_target(battle, side, what, refusals, pairs, label, suggestion, kind)
        picked = yield from asked
        return None if picked is None else (*picked, "")
    if only_attack(battle, pairs, suggestion):
        return pairs[0][0], pairs[0][1], TAKEN_FOR_YOU

    def options() -> list[Option]:
        menu = []
        for uid, refusal in refusals.items():
            if refusal is not None:
                menu.append(Option(uid, battle.describe(battle.unit(uid)), refusal))
                continue
            menu += [Option(f"{u.uid}>{t.uid}", label(u, t)) for u, t in pairs if u.uid == uid]
        return [*menu, Option(PASS, f"Pass: no more {NOUNS[what]} this step")]

    def check(key: str) -> str | None:
        """What the menu's option for `key` would say, without building the menu."""
        if key == PASS:
            return None
        mine, pair, theirs = key.partition(">")
        if not pair:
            refusal = refusals.get(key)
            return refusal if refusal is not None else not_offered(key)
        for unit, target in pairs:
            if unit.uid == mine and target.uid == theirs:
                return None
        return not_offered(key)

    number, step, role = battle.round, battle.step, battle.role(side)
    key = yield from ask(
        battle,
        side,
        lambda: (
            f"Round {number}, {step} ({role}): which unit "
            f"{'shoots at' if what == 'shoots' else what} which enemy?"
        ),
        options,
        lambda: ">".join(pair) if (pair := suggestion()) else PASS,
        rules,
        kind,
        check,
    )
    if key == PASS:
        return None
    mine, theirs = key.split(">")
    return battle.unit(mine), battle.unit(theirs), ""


def _unit_then_target(
    battle: Battle,
    side: str,
    what: str,
    refusals: dict[str, str | None],
    pairs: list[tuple[Unit, Unit]],
    label: Callable[[Unit, Unit], str],
    suggestion: Callable[[], tuple[str, str] | None],
    kind: str,
) -> Generator[Any, Any, tuple[Unit, Unit] | None]:
    """Version 1's two questions for one attack: which unit (or pass), then which enemy (a
    game saved under version 1 is replayed and played on under it)."""
    can = {u.uid for u, _ in pairs}
    able = {uid: r for uid, r in refusals.items() if r is not None or uid in can}
    pick = pick_unit(battle, side, what, able, lambda: (suggestion() or (None,))[0], (), kind)
    unit = yield from pick
    if unit is None:
        return None
    targets = [t for u, t in pairs if u is unit]
    wanted = suggestion()
    first = wanted[1] if wanted is not None and wanted[0] == unit.uid else targets[0].uid
    key = yield from ask(
        battle,
        side,
        f"Round {battle.round}, {battle.step}: {unit.name} {what} which enemy?",
        lambda: [Option(t.uid, label(unit, t)) for t in targets],
        first,
        (),
        "target",
        lambda key: None if any(t.uid == key for t in targets) else not_offered(key),
    )
    return unit, battle.unit(key)


def _target(battle: Battle, target: Unit, bonus: int, extra: str = "") -> str:
    """`B5 Skirmishers (a3, Shaken, Ht 1/2, De 9): needs 8+ on 1d20`."""
    de = target.kind.de
    return (
        f"{target.name} ({battle.space_name(target)}, {target.state}, Ht "
        f"{target.taken}/{target.kind.ht}, De {de}): {needs(bonus, de)}{extra}"
    )


# -- step 4: ranged combat ----------------------------------------------------------------
def shoot(battle: Battle, side: str, acted: set[str]) -> Generator[Any, Any, str]:
    units = [u for u in battle.fighting(side) if u.kind.ra is not None]
    refusals = {u.uid: shooter_refusal(battle, u, acted) for u in units}
    pairs = [
        (unit, t)
        for unit in units
        if refusals[unit.uid] is None
        for t in shot_targets(battle, unit)
    ]
    if not pairs:  # no unit can shoot: nothing to ask, nothing for the bot to weigh
        return NOTHING

    def label(unit: Unit, target: Unit) -> str:
        ra = unit.kind.ra
        assert ra is not None
        return f"{unit.name} ({battle.space_name(unit)}, Ra {ra:+d}) shoots " + _target(
            battle, target, ra
        )

    picked = yield from pick_attack(
        battle,
        side,
        "shoots",
        refusals,
        pairs,
        label,
        lambda: bot.best_shot(battle, side, acted, refusals),
        ("d7", "d10", "d11"),
        "shoot",
    )
    if picked is None:
        return PASSED if pairs else NOTHING
    shooter, target, note = picked
    acted.add(shooter.uid)
    yield from attack(battle, shooter, target, "Ra", 0, [], "shoots", ("d10", "d11"), note)
    return ACTED


def attack(
    battle: Battle,
    attacker: Unit,
    target: Unit,
    stat: str,
    bonus: int,
    why: list[str],
    verb: str,
    rules: tuple[str, ...],
    note: str = "",
) -> Generator[Any, Any, None]:
    """1d20 + Ra (or Me and the charge/flank bonus) must exceed the target's De to damage its
    Ht (d10, d12). The event shows the face, so the roll needs no line of its own on screen;
    `note` ends its lines (an attack made without asking says so)."""
    de = target.kind.de
    value = attacker.kind.ra if stat == "Ra" else attacker.kind.me
    assert value is not None

    def terms() -> str:
        return f"{stat} {value}" + (f" + {bonus} ({' and '.join(why)})" if bonus else "")

    faces = yield Roll(
        dice=(DIE,),
        reason=lambda: (
            f"{attacker.name} {verb} {target.name}: 1d20 + {terms()} must exceed De {de}{note}"
        ),
        side=attacker.side,
        rules=rules,
        labels=(attacker.name,),
    )
    modifier = value + bonus
    total = faces[0] + modifier
    hit = hits(faces[0], modifier, de)
    data: EventData = {
        "attacker": attacker.uid,
        "target": target.uid,
        "face": faces[0],
        "total": total,
        "de": de,
        "hit": hit,
        "bonus": why,
    }
    face = faces[0]

    def sums() -> str:
        return f"{attacker.name} {verb} {target.name}: {face} + {terms()} = {total}"

    if not hit:
        yield Event(
            lambda: f"{sums()}, not over De {de}: no damage{note}",
            rules=rules,
            kind="miss",
            data=data,
        )
        return
    destroyed = damage(target)
    taken = target.taken
    yield Event(
        lambda: f"{sums()}, over De {de}: 1 Ht ({taken}/{target.kind.ht} taken){note}",
        rules=rules,
        kind="hit",
        data=data,
    )
    if destroyed:
        yield Event(
            lambda: f"{target.name} has taken all its Ht and is destroyed",
            rules=rules,
            kind="destroyed",
            data={"unit": target.uid},
        )


# -- step 5: melee ------------------------------------------------------------------------
def fight(battle: Battle, side: str, acted: set[str]) -> Generator[Any, Any, str]:
    units = battle.fighting(side)
    refusals = {u.uid: fighter_refusal(battle, u, acted) for u in units}
    pairs = []
    for unit in units:
        if refusals[unit.uid] is not None:
            continue
        assert unit.space is not None  # a unit still fighting stands somewhere
        pairs += [(unit, t) for t in battle.enemies_at(side, unit.space)]
    if not pairs:  # no unit can strike: nothing to ask, nothing for the bot to weigh
        return NOTHING

    def label(unit: Unit, target: Unit) -> str:
        me = unit.kind.me
        bonus, why = melee_bonus(battle, unit, target)
        extra = f", +{bonus} {' and '.join(why)}" if bonus else ""
        return f"{unit.name} (Me {me:+d}) attacks " + _target(battle, target, me + bonus, extra)

    picked = yield from pick_attack(
        battle,
        side,
        "attacks",
        refusals,
        pairs,
        label,
        lambda: bot.best_melee(battle, side, acted, refusals),
        ("d7", "d12"),
        "melee",
    )
    if picked is None:
        return PASSED if pairs else NOTHING
    fighter, target, note = picked
    acted.add(fighter.uid)
    bonus, why = melee_bonus(battle, fighter, target)  # a retreat that fails moves no one
    escaped = yield from retreat(battle, fighter, target, bonus, why)
    if escaped:
        return ACTED
    battle.attacked.setdefault(target.uid, set()).add(fighter.uid)
    yield from attack(battle, fighter, target, "Me", bonus, why, "attacks", ("d12",), note)
    return ACTED


def retreat(
    battle: Battle, attacker: Unit, target: Unit, bonus: int, why: list[str]
) -> Generator[Any, Any, bool]:
    """d13: the target may try to retreat before combat: opposed 1d20 + Mv, the target must
    win outright; it steps back towards its Reserve and the attack is lost (gap 7). `bonus`
    and `why`: the attack's `melee_bonus`, which the question shows."""
    back, reason = retreat_space(battle, target)
    if back is None:
        yield Event(
            f"{target.name} cannot retreat before combat: {reason}",
            rules=("d13",),
            kind="no_retreat",
            data={"unit": target.uid},
        )
        return False
    key = yield from _ask_retreat(battle, attacker, target, back, bonus, why)
    if key != "retreat":
        return False
    mine, theirs = yield from opposed(
        Contender(target.side, target.name, target.kind.mv, f"Mv {target.kind.mv}", unit=True),
        Contender(
            attacker.side, attacker.name, attacker.kind.mv, f"Mv {attacker.kind.mv}", unit=True
        ),
        f"{target.name} retreats before combat",
        ("d13",),
    )
    data: EventData = {"unit": target.uid, "attacker": attacker.uid, "totals": [mine, theirs]}
    if mine > theirs:
        start = battle.space_name(target)
        target.space = back
        yield Event(
            f"{target.name} retreats {start} to {battle.space_name(target)} ({mine} beats "
            f"{theirs}); {possessive(attacker.name)} attack is lost",
            rules=("d13",),
            kind="retreat",
            data={**data, "success": True},
        )
        return True
    how = "a tie" if mine == theirs else f"{mine} against {theirs}"
    yield Event(
        f"{target.name} fails to retreat ({how}) and must fight",
        rules=("d13",),
        kind="retreat",
        data={**data, "success": False},
    )
    return False


def _ask_retreat(
    battle: Battle,
    attacker: Unit,
    target: Unit,
    back: tuple[int, int],
    bonus: int,
    why: list[str],
) -> Generator[Any, Any, str]:
    """d13's question to the target's side: stand, or retreat to `back` (`ask`'s own
    generator, as for `_ask_destination`)."""
    number, state, taken = battle.round, target.state, target.taken

    def prompt() -> str:
        odds = needs(attacker.kind.me + bonus, target.kind.de)
        extra = f" with +{bonus} {' and '.join(why)}" if bonus else ""
        return (
            f"Round {number}, melee: {attacker.name} attacks {target.name} ({state}, "
            f"Ht {taken}/{target.kind.ht}), {odds}{extra}. Retreat before combat?"
        )

    return ask(
        battle,
        target.side,
        prompt,
        lambda: (
            Option("stand", f"{target.name} stands and fights"),
            Option(
                "retreat",
                f"{target.name} tries to retreat to {battle.board.key(back)}: 1d20 + Mv "
                f"{target.kind.mv} must beat 1d20 + Mv {attacker.kind.mv} "
                f"({percent(beats(target.kind.mv, attacker.kind.mv))})"
                + battle.reserve_warning(target, back),
            ),
        ),
        lambda: "retreat" if bot.wants_retreat(battle, target, attacker) else "stand",
        ("d13",),
        "retreat",
        lambda key: None if key in ("stand", "retreat") else not_offered(key),
    )
