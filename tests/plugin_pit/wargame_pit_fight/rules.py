"""Pit Fight's rules: each turn each fighter strikes, guards or rests; a strike rolls a d6
against the target's guard; the first to lose all wounds falls (p1-p4)."""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from wargame_cli.engine.requests import Choice, Event, Option, Outcome, Roll, TurnStart
from wargame_cli.wording import plural
from wargame_pit_fight.ruleset import FIGHTERS

OTHER = {"A": "B", "B": "A"}


@dataclass
class Fighter:
    name: str
    wounds: int
    guard: bool = False


@dataclass
class PitState:
    fighters: dict[str, Fighter]
    turn: int = 0


class PitGame:
    def __init__(self, setup: Any, options: dict[str, Any], version: int = 2) -> None:
        self.options = options
        self.version = version  # 1: no damage in a wound's data, no death event
        self.state = PitState(
            {
                side: Fighter(setup.teams[side]["fighter"], FIGHTERS[setup.teams[side]["fighter"]])
                for side in ("A", "B")
            }
        )

    def play(self) -> Generator[Any, Any, Outcome]:
        limit = int(self.options["max_turns"])
        while not limit or self.state.turn < limit:
            self.state.turn += 1
            yield TurnStart(self.state.turn, rules=("p2",))
            for side in ("A", "B"):
                me, foe = self.state.fighters[side], self.state.fighters[OTHER[side]]
                me.guard = False
                hurt = me.wounds < FIGHTERS[me.name]
                key = yield Choice(
                    side,
                    f"{me.name} ({me.wounds} wounds): strike, guard or rest?",
                    (
                        Option("strike", f"Strike {foe.name}"),
                        Option("guard", "Guard (strikes hit only on 6)"),
                        Option("rest", "Rest (heal 1 wound)", None if hurt else "not hurt"),
                    ),
                    default="strike",
                    rules=("p2",),
                )
                if key == "guard":
                    me.guard = True
                    yield Event(f"{me.name} guards", rules=("p2",))
                elif key == "rest":
                    me.wounds += 1
                    yield Event(f"{me.name} rests and heals to {me.wounds}", rules=("p2",))
                else:
                    (face,) = yield Roll((6,), f"{me.name} strikes {foe.name}", side, rules=("p3",))
                    if face >= (6 if foe.guard else int(self.options["to_hit"])):
                        damage = face // 2 or 1
                        foe.wounds -= damage
                        hit: dict[str, Any] = {"attacker": side, "target": OTHER[side]}
                        if self.version >= 2:
                            hit["damage"] = damage
                        yield Event(
                            f"{me.name} hits {foe.name}: {plural(foe.wounds, 'wound')} left",
                            rules=("p3",),
                            kind="wound",  # the one vocabulary: wargame_cli/engine/events.py
                            data=hit,
                        )
                    else:
                        yield Event(f"{me.name} misses {foe.name}", rules=("p3",))
                    if foe.wounds <= 0:
                        if self.version >= 2:  # the one vocabulary: who fell, and by whom
                            yield Event(
                                f"{foe.name} falls to {me.name}",
                                rules=("p4",),
                                kind="death",
                                data={"model": OTHER[side], "by": side},
                            )
                        return Outcome(side, f"{foe.name} falls", rules=("p4",), cause="fallen")
        return Outcome(None, "time is called: a draw", rules=("p4",), cause="turn limit")

    def state_json(self) -> dict[str, Any]:
        return {
            "turn": self.state.turn,
            "fighters": {s: vars(f).copy() for s, f in self.state.fighters.items()},
        }
