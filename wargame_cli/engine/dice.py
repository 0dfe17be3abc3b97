"""Dice sources. Each answers a `Roll` with faces and says where they came from."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from wargame_cli.engine.requests import Roll
from wargame_cli.errors import DiceError
from wargame_cli.wording import plural

RNG, MANUAL, SCRIPT = "rng", "manual", "script"


def describe(roll: Roll) -> str:
    sizes: dict[int, int] = {}
    for d in roll.dice:
        sizes[d] = sizes.get(d, 0) + 1
    return "+".join(f"{n}d{d}" for d, n in sorted(sizes.items(), reverse=True))


def face_problem(face: object, die: int) -> str | None:
    """Why `face` cannot have come from a die with `die` sides, or None."""
    if not isinstance(face, int) or isinstance(face, bool):
        return f"{face!r} is not a whole number"
    if not 1 <= face <= die:
        return f"{face} does not fit a d{die} (1-{die})"
    return None


def check_faces(roll: Roll, faces: Sequence[object]) -> str | None:
    if len(faces) != len(roll.dice):
        given, wanted = plural(len(faces), "face"), plural(len(roll.dice), "die", "dice")
        return f"{given} given for {wanted} ({describe(roll)})"
    for i, (face, die) in enumerate(zip(faces, roll.dice, strict=True)):
        problem = face_problem(face, die)
        if problem:
            return f"die {i + 1}: {problem}"
    return None


@dataclass(frozen=True, slots=True)
class Thrown:
    faces: tuple[int, ...]
    source: str | tuple[str, ...]
    proof: dict[str, str] | None = None  # shared dice: what shows the faces (remote.fair)
    sig: str | None = None  # remote play: typed faces, signed by the typing side's machine


class RngDice:
    """A seeded generator. `draws` counts faces so a resumed game can fast-forward to it."""

    def __init__(self, seed: int) -> None:
        self.seed = seed
        self._rng = random.Random(seed)
        self.draws = 0

    def face(self, die: int) -> int:
        self.draws += 1
        return self._rng.randint(1, die)

    def throw(self, roll: Roll) -> Thrown:
        return Thrown(tuple(self.face(d) for d in roll.dice), RNG)

    def skip(self, dice: Sequence[int]) -> list[int]:
        """Consume the draws a replayed roll made, so play continues as if never stopped;
        the faces drawn, which a replay compares with the faces recorded."""
        return [self.face(d) for d in dice]

    def state(self) -> tuple[Any, int]:
        """Where the stream stands (for `restore`): kept in memory, never saved."""
        return self._rng.getstate(), self.draws

    def restore(self, state: tuple[Any, int]) -> None:
        self._rng.setstate(state[0])
        self.draws = state[1]

    def rewind(self) -> None:
        """Back to the seed's first face; a replay then skips what the kept log drew."""
        self._rng = random.Random(self.seed)
        self.draws = 0


class NobodyTypes:
    """Real dice in a run with no one at the keyboard (`--no-input`): their faces come from
    `--rolls` alone, and a roll past the last of them is refused, naming it."""

    def __init__(self, kind: str) -> None:
        self.kind = kind

    def throw(self, roll: Roll) -> Thrown:
        raise DiceError(
            f"--rolls ran out at {roll.reason} ({describe(roll)}): --dice {self.kind} throws "
            "real dice, and a --no-input run has no one to type them; give more faces"
        )


@dataclass
class ScriptDice:
    """Faces given up front (`--rolls`), in the order the rules ask; then `after` takes over."""

    faces: list[int]
    after: RngDice | ManualDice | SidedDice | NobodyTypes
    used: int = field(default=0)

    def throw(self, roll: Roll) -> Thrown:
        out: list[int] = []
        sources: list[str] = []
        for die in roll.dice:
            if self.used < len(self.faces):
                face = self.faces[self.used]
                problem = face_problem(face, die)
                if problem:
                    raise DiceError(
                        f"--rolls value #{self.used + 1} ({face}) does not fit the d{die} asked "
                        f"for: {roll.reason}"
                    )
                self.used += 1
                out.append(face)
                sources.append(SCRIPT)
            else:
                break
        if len(out) < len(roll.dice):  # the script ran out: the rest in one throw, labelled
            rest = rest_of(roll, len(out))
            thrown = self.after.throw(rest)
            out += thrown.faces
            sources += per_die(thrown, len(rest.dice))
        return Thrown(tuple(out), collapse(sources))


def rest_of(roll: Roll, done: int) -> Roll:
    """The dice of `roll` after the first `done`, with their labels."""
    return Roll(
        dice=roll.dice[done:],
        reason=roll.reason,
        side=roll.side,
        rules=roll.rules,
        labels=roll.labels[done:],
        owners=roll.owners[done:],
    )


def apart(roll: Roll, throw: Callable[[Roll], Thrown]) -> Thrown | None:
    """A roll of several sides' dice (a roll-off, `Roll.owners`) thrown as one roll per side,
    each asked of its own side (`throw`), its faces put back in the roll's order; None for a
    roll of one side (or of no one's in particular)."""
    if roll.side is not None or len(set(roll.owners)) < 2 or len(roll.owners) != len(roll.dice):
        return None
    faces: list[int] = [0] * len(roll.dice)
    sources: list[str] = [""] * len(roll.dice)
    for owner in dict.fromkeys(roll.owners):
        mine = [i for i, o in enumerate(roll.owners) if o == owner]
        part = Roll(
            dice=tuple(roll.dice[i] for i in mine),
            reason=roll.reason,
            side=owner,
            rules=roll.rules,
            labels=tuple(roll.labels[i] for i in mine) if roll.labels else (),
        )
        thrown = throw(part)
        for i, face, source in zip(mine, thrown.faces, per_die(thrown, len(mine)), strict=True):
            faces[i], sources[i] = face, source
    return Thrown(tuple(faces), collapse(sources))


def per_die(thrown: Thrown, n: int) -> list[str]:
    return [thrown.source] * n if isinstance(thrown.source, str) else list(thrown.source)


def collapse(sources: Sequence[str]) -> str | tuple[str, ...]:
    return sources[0] if len(set(sources)) == 1 else tuple(sources)


def rng_of(dice: object) -> RngDice | None:
    """The seeded generator behind a dice source, if there is one."""
    if isinstance(dice, RngDice):
        return dice
    if isinstance(dice, ScriptDice):
        return rng_of(dice.after)
    if isinstance(dice, SidedDice | ManualDice):
        return dice.rng
    return None


def script_of(dice: object) -> ScriptDice | None:
    """The `--rolls` script behind a dice source: the whole source, or the real dice's of
    `--dice A=manual,B=auto` (there the script gives the typed side's faces)."""
    if isinstance(dice, ScriptDice):
        return dice
    if isinstance(dice, SidedDice):
        return next((d for d in dice.by_side.values() if isinstance(d, ScriptDice)), None)
    return None


class ManualDice:
    """Physical dice: `ask` shows the request and returns the typed faces (re-asking itself);
    an empty answer hands that roll to the computer (`rng`, the game's one seeded stream). When
    every die is typed at the table, a roll-off between sides is typed in one answer."""

    def __init__(self, ask: Callable[[Roll], list[int]], rng: RngDice | None = None) -> None:
        self.ask = ask
        self.rng = rng

    def throw(self, roll: Roll) -> Thrown:
        faces = self.ask(roll)
        if not faces and self.rng is not None:
            return self.rng.throw(roll)
        problem = check_faces(roll, faces)
        if problem:
            raise DiceError(f"manual dice for {roll.reason}: {problem}")
        return Thrown(tuple(faces), MANUAL)


AUTO, TYPED = "auto", "manual"


def parse_dice(text: str) -> dict[str, str]:
    """`--dice`: auto, manual, or each side's (`A=manual,B=auto`; a side not named is auto):
    who throws real dice and who lets the computer roll."""
    word = text.strip().lower()
    if word in (AUTO, TYPED):
        return {"A": word, "B": word}
    out = {"A": AUTO, "B": AUTO}
    for part in text.split(","):
        side, sep, kind = part.partition("=")
        side, kind = side.strip().upper(), kind.strip().lower()
        if not sep or side not in out or kind not in (AUTO, TYPED):
            raise DiceError(
                f"--dice {text!r}: use auto, manual, or each side's, e.g. A=manual,B=auto"
            )
        out[side] = kind
    return out


def dice_words(by_side: dict[str, str]) -> str:
    """The `--dice` value that says `by_side` (as a save keeps it)."""
    kinds = set(by_side.values())
    if len(kinds) == 1:
        return kinds.pop()
    return ",".join(f"{side}={kind}" for side, kind in sorted(by_side.items()))


Typed = ManualDice | ScriptDice | NobodyTypes  # real dice: typed, or given by --rolls


class SidedDice:
    """Each side's dice (`--dice A=manual,B=auto`): a roll goes to its side's source, a
    roll-off's dice each to its owner's (`apart`); a roll of no side at all is typed when
    either side throws real dice. One seeded stream, `rng`, behind every face the computer
    rolls."""

    def __init__(self, by_side: dict[str, RngDice | Typed], rng: RngDice) -> None:
        self.by_side = by_side
        self.rng = rng
        typed = [d for d in by_side.values() if not isinstance(d, RngDice)]
        self.shared: RngDice | Typed = typed[0] if typed else rng

    def throw(self, roll: Roll) -> Thrown:
        return apart(roll, self._throw) or self._throw(roll)

    def _throw(self, roll: Roll) -> Thrown:
        source = self.by_side.get(roll.side or "", self.shared)
        return source.throw(roll)


def table_dice(
    kind: str, rolls: str | None, rng: RngDice, ask: Callable[[Roll], list[int]] | None
) -> DiceSource:
    """The dice `--dice KIND` and `--rolls` say: the generator `rng`, or real dice, for both
    sides or each its own (`A=manual,B=auto`). `--rolls` gives the real dice's faces where a
    side throws them (the rest a person types with `ask`, or, with no one at the keyboard,
    `ask` None, none: a roll past them is refused), and every face, the computer's too, where
    no side does. A game's dice (`wargame play`) and a campaign's after-battle dice."""
    by_side = parse_dice(kind)
    script = parse_rolls(rolls) if rolls is not None else None
    if TYPED not in by_side.values():
        return rng if script is None else ScriptDice(script, rng)
    typed: ManualDice | ScriptDice | NobodyTypes
    typed = NobodyTypes(kind) if ask is None else ManualDice(ask, rng)
    if script is not None:
        typed = ScriptDice(script, typed)
    if set(by_side.values()) == {TYPED}:
        return typed
    return SidedDice({s: typed if k == TYPED else rng for s, k in by_side.items()}, rng)


def parse_rolls(text: str) -> list[int]:
    """`--rolls "4,3,6"`: commas or spaces between whole numbers."""
    out: list[int] = []
    for part in text.replace(",", " ").split():
        try:
            out.append(int(part))
        except ValueError:
            raise DiceError(f"--rolls: {part!r} is not a whole number") from None
    return out


class OtherDice(Protocol):
    """Dice settled elsewhere: by two machines together (`wargame_cli.remote.peer`)."""

    def throw(self, roll: Roll) -> Thrown: ...


DiceSource = RngDice | ScriptDice | ManualDice | SidedDice | OtherDice
