"""Warbands of named models (c1): the inline syntax, team files, deployment and building.

A team's JSON form (what saves store) is `{"models": [{"name", "experience", "health"?,
"dice"?, "damage"?, "at"?, "pronoun"?}, ...]}`; `dice` is its experience dice where a run or
its team changed them (c2); `damage` is taken before the battle (a campaign's old wounds,
c8); `at` is a place in the side's own frame (from its own left corner);
`pronoun` is for the battle report only (the rules never read it).
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from functools import cache, partial
from pathlib import Path
from typing import Any

from wargame_cli.engine.requests import Choice, Option, menu_or, side_prompt
from wargame_cli.errors import TeamError
from wargame_cli.kit import pronouns, teamtext, unitstats
from wargame_cli.kit.filekeys import Keys
from wargame_cli.ruleset import TeamBuilder, quick_pick, refusal
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import CONTACT_TOLERANCE
from wargame_cli.text import name_problem
from wargame_cli.wording import plural

DATA = Path(__file__).with_name("warbands.toml")
EXPERIENCE = {3: "inexperienced", 4: "regular", 5: "elite"}  # c1
MAX_MODELS = 12
MAX_HEALTH = 99
DICE_RANGE = (3, 10)  # experience dice a run or a team may give a model: c2 keeps three
# The keys a warband file may hold (`kit.filekeys`): any other is refused, naming the nearest.
FILE_KEYS: Keys = {
    "name": None,
    "warband": None,
    "models": {
        "name": None,
        "experience": None,
        "health": None,
        "dice": None,  # its experience dice where changed (`--unit elite.dice=6`)
        "damage": None,  # a campaign's old wounds
        "at": None,
        "pronoun": None,
        "ranged": {"range": None, "dice": None},
    },
}


@dataclass(frozen=True)
class Catalogue:
    warbands: dict[str, list[dict[str, Any]]]
    defaults: dict[str, str]
    pool: tuple[str, ...]

    def lookup(self, name: str) -> str | None:
        return next((w for w in self.warbands if w.lower() == name.strip().lower()), None)


@cache
def catalogue() -> Catalogue:
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    bands = {w["name"]: [dict(m) for m in w["models"]] for w in data["warbands"]}
    return Catalogue(bands, dict(data["defaults"]), tuple(data["names"]["pool"]))


def experience_of(value: Any) -> int:
    """3, 4 or 5, or a word for one of them (any prefix of three letters or more)."""
    if isinstance(value, int) and not isinstance(value, bool) and value in EXPERIENCE:
        return value
    text = str(value).strip().lower()
    if text.isdigit() and int(text) in EXPERIENCE:
        return int(text)
    for rating, word in EXPERIENCE.items():
        if len(text) >= 3 and word.startswith(text):
            return rating
    raise TeamError(f"experience {value!r}: use 3 (inexperienced), 4 (regular) or 5 (elite) (c1)")


def _member(data: Any, index: int, options: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(data, dict) or not isinstance(data.get("name"), str):
        raise TeamError(f"model {index + 1}: needs a `name` and an `experience`")
    name = data["name"].strip()
    if problem := name_problem(name):
        raise TeamError(f"model {index + 1} ({name!r}): {problem}")
    out: dict[str, Any] = {"name": name, "experience": experience_of(data.get("experience", 4))}
    if data.get("health") is not None:
        health = data["health"]
        if not isinstance(health, int) or isinstance(health, bool):
            raise TeamError(f"{name}: health {health!r} is not a whole number")
        if not 1 <= health <= MAX_HEALTH:
            raise TeamError(f"{name}: health must be 1-{MAX_HEALTH}, not {health}")
        out["health"] = health
    if data.get("dice") is not None:  # checked as `--unit elite.dice=6` checks it
        word = EXPERIENCE[out["experience"]]
        dice = unitstats.row(sheet(), word, {"dice": data["dice"]}, name).get("dice")
        if dice is not None:
            out["dice"] = int(dice)
    if data.get("damage") is not None:  # old wounds: a campaign's, or a GM's (c8)
        damage, health = data["damage"], out.get("health", options["health"])
        if not isinstance(damage, int) or isinstance(damage, bool):
            raise TeamError(f"{name}: damage {damage!r} is not a whole number")
        if not 0 <= damage < health:
            raise TeamError(
                f"{name}: damage must be 0-{health - 1} (below its health), not {damage}"
            )
        if damage:
            out["damage"] = damage
    if data.get("at") is not None:
        at = data["at"]
        if (
            not isinstance(at, list | tuple)
            or len(at) != 2
            or not all(isinstance(v, int | float) and not isinstance(v, bool) for v in at)
        ):
            raise TeamError(f"{name}: `at` is [x, y] in inches from its own left corner")
        out["at"] = [round(float(at[0]), 2), round(float(at[1]), 2)]  # places are kept to 0.01"
    if data.get("pronoun") is not None:
        out["pronoun"] = pronouns.normal(data["pronoun"], name)
    if data.get("ranged") is not None:
        out["ranged"] = check_ranged(data["ranged"], name)
    return out


def sheet() -> unitstats.Sheet:
    """Each experience rating's numeric stats (c1-c2), the unit types of a warband: the dice
    it rolls (`--unit elite.dice=6`) and its health (`--unit regular.health=12`, stock: the
    `health` option's, gap 2); a team file gives one model the same with `dice`, `health`."""
    return {
        word: {
            "dice": unitstats.Stat("dice", rating, *DICE_RANGE),
            "health": unitstats.Stat("health", None, 1, MAX_HEALTH),
        }
        for rating, word in EXPERIENCE.items()
    }


def restat(
    team: dict[str, Any], changes: unitstats.Changes, options: dict[str, Any]
) -> dict[str, Any]:
    """The warband with every model of a changed rating given the dice and health `changes`
    says (over a team's own); a stock value (its experience, the `health` option's) is no
    change and is not written. Checked again as a team file is (old wounds below health)."""
    models = []
    for model in team["models"]:
        changed = changes.get(EXPERIENCE[model["experience"]], {})
        stock = {"dice": model["experience"], "health": options["health"]}
        model = dict(model)
        for stat, value in changed.items():
            model.pop(stat, None)
            if value != stock[stat]:
                model[stat] = int(value)
        models.append(model)
    return {**team, **validate(models, options)}


def kind(experience: int, dice: int | None, health: int, options: dict[str, Any]) -> str:
    """A model's unit type as `simulate`'s figures name it: `experience 5`, or `experience 5
    (dice=6, health=12)` where a run or its team changed them, so they stay apart."""
    changed: dict[str, unitstats.Number] = {} if dice is None else {"dice": dice}
    if health != options["health"]:
        changed["health"] = health
    return unitstats.label(f"experience {experience}", changed)


MAX_RANGE = 48  # inches: twice the default field
MAX_RANGED_DICE = 10


def check_ranged(value: Any, name: str) -> dict[str, Any]:
    """`ranged = {range = 6, dice = "combat"}` (or `dice = 2`): a model's ranged attack,
    off unless a team gives it (c9 as read here)."""
    if not isinstance(value, dict):
        raise TeamError(f'{name}: ranged is a table: {{range = 6, dice = "combat"}}')
    reach = value.get("range")
    if isinstance(reach, bool) or not isinstance(reach, int | float) or not 0 < reach <= MAX_RANGE:
        raise TeamError(
            f"{name}: ranged range is above 0 and at most {MAX_RANGE} inches, not {reach!r}"
        )
    dice = value.get("dice", "combat")
    if dice != "combat" and (
        isinstance(dice, bool) or not isinstance(dice, int) or not 1 <= dice <= MAX_RANGED_DICE
    ):
        raise TeamError(
            f'{name}: ranged dice is "combat" (its combat die) or 1-{MAX_RANGED_DICE}, not {dice!r}'
        )
    return {"range": round(float(reach), 2), "dice": dice}


def own_places(models: list[dict[str, Any]], options: dict[str, Any]) -> list[Point]:
    """Where each model stands in its side's own frame: `at`, or spread evenly in line."""
    width, depth = float(options["width"]), float(options["deploy"])
    step = width / (len(models) + 1)
    return [
        Point(*m["at"]) if "at" in m else Point(round(step * (i + 1), 2), depth)
        for i, m in enumerate(models)
    ]


def table_place(own: Point, side: str, options: dict[str, Any]) -> Point:
    """Side A's frame is the table's; side B faces it from the far edge."""
    if side == "A":
        return own
    return Point(float(options["width"]) - own.x, float(options["height"]) - own.y)


def _deployment_problem(models: list[dict[str, Any]], options: dict[str, Any]) -> str | None:
    radius = float(options["base"]) / 2
    width, height = float(options["width"]), float(options["height"])
    places = own_places(models, options)
    for model, p in zip(models, places, strict=True):
        if not (radius <= p.x <= width - radius and radius <= p.y < height / 2):
            return (
                f"{model['name']} at {p.key()} is not on its own half of the "
                f'{width:g}"x{height:g}" field'
            )
    for i, p in enumerate(places):
        for j in range(i):
            if p.distance(places[j]) < 2 * radius - CONTACT_TOLERANCE:
                return (
                    f"{models[i]['name']} and {models[j]['name']} would stand on each other; "
                    "too many models for the field, or `at` places too close"
                )
    return None


def validate(models: list[Any], options: dict[str, Any]) -> dict[str, Any]:
    """Check a whole warband; returns its JSON form."""
    if not 1 <= len(models) <= MAX_MODELS:
        raise TeamError(f"a warband has 1-{MAX_MODELS} models, not {len(models)}")
    members = [_member(m, i, options) for i, m in enumerate(models)]
    seen: set[str] = set()
    for m in members:
        if m["name"].lower() in seen:
            raise TeamError(f"two models are named {m['name']}: each model needs its own name")
        seen.add(m["name"].lower())
    if problem := _deployment_problem(members, options):
        raise TeamError(problem)
    return {"models": members}


def parse_inline(text: str, options: dict[str, Any]) -> dict[str, Any]:
    """`"Tutok:4, Kuote:elite (she), Ijoi:3:12"` (name, experience, health, a pronoun in
    parentheses) or a warband's name."""
    cat = catalogue()
    if (known := cat.lookup(text)) is not None:
        return validate(cat.warbands[known], options)
    models: list[dict[str, Any]] = []
    for written in teamtext.parts(text):  # no counts: every model has its own name
        part, pronoun = teamtext.pronounced(written)
        bits = [b.strip() for b in part.split(":")]
        if len(bits) > 3 or not bits[0]:
            raise TeamError(f"{part!r}: write NAME, NAME:EXPERIENCE or NAME:EXPERIENCE:HEALTH")
        model: dict[str, Any] = {"name": bits[0], "experience": bits[1] if len(bits) > 1 else 4}
        if len(bits) == 3:
            if not re.fullmatch(r"\d+", bits[2]):
                raise TeamError(f"{part!r}: health {bits[2]!r} is not a whole number")
            model["health"] = int(bits[2])
        if pronoun is not None:
            model["pronoun"] = pronoun
        models.append(model)
    if not models:
        raise TeamError('an empty warband: e.g. "Tutok:4, Kuote:5, Ijoi:3"')
    return validate(models, options)


def from_data(data: Any, options: dict[str, Any]) -> dict[str, Any]:
    """A team file or a saved team: `{"models": [...]}`, or `{"warband": "Axes"}`."""
    if isinstance(data, dict) and isinstance(data.get("warband"), str) and "models" not in data:
        return parse_inline(data["warband"], options)
    models = data.get("models") if isinstance(data, dict) else data
    if not isinstance(models, list):
        raise TeamError("a warband needs `models`: a list of {name, experience} tables")
    return validate(models, options)


def builder(side: str, options: dict[str, Any]) -> TeamBuilder:
    """A ready warband, or model by model: a name (offered or typed) and an experience."""
    cat = catalogue()
    picks = []
    for name, ready in cat.warbands.items():
        listing = ", ".join(f"{m['name']} ({EXPERIENCE[m['experience']]})" for m in ready)
        reason = refusal(partial(validate, ready, options))
        picks.append(Option(f"warband:{name}", f"{name}: {listing}", disabled=reason))
    key = yield quick_pick(
        side,
        side_prompt(side, "pick a warband"),
        picks,
        f"warband:{cat.defaults[side]}",
        ("c1",),
        "Build a warband model by model",
    )
    if key.startswith("warband:"):
        return validate(cat.warbands[key.removeprefix("warband:")], options)
    count = int(
        (
            yield Choice(
                side,
                side_prompt(side, "how many models?"),
                tuple(Option(str(n), f"{n} model{'s' * (n != 1)}") for n in range(1, 7)),
                "3",
                ("c1",),
                "team",
            )
        )
    )
    models: list[dict[str, Any]] = []
    offset = 0 if side == "A" else len(cat.pool) // 2
    for i in range(count):
        taken = {m["name"].lower() for m in models}
        offered = [n for n in cat.pool[offset:] + cat.pool[:offset] if n.lower() not in taken][:4]

        def check(text: str, taken: set[str] = taken) -> str | None:
            name = text.strip()
            if problem := name_problem(name):
                return problem
            return f"{name} is already in this warband" if name.lower() in taken else None

        names = tuple(Option(n, n) for n in offered)
        name = yield Choice(
            side,
            side_prompt(side, f"name of model {i + 1} of {count}"),
            names,
            offered[0],
            ("c1",),
            "team",
            free_hint="a name",
            judge=menu_or(names, check),
        )
        rating = yield Choice(
            side,
            side_prompt(side, f"experience of {name.strip()}"),
            tuple(
                Option(str(r), f"{r}: {word} ({plural(r, 'die', 'dice')})")
                for r, word in EXPERIENCE.items()
            ),
            "4",
            ("c1", "c2"),
            "team",
        )
        models.append({"name": name.strip(), "experience": int(rating)})
    return validate(models, options)
