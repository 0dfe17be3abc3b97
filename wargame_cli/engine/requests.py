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

from collections.abc import Callable, Generator, Sequence
from dataclasses import FrozenInstanceError, dataclass
from typing import Any, Generic, Protocol, TypeVar, overload

from wargame_cli.engine.events import EventData, Kind

T = TypeVar("T")
T_co = TypeVar("T_co", covariant=True)


class Thunk(Protocol[T_co]):
    """A function called with no arguments. A Protocol, not `Callable[[], T]`, so mypy accepts
    the rules' `lambda w=w: ...` (arguments bound by defaults), which it cannot infer there."""

    def __call__(self) -> T_co: ...


class Judge(Protocol):
    """Why a key is not a legal answer, or None (a Protocol for the same reason as `Thunk`)."""

    def __call__(self, key: str, /) -> str | None: ...


class Describe(Protocol):
    """The menu's label for a key (a Protocol for the same reason as `Thunk`)."""

    def __call__(self, key: str, /) -> str: ...


Text = str | Thunk[str]
"""A request's words (a roll's reason, a question's prompt, an event's text) may be given as
a function of no arguments, called on first read: a simulation reads none of them, live play
and saves read them as the request comes (the Runner logs them), so they are the same. The
function reads only values fixed when the request is made (local names never rebound, a
unit's name, numbers), never the state of the game, so reading it later gives the same
words."""


SPOT_HINT = "x,y"
"""The `Choice.free_hint` of a question whose typed answer is a spot on the table, in inches
(`12.5,3`): the screen lets a person point at it on the map, and the conformance kit's random
player types spots there. Any other hint is words shown beside "Type it" (`a name`)."""

SIDE_PREFIX = "Side {side}: "
"""How a question asked before the sides have names (a team's set-up) says whose it is:
`side_prompt("A", "pick a team")` is `Side A: pick a team`. The screen, which names the side
by its players' name, leaves the prefix out (`unsided`); logs and scripts keep it."""


def side_prompt(side: str, words: str) -> str:
    """`words` asked of `side`, with the side named (`SIDE_PREFIX`)."""
    return SIDE_PREFIX.format(side=side) + words


def unsided(prompt: str, side: str) -> str:
    """A prompt without its `SIDE_PREFIX` (as it is when it has none)."""
    return prompt.removeprefix(SIDE_PREFIX.format(side=side))


class _Request:
    """A request's value semantics, as a frozen dataclass would give them (equality, hash and
    repr over its fields), without a dataclass's cost to make: a simulation makes hundreds
    of requests a game, so each is a plain class with a plain `__init__` (issue 19's 1.1x).
    A roll, an event or a turn's start is never changed after it is made (nothing enforces
    it: a frozen class's `__setattr__` would put the cost back); a Choice refuses changes."""

    __slots__ = ()
    _shown: tuple[str, ...] = ()  # the fields' names, in the order `_fields` gives them
    _compared = 0  # how many of them (the first) equality and hash read

    def _fields(self) -> tuple[Any, ...]:
        """The values of the fields `_shown` names."""
        raise NotImplementedError

    def __eq__(self, other: object) -> bool:
        if other.__class__ is not self.__class__ or not isinstance(other, _Request):
            return NotImplemented
        count = self._compared
        return self._fields()[:count] == other._fields()[:count]

    def __hash__(self) -> int:
        return hash(self._fields()[: self._compared])

    def __repr__(self) -> str:
        shown = zip(self._shown, self._fields(), strict=True)
        return f"{type(self).__name__}({', '.join(f'{n}={v!r}' for n, v in shown)})"


class Roll(_Request):
    """Dice the rules need: one face per entry of `dice` (die sizes). `reason` may be given
    as a `Text` (see there)."""

    __slots__ = ("dice", "_reason", "side", "rules", "labels", "owners")
    _shown = ("dice", "reason", "side", "rules", "labels", "owners")
    _compared = 5
    dice: tuple[int, ...]
    _reason: Text
    side: str | None
    rules: tuple[str, ...]
    labels: tuple[str, ...]
    # A roll of no one side (a roll-off between two sides' figures): whose each die is, so
    # that each side's player throws only their own (`engine.dice.apart`). Not logged: the
    # log keeps one roll, as before.
    owners: tuple[str | None, ...]

    def __init__(
        self,
        dice: tuple[int, ...],
        reason: Text,
        side: str | None = None,
        rules: tuple[str, ...] = (),
        labels: tuple[str, ...] = (),
        owners: tuple[str | None, ...] = (),
    ) -> None:
        self.dice = dice
        self._reason = reason
        self.side = side
        self.rules = rules
        self.labels = labels
        self.owners = owners

    def _fields(self) -> tuple[Any, ...]:
        return (self.dice, self.reason, self.side, self.rules, self.labels, self.owners)

    @property
    def reason(self) -> str:
        """The roll's words (read once, then kept)."""
        reason = self._reason
        if not isinstance(reason, str):
            reason = self._reason = reason()
        return reason


@dataclass(frozen=True, slots=True)
class Option:
    """One answer to a `Choice`; `disabled` holds the reason it is not legal now. A `ruling`
    is a call the table makes rather than a move (the GM ends the battle, naming who won):
    legal for a person, never taken by a bot playing to win, which would win by fiat."""

    key: str
    label: str
    disabled: str | None = None
    ruling: bool = False


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


class Choice(_Request):
    """A decision for one side. `default` is the rules' hint (`hint`), always legal, which
    the default bot level plays (bots are policies apart from the rules: `wargame_cli/bots/`);
    it may be given as a function of no arguments, called only when someone asks for it.
    `options` (the menu) may be given the same way, so a menu is built only when a person (or
    a check) needs it.

    `legal(key)` is the one test of an answer: the runner's refusal in play and in replay,
    `--choices`, the bot's suggestion and the menu's disabled reasons all come from it.
    Without `judge` it reads the menu (a key is legal when its option is enabled). With
    `judge` (the reason any key is refused, or None), the judge alone decides, so a replay or
    a bot judges a key without building the menu, and the menu's disabled reasons are the
    judge's own. `free_hint` only says that typing is offered (and what to type); `describe`
    only labels a key without the menu (a replay's, or a typed one the menu lacks).
    `prompt` may be given as a `Text` (see there). Equality and hash leave `judge` and
    `describe` out; a Choice refuses changes, as a frozen dataclass does."""

    # Not slotted: `Lazy` keeps its given function, then its value, in the instance's dict.
    _shown = (
        *("side", "prompt", "options", "default", "rules", "kind", "free_hint", "reasks"),
        *("judge", "describe"),  # not compared
    )
    _compared = 8
    side: str
    prompt: Lazy[str] = Lazy()
    options: Lazy[tuple[Option, ...]] = Lazy()
    default: Lazy[str] = Lazy()
    rules: tuple[str, ...]
    kind: str
    free_hint: str | None
    reasks: bool  # asked through `asked`: answering REASK rebuilds it (an edit)
    judge: Judge | None
    describe: Describe | None

    def __init__(
        self,
        side: str,
        prompt: Text,
        options: tuple[Option, ...] | Thunk[tuple[Option, ...]],
        default: str | Thunk[str],
        rules: tuple[str, ...] = (),
        kind: str = "",
        free_hint: str | None = None,
        judge: Judge | None = None,
        describe: Describe | None = None,
        reasks: bool = False,
    ) -> None:
        if judge is not None:  # the menu says what the judge says (a closure: cheaper to make)
            menu = options
            options = lambda: _judged(menu, judge)  # noqa: E731
        elif free_hint is not None:
            raise TypeError("a choice that takes typed answers needs a judge for them")
        fields = self.__dict__  # past `__setattr__`, which refuses changes
        fields["side"] = side
        fields["_prompt"] = prompt
        fields["_options"] = options
        fields["_default"] = default
        fields["rules"] = rules
        fields["kind"] = kind
        fields["free_hint"] = free_hint
        fields["reasks"] = reasks
        fields["judge"] = judge
        fields["describe"] = describe

    def __setattr__(self, name: str, value: object) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __delattr__(self, name: str) -> None:
        raise FrozenInstanceError(f"cannot delete field {name!r}")

    def _fields(self) -> tuple[Any, ...]:
        return (
            self.side,
            self.prompt,
            self.options,
            self.default,
            self.rules,
            self.kind,
            self.free_hint,
            self.reasks,
            self.judge,
            self.describe,
        )

    @property
    def hint(self) -> str:
        """The rules' suggestion (`default`): always legal. The `default` bot level plays it;
        other policies may read it (`wargame_cli/bots/`), none has to."""
        return self.default

    def legal(self, key: str) -> str | None:
        """Why `key` is not a legal answer, or None when it is."""
        if self.judge is not None:
            return self.judge(key)
        return listed_refusal(self.options, key)

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


def _judged(
    menu: tuple[Option, ...] | Callable[[], tuple[Option, ...]], judge: Judge
) -> tuple[Option, ...]:
    """The menu with each option's disabled reason the judge's."""
    listed = menu() if callable(menu) else menu
    return tuple(Option(o.key, o.label, judge(o.key)) for o in listed)


def listed_refusal(options: Sequence[Option], key: str) -> str | None:
    """Why `key` is refused by a menu alone: its option's disabled reason, or not listed."""
    for option in options:
        if option.key == key:
            return option.disabled
    return f"{key!r} is not one of the options; {legal_keys(tuple(options))}"


def menu_or(options: Sequence[Option], typed: Judge) -> Judge:
    """A judge for a menu built in full that also takes typed answers: a listed key is
    judged as its option says (a disabled one is refused with its reason, even typed), any
    other key by `typed`."""
    by_key = {o.key: o.disabled for o in options}

    def judge(key: str) -> str | None:
        return by_key[key] if key in by_key else typed(key)

    return judge


def legal_keys(options: tuple[Option, ...], shown: int = 12) -> str:
    """What may be answered instead, for a refusal: the open keys (the first `shown`)."""
    keys = [o.key for o in options if o.disabled is None]
    if not keys:
        return "no option is open here"
    more = f", ... ({len(keys)} in all)" if len(keys) > shown else ""
    return f"the open keys are {', '.join(keys[:shown])}{more}"


class Event(_Request):
    """A fact the rules established; `kind` and `data` let reports read it without parsing,
    in the one vocabulary of `engine/events.py` (mypy checks both against it). `text` may be
    given as a `Text` (see there)."""

    __slots__ = ("_text", "rules", "kind", "data")
    _shown = ("text", "rules", "kind", "data")
    _compared = 4
    _text: Text
    rules: tuple[str, ...]
    kind: str
    data: dict[str, Any] | None

    def __init__(
        self,
        text: Text,
        rules: tuple[str, ...] = (),
        kind: Kind = "info",
        data: EventData | None = None,
    ) -> None:
        self._text = text
        self.rules = rules
        self.kind = kind
        # readers look keys up by name; no `cast` call: events are made in a simulation's loop
        self.data = data  # type: ignore[assignment]

    def _fields(self) -> tuple[Any, ...]:
        return (self.text, self.rules, self.kind, self.data)

    @property
    def text(self) -> str:
        """The event's words (read once, then kept)."""
        text = self._text
        if not isinstance(text, str):
            text = self._text = text()
        return text


class TurnStart(_Request):
    """A new game turn; `rules` are the rule points that make one (e.g. a11, a19)."""

    __slots__ = ("number", "rules")
    _shown = ("number", "rules")
    _compared = 2
    number: int
    rules: tuple[str, ...]

    def __init__(self, number: int, rules: tuple[str, ...] = ()) -> None:
        self.number = number
        self.rules = rules

    def _fields(self) -> tuple[Any, ...]:
        return (self.number, self.rules)


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

# The runner answers this to a Choice that `reasks` when a table edit changed the state while
# it was pending: the rules build the question again from the state as it is now (`asked`).
REASK = "\x00reask"

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


def asked(build: Thunk[Choice]) -> Generator[Choice, str, str]:
    """`key = yield from asked(lambda: Choice(..., reasks=True))`: the question, built again
    from the state each time a table edit changes it while it waits (the runner answers
    REASK, which never reaches the rules)."""
    while True:
        question = build()
        if not question.reasks:
            raise TypeError("a choice asked through `asked` is made with reasks=True")
        key = yield question
        if key != REASK:
            return key
