"""Phase 1 (c4, c1, c2): the d10s set the turn's order, then each model in that order rolls
its experience dice and its player attributes them."""

from __future__ import annotations

from collections.abc import Generator
from itertools import groupby
from typing import Any

from rulesets.battle_of_ixu import attribution, tactics
from rulesets.battle_of_ixu.state import IxuState, Phase, Warrior, listed
from wargame_cli.engine.requests import Choice, Event, Option, Request, Roll


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
                prompt=f"{w.name} rolled {listed(sorted(faces, reverse=True))}: "
                "movement, combat, defence?",
                options=tuple(
                    Option(attribution.key_of(d), attribution.label(faces, d)) for d in offered
                ),
                default=attribution.key_of(best),
                rules=("c2",),
                kind="attribute",
                free_hint="movement,combat,defence",
                check=lambda text, faces=faces: attribution.problem(faces, text),
            )
            chosen = attribution.parse(key)
        w.dice = chosen
        left = attribution.unused(faces, chosen)
        ignored = f"; ignores {listed(left)}" if left else ""
        yield Event(
            f"{w.name} rolls {listed(faces)}: movement {chosen.movement}, combat "
            f"{chosen.combat}, defence {chosen.defence}{ignored}",
            rules=("c2",),
            kind="attribute",
            data={
                "model": w.name,
                "side": w.side,
                "faces": faces,
                **chosen.as_dict(),
                "unused": left,
            },
        )
    return None
