"""The protocol between a ruleset and the engine.

A ruleset's game is a generator. It yields requests and receives answers:

- `Roll`    -> a tuple of faces, one per die asked for
- `Choice`  -> the key of the chosen option (or a typed answer the choice accepts)
- `Event`   -> None (a fact for the log, the screen and battle reports)
- `TurnStart` -> None (the engine saves between turns and stops at `--turns`)

When the generator returns, its value is the `Outcome`. The ruleset never prints, prompts or
rolls: humans, bots, scripts and replays answer through this one interface.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, Generic, Protocol, TypeVar, overload

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Thunk(Protocol[T_co]):
    """A function called with no arguments. A Protocol, not `Callable[[], T]`, so mypy accepts
    the rules' `lambda w=w: ...` (arguments bound by defaults), which it cannot infer there."""

    def __call__(self) -> T_co: ...


class Check(Protocol):
    """Why a key is not a legal answer, or None (a Protocol for the same reason as `Thunk`)."""

    def __call__(self, key: str, /) -> str | None: ...


class Describe(Protocol):
    """The menu's label for a key (a Protocol for the same reason as `Thunk`)."""

    def __call__(self, key: str, /) -> str: ...


@dataclass(frozen=True, slots=True)
class Roll:
    """Dice the rules need: one face per entry of `dice` (die sizes)."""

    dice: tuple[int, ...]
    reason: str
    side: str | None = None
    rules: tuple[str, ...] = ()
    labels: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Option:
    """One answer to a `Choice`; `disabled` holds the reason it is not legal now."""

    key: str
    label: str
    disabled: str | None = None


class Lazy(Generic[T]):
    """A field that may be given as a function: it is called once, on first read. So a bot's
    suggestion is worked out only when a bot or a person is asked, never in a replay."""

    def __set_name__(self, owner: type, name: str) -> None:
        self.slot = f"_{name}"

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> Lazy[T]: ...
    @overload
    def __get__(self, obj: object, owner: type | None = None) -> T: ...
    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if obj is None:
            raise AttributeError(self.slot)  # a dataclass field with no default
        value = obj.__dict__[self.slot]
        if callable(value):
            value = value()
            obj.__dict__[self.slot] = value
        return value

    def __set__(self, obj: Any, value: T | Thunk[T]) -> None:
        obj.__dict__[self.slot] = value


@dataclass(frozen=True)
class Choice:
    """A decision for one side. `default` is the bot's pick, always legal; it may be given as
    a function of no arguments, called only when someone asks for it. `options` may be given
    the same way, so a menu is built only when a person (or a check) needs it.

    `check` judges a typed answer. With `describe` too (the label the menu gives a key, or
    would give a typed one), a replay judges and labels a recorded key without building the
    menu: a key `check` accepts is legal, and its label is `describe(key)`. So a menu whose
    entries depend on the bot (its pick offered first) never runs the bot in a replay."""

    side: str
    prompt: str
    options: Lazy[tuple[Option, ...]] = Lazy()
    default: Lazy[str] = Lazy()
    rules: tuple[str, ...] = ()
    kind: str = ""
    free_hint: str | None = None
    check: Check | None = field(default=None, compare=False)
    describe: Describe | None = field(default=None, compare=False)

    def refusal(self, key: str) -> str | None:
        """Why `key` is not a legal answer, or None when it is."""
        judged_alone = self.describe is not None and self._unbuilt()
        if judged_alone and self.check is not None and self.check(key) is None:
            return None  # judged as a typed answer; what it refuses, the menu judges
        for option in self.options:
            if option.key == key:
                return option.disabled
        if self.free_hint is not None and self.check is not None:
            return self.check(key)
        return f"{key!r} is not one of the options; {legal_keys(self.options)}"

    def default_refusal(self) -> str | None:
        """Why the bot's own suggestion is not legal, or None. While the menu is still unbuilt
        and the choice checks typed answers, that check judges it, so a bot's game never
        builds menus; otherwise (or when the check refuses it) it is `refusal(default)`."""
        if self._unbuilt() and self.check is not None and self.check(self.default) is None:
            return None
        return self.refusal(self.default)

    def _unbuilt(self) -> bool:
        return callable(self.__dict__["_options"])

    def label_of(self, key: str) -> str:
        """The menu's label for `key`; `describe` gives it while the menu is unbuilt (a
        replay) and for a typed key the menu does not list, else the key itself."""
        if self.describe is not None and self._unbuilt():
            return self.describe(key)
        for option in self.options:
            if option.key == key:
                return option.label
        return self.describe(key) if self.describe is not None else key


def legal_keys(options: tuple[Option, ...], shown: int = 12) -> str:
    """What may be answered instead, for a refusal: the open keys (the first `shown`)."""
    keys = [o.key for o in options if o.disabled is None]
    if not keys:
        return "no option is open here"
    more = f", ... ({len(keys)} in all)" if len(keys) > shown else ""
    return f"the open keys are {', '.join(keys[:shown])}{more}"


@dataclass(frozen=True, slots=True)
class Event:
    """A fact the rules established; `kind` and `data` let reports read it without parsing."""

    text: str
    rules: tuple[str, ...] = ()
    kind: str = "info"
    data: dict[str, Any] | None = None


@dataclass(frozen=True, slots=True)
class TurnStart:
    """A new game turn; `rules` are the rule points that make one (e.g. a11, a19)."""

    number: int
    rules: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a game ended. `winner` is a side id or None for a draw; `cause` says how in a few
    words that name no team ("destroyed", "surrendered", "round limit"), for tallies."""

    winner: str | None
    reason: str
    rules: tuple[str, ...] = ()
    data: dict[str, Any] | None = None
    cause: str = ""


Request = Roll | Choice | Event | TurnStart

# A controller answers this key to take back the latest decision made by a person or a script
# (with everything after it) and be asked that decision again; the runner handles it, so no
# ruleset ever sees it. `--choices` uses the same token.
TAKE_BACK = "undo"
Play = Generator[Request, Any, Outcome]


def choice(
    side: str,
    prompt: str,
    options: list[Option] | tuple[Option, ...],
    default: str | Thunk[str] | None = None,
    **kw: Any,
) -> Choice:
    """Build a Choice whose default falls back to the first legal option."""
    opts = tuple(options)
    if default is None:
        default = next(o.key for o in opts if o.disabled is None)
    return Choice(side=side, prompt=prompt, options=opts, default=default, **kw)
