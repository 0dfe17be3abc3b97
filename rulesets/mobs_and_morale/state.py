"""The battle's state: creatures on the shared tabletop, mobs with their dead and casualty
pools, both sides, and the JSON form `--json` prints."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from wargame_cli.kit.sides import other
from wargame_cli.tabletop.areas import Area
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, gap
from wargame_cli.tabletop.table import Table

EDGE = {"A": "south", "B": "north"}  # each side's own table edge (escape route, e29)
RADIUS = 0.5  # inches: a 25 mm base
MELEE = 1.0  # e11: attacks reach 1" (edge to edge)

# Bumped whenever a creature changes (moves, is hurt, leaves): plans the bot works out twice
# in one decision (closing moves, a mob's plans) are kept until then (`Battle.remember`).
_CHANGES = [0]

# A creature's status; only "standing" creatures are on the table.
STANDING, DEAD, FLED, STRAGGLER, ESCAPED = "standing", "dead", "fled", "straggler", "escaped"


@dataclass
class Creature:
    id: str  # unique name, also its Body id
    side: str
    profile: str
    presence: int
    fierce: int
    defence: int
    max_health: int
    initiative: int
    move: float
    morale: int
    traits: tuple[str, ...]
    minion: bool
    mob: str | None = None
    label: str = ""
    pos: Point | None = None
    last_pos: Point | None = None
    damage: int = 0
    status: str = STANDING
    attack_range: float | None = None  # a power: its own reach or a ranged attack's range
    ranged: str = ""  # a ranged attack's name (a bow): its attacks are told by it
    actions: tuple[dict[str, Any], ...] = ()  # its own actions from the team file (powers)

    def __setattr__(self, name: str, value: Any) -> None:
        _CHANGES[0] += 1
        super().__setattr__(name, value)

    @property
    def health(self) -> int:
        return max(0, self.max_health - self.damage)

    @property
    def standing(self) -> bool:
        return self.status == STANDING and self.pos is not None

    @property
    def at(self) -> Point:
        """Where a creature on the table stands: its `pos`, asked only once it is placed."""
        assert self.pos is not None
        return self.pos

    def body(self) -> Body:
        assert self.pos is not None
        return Body(self.id, self.pos, RADIUS)

    def reach(self, reach_option: float) -> float:
        """e11: 1" unless it has the reach trait, or a power or item says otherwise (its
        own reach, or a ranged attack's range, from the team file)."""
        if self.attack_range is not None:
            return self.attack_range
        return reach_option if "reach" in self.traits else MELEE

    def in_range(self, target: Creature, reach_option: float) -> bool:
        return gap(self.body(), target.body()) <= self.reach(reach_option) + 1e-6


@dataclass
class Mob:
    name: str
    side: str
    controller: str | None  # the controlling character's id, if any (e5)
    members: list[str]
    morale: int  # e24: a mixed mob uses its worst (highest) member score
    dead_pool: list[str] = field(default_factory=list)  # e23
    casualty_pool: list[str] = field(default_factory=list)  # e27
    rallied: str = ""  # "", "partial" or "full": an adjudicated Rally this round


@dataclass
class SideState:
    name: str
    retreating: bool = False
    fallen: list[str] = field(default_factory=list)  # characters' casualty pool


@dataclass
class Battle:
    table: Table
    areas: dict[str, tuple[Area, ...]]  # each side's deployment areas (e1), one or more
    options: dict[str, Any]
    creatures: dict[str, Creature]
    mobs: dict[str, Mob]
    sides: dict[str, SideState]
    round: int = 0
    phase: str = "setup"
    order: list[str] = field(default_factory=list)  # this round's initiative slots
    slots: list[list[str]] = field(default_factory=list)  # the same, grouped (e5), as played
    at: int = 0  # the slot acting now
    delayed: bool = False  # the acting unit's turn was just moved later by the tracker
    declared: tuple[Any, ...] | None = None  # the GM's end of the battle (version 3)
    hidden: bool = False  # a hidden simultaneous deployment is under way (version 3, e2)
    unseen: str = ""  # a view's copy (`view.seen_by`): the side whose pieces it leaves out
    after: dict[str, list[dict[str, Any]]] = field(default_factory=dict)
    result: str = ""
    # what each unit (a character's id, `mob:NAME`) did this round: "moved", "acted", "over"
    # (its turn ended); for its card, the rules never read it
    did: dict[str, set[str]] = field(default_factory=dict)
    # The version of the rules played (`wargame_cli/versions.py`): 1 announces no round limit
    # and lets the attacker's pick stand where a character's blow hits a mob (no e22 owner's
    # pick, which came after version 2 without a bump: a version-2 save from between the two
    # does not replay); 2 lists a character's attack on each mob figure in reach apart (3: the
    # mob once, e22).
    rules_version: int = 3
    _memo: dict[Any, Any] = field(default_factory=dict, repr=False, compare=False)
    _memo_at: int = field(default=-1, repr=False, compare=False)

    def remember(self, key: Any, work: Any) -> Any:
        """`work()`, worked out once until a creature changes (the bot's suggestion and the
        menu it sits in ask for the same plans)."""
        if self._memo_at != _CHANGES[0]:
            self._memo.clear()
            self._memo_at = _CHANGES[0]
        if key not in self._memo:
            self._memo[key] = work()
        return self._memo[key]

    # -- who is where -------------------------------------------------------------------------
    # who stands where is asked thousands of times between two changes: remembered till then
    def standing(self, side: str | None = None) -> list[Creature]:
        return list(self.remember(("standing", side), lambda: self._standing(side)))

    def _standing(self, side: str | None) -> list[Creature]:
        return [
            c for c in self.creatures.values() if c.standing and (side is None or c.side == side)
        ]

    def bodies(self) -> list[Body]:
        return list(self.remember(("bodies",), lambda: [c.body() for c in self.standing()]))

    def figures(self, mob: Mob) -> list[Creature]:
        return list(self.remember(("figures", mob.name), lambda: self._figures(mob)))

    def _figures(self, mob: Mob) -> list[Creature]:
        return [self.creatures[i] for i in mob.members if self.creatures[i].standing]

    def controller(self, mob: Mob) -> Creature | None:
        """The mob's controller while it stands on the table; otherwise the mob is on its own."""
        if mob.controller is None:
            return None
        boss = self.creatures[mob.controller]
        return boss if boss.standing else None

    def characters(self, side: str | None = None) -> list[Creature]:
        return [c for c in self.standing(side) if c.mob is None]

    def live_mobs(self, side: str | None = None) -> list[Mob]:
        return [
            m for m in self.mobs.values() if (side is None or m.side == side) and self.figures(m)
        ]

    def unit_of(self, creature: Creature) -> str:
        return f"mob:{creature.mob}" if creature.mob else creature.id

    def unit_name(self, key: str) -> str:
        return key.removeprefix("mob:")

    def unit_figures(self, key: str) -> list[Creature]:
        if key.startswith("mob:"):
            return self.figures(self.mobs[key[4:]])
        c = self.creatures[key]
        return [c] if c.standing else []

    def enemy_units(self, side: str) -> list[str]:
        foe = other(side)
        return [c.id for c in self.characters(foe)] + [f"mob:{m.name}" for m in self.live_mobs(foe)]


def unit_distance(a: list[Creature], b: list[Creature]) -> float:
    """The smallest base-to-base gap between two groups of standing creatures."""
    return min((gap(x.body(), y.body()) for x in a for y in b), default=float("inf"))


def creature_json(c: Creature) -> dict[str, Any]:
    return {
        "id": c.id,
        "side": c.side,
        "profile": c.profile,
        "mob": c.mob,
        "label": c.label,
        "pos": c.pos.as_list() if c.pos is not None else None,
        "health": c.health,
        "max_health": c.max_health,
        "status": c.status,
        "presence": c.presence,
        "fierce": c.fierce,
        "defence": c.defence,
        "initiative": c.initiative,
        "move": c.move,
        "morale": c.morale,
        "traits": list(c.traits),
        "attack_range": c.attack_range,
        "ranged": c.ranged,
        "actions": [dict(a) for a in c.actions],
    }


def to_json(b: Battle) -> dict[str, Any]:
    return {
        "turn": b.round,  # every ruleset's state has turn: here the last round played
        "phase": b.phase,
        "table": b.table.to_data(),
        "areas": {s: [a.to_data() for a in areas] for s, areas in b.areas.items()},
        "initiative": list(b.order),
        "sides": {
            s: {
                "name": st.name,
                "retreating": st.retreating,
                "standing": len(b.standing(s)),
                "fallen": list(st.fallen),
                "escaped": [
                    c.id for c in b.creatures.values() if c.side == s and c.status == ESCAPED
                ],
            }
            for s, st in b.sides.items()
        },
        "creatures": [creature_json(c) for c in b.creatures.values()],
        "mobs": [
            {
                "name": m.name,
                "side": m.side,
                "controller": m.controller,
                "controlled": b.controller(m) is not None,
                "morale": m.morale,
                "members": list(m.members),
                "standing": [c.id for c in b.figures(m)],
                "dead_pool": list(m.dead_pool),
                "casualty_pool": list(m.casualty_pool),
            }
            for m in b.mobs.values()
        ],
        "after_battle": {s: list(rows) for s, rows in b.after.items()},
        "result": b.result,
    }
