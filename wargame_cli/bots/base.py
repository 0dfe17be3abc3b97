"""The policy interface, the controller that plays one, and the levels by name."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from wargame_cli.engine.drive import IllegalSuggestion
from wargame_cli.engine.requests import Choice
from wargame_cli.errors import BadInput

if TYPE_CHECKING:
    from wargame_cli.engine.session import Session
    from wargame_cli.ruleset import Ruleset

DEFAULT, RANDOM, SEARCH = "default", "random", "search"
LEVELS = (DEFAULT, RANDOM, SEARCH)


class UnknownLevel(BadInput):
    """A `--bot-level` no policy answers to."""


class Policy(Protocol):
    """Picks a legal key for `choice`; `session` is the game where it stands (None while no
    game exists yet: team building), read only through clones."""

    def choose(self, choice: Choice, session: Session | None) -> str: ...


PolicyMaker = Callable[["Ruleset"], Policy]


def open_keys(choice: Choice) -> list[str]:
    """The menu's legal keys a bot may take: a typed-only answer is never invented, and a
    table's ruling (`Option.ruling`) is never taken."""
    return [o.key for o in choice.options if o.disabled is None and not o.ruling]


def draws(session: Session | None, purpose: str, side: str) -> random.Random:
    """A generator of a policy's own draws for one decision: from the game's seed, the
    decision's place in the log and the purpose, so a game (or a resumed one) plays the same
    choices again, and the game's dice stream is never touched."""
    if session is None:
        return random.Random(f"{purpose}/{side}")
    return random.Random(f"{purpose}/{session.seed}/{side}/{len(session.runner.log)}")


class PolicyController:
    """A runner's controller playing a policy; `bind` gives it the game once it exists.
    Made with a level and no policy (a remote side, set up before its ruleset is known), the
    policy is the ruleset's for that level once bound; until then it takes the hint."""

    by = "bot"

    def __init__(self, policy: Policy | None, level: str = DEFAULT) -> None:
        self.policy = policy
        self.level = level
        self.session: Session | None = None

    def bind(self, session: Session) -> None:
        self.session = session
        if self.policy is None:
            self.policy = policy_for(session.ruleset, self.level)

    def choose(self, choice: Choice, game: Any) -> str:
        if self.policy is None:
            return choice.hint
        session = self.session if self.session is not None and game is not None else None
        return self.policy.choose(choice, session)

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise IllegalSuggestion(f"the {self.level} bot chose an illegal answer {key!r}: {reason}")


def checked_level(level: str | None) -> str:
    """A `--bot-level` for one side (remote play), checked before any game: one of LEVELS."""
    chosen = (level or DEFAULT).strip().lower()
    if chosen not in LEVELS:
        raise UnknownLevel(f"--bot-level {level!r}: the computer plays {', '.join(LEVELS)}")
    return chosen


def policies() -> dict[str, PolicyMaker]:
    """The levels every ruleset offers (`Ruleset.bot_policies`)."""
    from wargame_cli.bots import hint, random_pick, search

    return {DEFAULT: hint.make, RANDOM: random_pick.make, SEARCH: search.make}


def policy_for(ruleset: Ruleset, level: str | None) -> Policy:
    """The policy playing `level` (None: the ruleset's default) for `ruleset`."""
    offered = ruleset.bot_policies()
    chosen = level or ruleset.default_bot_level
    if chosen not in offered:
        raise UnknownLevel(f"--bot-level {chosen!r}: the computer plays {', '.join(offered)} here")
    return offered[chosen](ruleset)


def controller(ruleset: Ruleset, level: str | None = None) -> PolicyController:
    """A controller playing `level` for `ruleset` (bound to its game by `session.start`)."""
    return PolicyController(policy_for(ruleset, level), level or ruleset.default_bot_level)


def levels_of(
    spec: str | None,
    ruleset: Ruleset,
    players: dict[str, str],
    recorded: dict[str, str] | None = None,
) -> dict[str, str]:
    """Each computer-played side's level from `--bot-level` ("search", or per side
    "A=search,B=default"), else as the save recorded it (`recorded`), else the ruleset's
    default. Only sides the computer plays are named; a level no policy plays is refused."""
    given: dict[str, str] = {}
    if spec is not None:
        for part in (p.strip() for p in spec.split(",") if p.strip()):
            side, sep, level = part.partition("=")
            if not sep:
                given.update({s: part.lower() for s in ("A", "B")})
            elif side.strip().upper() in ("A", "B"):
                given[side.strip().upper()] = level.strip().lower()
            else:
                raise UnknownLevel(f"--bot-level {spec!r}: a side is A or B (A=search,B=default)")
        if not given:
            raise UnknownLevel(f"--bot-level {spec!r}: name a level ({', '.join(LEVELS)})")
    offered = ruleset.bot_policies()
    out: dict[str, str] = {}
    for side, player in players.items():
        if player != "bot":
            continue
        level = given.get(side) or (recorded or {}).get(side) or ruleset.default_bot_level
        if level not in offered:
            raise UnknownLevel(
                f"--bot-level {level!r}: the computer plays {', '.join(offered)} here"
            )
        out[side] = level
    return out


def computer_words(setup: dict[str, Any], side: str) -> str:
    """How a save's setup names the computer playing `side`: "computer", or with its level
    where it is not the default ("computer, search level")."""
    level = (setup.get("bots") or {}).get(side)
    return f"computer, {level} level" if level and level != DEFAULT else "computer"
