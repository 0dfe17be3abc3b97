"""The battle's state: units on spaces with their morale state and damage, the two sides'
Order and roles, and the queries every step asks (who is where, who can still fight)."""

from __future__ import annotations

from dataclasses import MISSING, dataclass, field, fields
from functools import cached_property
from typing import Any

from wargame_cli.rulesets.seeds_of_wars.board import Board, Space
from wargame_cli.rulesets.seeds_of_wars.teams import UnitType

from wargame_cli.kit.sides import SIDES, other
from wargame_cli.wording import plural

# Morale states, best first (rules-reading gap 8): one step per failed check or recovery.
STEADY, SHAKEN, ROUTED = "Steady", "Shaken", "Routed"
STATES = (STEADY, SHAKEN, ROUTED)

# Fates: what became of a unit that is no longer fighting.
DESTROYED = "destroyed"  # damage reached Ht (gap 5) or a Routed unit failed morale (d15)
REMOVED = "removed"  # Routed in its Reserve at a recovery step: left the battle (d5)
CAPTURED = "captured"  # on the losing side and could not retreat (d17)
ESCAPED = "escaped"  # on the losing side and could retreat (d17)

# Bumped whenever a unit changes (moves, is hurt, wavers, leaves the battle): what the bot
# worked out (`Battle.remembered`) is worked out again only then.
_MOVES = [0]
# Bumped whenever a unit's space or fate changes: the index of who fights where
# (`Battle._index`) is rebuilt only then, not rescanned for every space a step asks about.
_PLACES = [0]
_PLACED = frozenset({"space", "fate"})
# Each side's opponent (`other`), as a table: the queries below ask it thousands of times a game.
_FOE = {side: other(side) for side in SIDES}


@dataclass
class Unit:
    uid: str  # "A1", "B3": side letter and place in the army list
    side: str
    kind: UnitType
    space: Space | None = None
    state: str = STEADY
    taken: int = 0  # Ht taken during the entire battle (d14)
    fate: str = ""
    damaged_this_round: bool = False  # d14: who checks morale
    charged: frozenset[str] = frozenset()  # enemies in the space it entered this round (d12)

    def __setattr__(self, name: str, value: Any) -> None:
        _MOVES[0] += 1
        if name in _PLACED:
            _PLACES[0] += 1
        super().__setattr__(name, value)

    @classmethod
    def fresh(cls, uid: str, side: str, kind: UnitType) -> Unit:
        """`Unit(uid, side, kind)` without a change counted per field (a battle sets up
        sixteen of them, thousands of times in a simulation)."""
        unit = object.__new__(cls)
        unit.__dict__.update(_FRESH, uid=uid, side=side, kind=kind)
        _MOVES[0] += 1
        _PLACES[0] += 1
        return unit

    @cached_property
    def name(self) -> str:
        """The id and kind ("A1 Knights"), which never change: made once (the rules name units
        in hundreds of requests a game)."""
        return f"{self.uid} {self.kind.name}"

    @property
    def fighting(self) -> bool:
        """On the battlefield and not out of the battle."""
        return self.fate == "" and self.space is not None

    @property
    def left(self) -> int:
        return self.kind.ht - self.taken


# The defaults of every field that has one: what `Unit.fresh` starts from.
_FRESH = {f.name: f.default for f in fields(Unit) if f.default is not MISSING}


@dataclass
class Battle:
    board: Board
    options: dict[str, Any]
    names: dict[str, str]
    orders: dict[str, int]
    attacker: str
    units: list[Unit]
    round: int = 0
    step: str = "deployment"
    initiative: str | None = None
    attacked: dict[str, set[str]] = field(default_factory=dict)  # target -> melee attackers
    acted: set[str] = field(default_factory=set)  # units that acted in this step (for cards)
    result: dict[str, Any] | None = None
    # The version of the rules played (`wargame_cli/versions.py`): 1 asks for an attack's unit
    # and its target apart and has no auto_attack; 2 asks no
    # fight-on question between rounds, and with pass_rule=first_pass_ends any pass ends the step.
    rules_version: int = 3
    # `places()`: (the `_PLACES` count it was built at, the list of units, the index). The
    # queries asked most often read it directly: they run thousands of times a battle.
    _index: tuple[int, Any, Any] = field(
        default=(-1, None, None), init=False, repr=False, compare=False
    )
    # `unit()`: (the list of units it was made from, units by id).
    _by_uid: tuple[Any, dict[str, Unit]] = field(
        default_factory=lambda: (None, {}), init=False, repr=False, compare=False
    )
    # `remembered()`: (the `_MOVES` count it was made at, the memo).
    _memo: tuple[int, dict[Any, Any]] = field(
        default_factory=lambda: (-1, {}), init=False, repr=False, compare=False
    )

    @property
    def defender(self) -> str:
        return other(self.attacker)

    def role(self, side: str) -> str:
        return "attacker" if side == self.attacker else "defender"

    def unit(self, uid: str) -> Unit:
        by_uid = self._by_uid
        if by_uid[0] is not self.units:
            by_uid = self._by_uid = (self.units, {u.uid: u for u in self.units})
        found = by_uid[1].get(uid)
        if found is None:  # not in the list it was made from: look again
            return next(u for u in self.units if u.uid == uid)
        return found

    def side_units(self, side: str) -> list[Unit]:
        return [u for u in self.units if u.side == side]

    def fighting(self, side: str | None = None) -> tuple[Unit, ...]:
        """Units still fighting (of `side`, or all), in army-list order."""
        index = self._index
        if index[0] != _PLACES[0] or index[1] is not self.units:
            return self._reindex()[side]
        return index[2][side]

    def at(self, space: Space, side: str | None = None) -> tuple[Unit, ...]:
        """Units fighting at `space` (of `side`, or all), in army-list order."""
        index = self._index
        where = index[2] if index[0] == _PLACES[0] and index[1] is self.units else self._reindex()
        return where.get((space, side), ())

    def places(self) -> dict[Any, Any]:
        """The index of who fights where: units still fighting by side (None: all) and by
        (space, side) (None: both sides), as tuples in army-list order. Read-only."""
        index = self._index
        if index[0] != _PLACES[0] or index[1] is not self.units:
            return self._reindex()
        return index[2]

    def remembered(self) -> dict[Any, Any]:
        """A memo that lasts until a unit changes (the options and the board are fixed)."""
        memo = self._memo
        if memo[0] != _MOVES[0]:
            memo = self._memo = (_MOVES[0], {})
        return memo[1]

    def _reindex(self) -> dict[Any, Any]:
        """Units still fighting, by side (None: all) and by (space, side), in army-list
        order (and whatever else depends only on that, like `out_of_fight`); rebuilt only
        after a unit moves or leaves the battle."""
        where: dict[Any, Any] = {}
        get = where.get
        every: list[Unit] = []
        by_side: dict[str, list[Unit]] = {side: [] for side in SIDES}
        away = dict.fromkeys(SIDES, 0)  # units out of their own Reserve: `out_of_fight`
        reserve = {side: self.board.reserve_row(side) for side in SIDES}
        for u in self.units:
            space = u.space
            if u.fate != "" or space is None:
                continue
            side = u.side
            every.append(u)
            by_side[side].append(u)
            if space[0] != reserve[side]:
                away[side] += 1
            key: tuple[Space, str | None] = (space, side)
            where[key] = get(key, ()) + (u,)
            key = (space, None)
            where[key] = get(key, ()) + (u,)
        where[None] = tuple(every)
        for side in SIDES:
            where[side] = tuple(by_side[side])
            where[("out", side)] = away[side] == 0
        where["out"] = where[("out", "A")] or where[("out", "B")]
        self._index = (_PLACES[0], self.units, where)
        return where

    def enemies_at(self, side: str, space: Space) -> tuple[Unit, ...]:
        index = self._index
        where = index[2] if index[0] == _PLACES[0] and index[1] is self.units else self._reindex()
        return where.get((space, _FOE[side]), ())

    def friends_at(self, side: str, space: Space) -> int:
        return len(self.places().get((space, side), ()))

    def room(self, side: str, space: Space) -> str | None:
        """Why `side` cannot end a move in `space` (the stacking limit), or None."""
        limit = self.options["stack_limit"]
        if self.friends_at(side, space) >= limit:
            held = plural(limit, "friendly unit")
            return f"{self.board.key(space)} already holds {held} (stack_limit)"
        return None

    def engaged(self, unit: Unit) -> bool:
        """Sharing a space with an enemy: melee happens within a space."""
        index = self._index
        where = index[2] if index[0] == _PLACES[0] and index[1] is self.units else self._reindex()
        return unit.space is not None and (unit.space, _FOE[unit.side]) in where

    def in_reserve(self, unit: Unit) -> bool:
        return unit.space is not None and self.board.in_reserve(unit.side, unit.space)

    def out_of_fight(self, side: str) -> bool:
        """d16: every unit of `side` is destroyed (or gone) or in its own Reserve (asked twice
        an activation: kept with the index of who fights where)."""
        return self.places()[("out", side)]

    def either_out(self) -> bool:
        """`out_of_fight` of either side: the battle is decided (d16)."""
        return self.places()["out"]

    def loses_if_at(self, unit: Unit, space: Space) -> bool:
        """d16: would `unit` standing at `space` leave every unit of its side destroyed, gone
        or in its Reserve (the battle lost at once)? Never while units still wait to deploy."""
        if any(
            u.fate == "" and u.space is None and u is not unit for u in self.side_units(unit.side)
        ):
            return False
        for u in self.side_units(unit.side):  # `out_of_fight` with `unit` moved to `space`
            where = space if u is unit else u.space
            if u.fate == "" and where is not None and not self.board.in_reserve(u.side, where):
                return False
        return True

    def reserve_warning(self, unit: Unit, space: Space) -> str:
        """The words an option adds when it would lose the battle at once (d16), or ''."""
        if not self.loses_if_at(unit, space):
            return ""
        return (
            f" - LOSES THE BATTLE: every unit of {self.names[unit.side]} would be in its "
            "Reserve (d16)"
        )

    def scouts(self, side: str) -> int:
        return sum(u.kind.scout for u in self.side_units(side))

    def space_name(self, unit: Unit) -> str:
        return self.board.key(unit.space) if unit.space is not None else "-"

    def describe(self, unit: Unit) -> str:
        return (
            f"{unit.name} at {self.space_name(unit)} ({unit.state}, Ht taken "
            f"{unit.taken}/{unit.kind.ht})"
        )

    # -- JSON ------------------------------------------------------------------------------
    def unit_json(self, unit: Unit) -> dict[str, Any]:
        return {
            "id": unit.uid,
            "type": unit.kind.name,
            "space": self.board.key(unit.space) if unit.space is not None else None,
            "row": self.board.row_label(unit.space[0]) if unit.space is not None else None,
            "state": unit.state,
            "ht": unit.kind.ht,
            "ht_taken": unit.taken,
            "in_reserve": unit.fighting and self.in_reserve(unit),
            "destroyed": unit.fate == DESTROYED,
            "captured": unit.fate == CAPTURED,
            "escaped": unit.fate in (ESCAPED, REMOVED),
            "fate": unit.fate or None,
            "profile": unit.kind.to_data(),
        }

    def to_json(self) -> dict[str, Any]:
        return {
            "turn": self.round,  # every ruleset's state has turn: here the last round played
            "step": self.step,
            "initiative": self.initiative,
            "board": {
                "columns": self.board.columns,
                "rows": [self.board.row_label(r) for r in range(self.board.rows)],
            },
            "sides": {
                side: {
                    "name": self.names[side],
                    "order": self.orders[side],
                    "role": self.role(side),
                    "units": [self.unit_json(u) for u in self.side_units(side)],
                }
                for side in SIDES
            },
            "result": self.result,
        }
