"""The one vocabulary of events: every `Event.kind` a ruleset may write and every key of its
`data`, declared here and read from here by everything that reads a log without parsing its
words: the battle report (`report/reading.py`), the turn's pictures
(`tabletop/picture.py`), the lab's per-unit figures (`Blows`, below, which the rulesets'
`sim_watcher`s feed), sampled odds (`engine/sampled.py`) and the replay's judgement
(`engine/judged.py`: an event's `kind` and `data` are what the rules decided; its text is
wording).

`Event(kind=..., data=...)` takes a `Kind` and an `EventData`, so mypy checks every kind and
every data key a ruleset writes against this module (`python -m tests.mypy_tree`): a new
kind or key is added here, with what it means, before a ruleset writes it. A plugin that is
not type-checked may write others; the readers then tell its events by their own text.

Who an event is about:

- its **subject** (the one who acts, or for a loss the one lost): the first of
  `SUBJECT_KEYS` the data holds as a name (`attacker`, `model`, `creature`, `unit`, `id`),
  else the first of `attackers` (a joint attack);
- its **target** (who it is done to): `target`, else its subject (a `hit` or `death` of `id`);
- whoever else it names: `NAME_KEYS` (`target`, `by`, `attackers`, ...), lists allowed.

Kinds fall in the families below; a reader asks a family (`kind in HIT`), never a spelling of
its own. Old saves keep the kinds and keys they were written with: every kind or key a
ruleset ever wrote stays declared here (the report, pictures and verify read old saves).
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Mapping
from typing import Any, Literal, TypedDict, get_args

Kind = Literal[
    "info",  # no kind of its own: told by its text
    "tracker",
    "deploy-fallback",
    # the shape of a turn
    "step",
    "phase",
    "order",
    "initiative",
    "initiative_tie",
    "rolloff",
    "deploy_roll",
    "tie",
    "rating",
    "attribute",
    "activate",
    "declared",
    "action",
    "ruling",
    "power",
    "other",
    "test",
    "pass",
    "hold",
    "uncontrolled",
    "joins",
    "slot",
    "revealed",
    "round_limit",
    "survival",
    "pools",
    "result",
    "end",
    "surrender",
    # placing and moving
    "deploy",
    "deployed",
    "deployment",
    "move",
    "charge",
    "stand",
    "retreat",
    "no_retreat",
    "pull",
    "cross",
    # fighting
    "attack",
    "shot",
    "melee",
    "hit",
    "miss",
    "wound",
    "damage",
    "overkill",
    "defence",
    "save",
    "heal",
    # checks at the end of a turn
    "health",
    "morale",
    "recovery",
    "rally",
    # losses
    "death",
    "kill",
    "killed",
    "slain",
    "casualty",
    "destroyed",
    "eliminated",
    "removed",
    "captured",
    "flee",
    "escape",
    "straggler",
]
"""Every event kind, by family (the families below say how readers take them)."""

KINDS: frozenset[str] = frozenset(get_args(Kind))

MOVE: frozenset[Kind] = frozenset({"move", "charge", "flee", "retreat"})
"""A piece went `from` one spot `to` another (a picture's arrow). A `flee` without `to` is a
piece that left the table."""
STRIKE: frozenset[Kind] = frozenset({"attack", "shot", "melee"})
"""Its subject (or each of `attackers`) struck at `target`; `hits` says how many landed."""
ACT: frozenset[Kind] = frozenset({"power"})
"""`actor` used an action of its own on `target` (a Hex): the damage that follows is its."""
HIT: frozenset[Kind] = frozenset({"hit", "wound", "damage"})
"""A strike landed on the target (`damage` 0: it did nothing)."""
DEATH: frozenset[Kind] = frozenset({"death", "kill", "killed", "slain", "destroyed"})
"""The target (or subject) died: a kill for the last who hit it."""
LOSS: frozenset[Kind] = DEATH | frozenset(
    {"casualty", "eliminated", "removed", "captured", "flee", "escape", "straggler"}
)
"""A model or unit left the battle for good: highlighted and listed by the report."""
LEFT: frozenset[Kind] = frozenset({"flee", "escape", "straggler", "captured", "removed"})
"""Losses who left the field alive (⚑ in the report; the others are deaths, ☠)."""
QUIET: frozenset[Kind] = frozenset({"pass"})
"""Nothing happens (a side passes): left out of the report."""
STAND: frozenset[Kind] = frozenset({"stand"})
"""A figure standing still: told only when it keeps out of its turn's fight."""
FIGHT: frozenset[Kind] = STRIKE | frozenset({"hit", "miss", "wound", "charge", "defence"})
"""Kinds that show who is in a fight this turn."""
OPENING: frozenset[Kind] = frozenset(
    {"step", "phase", "order", "initiative", "activate", "health", "morale", "recovery"}
)
"""Kinds that open a stage of a turn or a check of their own: each starts a report bullet."""


EventData = TypedDict(
    "EventData",
    {
        # who: the subject (first of SUBJECT_KEYS), whom it is done to, and others it names
        "attacker": Any,
        "model": Any,
        "creature": Any,
        "unit": Any,
        "id": Any,
        "attackers": Any,
        "target": Any,
        "by": Any,
        "mob": Any,
        "charged": Any,
        "charging": Any,
        "moved": Any,
        "missed": Any,
        "actor": Any,
        "controller": Any,
        "side": Any,
        "sides": Any,
        "leader": Any,
        "units": Any,
        "retreating": Any,
        "A": Any,
        "B": Any,
        # where (spots are [x, y] in inches, or a ruleset's own space names)
        "from": Any,
        "to": Any,
        "at": Any,
        "pos": Any,
        "space": Any,
        "inches": Any,
        "left": Any,
        "crossings": Any,
        "difference": Any,
        "plan": Any,
        # dice and what they made
        "faces": Any,
        "roll": Any,
        "rolls": Any,
        "face": Any,
        "total": Any,
        "totals": Any,
        "bonus": Any,
        "de": Any,
        "hit": Any,
        "hits": Any,
        "damage": Any,
        "health": Any,
        "healed": Any,
        "defence": Any,
        "combat": Any,
        "movement": Any,
        "unused": Any,
        "dice": Any,
        "needed": Any,
        "modifier": Any,
        "passed": Any,
        "saved": Any,
        "survives": Any,
        "success": Any,
        "successes": Any,
        "danger": Any,
        "morale": Any,
        "lost": Any,
        "lost_attack": Any,
        "pool": Any,
        "casualty_pool": Any,
        "melee": Any,
        "free": Any,
        "what": Any,
        "works": Any,
        "amount": Any,
        # the turn's shape, rulings and endings
        "step": Any,
        "order": Any,
        "after": Any,
        "phase": Any,
        "turn": Any,
        "rating": Any,
        "ratings": Any,
        "first": Any,
        "next_side": Any,
        "next_round": Any,
        "winner": Any,
        "tie": Any,
        "forced": Any,
        "rows": Any,
        "max_rounds": Any,
        "last": Any,
        "rounds": Any,
        "reason": Any,
        "how": Any,
        "when": Any,
        "level": Any,
        "action": Any,
        "ruling": Any,
        "effect": Any,
        "edit": Any,
    },
    total=False,
)
"""Every key an event's `data` may hold (functional form: `from` is a Python keyword). The
values are the ruleset's own (a name or an id, a spot, a count); the keys are the one
vocabulary every reader shares. mypy refuses a key not listed here."""


SUBJECT_KEYS = ("attacker", "model", "creature", "unit", "id")
"""`data` keys naming who an event is about, most specific first (then `attackers[0]`)."""
NAME_KEYS = ("target", "by", "attackers", "mob", "charged", "charging")
"""Other `data` keys naming who else an event concerns (lists allowed)."""
LOST_KEYS = ("model", "creature", "unit", "id", "moved")
"""`data` keys naming who a loss takes (lists allowed)."""
OWN_DICE = ("faces", "roll", "rolls")
"""`data` keys showing an event states its own dice (the rolls before it are not repeated)."""


def subject(data: Mapping[str, Any]) -> str:
    """Who the event is about: the first of `SUBJECT_KEYS` held as a name, else the first of
    `attackers`; "" when it names nobody."""
    for key in SUBJECT_KEYS:
        if isinstance(data.get(key), str):
            return str(data[key])
    attackers = data.get("attackers")
    return str(attackers[0]) if isinstance(attackers, list) and attackers else ""


def target(data: Mapping[str, Any]) -> str:
    """Whom the event is done to: `target`, else its subject."""
    named = data.get("target")
    return named if isinstance(named, str) else subject(data)


def strikers(data: Mapping[str, Any]) -> list[str]:
    """Who struck: each of `attackers`, else the subject."""
    attackers = data.get("attackers")
    if isinstance(attackers, list) and attackers:
        return [str(a) for a in attackers]
    who = subject(data)
    return [who] if who else []


def named(data: Mapping[str, Any]) -> frozenset[str]:
    """Everyone the event names (its subject and `NAME_KEYS`), lists read through."""
    found: set[str] = set()
    for key in (*SUBJECT_KEYS, *NAME_KEYS):
        value = data.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item:
                found.add(item)
    return frozenset(found)


def lost(data: Mapping[str, Any]) -> list[str]:
    """Who a loss takes (`LOST_KEYS`, lists read through), in order, each once."""
    out: list[str] = []
    for key in LOST_KEYS:
        value = data.get(key)
        for item in value if isinstance(value, list) else [value]:
            if isinstance(item, str) and item and item not in out:
                out.append(item)
    return out


def is_loss(kind: str, data: Mapping[str, Any]) -> bool:
    """A loss, but a `flee` with a `to` (a move, not a departure)."""
    return kind in LOSS and not (kind == "flee" and "to" in data)


_BLOWS = STRIKE | ACT | HIT | DEATH


class Blows:
    """Who hurt whom and who finished whom, read in this vocabulary as a game's events pass:
    the lab's per-unit figures (`Ruleset.sim_watcher`) of a ruleset whose events say it this
    way. A `HIT` kind credits its `attacker` (else the one striker of the `STRIKE` before it,
    or the user of the `ACT`) with its `damage` (1 when it states none) and makes it the
    target's last hitter; a `DEATH` kind is a kill for its `by` when it names one, else for
    the one striker of the `STRIKE` (or the `ACT`) before it when that strike was at the one
    who died and did not miss (`hits` 0): a blow that kills outright; else for the last who
    hit the one who died (one never hit has no killer)."""

    def __init__(self) -> None:
        self.dealt: defaultdict[str, float] = defaultdict(float)
        self.kills: Counter[str] = Counter()
        self.last_hit: dict[str, str] = {}
        self.striking: list[str] = []
        self.struck = ""  # the target of the strike now resolving

    def event(self, kind: str, data: Mapping[str, Any]) -> None:
        if kind not in _BLOWS:  # most events: one look-up (a simulation's every event)
            return
        if kind in STRIKE:
            self.striking, self.struck = strikers(data), str(data.get("target") or "")
            if data.get("hits") == 0:  # a strike that states it missed kills nobody
                self.struck = ""
        elif kind in ACT:  # an action's damage is its user's, not the last striker's
            actor = data.get("actor")
            self.striking = [str(actor)] if isinstance(actor, str) else []
            self.struck = str(data.get("target") or "") if data.get("works") else ""
        elif kind in HIT:
            hitter = data.get("attacker")
            if not isinstance(hitter, str):
                hitter = self.striking[0] if len(self.striking) == 1 else None
            if hitter is not None:
                damage = data.get("damage", 1)
                self.dealt[hitter] += damage if isinstance(damage, int | float) else 1
                self.last_hit[target(data)] = hitter
        elif kind in DEATH:
            victim, by = target(data), data.get("by")
            blow = self.striking[0] if len(self.striking) == 1 and self.struck == victim else None
            killer = by if isinstance(by, str) else blow or self.last_hit.get(victim)
            if killer is not None:
                self.kills[killer] += 1
