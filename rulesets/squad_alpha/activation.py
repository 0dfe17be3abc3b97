"""One miniature's activation (b11-b20): move or shoot, forced melee in contact, the free
melee attack on moving into contact, saves, misses into a melee, and the casualties."""

from __future__ import annotations

from collections.abc import Generator
from functools import cache
from typing import Any

from wargame_cli.rulesets.squad_alpha import bot
from wargame_cli.rulesets.squad_alpha.movement import (
    MOVE_INCHES,
    destinations,
    listed_destination,
    move_option,
    typed_move_problem,
    walked,
)
from wargame_cli.rulesets.squad_alpha.odds import (
    DIE,
    SAVE_NEEDED,
    highest_passing,
    needed,
    pass_chance,
    save_chance,
    saves,
    test_passes,
)
from wargame_cli.rulesets.squad_alpha.state import GameState, Mini

from wargame_cli.engine.requests import SPOT_HINT, Choice, Event, Option, Roll
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.sight import blocker, cover_piece
from wargame_cli.wording import percent, possessive

Flow = Generator[Any, Any, Any]
TEST_RULES = ("b12", "b13", "b24", "b25")


def activate(state: GameState, mini: Mini) -> Flow:
    """The miniature holding the current step's number acts once."""
    mini.acted = True
    step, mod = state.step, state.modifier(mini.side)
    need = needed(step, mod)
    morale = f", morale {mod:+d}" if mod else ""
    yield Event(
        f"{mini.name} activates at step {step} ({mini.training}, {mini.dice} "
        f"{'die' if mini.dice == 1 else 'dice'}, needs {highest_passing(step, mod)} or less"
        f"{morale})",
        rules=("b10", "b12", "b24"),
        kind="activate",
        data={"id": mini.id, "step": step, "needed": need, "modifier": mod},
    )
    contacts = state.contacts(mini)
    if contacts:  # b18: no other action while in base contact
        target = yield from _pick_melee_target(state, mini, contacts, forced=True)
        yield from melee(state, mini, target, free=False)
        return
    key = yield action_choice(state, mini)
    if key == "move":
        if (yield from action_test(state, mini, "move", "move")):
            yield from move(state, mini)
    else:
        yield from shoot(state, mini, state.mini(key.removeprefix("shoot:")))


def action_choice(state: GameState, mini: Mini) -> Choice:
    """b11: move or shoot; targets out of sight are listed with the reason."""
    assert mini.pos is not None
    hits = pass_chance(mini.dice, state.step, state.modifier(mini.side))
    options = [Option("move", f'Move (up to {MOVE_INCHES:g}" if the test passes: {percent(hits)})')]
    for enemy in state.enemies(mini.side):
        assert enemy.pos is not None
        wall = blocker(state.table, mini.pos, enemy.pos)
        if wall is not None:
            options.append(
                Option(
                    f"shoot:{enemy.id}",
                    f"Shoot {enemy.name}",
                    disabled=f"no line of sight: {wall.name} is in the way",
                )
            )
            continue
        piece = cover_piece(state.table, mini.pos, enemy.pos)
        kills = hits * (1 - save_chance(piece.kind if piece else None))
        where = f"{piece.name}: save {SAVE_NEEDED[piece.kind]}+" if piece else "in the open"
        where += f"; kills {percent(kills)}"
        mates = state.contacts(enemy)
        if mates:
            where += f"; in melee, a miss hits {' or '.join(m.name for m in mates)}"
        distance = mini.pos.distance(enemy.pos)
        options.append(
            Option(f"shoot:{enemy.id}", f'Shoot {enemy.name} ({distance:.1f}", {where})')
        )
    return Choice(
        side=mini.side,
        prompt=f"{mini.name} (step {state.step}): move or shoot?",
        options=tuple(options),
        default=lambda: bot.action(state, mini, state.step),
        rules=("b11", "b14", "b15"),
        kind="action",
    )


def action_test(state: GameState, mini: Mini, what: str, word: str) -> Generator[Any, Any, bool]:
    """b12: 1-3 dice by training; any die at or under the step (less morale) passes; a 6
    fails (b13), a 1 passes (b25). `what` names the action in the roll, `word` in the
    result."""
    step, mod = state.step, state.modifier(mini.side)
    need = highest_passing(step, mod)
    faces = yield Roll(
        dice=(DIE,) * mini.dice,
        reason=f"{mini.name}: {what} test at step {step} (needs {need} or less)",
        side=mini.side,
        rules=TEST_RULES,
        labels=tuple(f"{mini.name} die {i + 1}" for i in range(mini.dice)),
    )
    passed = test_passes(faces, step, mod)
    yield Event(
        f"{mini.name} {'passes' if passed else 'fails'} the {word} test "
        f"({' '.join(str(f) for f in faces)})",
        rules=TEST_RULES,
        kind="test",
        data={"id": mini.id, "faces": list(faces), "passed": passed, "what": what},
    )
    return passed


def move(state: GameState, mini: Mini) -> Flow:
    """b14: up to 4"; ending in base contact gives a free melee attack (b17)."""
    assert mini.pos is not None
    start = mini.pos

    @cache
    def best() -> Point:
        return bot.destination(state, mini, bot.move_spots(state, mini), state.step)

    def unlisted(p: Point) -> Option:
        """A spot the destinations do not list (the bot's pick, or one typed in)."""
        return move_option(state, mini, f'{start.distance(p):.1f}" away', p)

    def menu() -> tuple[Option, ...]:
        """The menu a person reads: the bot's pick first when the destinations lack it."""
        options = [move_option(state, mini, d.label, d.point) for d in destinations(state, mini)]
        if best().key() in {o.key for o in options}:
            return tuple(options)
        return (unlisted(best()), *options)

    def describe(key: str) -> str:
        """The menu's label for `key` (the destinations worked out only as far as it)."""
        found = listed_destination(state, mini, key)
        if found is None:
            return unlisted(Point.parse(key)).label
        return move_option(state, mini, found.label, found.point).label

    key = yield Choice(
        side=mini.side,
        prompt=f'{mini.name} moves up to {MOVE_INCHES:g}" from {start.key()}: where to?',
        options=menu,
        default=lambda: best().key(),
        rules=("b14", "b17"),
        kind="move",
        free_hint=SPOT_HINT,
        judge=lambda text: typed_move_problem(state, mini, text),
        describe=describe,
    )
    dest = Point.parse(key)
    inches = walked(state, mini, dest)
    mini.pos = dest
    yield Event(
        f'{mini.name} moves {min(inches, MOVE_INCHES):.1f}" to {mini.pos.key()}',
        rules=("b14",),
        kind="move",
        data={"id": mini.id, "from": start.as_list(), "to": mini.pos.as_list()},
    )
    contacts = state.contacts(mini)
    if contacts:
        target = yield from _pick_melee_target(state, mini, contacts, forced=False)
        yield from melee(state, mini, target, free=True)


def _pick_melee_target(
    state: GameState, mini: Mini, contacts: list[Mini], forced: bool
) -> Generator[Any, Any, Mini]:
    rules = ("b18",) if forced else ("b17",)
    if len(contacts) == 1:
        return contacts[0]
    kills = pass_chance(mini.dice, state.step, state.modifier(mini.side))  # b17-b19
    key = yield Choice(
        side=mini.side,
        prompt=f"{mini.name} is in base contact with several enemies: attack which?",
        options=tuple(
            Option(e.id, f"{e.name} ({e.training}; kills {percent(kills)})") for e in contacts
        ),
        default=lambda: bot.melee_target(state, mini, contacts).id,
        rules=rules,
        kind="melee",
    )
    return state.mini(key)


def melee(state: GameState, mini: Mini, target: Mini, free: bool) -> Flow:
    """b17/b18: an action test (same dice, same number); success kills outright (b19)."""
    why = "free melee attack on contact (b17)" if free else "in base contact: must fight (b18)"
    yield Event(
        f"{mini.name} attacks {target.name} in melee: {why}",
        rules=("b17",) if free else ("b18",),
        kind="melee",
        data={"id": mini.id, "target": target.id, "free": free},
    )
    if (yield from action_test(state, mini, f"melee attack on {target.name}", "melee")):
        yield from kill(state, target, f"{target.name} is killed in melee by {mini.name}", ("b19",))


def shoot(state: GameState, mini: Mini, target: Mini) -> Flow:
    """b15: a passed test hits; the hit may be saved by cover (b16). A miss at a miniature in
    melee is scored on another miniature in that melee (b20)."""
    assert mini.pos is not None and target.pos is not None
    mates = state.contacts(target)
    yield Event(
        f'{mini.name} shoots at {target.name} ({mini.pos.distance(target.pos):.1f}" away)',
        rules=("b15",),
        kind="shot",
        data={"id": mini.id, "target": target.id, "melee": [m.id for m in mates]},
    )
    if (yield from action_test(state, mini, f"shot at {target.name}", "shooting")):
        yield Event(f"{target.name} is hit", rules=("b15",), kind="hit", data={"id": target.id})
        yield from resolve_hit(state, mini, target)
        return
    if not mates:
        return
    victim = mates[0]
    if len(mates) > 1:
        victim = yield from _pick_miss_victim(state, mini, target, mates)
    yield Event(
        f"The shot misses {target.name} and is scored on {victim.name}, in melee with it (b20)",
        rules=("b20",),
        kind="hit",
        data={"id": victim.id, "missed": target.id},
    )
    yield from resolve_hit(state, mini, victim)


def _pick_miss_victim(
    state: GameState, shooter: Mini, target: Mini, mates: list[Mini]
) -> Generator[Any, Any, Mini]:
    """Default: the shooter picks; `melee_miss=random`: a die picks."""
    if state.options["melee_miss"] == "random":
        (face,) = yield Roll(
            dice=(len(mates),),
            reason=f"who in the melee with {target.name} takes the missed shot",
            side=shooter.side,
            rules=("b20",),
            labels=tuple(m.name for m in mates),
        )
        return mates[face - 1]
    key = yield Choice(
        side=shooter.side,
        prompt=f"The shot at {target.name} missed: which miniature in the melee takes it?",
        options=tuple(
            Option(m.id, f"{m.name} ({m.training}; {_dies(state, shooter, m)})") for m in mates
        ),
        default=lambda: bot.miss_victim(state, shooter, mates).id,
        rules=("b20",),
        kind="miss",
    )
    return state.mini(key)


def _dies(state: GameState, firer: Mini, target: Mini) -> str:
    """`dies 67%` for a hit on `target`: what its cover save from the firer leaves (b16)."""
    assert firer.pos is not None and target.pos is not None
    piece = cover_piece(state.table, firer.pos, target.pos)
    return f"dies {percent(1 - save_chance(piece.kind if piece else None))}"


def resolve_hit(state: GameState, firer: Mini, target: Mini) -> Flow:
    """b16: a save for cover from the firer's perspective (3+ fire, 5+ view); else killed."""
    assert firer.pos is not None and target.pos is not None
    piece = cover_piece(state.table, firer.pos, target.pos)
    if piece is not None:
        need = SAVE_NEEDED[piece.kind]
        (face,) = yield Roll(
            dice=(DIE,),
            reason=f"{possessive(target.name)} cover save ({piece.name}, {need}+)",
            side=target.side,
            rules=("b16",),
            labels=(target.name,),
        )
        if saves(face, piece.kind):
            yield Event(
                f"{target.name} saves ({face}, needed {need}+ for {piece.name})",
                rules=("b16",),
                kind="save",
                data={"id": target.id, "face": face, "needed": need, "saved": True},
            )
            return
        yield Event(
            f"{target.name} fails the save ({face}, needed {need}+ for {piece.name})",
            rules=("b16",),
            kind="save",
            data={"id": target.id, "face": face, "needed": need, "saved": False},
        )
    yield from kill(
        state, target, f"{target.name} is killed by {possessive(firer.name)} shot", ("b16",)
    )


def kill(state: GameState, victim: Mini, text: str, rules: tuple[str, ...]) -> Flow:
    """b22: a casualty figure; b23: the leader's rating drops by one."""
    victim.alive = False
    squad = state.squads[victim.side]
    yield Event(
        text,
        rules=(*rules, "b22"),
        kind="kill",
        data={"id": victim.id, "side": victim.side},
    )
    if not squad.living:
        return
    leader = state.leader(victim.side)
    rating = state.current_rating(victim.side)
    note = f": {rating:+d} on every activation test and the initiative (b24)" if rating < 0 else ""
    fallen = ", fallen" if not leader.alive else ""
    down = f"{squad.casualties} casualt{'y' if squad.casualties == 1 else 'ies'}"
    yield Event(
        f"{squad.name}: {down}, command rating now {rating} ({leader.name}{fallen}: "
        f"{leader.rating} less {down}){note}",
        rules=("b23", "b24"),
        kind="rating",
        data={"side": victim.side, "leader": leader.id, "rating": rating},
    )
