"""Mobs and Morale teams: creature profiles, parties and enemy groups from TOML, the control
limits (e15) and who may form mobs (e16), the inline syntax and interactive team building.

A team's JSON form carries every creature's full stats, so a save replays even if the
profiles file is edited later:
`{"name", "characters": [{name, profile, stats...}], "mobs": [{name, controller, members:
[{profile, stats..., count}]}]}`.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from wargame_cli.rulesets.mobs_and_morale import powers

from wargame_cli.engine.requests import Choice, Option
from wargame_cli.errors import TeamError
from wargame_cli.kit import pronouns, teamtext, unitstats
from wargame_cli.kit.filekeys import Keys
from wargame_cli.kit.near import near_names
from wargame_cli.ruleset import TeamBuilder, quick_pick
from wargame_cli.wording import either, plural

FOLDER = Path(__file__).parent
INTS = ("presence", "fierce", "defence", "health", "initiative", "morale")
TRAITS = ("humanoid", "pack", "reach")
MAX_FIGURES = 40

# The keys a team file may hold (`kit.filekeys`): any other is refused, naming the nearest.
CREATURE_KEYS: Keys = {
    "name": None,
    "profile": None,
    **{stat: None for stat in (*INTS, "move", "traits", "minion", "reach", "actions")},
    "ranged": {"name": None, "range": None},
    "pronoun": None,
    "damage": None,  # a campaign's old wounds
}
FILE_KEYS: Keys = {
    "name": None,
    "characters": CREATURE_KEYS,
    "mobs": {"name": None, "controller": None, "members": {**CREATURE_KEYS, "count": None}},
    "actions": {"name": None, "range": None, "dice": None, "effect": None},
}


@dataclass(frozen=True)
class Profile:
    """One creature type from creatures.toml; `health` None means the minion_health option."""

    name: str
    presence: int
    fierce: int
    defence: int
    health: int | None
    initiative: int
    move: float
    morale: int
    traits: tuple[str, ...]
    minion: bool


@dataclass(frozen=True)
class Catalogue:
    profiles: dict[str, Profile]
    presets: tuple[dict[str, Any], ...]
    defaults: dict[str, str]

    def lookup(self, name: str) -> Profile:
        key = _norm(name)
        for profile in self.profiles.values():
            if _norm(profile.name) == key:
                return profile
        raise TeamError(f"unknown creature {name!r}; profiles: {', '.join(self.profiles)}")

    def preset(self, name: str) -> dict[str, Any]:
        return next(p for p in self.presets if p["name"] == name)


def _norm(name: str) -> str:
    return re.sub(r"[^a-z0-9]", "", name.lower())


@cache
def catalogue() -> Catalogue:
    creatures = tomllib.loads((FOLDER / "creatures.toml").read_text(encoding="utf-8"))
    scenario = tomllib.loads((FOLDER / "scenario.toml").read_text(encoding="utf-8"))
    profiles = {}
    for name, row in creatures["creatures"].items():
        profiles[name] = Profile(
            name=name,
            presence=int(row["presence"]),
            fierce=int(row["fierce"]),
            defence=int(row["defence"]),
            health=int(row["health"]) if "health" in row else None,
            initiative=int(row.get("initiative", row["presence"])),
            move=float(row.get("move", 6)),
            morale=int(row.get("morale", 5)),
            traits=tuple(row.get("traits", ())),
            minion=bool(row.get("minion", False)),
        )
    return Catalogue(
        profiles=profiles,
        presets=tuple(scenario["teams"]),
        defaults=dict(scenario["defaults"]),
    )


STATS = ("presence", "fierce", "defence", "health", "initiative", "move", "morale")


@cache
def sheet() -> unitstats.Sheet:
    """Every profile's numeric stats with the ranges a team file may give them (`--unit
    "Tribal Warrior.fierce=3"`, or `{profile="Tribal Warrior", fierce=3}` in a team file);
    a minion's health is stock None: the minion_health option's."""
    out: unitstats.Sheet = {}
    for p in catalogue().profiles.values():
        stats = {}
        for name in STATS:
            low = 1 if name in ("defence", "health") else 0
            top, whole = (24, False) if name == "move" else (30, True)
            stats[name] = unitstats.Stat(name, getattr(p, name), low, top, whole)
        out[p.name] = stats
    return out


def restat(team: dict[str, Any], changes: unitstats.Changes) -> dict[str, Any]:
    """The team with the stats of each changed profile's creatures as `changes` says, checked
    again against the control limits (e15), which presence sets."""

    def changed(entry: dict[str, Any]) -> dict[str, Any]:
        return {**entry, **changes.get(entry["profile"], {})}

    out = {
        **team,
        "characters": [changed(c) for c in team["characters"]],
        "mobs": [{**mob, "members": [changed(m) for m in mob["members"]]} for mob in team["mobs"]],
    }
    problem = next(iter(problems(out)), None)
    if problem:
        raise TeamError(problem)
    return out


def labelled(profile: str, stats: dict[str, Any], minion_health: int) -> str:
    """A creature's profile as `simulate`'s figures name it: `Tribal Warrior (fierce=3)`
    where its stats differ from the stock profile's (a minion's stock health is the
    minion_health option's)."""
    stock = sheet().get(profile)
    if stock is None:
        return profile
    if stock["health"].stock is None and stats.get("health") == minion_health:
        stats = {k: v for k, v in stats.items() if k != "health"}
    return unitstats.label(profile, unitstats.differing(sheet(), profile, stats))


# -- one creature -----------------------------------------------------------------------------
def creature(
    raw: Any,
    options: dict[str, Any],
    where: str,
    actions: dict[str, dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A creature entry with every stat filled in from its profile and checked; `actions`
    are the team file's own (`[[actions]]`), which its `actions` name."""
    if not isinstance(raw, dict):
        raise TeamError(f"{where}: expected a table of name, profile and stats")
    cat = catalogue()
    name = raw.get("profile")
    base: dict[str, Any] = {}
    if isinstance(name, str) and (name in cat.profiles or not _complete(raw)):
        p = cat.lookup(name)
        given = {k: v for k, v in raw.items() if k in STATS and v is not None}
        unitstats.row(sheet(), p.name, given, where)  # checked as --unit checks them
        base = {
            "profile": p.name,
            "presence": p.presence,
            "fierce": p.fierce,
            "defence": p.defence,
            "health": p.health,
            "initiative": p.initiative,
            "move": p.move,
            "morale": p.morale,
            "traits": list(p.traits),
            "minion": p.minion,
        }
    elif not _complete(raw):
        raise TeamError(f"{where}: give a profile or every stat ({', '.join(INTS)}, move)")
    out = {**base, **{k: v for k, v in raw.items() if k not in ("name", "count")}}
    out.setdefault("profile", str(raw.get("name", "custom")))
    out.setdefault("minion", False)
    out.setdefault("traits", [])
    if out.get("health") is None:
        if not out["minion"]:
            raise TeamError(f"{where}: a character needs a health stat")
        out["health"] = options["minion_health"]
    out.setdefault("initiative", out["presence"])
    out.setdefault("morale", 5)
    for key in INTS:
        value = out.get(key)
        if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= 30:
            raise TeamError(f"{where}: {key} must be a whole number 0-30, not {value!r}")
    if out["defence"] < 1 or out["health"] < 1:
        raise TeamError(f"{where}: defence and health must be at least 1")
    move = out.get("move", 6.0)
    if isinstance(move, bool) or not isinstance(move, int | float) or not 0 <= move <= 24:
        raise TeamError(f"{where}: move must be 0-24 inches, not {move!r}")
    out["move"] = float(move)
    traits = out["traits"]
    if not isinstance(traits, list) or any(t not in TRAITS for t in traits):
        raise TeamError(f"{where}: traits are any of {', '.join(TRAITS)}, not {traits!r}")
    out["traits"] = sorted(set(traits))
    out["minion"] = bool(out["minion"])
    if "reach" in out:  # powers (version 3): see powers.py
        out["reach"] = powers.check_reach(out["reach"], where)
    if "ranged" in out:
        out["ranged"] = powers.check_ranged(out["ranged"], where)
    if "actions" in out:
        out["actions"] = powers.creature_actions(out["actions"], actions or {}, where)
    if "damage" in out:  # old wounds (a campaign's): the battle starts with them
        damage = out["damage"]
        if (
            not isinstance(damage, int)
            or isinstance(damage, bool)
            or not 0 <= damage < out["health"]
        ):
            raise TeamError(f"{where}: damage must be 0-{out['health'] - 1}, not {damage!r}")
        if not damage:
            del out["damage"]
    if "pronoun" in out:  # for the battle report only
        out["pronoun"] = pronouns.normal(out["pronoun"], str(raw.get("name", where)))
    return out


def _complete(raw: dict[str, Any]) -> bool:
    return all(k in raw for k in ("presence", "fierce", "defence"))


def can_form_mob(member: dict[str, Any]) -> bool:
    """e16: humanoids form mobs; a non-humanoid needs the Pack trait."""
    return "humanoid" in member["traits"] or "pack" in member["traits"]


# -- a whole team -----------------------------------------------------------------------------
def from_data(data: Any, options: dict[str, Any]) -> dict[str, Any]:
    """A team file, preset or saved team, checked against e5, e15 and e16."""
    if not isinstance(data, dict):
        raise TeamError("a team is a table with `characters` and/or `mobs`")
    known = powers.team_actions(data)
    characters = []
    for i, raw in enumerate(_list(data, "characters")):
        where = f"character {i + 1}"
        entry = creature(raw, options, where, known)
        if entry["minion"]:
            raise TeamError(f"{where} ({entry['profile']}) is a minion: minions fight in mobs (e5)")
        entry = {"name": _name(raw, entry["profile"], where), **entry}
        characters.append(entry)
    mobs = []
    for i, raw in enumerate(_list(data, "mobs")):
        where = f"mob {i + 1}"
        if not isinstance(raw, dict):
            raise TeamError(f"{where}: expected name, controller and members")
        members = []
        for j, member in enumerate(_list(raw, "members")):
            entry = creature(member, options, f"{where}, member {j + 1}", known)
            count = member.get("count", 1)
            if not isinstance(count, int) or isinstance(count, bool) or not 1 <= count <= 20:
                raise TeamError(f"{where}: count must be 1-20, not {count!r}")
            if not entry["minion"]:
                raise TeamError(f"{where}: {entry['profile']} is not a minion (e5)")
            members.append({**entry, "count": count})
        if not members:
            raise TeamError(f"{where}: a mob needs members")
        controller = raw.get("controller")
        if controller is not None and not isinstance(controller, str):
            raise TeamError(f"{where}: controller must be a character's name")
        mobs.append(
            {
                "name": _name(raw, f"{members[0]['profile']} mob {i + 1}", where),
                "controller": controller,
                "members": members,
            }
        )
    team = {"name": str(data.get("name", "")), "characters": characters, "mobs": mobs}
    problem = next(iter(problems(team)), None)
    if problem:
        raise TeamError(problem)
    return team


def _list(data: dict[str, Any], key: str) -> list[Any]:
    value = data.get(key, [])
    if not isinstance(value, list):
        raise TeamError(f"`{key}` must be a list")
    return value


def _name(raw: dict[str, Any], fallback: str, where: str) -> str:
    name = raw.get("name", fallback)
    if not isinstance(name, str) or not name.strip() or len(name) > 30:
        raise TeamError(f"{where}: a name is 1-30 characters")
    if re.search(r"[\x00-\x1f\x7f\[\]]", name):
        raise TeamError(f"{where}: a name cannot hold control characters or [brackets]")
    return name.strip()


def size(mob: dict[str, Any]) -> int:
    return sum(m["count"] for m in mob["members"])


def problems(team: dict[str, Any]) -> list[str]:
    """Every limit the team breaks, each citing its rule."""
    out: list[str] = []
    names = [c["name"] for c in team["characters"]] + [m["name"] for m in team["mobs"]]
    dupes = sorted({n for n in names if names.count(n) > 1})
    if dupes:
        out.append(f"names must differ: {', '.join(dupes)} is used twice")
    if not names:
        out.append("a team needs at least one character or mob")
    figures = len(team["characters"]) + sum(size(m) for m in team["mobs"])
    if figures > MAX_FIGURES:
        out.append(f"at most {MAX_FIGURES} figures a side, not {figures}")
    chars = {c["name"]: c for c in team["characters"]}
    controlled: dict[str, int] = {}
    for mob in team["mobs"]:
        boss = mob["controller"]
        if boss is not None:
            if boss not in chars:
                out.append(f"mob {mob['name']}: its controller {boss!r} is not a character here")
                continue
            controlled[boss] = controlled.get(boss, 0) + size(mob)
        if size(mob) > 1:
            for member in mob["members"]:
                if not can_form_mob(member):
                    out.append(
                        f"mob {mob['name']}: {member['profile']} is neither humanoid nor Pack "
                        "and cannot form a mob (e16)"
                    )
    for boss, n in controlled.items():
        too_many = over_control(boss, n, chars[boss]["presence"])
        if too_many is not None:
            out.append(too_many)
    return out


def over_control(boss: str, minions: int, presence: int) -> str | None:
    """e15: a character controls at most 2 x Presence minions; why `minions` are too many,
    or None (team building and the GM's edits refuse in the same words)."""
    limit = 2 * presence
    if minions <= limit:
        return None
    return (
        f"{boss} controls {plural(minions, 'minion')} but may control at most {limit} "
        f"(2 x Presence {presence}) (e15)"
    )


# -- inline syntax ----------------------------------------------------------------------------
# `[NAME=] PROFILE-WITH-ITS-COUNT [under BOSS]`; the count is read by `teamtext.counted`.
ENTRY = re.compile(
    r"^(?:(?P<name>[^=]+?)\s*=\s*)?(?P<profile>.+?)(?:\s+under\s+(?P<boss>.+))?$", flags=re.I
)


def parse_inline(text: str, options: dict[str, Any]) -> dict[str, Any]:
    """`"Brakka=Warrior, Ranger, 4 Tribal Warrior under Chieftain"`: characters by profile
    (optionally `Name=`), mobs as a count and a minion profile, `under` a character."""
    cat = catalogue()
    characters: list[dict[str, Any]] = []
    mobs: list[dict[str, Any]] = []
    used: dict[str, int] = {}
    for written in teamtext.parts(text):
        part, pronoun = teamtext.pronounced(written)
        match = ENTRY.match(part)
        if match is None:
            raise TeamError(f"cannot read {part!r}: try 'Warrior' or '4 Tribal Warrior'")
        entry = teamtext.counted(match["profile"])
        profile, count = cat.lookup(entry.text), entry.count
        if profile.minion:
            n = len(mobs) + 1
            mob = {
                "name": (match["name"] or f"{profile.name} mob {n}").strip(),
                "members": [{"profile": profile.name, "count": count}],
            }
            if match["boss"]:
                mob["controller"] = match["boss"].strip()
            mobs.append(mob)
            continue
        if match["boss"]:
            raise TeamError(f"{part!r}: only minions stand under a controller (e5)")
        for _ in range(count):
            used[profile.name] = used.get(profile.name, 0) + 1
            n = used[profile.name]  # "Ranger, Ranger" or "2 Ranger": numbered, never doubled
            default = profile.name if count == 1 and n == 1 else f"{profile.name} {n}"
            named = {"name": (match["name"] or default).strip(), "profile": profile.name}
            characters.append(named | ({"pronoun": pronoun} if pronoun else {}))
    for mob in mobs:  # `under Chieftain` may name a profile rather than a character
        boss = mob.get("controller")
        if boss and boss not in {c["name"] for c in characters}:
            same = [c["name"] for c in characters if _norm(c["profile"]) == _norm(boss)]
            if len(same) == 1:
                mob["controller"] = same[0]
    if not characters and not mobs:
        raise TeamError("an empty team: e.g. 'Warrior, Ranger' or 'Chieftain, 4 Tribal Warrior'")
    return from_data({"characters": characters, "mobs": mobs}, options)


def describe(team: dict[str, Any]) -> str:
    parts = [f"{c['name']} ({c['profile']})" for c in team["characters"]]
    for mob in team["mobs"]:
        who = f" under {mob['controller']}" if mob["controller"] else ", uncontrolled"
        kinds = " + ".join(f"{m['count']} {m['profile']}" for m in mob["members"])
        parts.append(f"{mob['name']}: {kinds}{who}")
    return "; ".join(parts)


# -- interactive building ---------------------------------------------------------------------
def default_name(side: str, options: dict[str, Any]) -> str:
    """Side `side`'s ready team when none is given: the table's own (a premade scenario's
    `[teams]`, e.g. Thornford's), else the catalogue's default."""
    cat = catalogue()
    table = options.get("table")
    named = table.get("teams", {}).get(side) if isinstance(table, dict) else None
    known = [str(p["name"]) for p in cat.presets]
    if named is None:
        return cat.defaults[side]
    if named not in known:  # never another team in its place, unsaid
        near = near_names(str(named), known) or known
        raise TeamError(
            f"the table's [teams] gives side {side} {str(named)[:40]!r}, which is no ready "
            f"team: did you mean {either(near)}? (or give the side a team: --team-{side.lower()})"
        )
    return str(named)


def builder(side: str, options: dict[str, Any]) -> TeamBuilder:
    """A preset first (the default), or creature by creature with the limits shown."""
    cat = catalogue()
    picks = [
        Option(f"preset:{p['name']}", f"{p['name']}: {describe(_checked(p, options))}")
        for p in cat.presets
    ]
    key = yield quick_pick(
        side,
        "pick a team",
        picks,
        f"preset:{default_name(side, options)}",
        ("e15", "e16"),
        "Build a team creature by creature",
    )
    if key.startswith("preset:"):
        preset = cat.preset(key.removeprefix("preset:"))
        return _checked(preset, options)
    team: dict[str, Any] = {"name": "", "characters": [], "mobs": []}
    while True:
        chosen = yield _add_choice(side, team)
        if chosen == "done":
            return from_data(team, options)
        profile = cat.profiles[chosen]
        if not profile.minion:
            n = sum(c["profile"] == profile.name for c in team["characters"]) + 1
            name = profile.name if n == 1 else f"{profile.name} {n}"
            team["characters"].append({"name": name, "profile": profile.name})
            continue
        boss = yield _controller_choice(side, team, profile)
        room = min(_room(team, boss) if boss != "none" else 12, MAX_FIGURES - _figures(team))
        count = yield Choice(
            side=side,
            prompt=f"how many {profile.name} in the mob?",
            options=tuple(Option(str(n), str(n)) for n in range(1, room + 1)),
            default=str(min(room, 4)),
            rules=("e15",),
            kind="team",
        )
        mob: dict[str, Any] = {
            "name": f"{profile.name} mob {len(team['mobs']) + 1}",
            "members": [{"profile": profile.name, "count": int(count)}],
        }
        if boss != "none":
            mob["controller"] = boss
        team["mobs"].append(mob)


def _checked(data: dict[str, Any], options: dict[str, Any]) -> dict[str, Any]:
    return from_data({k: v for k, v in data.items() if k != "side"}, options)


def _figures(team: dict[str, Any]) -> int:
    """The figures of a team being built: one a character, a mob's count each."""
    return len(team["characters"]) + sum(size_raw(m) for m in team["mobs"])


def _add_choice(side: str, team: dict[str, Any]) -> Choice:
    cat = catalogue()
    full = _figures(team) >= MAX_FIGURES
    opts = []
    for p in cat.profiles.values():
        reason = f"at most {MAX_FIGURES} figures a side" if full else None
        if p.minion and not ("humanoid" in p.traits or "pack" in p.traits):
            reason = "neither humanoid nor Pack: cannot form a mob (e16)"
        kind = "mob of" if p.minion else "character:"
        opts.append(Option(p.name, f"Add a {kind} {p.name} ({stats(p)})", disabled=reason))
    empty = not team["characters"] and not team["mobs"]
    opts.append(Option("done", "Done", disabled="add a creature first" if empty else None))
    has_chars = bool(team["characters"])
    default = "done" if full or (has_chars and len(team["mobs"]) >= 1) else None
    if default is None:
        default = next(p.name for p in cat.profiles.values() if not p.minion)
        if has_chars:
            default = next(p.name for p in cat.profiles.values() if p.minion)
    return Choice(
        side=side,
        prompt="add a creature to the team",
        options=tuple(opts),
        default=default,
        rules=("e5", "e15", "e16"),
        kind="team",
    )


def stats(p: Profile) -> str:
    """`Presence 2, Fierce 4, defence 5, health 7, move 6", humanoid` for a builder's list."""
    parts = [f"Presence {p.presence}", f"Fierce {p.fierce}", f"defence {p.defence}"]
    if p.health is not None:
        parts.append(f"health {p.health}")
    parts.append(f'move {p.move:g}"')
    if p.minion:
        parts.append(f"morale {p.morale}")
    return ", ".join(parts + list(p.traits))


def _room(team: dict[str, Any], boss: str) -> int:
    char = next(c for c in team["characters"] if c["name"] == boss)
    presence = catalogue().profiles[char["profile"]].presence
    used = sum(size_raw(m) for m in team["mobs"] if m.get("controller") == boss)
    return 2 * presence - used


def size_raw(mob: dict[str, Any]) -> int:
    return sum(int(m.get("count", 1)) for m in mob["members"])


def _controller_choice(side: str, team: dict[str, Any], profile: Profile) -> Choice:
    opts = [
        Option(
            c["name"],
            f"Under {c['name']} (room for {_room(team, c['name'])} more: 2 x Presence)",
            disabled=None if _room(team, c["name"]) > 0 else "no room left (2 x Presence, e15)",
        )
        for c in team["characters"]
    ]
    opts.append(Option("none", "Uncontrolled (rolls its own initiative)"))
    default = next((o.key for o in opts if o.disabled is None), "none")
    return Choice(
        side=side,
        prompt=f"who controls the {profile.name} mob?",
        options=tuple(opts),
        default=default,
        rules=("e5", "e15"),
        kind="team",
    )
