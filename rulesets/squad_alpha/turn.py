"""A game turn (b6-b10, b21): initiative, dice rolled and attributed, then steps 1 to 6."""

from __future__ import annotations

from collections.abc import Generator
from functools import cache
from typing import Any

from wargame_cli.rulesets.squad_alpha import bot
from wargame_cli.rulesets.squad_alpha.activation import activate
from wargame_cli.rulesets.squad_alpha.odds import highest_passing, pass_chance
from wargame_cli.rulesets.squad_alpha.rolloff import roll_off, with_bonus
from wargame_cli.rulesets.squad_alpha.state import GameState, Mini

from wargame_cli.engine.requests import Choice, Event, Option, Outcome, Roll
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.wording import percent, plural, possessive

ATTRIBUTE_KEYS = ("suggested", "by_hand")


def initiative(state: GameState) -> Generator[Any, Any, None]:
    """b6: a roll-off, each adding the leader's current rating (negative ratings subtract,
    b24)."""
    bonus = {side: state.current_rating(side) for side in SIDES}
    winner, totals = yield from roll_off(
        state, f"Initiative roll-off, turn {state.turn}", ("b6", "b24"), bonus
    )
    state.initiative = winner
    state.initiative_rolls = totals
    shown = {s: with_bonus(totals[s] - bonus[s], bonus[s]) for s in SIDES}
    yield Event(
        f"{state.squads[winner].name} has the initiative "
        f"({state.squads['A'].name} {shown['A']}, {state.squads['B'].name} {shown['B']})",
        rules=("b6", "b24"),
        kind="initiative",
        data={"winner": winner, "totals": totals, "ratings": bonus},
    )


def roll_and_attribute(state: GameState) -> Generator[Any, Any, None]:
    """b7: a die per living miniature; b8: the side without initiative attributes first, the
    other sees those choices; b9: play starts once all are attributed."""
    assert state.initiative is not None
    order = (other(state.initiative), state.initiative)
    faces: dict[str, list[int]] = {}
    for side in order:
        living = state.squads[side].living
        rolled = yield Roll(
            dice=(6,) * len(living),
            reason=f"{possessive(state.squads[side].name)} dice for turn {state.turn}",
            side=side,
            rules=("b7", "b22"),
        )
        faces[side] = list(rolled)
    for side in order:
        yield from attribute(state, side, faces[side], faces[other(side)])


def attribute(
    state: GameState, side: str, faces: list[int], theirs: list[int] | None = None
) -> Generator[Any, Any, None]:
    """One side attributes `faces`; `theirs` (the other side's roll) is shown to the side
    attributing first, the other side's attribution to the side attributing second."""
    squad = state.squads[side]
    living = squad.living
    if len(living) > 1 and len(set(faces)) > 1:
        suggested = cache(lambda: bot.attribution(state, living, faces))
        enemy = state.squads[other(side)]
        if side == state.initiative:
            seen = "; they hold " + ", ".join(f"{m.name} {m.die}" for m in enemy.living)
        elif theirs:
            seen = f"; {enemy.name} rolled {' '.join(map(str, sorted(theirs)))}"
        else:
            seen = ""

        def describe(key: str) -> str:
            """The option's label; the bot's plan is worked out only for "suggested"."""
            if key == "by_hand":
                return "Attribute them one miniature at a time"
            plan = suggested()
            return "Keep the suggested attribution: " + ", ".join(
                f"{m.name} {plan[m.id]}" for m in living
            )

        key = yield Choice(
            side=side,
            prompt=f"{squad.name}: attribute your dice {' '.join(map(str, sorted(faces)))}{seen}",
            options=lambda: tuple(Option(k, describe(k)) for k in ATTRIBUTE_KEYS),
            default="suggested",
            rules=("b8",),
            kind="attribute",
            judge=lambda key: (
                None if key in ATTRIBUTE_KEYS else f"{key!r} is not one of the options"
            ),
            describe=describe,
        )
        plan = (
            suggested() if key == "suggested" else (yield from _by_hand(state, side, living, faces))
        )
    else:  # one miniature, or every die alike: there is nothing to choose
        plan = {m.id: face for m, face in zip(living, faces, strict=True)}
    for mini in living:
        mini.die = plan[mini.id]
        mini.acted = False
    yield Event(
        f"{squad.name} attributes: " + ", ".join(f"{m.name} {m.die}" for m in living),
        rules=("b8", "b9"),
        kind="attribute",
        data={"side": side, "dice": {m.id: m.die for m in living}},
    )


def _by_hand(
    state: GameState, side: str, living: list[Mini], faces: list[int]
) -> Generator[Any, Any, dict[str, int]]:
    remaining = sorted(faces)
    plan: dict[str, int] = {}
    for i, mini in enumerate(living):
        if i == len(living) - 1 or len(set(remaining)) == 1:
            for rest, face in zip(living[i:], remaining, strict=True):
                plan[rest.id] = face
            return plan
        key = yield Choice(
            side=side,
            prompt=f"Which die for {mini.name} ({mini.training})? Left: "
            + " ".join(map(str, remaining)),
            options=tuple(die_option(state, mini, f) for f in sorted(set(remaining))),
            default=lambda i=i, mini=mini: str(
                bot.attribution(state, living[i:], remaining)[mini.id]
            ),
            rules=("b8",),
            kind="attribute",
        )
        plan[mini.id] = int(key)
        remaining.remove(int(key))
    return plan


def _test(state: GameState, mini: Mini) -> str:
    """`test 88%`: the chance of the miniature's action test at this step (b12, b13, b24)."""
    return f"test {percent(pass_chance(mini.dice, state.step, state.modifier(mini.side)))}"


def die_option(state: GameState, mini: Mini, face: int) -> Option:
    """`3: acts at step 3, needs 3 or less: 88%`: the step a die gives and the chance of its
    action test there, with the squad's rating as it stands now (b10, b12, b13, b24)."""
    mod = state.modifier(mini.side)
    chance = percent(pass_chance(mini.dice, face, mod))
    need = highest_passing(face, mod)
    return Option(str(face), f"{face}: acts at step {face}, needs {need} or less: {chance}")


def steps(state: GameState) -> Generator[Any, Any, Outcome | None]:
    """b10: at step k every miniature holding k acts, the initiative side's first; the owner
    picks the order within a step (default 12)."""
    assert state.initiative is not None
    for step in range(1, 7):
        state.step = step
        announced = step_event(state, step) if state.rules_version >= 2 else None
        if announced is not None:  # version 1 announced no step
            yield announced
        for side in (state.initiative, other(state.initiative)):
            while True:
                ready = [
                    m
                    for m in state.squads[side].living
                    if m.die == step and not m.acted and m.pos is not None
                ]
                if not ready:
                    break
                mini = ready[0]
                if len(ready) > 1:
                    key = yield Choice(
                        side=side,
                        prompt=f"Step {step}: which miniature acts next?",
                        options=tuple(
                            Option(m.id, f"{m.name} ({m.training}; {_test(state, m)})")
                            for m in ready
                        ),
                        default=lambda ready=ready, step=step: bot.order(state, ready, step).id,
                        rules=("b10",),
                        kind="order",
                    )
                    mini = state.mini(key)
                state.acting = mini.id
                yield from activate(state, mini)
                state.acting = None
                outcome = annihilation(state)
                if outcome is not None:
                    return outcome
    state.step = 0
    for mini in state.all_minis():
        mini.die = None
    return None


def step_event(state: GameState, step: int) -> Event | None:
    """Who holds this step's number, the initiative side first (b10); None if no one does."""
    assert state.initiative is not None
    order = [
        (side, [m for m in state.squads[side].living if m.die == step and m.pos is not None])
        for side in (state.initiative, other(state.initiative))
    ]
    order = [(side, minis) for side, minis in order if minis]
    if not order:
        return None
    parts = [
        f"{state.squads[side].name} ({', '.join(m.name for m in minis)})" for side, minis in order
    ]
    text = f"Step {step}: " + (f"{parts[0]} first, then {parts[1]}" if len(parts) > 1 else parts[0])
    return Event(
        text,
        rules=("b10",),
        kind="step",
        data={"step": step, "order": [[side, [m.id for m in minis]] for side, minis in order]},
    )


def annihilation(state: GameState) -> Outcome | None:
    """A side with no miniatures left loses (default 11)."""
    for side in SIDES:
        if not state.squads[side].living:
            winner = other(side)
            return Outcome(
                winner=winner,
                reason=f"{state.squads[side].name} has no miniatures left",
                rules=("b22",),
                data=survivors(state),
                cause="loser all casualties",
            )
    return None


def survivors(state: GameState) -> dict[str, Any]:
    return {"survivors": {s: len(state.squads[s].living) for s in SIDES}}


def decide_by_survivors(state: GameState) -> Outcome:
    """`max_turns`: the side with more survivors wins; equal numbers draw."""
    a, b = (len(state.squads[s].living) for s in SIDES)
    limit = state.options["max_turns"]
    if a == b:
        return Outcome(
            None,
            f"{plural(limit, 'turn')} played, {plural(a, 'survivor')} each: a draw",
            ("b21",),
            survivors(state),
            cause="turn limit (max_turns)",
        )
    winner = "A" if a > b else "B"
    return Outcome(
        winner,
        f"{plural(limit, 'turn')} played: {state.squads[winner].name} has more survivors "
        f"({max(a, b)} to {min(a, b)})",
        ("b21",),
        survivors(state),
        cause="turn limit (max_turns)",
    )
