"""Phases 3 and 4: combat (c6, c7) and health checks (c8). Every death is resolved at once and
ends the game when it leaves a side with no models standing."""

from __future__ import annotations

from wargame_cli.rulesets.battle_of_ixu import bot, odds
from wargame_cli.rulesets.battle_of_ixu.ending import death, last_side_standing
from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Phase, Warrior, listed

from wargame_cli.engine.events import EventData
from wargame_cli.engine.requests import Choice, Event, Option, Roll
from wargame_cli.wording import plural, possessive


def combat_phase(state: IxuState) -> Phase:
    die = int(state.options["die"])
    for w in state.in_order():
        if w.dead:  # c7: killed earlier this phase, it does not attack
            continue
        w.fought = True
        targets = state.engaged(w)
        if not targets:
            outcome = yield from _shoot(state, w, die)
            if outcome is not None:
                return outcome
            continue
        assert w.dice is not None
        options = [
            Option(
                t.id,
                f"Attack {t.name} ({beating(t, die)}; {t.remaining} health left; "
                f"{odds.target_odds(w.dice.combat, die, t)})",
            )
            for t in targets
        ]
        options.append(Option("hold", "Hold back: no attack this turn"))
        key = yield Choice(
            side=w.side,
            prompt=f"{w.name} (combat {w.dice.combat}): fight whom?",
            options=tuple(options),
            default=lambda w=w, targets=targets: bot.pick_target(state, w, targets).id,
            rules=("c6",),
            kind="target",
        )
        w.attacked = key
        if key == "hold":
            yield Event(
                f"{w.name} holds back",
                rules=("c6",),
                kind="hold",
                data={"model": w.name, "side": w.side},
            )
            continue
        outcome = yield from _attack(state, w, state.get(key), die)
        if outcome is not None:
            return outcome
    return None


SHOOT = "shoot:"  # a shot's option key: `shoot:B2`


def _shoot(state: IxuState, w: Warrior, die: int) -> Phase:
    """c9 as read here: a model with a ranged attack and no enemy in base contact may shoot
    one standing enemy within its range, or hold; offered only where one is in range."""
    power, targets = w.ranged, state.in_range(w)
    if power is None or not targets:
        return None
    assert w.dice is not None
    dice = power.count(w.dice.combat)
    options = [
        Option(
            f"{SHOOT}{t.id}",
            f'Shoot {t.name} ({state.gap_to(w, t):.1f}" away; {beating(t, die)}; '
            f"{t.remaining} health left; {odds.target_odds(dice, die, t)})",
        )
        for t in targets
    ]
    options.append(Option("hold", "Hold back: no shot this turn"))
    key = yield Choice(
        side=w.side,
        prompt=f'{w.name} (ranged {power.range:g}", {plural(dice, "die", "dice")}): shoot whom?',
        options=tuple(options),
        default=lambda: SHOOT + bot.pick_target(state, w, targets, dice).id,
        rules=("c9",),
        kind="target",
    )
    w.attacked = key.removeprefix(SHOOT)
    if key == "hold":
        yield Event(
            f"{w.name} holds back",
            rules=("c9",),
            kind="hold",
            data={"model": w.name, "side": w.side},
        )
        return None
    target = state.get(key.removeprefix(SHOOT))
    return (yield from _attack(state, w, target, die, shot=dice))


def beating(target: Warrior, die: int) -> str:
    """What beats the target's defence (c6: strictly greater), for a target option."""
    defence = target.dice.defence if target.dice else die
    if defence >= die:
        return f"defence {defence}: no d{die} can beat it"
    if defence == die - 1:
        return f"defence {defence}: only {die}s hit"
    return f"defence {defence}: {defence + 1}-{die} hit"


def _attack(
    state: IxuState, w: Warrior, target: Warrior, die: int, shot: int | None = None
) -> Phase:
    """A blow in contact (c6), or with `shot` (its number of dice) a shot from range (c9 as
    read here): the same dice against the defence, the same damage and death."""
    assert w.dice is not None and target.dice is not None
    defence = target.dice.defence
    count = w.dice.combat if shot is None else shot
    rules = ("c6",) if shot is None else ("c9", "c6")
    verb = "attacks" if shot is None else "shoots at"
    faces = list(
        (
            yield Roll(
                dice=(die,) * count,
                reason=f"{w.name} {verb} {target.name}: "
                f"{plural(count, 'die', 'dice')} to beat defence {defence}",
                side=w.side,
                rules=rules,
            )
        )
    )
    hits = sum(face > defence for face in faces)  # "beat": strictly greater
    data: EventData = {
        "attacker": w.name,
        "target": target.name,
        "side": w.side,
        "faces": faces,
        "defence": defence,
        "hits": hits,
    }
    if shot is not None:
        data["inches"] = round(state.gap_to(w, target), 2)
    yield Event(
        f"{w.name} {verb} {target.name}: {listed(faces)} against defence {defence}, "
        f"{hits} hit{'s' if hits != 1 else ''}",
        rules=rules,
        kind="attack" if shot is None else "shot",
        data=data,
    )
    if hits == 0:
        return None
    target.damage += hits
    target.damaged_this_turn = True
    yield Event(
        f"{target.name} takes {hits} damage from {w.name} "
        f"({target.damage} damage on {target.health} health)",
        rules=("c6",),
        kind="wound",
        data={  # the blow's attacker and target, like the attack's (reports keep them together)
            "attacker": w.name,
            "target": target.name,
            "side": target.side,
            "damage": hits,
            "total": target.damage,
            "health": target.health,
        },
    )
    if target.damage < target.health:
        return None
    lost = not target.fought
    told: EventData = {"by": w.name, "phase": "combat", "lost_attack": lost}
    if shot is not None:
        told["how"] = "shot"
    yield death(
        state,
        target,
        f"{target.name} is {'slain' if shot is None else 'shot down'} by {w.name}"
        + (" before striking a blow this turn" if lost else ""),
        ("c7",),
        told,
    )
    return last_side_standing(state, ("c7",))


# -- phase 4: health checks (c8) ------------------------------------------------------------
def health_phase(state: IxuState) -> Phase:
    """c8: every model damaged this turn rolls, even when one side falls during the checks."""
    for w in [w for w in state.in_order() if w.damaged_this_turn]:
        face = (
            yield Roll(
                dice=(10,),
                reason=f"{possessive(w.name)} health check ({w.damage} damage so far), "
                f"turn {state.turn}",
                side=w.side,
                rules=("c8",),
            )
        )[0]
        w.checked = True
        survives = face > w.damage
        verdict = "fights on" if survives else "falls"
        yield Event(
            f"{possessive(w.name)} health check: {face} against {w.damage} damage, {verdict}",
            rules=("c8",),
            kind="health",
            data={
                "model": w.name,
                "side": w.side,
                "roll": face,
                "damage": w.damage,
                "survives": survives,
            },
        )
        if survives:
            continue
        yield death(
            state,
            w,
            f"{w.name} succumbs to the wounds",
            ("c8",),
            {"phase": "health", "roll": face},
        )
        outcome = last_side_standing(state, ("c8",)) if state.rules_version < 3 else None
        if outcome is not None:
            return outcome  # version 2: the end came at the first side left with none
    # c8 rolls for every model damaged this turn: the phase is finished before the end is
    # decided, so both sides may fall together (a draw)
    return last_side_standing(state, ("c8",))
