"""Squads: 5-10 miniatures, each with a name, a training level and a command rating, exactly
one of them the leader (b1-b3). Parsing, checking and interactive building."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Generator
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from wargame_cli.engine.requests import Choice, Option, menu_or
from wargame_cli.errors import TeamError
from wargame_cli.kit import pronouns, teamtext, unitstats
from wargame_cli.kit.filekeys import Keys
from wargame_cli.ruleset import TeamBuilder, quick_pick
from wargame_cli.text import name_problem

MIN_SIZE, MAX_SIZE = 5, 10  # b1
TRAINING_DICE = {"conscript": 1, "regular": 2, "elite": 3}  # b2, b12
DICE_RANGE = (1, 10)  # a training's action dice a run or a squad file may give it
DATA = Path(__file__).with_name("squads.toml")
RULES = ("b1", "b2", "b3")
# The keys a squad file may hold (`kit.filekeys`): any other is refused, naming the nearest.
FILE_KEYS: Keys = {
    "name": None,
    "miniatures": {"name": None, "training": None, "rating": None, "dice": None, "pronoun": None},
}


@dataclass(frozen=True)
class Soldier:
    """One miniature as the player wrote it down."""

    name: str
    training: str
    rating: int
    pronoun: str | None = None  # for the battle report only (kit.pronouns)
    dice: int | None = None  # its action dice where changed (`--unit elite.dice=4`): b12's

    def to_data(self) -> dict[str, Any]:
        out: dict[str, Any] = {"name": self.name, "training": self.training, "rating": self.rating}
        if self.dice is not None:
            out["dice"] = self.dice
        if self.pronoun is not None:
            out["pronoun"] = self.pronoun
        return out

    def describe(self) -> str:
        dice = "" if self.dice is None else f", {self.dice} dice"
        return f"{self.name} ({self.training}{dice}, rating {self.rating})"


@dataclass(frozen=True)
class Catalogue:
    """The squads in squads.toml: quick picks and the `--no-input` defaults."""

    squads: tuple[tuple[str, tuple[Soldier, ...]], ...]
    defaults: dict[str, str]

    def squad(self, name: str) -> tuple[Soldier, ...]:
        return dict(self.squads)[name]


@cache
def catalogue() -> Catalogue:
    data = tomllib.loads(DATA.read_text(encoding="utf-8"))
    squads = tuple(
        (s["name"], tuple(_soldier_from(m) for m in s["miniatures"])) for s in data["squads"]
    )
    return Catalogue(squads=squads, defaults=dict(data["defaults"]))


def training_of(word: str) -> str:
    """`c`, `con`, `Conscript`, `reg`, `e`... to a training level."""
    low = word.strip().lower()
    found = [t for t in TRAINING_DICE if low and t.startswith(low)]
    if len(found) != 1:
        raise TeamError(f"{word!r} is not a training level: conscript, regular or elite (b2)")
    return found[0]


def _soldier_from(data: Any) -> Soldier:
    if isinstance(data, str):
        return parse_soldier(data)
    if not isinstance(data, dict):
        raise TeamError("a miniature is a table with name, training and rating")
    name, training, rating = data.get("name"), data.get("training"), data.get("rating")
    if not isinstance(name, str) or not name.strip():
        raise TeamError(f"miniature {data!r} has no name")
    if not isinstance(training, str):
        raise TeamError(f"{name}: training must be conscript, regular or elite (b2)")
    if not isinstance(rating, int) or isinstance(rating, bool):
        raise TeamError(f"{name}: the command rating must be a whole number (b2)")
    pronoun = data.get("pronoun")
    said = None if pronoun is None else pronouns.normal(pronoun, name.strip())
    kind = training_of(training)
    dice = None
    if data.get("dice") is not None:  # checked as `--unit elite.dice=4` checks it
        dice = unitstats.row(sheet(), kind, {"dice": data["dice"]}, name.strip()).get("dice")
    return Soldier(name.strip(), kind, rating, said, None if dice is None else int(dice))


def sheet() -> unitstats.Sheet:
    """Each training level's one numeric stat, its action dice (b12): `--unit elite.dice=4`,
    or `dice = 4` on a miniature in a squad file."""
    return {
        training: {"dice": unitstats.Stat("dice", dice, *DICE_RANGE)}
        for training, dice in TRAINING_DICE.items()
    }


def restat(team: dict[str, Any], changes: unitstats.Changes) -> dict[str, Any]:
    """The squad (its JSON form) with every miniature of a changed training rolling the
    dice `changes` gives it (a squad file's own `dice` too); the training's own number is
    no change, and is not written."""
    rows = []
    for row in team["miniatures"]:
        dice = changes.get(row["training"], {}).get("dice")
        if dice is not None:
            row = {k: v for k, v in row.items() if k != "dice"}
            if dice != TRAINING_DICE[row["training"]]:
                row["dice"] = int(dice)
        rows.append(row)
    return {**team, "miniatures": rows}


def kind(training: str, dice: int | None) -> str:
    """A miniature's unit type as `simulate`'s figures name it: `elite`, or `elite (dice=4)`
    where its dice are changed, so changed miniatures stay apart from stock ones."""
    return unitstats.label(training, {} if dice is None else {"dice": dice})


def parse_soldier(text: str) -> Soldier:
    """`Sgt Rook elite 4` or `Sgt Rook:elite:4`: name, training, command rating; a pronoun
    may follow in parentheses (`Hawk regular 2 (she)`)."""
    text, pronoun = teamtext.pronounced(text)
    if ":" in text:
        fields = [f.strip() for f in text.split(":")]
        if len(fields) != 3:
            raise TeamError(f"{text!r}: write name:training:rating, e.g. Rook:elite:4")
        name, training, rating = fields
    else:
        words = text.split()
        if len(words) < 3:
            raise TeamError(f"{text!r}: write name, training and rating, e.g. Rook elite 4")
        name, training, rating = " ".join(words[:-2]), words[-2], words[-1]
    if not re.fullmatch(r"[+-]?\d+", rating):
        raise TeamError(f"{text!r}: the command rating {rating!r} is not a whole number (b2)")
    if not name:
        raise TeamError(f"{text!r}: the miniature needs a name")
    return Soldier(name, training_of(training), int(rating), pronoun)


def summary(soldiers: tuple[Soldier, ...] | list[Soldier]) -> str:
    """A squad in one short line: the leader, then the others by training, elites first
    (only the leader's rating counts in play)."""
    lead = leader_index(soldiers) if not leader_problem(list(soldiers)) else -1
    parts = []
    if lead >= 0:
        s = soldiers[lead]
        parts.append(f"{s.name} leads ({s.training}, rating {s.rating})")
    for training in reversed(TRAINING_DICE):
        names = [s.name for i, s in enumerate(soldiers) if i != lead and s.training == training]
        if names:
            parts.append(f"{training} {', '.join(names)}")
    return "; ".join(parts)


def leader_problem(soldiers: list[Soldier]) -> str | None:
    """b3: exactly one miniature rated strictly above all the others."""
    if not soldiers:
        return "a squad needs miniatures"
    top = max(s.rating for s in soldiers)
    tied = [s.name for s in soldiers if s.rating == top]
    if len(tied) > 1:
        return (
            f"{' and '.join(tied)} share the highest command rating {top}: exactly one "
            "miniature must be rated above all others to lead the squad (b3)"
        )
    return None


def leader_index(soldiers: list[Soldier] | tuple[Soldier, ...]) -> int:
    top = max(s.rating for s in soldiers)
    return next(i for i, s in enumerate(soldiers) if s.rating == top)


def problems(soldiers: list[Soldier], options: dict[str, Any], complete: bool = True) -> list[str]:
    """Every rule the (partial) squad breaks, with the rule behind it."""
    out: list[str] = []
    if len(soldiers) > MAX_SIZE:
        out.append(f"a squad has at most {MAX_SIZE} miniatures, not {len(soldiers)} (b1)")
    if complete and len(soldiers) < MIN_SIZE:
        out.append(f"a squad has at least {MIN_SIZE} miniatures, not {len(soldiers)} (b1)")
    low, high = options["rating_min"], options["rating_max"]
    for s in soldiers:
        if not low <= s.rating <= high:
            out.append(f"{s.name}: command rating {s.rating} is outside {low}-{high} (b2)")
    for s in soldiers:
        if problem := name_problem(s.name):
            out.append(f"miniature {s.name!r}: {problem}")
    seen: set[str] = set()
    for s in soldiers:
        key = s.name.casefold()
        if key in seen:
            out.append(f"two miniatures are named {s.name}: names must differ")
        seen.add(key)
    if complete and soldiers and (problem := leader_problem(soldiers)):
        out.append(problem)
    return out


def validate(soldiers: list[Soldier], options: dict[str, Any]) -> list[Soldier]:
    found = problems(soldiers, options)
    if found:
        raise TeamError(found[0])
    return soldiers


def soldiers_in(text: str) -> list[Soldier]:
    """The miniatures `text` writes down, unchecked: `"Sgt Rook elite 4, 3 Trooper conscript
    0"`. A count (`3 Trooper ...`, `3x Trooper ...`, `Trooper ... x3`) adds numbered copies
    (Trooper 1, Trooper 2, ...)."""
    soldiers: list[Soldier] = []
    for written in teamtext.parts(text):
        part, pronoun = teamtext.pronounced(written)
        entry = teamtext.counted(part)
        if pronoun is not None:  # `3 Trooper c 0 (he)`: every one of them
            entry = teamtext.Entry(f"{entry.text} ({pronoun})", entry.count, entry.counted)
        if entry.count > MAX_SIZE:
            raise TeamError(f"{part!r}: a squad has at most {MAX_SIZE} miniatures (b1)")
        one = parse_soldier(entry.text)
        if not entry.counted:
            soldiers.append(one)
            continue
        soldiers += [
            Soldier(f"{one.name} {i}", one.training, one.rating, one.pronoun, one.dice)
            for i in range(1, entry.count + 1)
        ]
    return soldiers


def parse_inline(text: str, options: dict[str, Any]) -> list[Soldier]:
    """`"Sgt Rook elite 4, Hawk regular 2, 3x Trooper conscript 0"`: `soldiers_in`, checked."""
    soldiers = soldiers_in(text)
    if not soldiers:
        raise TeamError(
            'an empty squad: e.g. "Rook elite 4, Hawk regular 2, 3x Trooper conscript 0"'
        )
    return validate(soldiers, options)


def from_data(data: Any, options: dict[str, Any]) -> list[Soldier]:
    """A squad file or a saved squad: `{"miniatures": [...]}` (tables or inline strings)."""
    rows = data.get("miniatures") if isinstance(data, dict) else data
    if not isinstance(rows, list):
        raise TeamError("a squad needs `miniatures`: a list of {name, training, rating}")
    return validate([_soldier_from(r) for r in rows], options)


def to_data(soldiers: list[Soldier]) -> dict[str, Any]:
    return {"miniatures": [s.to_data() for s in soldiers]}


# -- interactive building --------------------------------------------------------------------


def builder(side: str, options: dict[str, Any]) -> TeamBuilder:
    """A ready squad, or one miniature at a time (typed as `name training rating`)."""
    cat = catalogue()
    picks = [
        Option(
            f"squad:{name}",
            f"{name} ({len(soldiers)}): {summary(soldiers)}",
            disabled=next(iter(problems(list(soldiers), options)), None),
        )
        for name, soldiers in cat.squads
    ]
    key = yield quick_pick(
        side,
        "pick a squad (or build one)",
        picks,
        f"squad:{cat.defaults[side]}",
        RULES,
        "Build a squad miniature by miniature",
    )
    if key.startswith("squad:"):
        return list(cat.squad(key.removeprefix("squad:")))
    soldiers: list[Soldier] = []
    while True:
        answer = yield _next_miniature(side, soldiers, options)
        if answer == "done":
            return soldiers
        if answer == "remove":
            soldiers.pop()
        elif answer == "edit":
            soldiers = yield from _edit(side, soldiers, options)
        else:
            soldiers += _typed(answer, soldiers, options)[0]


KEEP = "keep"


def _edit(
    side: str, soldiers: list[Soldier], options: dict[str, Any]
) -> Generator[Choice, str, list[Soldier]]:
    """Change or remove any miniature of the squad so far: pick it, then remove it or type
    what it becomes (`name training rating`, counts read as everywhere)."""
    picks = [Option(f"edit:{i}", f"{s.describe()}") for i, s in enumerate(soldiers)]
    picks.append(Option(KEEP, "Back: change nothing"))
    key = yield Choice(
        side=side,
        prompt="change or remove which miniature?",
        options=tuple(picks),
        default=KEEP,
        rules=RULES,
        kind="team",
    )
    if key == KEEP:
        return soldiers
    index = int(key.removeprefix("edit:"))
    others = soldiers[:index] + soldiers[index + 1 :]
    target = soldiers[index]
    menu = (
        Option("remove", f"Remove {target.name}"),
        Option(KEEP, f"Keep {target.name} as it is"),
    )
    answer = yield Choice(
        side=side,
        prompt=f"{target.describe()}: remove it, or type what it becomes",
        options=menu,
        default=KEEP,
        rules=RULES,
        kind="team",
        free_hint="name training rating, e.g. Rook elite 4",
        judge=menu_or(menu, lambda text: _typed(text, others, options)[1]),
    )
    if answer == KEEP:
        return soldiers
    if answer == "remove":
        return others
    return [*soldiers[:index], *_typed(answer, others, options)[0], *soldiers[index + 1 :]]


def _suggestion(soldiers: list[Soldier], options: dict[str, Any]) -> Soldier:
    if not soldiers:
        rating = min(options["rating_max"], max(options["rating_min"], 3))
        return Soldier("Sergeant", "elite", rating)
    top = max(s.rating for s in soldiers)
    rating = max(options["rating_min"], min(top - 1, 1))
    if rating >= top:  # the leader cannot be outranked: suggest a higher-rated leader
        rating = min(options["rating_max"], top + 1)
    training = ("regular", "regular", "conscript")[len(soldiers) % 3]
    return Soldier(f"Trooper {next_number(soldiers, 'Trooper')}", training, rating)


def next_number(soldiers: list[Soldier], word: str) -> int:
    """The number after the highest `word N` already in the squad (1 if none): Troopers 1-3
    and Hawk suggest Trooper 4, whatever else the squad holds."""
    taken = [
        int(number)
        for s in soldiers
        if (found := re.fullmatch(rf"{re.escape(word)}\s+(\d+)", s.name.strip(), re.I))
        for number in [found.group(1)]
    ]
    return max(taken, default=0) + 1


def _typed(
    text: str, soldiers: list[Soldier], options: dict[str, Any]
) -> tuple[list[Soldier], str | None]:
    """The miniatures a typed answer adds, read as `--team-a` reads them (counts included),
    and the first rule they would break."""
    try:
        added = soldiers_in(text)
    except TeamError as exc:
        return [], str(exc)
    if not added:
        return [], "write name, training and rating, e.g. Rook elite 4"
    found = problems([*soldiers, *added], options, complete=False)
    return added, (found[0] if found else None)


def _next_miniature(side: str, soldiers: list[Soldier], options: dict[str, Any]) -> Choice:
    suggestion = _suggestion(soldiers, options)
    full = len(soldiers) >= MAX_SIZE
    unfinished = problems(soldiers, options)
    opts = [
        Option(
            f"{suggestion.name} {suggestion.training} {suggestion.rating}",
            f"Add {suggestion.describe()}",
            disabled=f"a squad has at most {MAX_SIZE} miniatures (b1)" if full else None,
        ),
        Option("done", "Finish the squad", disabled=unfinished[0] if unfinished else None),
    ]
    if soldiers:
        opts.append(Option("remove", f"Remove {soldiers[-1].name}"))
    if len(soldiers) > 1:
        opts.append(Option("edit", "Change or remove any miniature…"))
    default = "done" if not unfinished and len(soldiers) >= 6 else opts[0].key
    if next(o for o in opts if o.key == default).disabled:
        default = next(o.key for o in opts if o.disabled is None)
    so_far = ", ".join(s.describe() for s in soldiers) or "none yet"
    return Choice(
        side=side,
        prompt=f"miniature {len(soldiers) + 1} (so far: {so_far})",
        options=tuple(opts),
        default=default,
        rules=RULES,
        kind="team",
        free_hint="name training rating, e.g. Rook elite 4 (or 2x Trooper conscript 0)",
        judge=menu_or(
            opts,
            lambda text: (
                f"a squad has at most {MAX_SIZE} miniatures (b1)"
                if full
                else _typed(text, soldiers, options)[1]
            ),
        ),
    )
