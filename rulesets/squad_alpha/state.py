"""The state of a Squad Alpha game: miniatures on the table, dice held, casualties, ratings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wargame_cli.rulesets.squad_alpha.teams import TRAINING_DICE, Soldier, leader_index

from wargame_cli.kit.serial import later
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, in_contact
from wargame_cli.tabletop.table import Table

HOME_EDGE = {"A": "south", "B": "north"}

# Bumped whenever a miniature changes (placed, moved, killed, given a die, acted): what the
# bot works out again and again within one decision (enemies, bodies, contacts, the worth of
# a spot) is kept until the next change (see GameState._remembered).
_CHANGES = [0]


@dataclass
class Mini:
    """A miniature in play. A casualty stays on the table as a figure that blocks nothing."""

    id: str
    side: str
    name: str
    training: str
    rating: int
    pos: Point | None = None
    alive: bool = True
    die: int | None = None
    acted: bool = False
    own_dice: int | None = later()  # its action dice where a run or its squad changed them

    def __setattr__(self, name: str, value: Any) -> None:
        _CHANGES[0] += 1
        super().__setattr__(name, value)

    @property
    def dice(self) -> int:
        """Dice on an action test (b12): its training's, unless changed (`--unit`)."""
        return TRAINING_DICE[self.training] if self.own_dice is None else self.own_dice

    @property
    def label(self) -> str:
        """Two characters for the map: side letter and number (the tenth is 0)."""
        return f"{self.side}{int(self.id[1:]) % 10}"

    @property
    def active(self) -> bool:
        return self.alive and self.pos is not None

    @property
    def at(self) -> Point:
        """Where a miniature on the table stands: its `pos`, asked only once it is placed."""
        assert self.pos is not None
        return self.pos


@dataclass
class Squad:
    side: str
    name: str
    minis: list[Mini]
    leader_id: str

    @property
    def living(self) -> list[Mini]:
        return [m for m in self.minis if m.alive]

    @property
    def casualties(self) -> int:
        return sum(not m.alive for m in self.minis)


@dataclass
class GameState:
    table: Table
    options: dict[str, Any]
    squads: dict[str, Squad]
    base_radius: float
    turn: int = 0
    step: int = 0
    phase: str = "deployment"
    initiative: str | None = None
    deploys_first: str | None = None
    winner: str | None = None
    result: str = ""
    initiative_rolls: dict[str, int] = field(default_factory=dict)
    acting: str | None = None  # the miniature activating now (its `acted` is already set)
    # The version of the rules played (`wargame_cli/versions.py`): 2 moves in straight lines
    # only and lets a deployment touch an enemy; 3 and 4 differ in wording alone.
    rules_version: int = 4
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    _memo_at: int = field(default=-1, repr=False, compare=False)

    def _remembered(self) -> dict[Any, Any]:
        """The lookups worked out since the last change to a miniature."""
        if self._memo_at != _CHANGES[0]:
            self._memo.clear()
            self._memo_at = _CHANGES[0]
        return self._memo

    # -- lookups ----------------------------------------------------------------------------
    def mini(self, mini_id: str) -> Mini:
        side = mini_id[0]
        return next(m for m in self.squads[side].minis if m.id == mini_id)

    def all_minis(self) -> list[Mini]:
        return [m for squad in self.squads.values() for m in squad.minis]

    def enemies(self, side: str) -> list[Mini]:
        """Living enemies on the table (the list is shared until something changes: read it,
        do not change it)."""
        memo = self._remembered()
        found = memo.get(side)
        if found is None:
            found = memo[side] = [m for m in self.squads[other(side)].minis if m.active]
        return found

    def body(self, mini: Mini) -> Body:
        assert mini.pos is not None
        return Body(mini.id, mini.pos, self.base_radius, mini.name)

    def bodies(self) -> list[Body]:
        """Everything that blocks movement: living miniatures (casualty figures block nothing)."""
        memo = self._remembered()
        found = memo.get("bodies")
        if found is None:
            found = memo["bodies"] = [self.body(m) for m in self.all_minis() if m.active]
        return found

    def contacts(self, mini: Mini) -> list[Mini]:
        """Living enemies in base contact: a melee (b18)."""
        if not mini.active:
            return []
        memo = self._remembered()
        key = ("contacts", mini.id)
        found = memo.get(key)
        if found is None:
            me = self.body(mini)
            found = memo[key] = [e for e in self.enemies(mini.side) if in_contact(me, self.body(e))]
        return found

    def name_of(self, mini_id: str) -> str:
        return self.mini(mini_id).name

    # -- command (b23, b24) -------------------------------------------------------------------
    def leader(self, side: str) -> Mini:
        """The miniature whose rating counts. With `dead_leader=successor` the highest-rated
        survivor takes over (the first listed among equals)."""
        squad = self.squads[side]
        leader = self.mini(squad.leader_id)
        if leader.alive or self.options["dead_leader"] == "keep" or not squad.living:
            return leader
        top = max(m.rating for m in squad.living)
        return next(m for m in squad.living if m.rating == top)

    def current_rating(self, side: str) -> int:
        """b23: the leader's rating less one per casualty on the side."""
        return self.leader(side).rating - self.squads[side].casualties

    def modifier(self, side: str) -> int:
        """b24: a negative rating modifies every activation test (remembered until a
        miniature changes: the bot asks it for every chance it weighs)."""
        memo = self._remembered()
        key = ("modifier", side)
        found = memo.get(key)
        if found is None:
            found = memo[key] = min(0, self.current_rating(side))
        return found


def new_state(
    names: dict[str, str], squads: dict[str, list[Soldier]], options: dict[str, Any]
) -> GameState:
    built: dict[str, Squad] = {}
    for side in SIDES:
        soldiers = squads[side]
        minis = [
            Mini(f"{side}{i + 1}", side, s.name, s.training, s.rating, own_dice=s.dice)
            for i, s in enumerate(soldiers)
        ]
        built[side] = Squad(side, names[side], minis, minis[leader_index(soldiers)].id)
    return GameState(
        table=Table.from_data(options["table"]),
        options=dict(options),
        squads=built,
        base_radius=float(options["base_size"]) / 2,
    )
