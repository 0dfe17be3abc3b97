"""The state of a Battle of Ixu game: gods on the shared tabletop with their dice and wounds."""

from __future__ import annotations

import math
from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.rulesets.battle_of_ixu.teams import EXPERIENCE, own_places, table_place

from wargame_cli.engine.requests import Outcome, Request
from wargame_cli.kit.serial import later
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import CONTACT_TOLERANCE, Body
from wargame_cli.tabletop.table import Table
from wargame_cli.wording import plural

# A phase: yields requests, returns the Outcome when it ends the game.
Phase = Generator[Request, Any, Outcome | None]


def listed(values: list[int]) -> str:
    return ", ".join(map(str, values))


@dataclass(frozen=True, slots=True)
class Dice:
    """The three dice a model attributed this turn (c2)."""

    movement: int
    combat: int
    defence: int

    def as_dict(self) -> dict[str, int]:
        return {"movement": self.movement, "combat": self.combat, "defence": self.defence}


@dataclass(frozen=True, slots=True)
class Ranged:
    """A team file's ranged attack (`ranged = {range = 6, dice = "combat"}`, c9 as read
    here): in the combat phase a model with no enemy in base contact may shoot a standing
    enemy whose base is within `range` inches, rolling `dice` dice (its combat die's value,
    or a number) to beat the target's defence, as a blow in contact does (c6)."""

    range: float
    dice: int | None = None  # None: as many as its combat die shows this turn

    def count(self, combat: int) -> int:
        return combat if self.dice is None else self.dice

    def words(self) -> str:
        """`6" (its combat dice)`: for the model's card."""
        dice = "its combat dice" if self.dice is None else plural(self.dice, "die", "dice")
        return f'{self.range:g}" ({dice})'


@dataclass
class Warrior:
    id: str  # "A1": stable across the game; bodies on the tabletop carry it
    side: str
    name: str  # unique in the game (a side's name is added when both sides use one)
    experience: int
    health: int
    pos: Point
    radius: float
    damage: int = 0
    dead: bool = False
    died_turn: int | None = None
    order_rolls: list[int] = field(default_factory=list)  # this turn's d10s, re-rolls after
    rolled: list[int] = field(default_factory=list)  # this turn's experience dice
    dice: Dice | None = None
    damaged_this_turn: bool = False
    fought: bool = False  # had its activation in this turn's combat phase
    # what it did this turn, for its card (the rules never read them): the inches moved in
    # phase 2 (None: not moved yet), whom it attacked or "hold", whether its c8 check is done
    moved: float | None = None
    attacked: str | None = None
    checked: bool = False
    ranged: Ranged | None = later()  # a power a team file gives (none: as positions were)
    own_dice: int | None = later()  # experience dice where a run or its team changed them

    @property
    def pool(self) -> int:
        """How many experience dice it rolls (c2): its experience, unless changed."""
        return self.experience if self.own_dice is None else self.own_dice

    @property
    def standing(self) -> bool:
        return not self.dead

    @property
    def remaining(self) -> int:
        return max(0, self.health - self.damage)

    @property
    def rating(self) -> str:
        return EXPERIENCE.get(self.experience, str(self.experience))

    def body(self) -> Body:
        """Its base where it stands; the same Body until it moves (asked for thousands of
        times a game, by the bot and the contact tests)."""
        kept = self.__dict__.get("_body")
        if kept is None or kept.pos is not self.pos:
            kept = self.__dict__["_body"] = Body(self.id, self.pos, self.radius, self.name)
        return kept

    def new_turn(self) -> None:
        self.order_rolls, self.rolled, self.dice = [], [], None
        self.damaged_this_turn = self.fought = self.checked = False
        self.moved = self.attacked = None


@dataclass
class IxuState:
    warriors: list[Warrior]
    names: dict[str, str]
    table: Table
    options: dict[str, Any]
    turn: int = 0
    phase: str = "deployment"
    order: list[str] = field(default_factory=list)
    fallen: list[str] = field(default_factory=list)  # ids, in the order they died
    winner: str | None = None
    # The version of the rules played (`wargame_cli/versions.py`): 2 ends the battle at the
    # health check that leaves a side with no model standing (no later check, no draw); before
    # 4, the two warbands' bases may start overlapping across the centre line.
    rules_version: int = 4

    def get(self, warrior_id: str) -> Warrior:
        index = self.__dict__.get("_index")
        if index is None or index[0] is not self.warriors or warrior_id not in index[1]:
            index = self.__dict__["_index"] = (self.warriors, {w.id: w for w in self.warriors})
        return index[1][warrior_id]

    def name_of(self, warrior_id: str) -> str:
        return self.get(warrior_id).name

    def standing(self, side: str | None = None) -> list[Warrior]:
        if side is None:
            return [w for w in self.warriors if not w.dead]
        return [w for w in self.warriors if not w.dead and w.side == side]

    def in_order(self) -> list[Warrior]:
        """This turn's order (c4), skipping the fallen."""
        return [w for w in map(self.get, self.order) if w.standing]

    def enemies(self, warrior: Warrior) -> list[Warrior]:
        return self.standing(other(warrior.side))

    def bodies(self, but: Warrior | None = None) -> list[Body]:
        """Every standing model's base: they block movement; the fallen are removed (c8)."""
        return [w.body() for w in self.standing() if w is not but]

    def engaged(self, warrior: Warrior) -> list[Warrior]:
        """Standing enemies in base contact (c6): `in_contact` on plain numbers (asked
        hundreds of times a game)."""
        x, y, radius, side = warrior.pos.x, warrior.pos.y, warrior.radius, other(warrior.side)
        return [
            e
            for e in self.warriors
            if not e.dead
            and e.side == side
            and math.hypot(x - e.pos.x, y - e.pos.y) <= radius + e.radius + CONTACT_TOLERANCE
        ]

    def in_range(self, warrior: Warrior) -> list[Warrior]:
        """The standing enemies a ranged model may shoot (c9, as read here): none while an
        enemy is in base contact with it (it fights there, c6), else those whose bases are
        within its range."""
        power = warrior.ranged
        if power is None or self.engaged(warrior):
            return []
        return [e for e in self.enemies(warrior) if self.gap_to(warrior, e) <= power.range + 1e-9]

    def gap_to(self, a: Warrior, b: Warrior) -> float:
        """`gap` between their bases, on plain numbers."""
        return max(0.0, math.hypot(a.pos.x - b.pos.x, a.pos.y - b.pos.y) - a.radius - b.radius)


def overlap_problem(state: IxuState) -> str | None:
    """c5: bases may not overlap, the two warbands' included (a side's own are checked with
    its team): who would stand on whom as deployed, or None."""
    for a in state.warriors:
        for b in state.warriors:
            if (
                a.side == "A"
                and b.side == "B"
                and (a.pos.distance(b.pos) < a.radius + b.radius - CONTACT_TOLERANCE)
            ):
                return (
                    f"{a.name} and {b.name} would start with their bases overlapping across the "
                    f'centre line (c5): deploy or `at` places them {a.pos.distance(b.pos):.2f}" '
                    f'apart, bases {2 * a.radius:g}"'
                )
    return None


def _ranged(power: dict[str, Any] | None) -> Ranged | None:
    """A team's checked `ranged` power (`teams.check_ranged`) as the rules hold it."""
    if power is None:
        return None
    dice = power["dice"]
    return Ranged(float(power["range"]), None if dice == "combat" else int(dice))


def new_state(
    names: dict[str, str], teams: dict[str, dict[str, Any]], options: dict[str, Any]
) -> IxuState:
    """Deploy both warbands on an empty field (c5 defaults: 24"x24", bases 0.75")."""
    radius = float(options["base"]) / 2
    all_names = [m["name"].lower() for side in SIDES for m in teams[side]["models"]]
    warriors = []
    for side in SIDES:
        models = teams[side]["models"]
        for i, (model, own) in enumerate(zip(models, own_places(models, options), strict=True)):
            name = model["name"]
            if all_names.count(name.lower()) > 1:
                name = f"{name} ({side})"
            warriors.append(
                Warrior(
                    id=f"{side}{i + 1}",
                    side=side,
                    name=name,
                    experience=model["experience"],
                    health=model.get("health", options["health"]),
                    pos=table_place(own, side, options),
                    radius=radius,
                    ranged=_ranged(model.get("ranged")),
                    damage=model.get("damage", 0),  # a campaign's old wounds (c8)
                    own_dice=model.get("dice"),
                )
            )
    # one table object per size (`from_data`), so what is remembered about it (sight lines,
    # ways around, footprints) serves every game on it
    table = Table.from_data(
        {"name": "the plains of Ixu", "width": options["width"], "height": options["height"]}
    )
    return IxuState(warriors=warriors, names=dict(names), table=table, options=dict(options))
