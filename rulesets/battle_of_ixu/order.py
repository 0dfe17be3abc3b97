"""Phase 1 (c4, c1, c2): the d10s set the turn's order, then each model in that order rolls
its experience dice and its player attributes them."""

from __future__ import annotations

from collections.abc import Generator
from typing import Any

from wargame_cli.rulesets.battle_of_ixu import attribution, bot, odds
from wargame_cli.rulesets.battle_of_ixu.state import IxuState, Phase, Warrior, listed

from wargame_cli.engine.requests import Choice, Event, Option, Request, Roll
from wargame_cli.engine.rolloffs import Dice, ranked, roll_off
from wargame_cli.wording import possessive


def settle(
    state: IxuState, tied: list[Warrior], by_experience: bool
) -> Generator[Request, Any, list[Warrior]]:
    """Order models with equal d10s: by experience first if the option says so, then d10s
    re-rolled among those still tied until they part (the seed leaves ties open)."""
    if len(tied) == 1:
        return tied
    if by_experience:
        out: list[Warrior] = []
        for group in ranked([(w, w.experience) for w in tied]):
            out += yield from settle(state, group, False)
        return out
    return (
        yield from roll_off(
            tied,
            Dice(
                10,
                lambda group, _: (
                    "re-roll for the order between "
                    f"{' and '.join(w.name for w in group)}, turn {state.turn}"
                ),
                ("c4",),
                label=lambda w: w.name,
                owner=lambda w: w.side,
            ),
            seen=lambda w, face: w.order_rolls.append(face),
        )
    )


def order_phase(state: IxuState) -> Phase:
    warriors = state.standing()
    faces = yield Roll(
        dice=(10,) * len(warriors),
        reason=f"order for turn {state.turn} (a d10 per model)",
        rules=("c3", "c4"),
        labels=tuple(w.name for w in warriors),
        owners=tuple(w.side for w in warriors),
    )
    for w, face in zip(warriors, faces, strict=True):
        w.order_rolls = [face]
    ordered: list[Warrior] = []
    by_experience = state.options["order_ties"] == "experience"
    for group in ranked(list(zip(warriors, faces, strict=True))):
        ordered += yield from settle(state, group, by_experience)
    state.order = [w.id for w in ordered]
    shown = ", ".join(f"{w.name} ({_rolls(w.order_rolls)})" for w in ordered)
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


def _rolls(faces: list[int]) -> str:
    """A model's order d10, then any re-rolls that settled a tie: "9, re-rolled 4"."""
    first, *again = faces
    return f"{first}, re-rolled {', '.join(map(str, again))}" if again else str(first)


def attribute_phase(state: IxuState) -> Phase:
    die = int(state.options["die"])
    for w in state.in_order():
        faces = list(
            (
                yield Roll(
                    dice=(die,) * w.pool,
                    reason=f"{possessive(w.name)} experience dice ({w.rating}, "
                    f"{w.pool}d{die}), turn {state.turn}",
                    side=w.side,
                    rules=("c1", "c2", "c4"),
                )
            )
        )
        w.rolled = faces
        if len(set(faces)) == 1:  # every assignment is the same: nothing to decide
            chosen = bot.pick_dice(state, w, faces)
        else:
            key = yield Choice(
                side=w.side,
                prompt=f"{w.name} rolled {listed(sorted(faces, reverse=True))}: "
                "movement, combat, defence?",
                options=lambda faces=faces, w=w: tuple(
                    Option(
                        attribution.key_of(d),
                        attribution.label(faces, d, odds.attribution_odds(state, w, d)),
                    )
                    for d in attribution.assignments(faces)
                ),
                default=lambda w=w, faces=faces: attribution.key_of(bot.pick_dice(state, w, faces)),
                rules=("c2",),
                kind="attribute",
                free_hint="movement,combat,defence",
                judge=lambda text, faces=faces: attribution.problem(faces, text),
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
                "movement": chosen.movement,
                "combat": chosen.combat,
                "defence": chosen.defence,
                "unused": left,
            },
        )
    return None
