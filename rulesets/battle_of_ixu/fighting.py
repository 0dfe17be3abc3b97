"""Phases 3 and 4: combat (c6, c7) and health checks (c8). Every death is resolved at once and
ends the game when it leaves a side with no models standing."""

from __future__ import annotations

from wargame_cli.rulesets.battle_of_ixu import bot, odds
from wargame_cli.rulesets.battle_of_ixu.ending import death, last_side_standing
from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Phase, Warrior, listed

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


def beating(target: Warrior, die: int) -> str:
    """What beats the target's defence (c6: strictly greater), for a target option."""
    defence = target.dice.defence if target.dice else die
    if defence >= die:
        return f"defence {defence}: no d{die} can beat it"
    if defence == die - 1:
        return f"defence {defence}: only {die}s hit"
    return f"defence {defence}: {defence + 1}-{die} hit"


def _attack(state: IxuState, w: Warrior, target: Warrior, die: int) -> Phase:
    assert w.dice is not None and target.dice is not None
    defence = target.dice.defence
    faces = list(
        (
            yield Roll(
                dice=(die,) * w.dice.combat,
                reason=f"{w.name} attacks {target.name}: "
                f"{plural(w.dice.combat, 'die', 'dice')} to beat defence {defence}",
                side=w.side,
                rules=("c6",),
            )
        )
    )
    hits = sum(face > defence for face in faces)  # "beat": strictly greater
    yield Event(
        f"{w.name} attacks {target.name}: {listed(faces)} against defence {defence}, "
        f"{hits} hit{'s' if hits != 1 else ''}",
        rules=("c6",),
        kind="attack",
        data={
            "attacker": w.name,
            "target": target.name,
            "side": w.side,
            "faces": faces,
            "defence": defence,
            "hits": hits,
        },
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
    yield death(
        state,
        target,
        f"{target.name} is slain by {w.name}"
        + (" before striking a blow this turn" if lost else ""),
        ("c7",),
        {"by": w.name, "phase": "combat", "lost_attack": lost},
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
