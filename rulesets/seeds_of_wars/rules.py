"""Seeds of Wars, the battle: deployment, combat rounds of six steps (d3), and the victor (d16,
d17). Pure: it asks for dice and decisions and reports events; the steps live in their own
modules."""

from __future__ import annotations

from collections.abc import Generator
from functools import partial
from typing import Any, cast

from wargame_cli.rulesets.seeds_of_wars import actions, steps
from wargame_cli.rulesets.seeds_of_wars.board import Board
from wargame_cli.rulesets.seeds_of_wars.deployment import deploy
from wargame_cli.rulesets.seeds_of_wars.movement import way_home
from wargame_cli.rulesets.seeds_of_wars.prompts import Surrendered, ask
from wargame_cli.rulesets.seeds_of_wars.state import (
    CAPTURED,
    DESTROYED,
    ESCAPED,
    REMOVED,
    STEADY,
    Battle,
    Unit,
)
from wargame_cli.rulesets.seeds_of_wars.teams import types_of

from wargame_cli.engine.events import EventData
from wargame_cli.engine.requests import Event, Option, Outcome, Play, TurnStart
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.wording import plural


def _flight(battle: Battle) -> Generator[Any, Any, None]:
    """Step 3 opens with the Routed units' flight."""
    battle.step = "movement"
    yield from steps.flight(battle)


# Steps 3-5 are then the alternation itself (no generator of their own between the round and
# it: every request of a step passes up through each level). After the flight the battle may
# be decided: the round stops there, as the alternation would have stopped at once.
_movement = partial(actions.alternate, step="movement", activation=actions.move, rules=("d8", "d9"))
_ranged = partial(actions.alternate, step="ranged", activation=actions.shoot, rules=("d10", "d11"))
_melee = partial(actions.alternate, step="melee", activation=actions.fight, rules=("d12", "d13"))

# d3: steps 1-6 in order (step 3 as its flight, then its alternation); each is a generator
# over the battle.
ROUND = (steps.recovery, steps.initiative, _flight, _movement, _ranged, _melee, steps.morale)


def new_battle(names: dict[str, str], teams: dict[str, Any], options: dict[str, Any]) -> Battle:
    board = Board(options["columns"], options["battle_lines"], options["neutral_rows"])
    units = [
        Unit.fresh(f"{side}{i + 1}", side, kind)
        for side in SIDES
        for i, kind in enumerate(types_of(teams[side]))
    ]
    for side in SIDES:  # a campaign's: Ht taken and morale as an earlier battle left them
        mine = [u for u in units if u.side == side]
        for unit, row in zip(mine, teams[side].get("carried", ()), strict=False):
            if row["taken"] or row["state"] != STEADY:
                unit.taken, unit.state = row["taken"], row["state"]
    return Battle(
        board=board,
        options=dict(options),
        names=dict(names),
        orders={side: int(teams[side]["order"]) for side in SIDES},
        attacker=options["attacker"],
        units=units,
    )


def decided(battle: Battle) -> tuple[str | None, str] | None:
    """d16: a side whose units are all destroyed (or gone) or in its Reserve has lost."""
    if not battle.either_out():
        return None
    out = [side for side in SIDES if battle.out_of_fight(side)]
    if len(out) == 2:
        return None, "no unit of either side is left fighting outside its Reserve"
    if out:
        loser = out[0]
        return other(loser), why_out(battle, loser)
    return None


def why_out(battle: Battle, side: str) -> str:
    """Which of d16's ways `side` lost by: destroyed, gone, or back in its Reserve."""
    name = battle.names[side]
    units = battle.side_units(side)
    if all(u.fate == DESTROYED for u in units):
        return f"every unit of {name} is destroyed"
    if not battle.fighting(side):
        return f"no unit of {name} is left on the battlefield"
    return f"every unit {name} has left on the battlefield is in its Reserve"


def between_rounds(battle: Battle) -> Generator[Any, Any, None]:
    """d16: surrender is a choice between rounds too, not only at the battle's questions; each
    side, the initiative winner first, fights on (the default) or surrenders."""
    first = battle.initiative or battle.attacker
    for side in (first, other(first)):
        yield from ask(
            battle,
            side,
            f"End of round {battle.round}: {battle.names[side]} fights on or surrenders?",
            (Option("fight", f"Fight on into round {battle.round + 1}"),),
            "fight",
            ("d3",),
            "round_end",
        )


def cause_of(battle: Battle, winner: str | None) -> str:
    """d16's way the battle was decided, in a few words for simulate's tally."""
    if winner is None:
        return "both sides out at once"
    units = battle.side_units(other(winner))
    if all(u.fate == DESTROYED for u in units):
        return "loser destroyed"
    if not battle.fighting(other(winner)):
        return "loser off the battlefield"
    return "loser all in its Reserve"


class SeedsGame:
    def __init__(self, battle: Battle, at_turn: bool = False) -> None:
        """`at_turn`: the game stands at a turn's start (a position restored), so its
        generator begins with that turn, its setting up done."""
        self.state = battle  # `state`: what the view renders
        self.at_turn = at_turn

    def play(self) -> Play:
        battle = self.state
        try:
            if not self.at_turn:
                yield from deploy(battle)
            end = decided(battle)
            while end is None:
                yield TurnStart(battle.round + 1, rules=("d3",))
                battle.round += 1  # after the pause point: a stopped game shows rounds done
                for unit in battle.units:  # only where set: each change drops the bot's memo
                    if unit.damaged_this_round:
                        unit.damaged_this_round = False
                    if unit.charged:
                        unit.charged = frozenset()
                battle.attacked = {}
                for step in ROUND:
                    yield from step(battle)
                    end = decided(battle)
                    if end is not None:
                        break
                if end is None and battle.round >= battle.options["max_rounds"]:
                    return (
                        yield from self.finish(
                            None,
                            f"no decision after {plural(battle.round, 'round')} (max_rounds)",
                            ("d3",),
                            "round limit (max_rounds)",
                        )
                    )
                if end is None and battle.rules_version >= 3:
                    yield from between_rounds(battle)
        except Surrendered as gave_up:
            side = gave_up.side
            return (
                yield from self.finish(
                    other(side),
                    f"{battle.names[side]} surrenders",
                    ("d16", "d17"),
                    "loser surrendered",
                )
            )
        return (yield from self.finish(end[0], end[1], ("d16", "d17"), cause_of(battle, end[0])))

    def finish(
        self, winner: str | None, reason: str, rules: tuple[str, ...], cause: str = ""
    ) -> Generator[Any, Any, Outcome]:
        """III. Determine Victor: the loser's units that cannot retreat are captured (d17)."""
        battle = self.state
        battle.step = "over"
        if winner is not None:
            for unit in battle.fighting(other(winner)):
                unit.fate = ESCAPED if way_home(battle, unit) else CAPTURED
                if unit.fate == CAPTURED:
                    why = (
                        "an enemy shares its space"
                        if battle.engaged(unit)
                        else "enemies bar every way to its Reserve"
                    )
                    yield Event(
                        f"{unit.name} at {battle.space_name(unit)} cannot retreat ({why}) "
                        "and is captured",
                        rules=("d17",),
                        kind="captured",
                        data={"unit": unit.uid},
                    )
        result: EventData = {
            "winner": winner,
            "reason": reason,
            "rounds": battle.round,
            "sides": {side: self._tally(side) for side in SIDES},
        }
        battle.result = kept = cast(dict[str, Any], result)  # the same dict, as the ending's data
        yield Event(self._summary(), rules=("d16", "d17"), kind="result", data=result)
        return Outcome(winner=winner, reason=reason, rules=rules, data=kept, cause=cause)

    def _tally(self, side: str) -> dict[str, list[str]]:
        units = self.state.side_units(side)
        return {
            "destroyed": [u.name for u in units if u.fate == DESTROYED],
            "captured": [u.name for u in units if u.fate == CAPTURED],
            "escaped": [u.name for u in units if u.fate in (ESCAPED, REMOVED)],
            "held_the_field": [u.name for u in units if u.fate == ""],
        }

    def _summary(self) -> str:
        """d17: each side's destroyed, captured and escaped units by name (and those that
        held the field)."""
        parts = []
        for side in SIDES:
            tally = self._tally(side)
            lists = [
                f"{what.replace('_', ' ')} {', '.join(names) or 'none'}"
                for what, names in tally.items()
                if names or what != "held_the_field"
            ]
            parts.append(f"{self.state.names[side]}: {'; '.join(lists)}.")
        return "Result. " + " ".join(parts)

    def state_json(self) -> dict[str, Any]:
        return self.state.to_json()
