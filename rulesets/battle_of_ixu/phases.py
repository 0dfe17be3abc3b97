"""The four phases of a turn (c3), each a generator of requests. Pure: dice come from `Roll`,
decisions from `Choice`; facts go out as `Event`s a battle report can read."""

from __future__ import annotations

from collections.abc import Generator
from itertools import groupby
from typing import Any

from rulesets.battle_of_ixu import attribution, tactics
from rulesets.battle_of_ixu.state import OTHER, IxuState, Warrior
from wargame_cli.engine.requests import Choice, Event, Option, Outcome, Request, Roll
from wargame_cli.tabletop.destinations import Destination, offer, typed_problem
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import in_contact

Phase = Generator[Request, Any, Outcome | None]


def _list(values: list[int]) -> str:
    return ", ".join(str(v) for v in values)


# -- phase 1: order, then roll and attribute (c4, c1, c2) -----------------------------------
def settle(state: IxuState, tied: list[Warrior], depth: int = 1) -> Generator[Request, Any, list]:
    """Order tied models: by experience first if the option says so, then re-roll d10s among
    those still tied, as often as needed (default for the unstated tie-break)."""
    if len(tied) == 1:
        return tied
    if state.options["order_ties"] == "experience" and depth == 1:
        out: list[Warrior] = []
        by_rating = sorted(tied, key=lambda w: -w.experience)
        for _, group in groupby(by_rating, key=lambda w: w.experience):
            out += yield from settle(state, list(group), depth + 1)
        return out
    names = " and ".join(w.name for w in tied)
    faces = yield Roll(
        dice=(10,) * len(tied),
        reason=f"re-roll for the order between {names}, turn {state.turn}",
        rules=("c4",),
        labels=tuple(w.name for w in tied),
    )
    for w, face in zip(tied, faces, strict=True):
        w.order_rolls.append(face)
    return (yield from rank(state, list(zip(tied, faces, strict=True)), depth + 1))


def rank(
    state: IxuState, rolled: list[tuple[Warrior, int]], depth: int = 1
) -> Generator[Request, Any, list]:
    """Highest d10 first; each group of equal faces is settled in turn."""
    out: list[Warrior] = []
    ordered = sorted(rolled, key=lambda pair: -pair[1])
    for _, group in groupby(ordered, key=lambda pair: pair[1]):
        out += yield from settle(state, [w for w, _ in group], depth)
    return out


def order_phase(state: IxuState) -> Phase:
    warriors = state.standing()
    faces = yield Roll(
        dice=(10,) * len(warriors),
        reason=f"order for turn {state.turn} (a d10 per model)",
        rules=("c3", "c4"),
        labels=tuple(w.name for w in warriors),
    )
    for w, face in zip(warriors, faces, strict=True):
        w.order_rolls = [face]
    ordered = yield from rank(state, list(zip(warriors, faces, strict=True)))
    state.order = [w.id for w in ordered]
    shown = ", ".join(f"{w.name} ({'/'.join(map(str, w.order_rolls))})" for w in ordered)
    yield Event(
        f"Order for turn {state.turn}: {shown}",
        rules=("c4",),
        kind="order",
        data={
            "turn": state.turn,
            "order": [w.name for w in ordered],
            "rolls": {w.name: list(w.order_rolls) for w in ordered},
        },
    )
    return None


def attribute_phase(state: IxuState) -> Phase:
    die = int(state.options["die"])
    for w in state.in_order():
        faces = list(
            (
                yield Roll(
                    dice=(die,) * w.experience,
                    reason=f"{w.name}'s experience dice ({w.rating}, {w.experience}d{die}), "
                    f"turn {state.turn}",
                    side=w.side,
                    rules=("c1", "c2", "c4"),
                )
            )
        )
        w.rolled = faces
        offered = attribution.assignments(faces)
        best = tactics.pick_dice(state, w, faces)
        if len(set(faces)) == 1:  # every assignment is the same: nothing to decide
            chosen = best
        else:
            key = yield Choice(
                side=w.side,
                prompt=f"{w.name} rolled {_list(sorted(faces, reverse=True))}: "
                "movement, combat, defence?",
                options=tuple(Option(attribution.key_of(d), attribution.label(faces, d)) for d in offered),
                default=attribution.key_of(best),
                rules=("c2",),
                kind="attribute",
                free_hint="movement,combat,defence",
                check=lambda text, faces=faces: attribution.problem(faces, text),
            )
            chosen = attribution.parse(key)
        w.dice = chosen
        left = attribution.unused(faces, chosen)
        ignored = f"; ignores {_list(left)}" if left else ""
        yield Event(
            f"{w.name} rolls {_list(faces)}: movement {chosen.movement}, combat "
            f"{chosen.combat}, defence {chosen.defence}{ignored}",
            rules=("c2",),
            kind="attribute",
            data={"model": w.name, "side": w.side, "faces": faces, **chosen.as_dict(),
                  "unused": left},
        )
    return None


# -- phase 2: movement (c5) -----------------------------------------------------------------
def destinations(state: IxuState, w: Warrior) -> list[Destination]:
    assert w.dice is not None
    enemies = [e.body() for e in state.enemies(w)]
    found = offer(state.table, w.body(), w.dice.movement, enemies, state.bodies(w), state.name_of)
    if not any(d.tag == "stay" for d in found):
        found.append(Destination("stay", "Stay where it is", w.pos))
    return found


def movement_phase(state: IxuState) -> Phase:
    for w in state.in_order():
        assert w.dice is not None
        inches = w.dice.movement
        offered = destinations(state, w)
        others = state.bodies(w)
        body = w.body()
        key = yield Choice(
            side=w.side,
            prompt=f'{w.name} at {w.pos.key()}: move up to {inches}"',
            options=tuple(d.option() for d in offered),
            default=tactics.pick_move(state, w, offered).point.key(),
            rules=("c5",),
            kind="move",
            free_hint="x,y",
            check=lambda text, body=body, inches=inches, others=others: typed_problem(
                state.table, body, inches, others, text
            ),
        )
        yield _moved(state, w, Point.parse(key))
    return None


def _moved(state: IxuState, w: Warrior, dest: Point) -> Event:
    """Move `w` and say so: a charge when it comes into contact with new enemies."""
    before = {e.id for e in state.engaged(w)}
    start, w.pos = w.pos, dest
    now = state.engaged(w)
    charged = [e for e in now if e.id not in before]
    left = [state.get(i) for i in sorted(before - {e.id for e in now})]
    inches = round(start.distance(dest), 2)
    data = {
        "model": w.name,
        "side": w.side,
        "from": start.as_list(),
        "to": dest.as_list(),
        "inches": inches,
        "charged": [e.name for e in charged],
        "left": [e.name for e in left],
    }
    if charged:
        whom = " and ".join(e.name for e in charged)
        return Event(
            f'{w.name} charges {whom} ({inches:g}" to {dest.key()})',
            rules=("c5", "c6"),
            kind="charge",
            data=data,
        )
    if inches == 0:
        return Event(f"{w.name} stands fast at {dest.key()}", rules=("c5",), kind="move", data=data)
    away = f", backing away from {' and '.join(e.name for e in left)}" if left else ""
    return Event(
        f'{w.name} moves {inches:g}" to {dest.key()}{away}', rules=("c5",), kind="move", data=data
    )


# -- phase 3: combat (c6, c7) ---------------------------------------------------------------
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
        best = tactics.pick_target(state, w, targets)
        options = [
            Option(t.id, f"Attack {t.name} (defence {t.dice.defence if t.dice else '?'}, "
                   f"{t.remaining} health left)")
            for t in targets
        ]
        options.append(Option("hold", "Hold back: no attack this turn"))
        key = yield Choice(
            side=w.side,
            prompt=f"{w.name} (combat {w.dice.combat}): fight whom?",
            options=tuple(options),
            default=best.id,
            rules=("c6",),
            kind="target",
        )
        if key == "hold":
            yield Event(f"{w.name} holds back", rules=("c6",), kind="hold",
                        data={"model": w.name, "side": w.side})
            continue
        outcome = yield from _attack(state, w, state.get(key), die)
        if outcome is not None:
            return outcome
    return None


def _attack(state: IxuState, w: Warrior, target: Warrior, die: int) -> Phase:
    assert w.dice is not None and target.dice is not None
    defence = target.dice.defence
    faces = list(
        (
            yield Roll(
                dice=(die,) * w.dice.combat,
                reason=f"{w.name} attacks {target.name}: {w.dice.combat} dice to beat "
                f"defence {defence}",
                side=w.side,
                rules=("c6",),
            )
        )
    )
    hits = sum(face > defence for face in faces)  # "beat": strictly greater
    yield Event(
        f"{w.name} attacks {target.name}: {_list(faces)} against defence {defence}, "
        f"{hits} hit{'s' if hits != 1 else ''}",
        rules=("c6",),
        kind="attack",
        data={"attacker": w.name, "target": target.name, "side": w.side, "faces": faces,
              "defence": defence, "hits": hits},
    )
    if hits == 0:
        return None
    target.damage += hits
    target.damaged_this_turn = True
    yield Event(
        f"{target.name} takes {hits} damage from {w.name} ({target.damage} of {target.health})",
        rules=("c6",),
        kind="wound",
        data={"model": target.name, "side": target.side, "by": w.name, "damage": hits,
              "total": target.damage, "health": target.health},
    )
    if target.damage < target.health:
        return None
    lost = not target.fought
    yield _death(
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
    for w in [w for w in state.in_order() if w.damaged_this_turn]:
        face = (
            yield Roll(
                dice=(10,),
                reason=f"{w.name}'s health check ({w.damage} damage so far), turn {state.turn}",
                side=w.side,
                rules=("c8",),
            )
        )[0]
        survives = face > w.damage
        verdict = "fights on" if survives else "falls"
        yield Event(
            f"{w.name}'s health check: {face} against {w.damage} damage, {verdict}",
            rules=("c8",),
            kind="health",
            data={"model": w.name, "side": w.side, "roll": face, "damage": w.damage,
                  "survives": survives},
        )
        if survives:
            continue
        yield _death(
            state, w, f"{w.name} succumbs to the wounds", ("c8",),
            {"phase": "health", "roll": face},
        )
        if (outcome := last_side_standing(state, ("c8",))) is not None:
            return outcome
    return None


# -- deaths and the end ---------------------------------------------------------------------
def _death(state: IxuState, w: Warrior, text: str, rules: tuple[str, ...],
           extra: dict[str, Any]) -> Event:
    w.dead, w.died_turn = True, state.turn
    state.fallen.append(w.id)
    data = {"model": w.name, "side": w.side, "turn": state.turn, "damage": w.damage, **extra}
    return Event(text, rules=rules, kind="death", data=data)


def last_side_standing(state: IxuState, rules: tuple[str, ...]) -> Outcome | None:
    """The last side with models standing wins (victory is unstated; our default)."""
    for side in ("A", "B"):
        if not state.standing(side):
            winner = OTHER[side]
            state.winner = winner
            return Outcome(
                winner=winner,
                reason=f"{state.names[winner]} are the last side with models standing",
                rules=rules,
                data=summary(state),
            )
    return None


def summary(state: IxuState) -> dict[str, Any]:
    return {
        "standing": [w.name for w in state.standing()],
        "fallen": [
            {"model": w.name, "side": w.side, "turn": w.died_turn}
            for w in map(state.get, state.fallen)
        ],
    }


def turn_cap(state: IxuState) -> Outcome:
    """`max_turns` reached: more models standing wins, then more health left, else a draw."""
    score = {
        side: (len(state.standing(side)), sum(w.remaining for w in state.standing(side)))
        for side in ("A", "B")
    }
    cap = f"the {state.options['max_turns']}-turn cap is reached"
    winner = None if score["A"] == score["B"] else max(score, key=lambda s: score[s])
    state.winner = winner
    if winner is None:
        reason = f"{cap} with the sides even: a draw"
    else:
        reason = f"{cap}; {state.names[winner]} have more models standing or more health left"
    return Outcome(winner=winner, reason=reason, rules=("c3",), data=summary(state))
