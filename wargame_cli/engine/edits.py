"""Table edits: a side's owner or the GM changes the game between two requests of the rules.

An edit is a log entry of its own (`"t": "edit"`), sealed by the hash chain like every entry,
with who made it and why. The runner applies it where it stands: `end` (the battle ends with
a declared winner) and `die` (a die corrected to the face really thrown) are the engine's;
every other action is the ruleset's (`Ruleset.apply_edit`), which changes its state and says
what changed in one line, or refuses with a reason. A question pending when the state changes
is asked again, built afresh, where the ruleset made it with `reasks=True` (see
`requests.REASK`); a table edit at any other question is refused.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from wargame_cli.engine.entries import EditEntry
from wargame_cli.errors import BadInput
from wargame_cli.invoked import command

# Every action an edit can take, in the order `wargame edit --help` lists them.
ACTIONS = ("damage", "heal", "move", "remove", "add", "status", "end", "die")
ENGINE_ACTIONS = ("end", "die")  # the engine's own: every ruleset takes them
AFTER = "after_battle"  # an `end` edit's data: the rules' after-battle steps follow it
WHO = ("GM", "A", "B")  # who edits: the game master, or a side's owner
T = TypeVar("T")  # what `find` finds
S = TypeVar("S")  # a ruleset's state


class EditRefused(BadInput):
    """An edit the game cannot take now: a figure that does not exist, a spot off the table,
    a face the die cannot show... One line, and nothing is changed."""


@dataclass(frozen=True)
class Edit:
    """One table edit: `action` with its words (`args`, as typed after the action), by whom
    ("GM", "A" or "B") and why."""

    action: str
    args: tuple[str, ...] = ()
    by: str = "GM"
    why: str = ""
    data: dict[str, Any] = field(default_factory=dict)  # the engine's own facts (a die's)

    @property
    def credit(self) -> str:
        """Who brought the edit's change about in the story (a `credit=NAME` word), or ""."""
        named = self.data.get(CREDIT)
        return named if isinstance(named, str) else ""

    def entry(self, text: str) -> EditEntry:
        """Its log entry, with the ruleset's line saying what changed."""
        entry: EditEntry = {
            "t": "edit",
            "action": self.action,
            "args": list(self.args),
            "by": self.by,
            "why": self.why,
            "text": text,
        }
        if self.data:
            entry["data"] = dict(self.data)
        return entry

    def word(self, index: int) -> str:
        """The `index`th word after the action, or a refusal naming what is missing."""
        if index >= len(self.args):
            raise EditRefused(f"edit {self.action}: {usage(self.action)}")
        return self.args[index]

    def number(self, index: int, what: str, low: int = 1) -> int:
        """A whole number among the words, at least `low`."""
        from wargame_cli.text import whole_number

        text = self.word(index)
        value = whole_number(text)
        if value is None:
            raise EditRefused(f"edit {self.action}: {what} {text!r} is not a whole number")
        if value < low:
            raise EditRefused(f"edit {self.action}: {what} must be at least {low}, not {value}")
        return value


def find(
    name: str,
    named: dict[str, T],
    what: str,
    edit: Edit,
    shown: Sequence[str],
    gone: Callable[[T], str | None],
) -> T:
    """The one of `named` (keyed by each of its names, in lower case) that `name` names,
    or a refusal listing `shown` (those there are); `gone`: why it cannot be edited now (off
    the table), or None."""
    found = named.get(name.strip().lower())
    if found is None:
        listed = ", ".join(shown) or "none"
        raise EditRefused(f"edit {edit.action}: no {what} {name!r}; there are: {listed}")
    if (why := gone(found)) is not None:
        raise EditRefused(f"edit {edit.action}: {why}")
    return found


def health_change(edit: Edit, left: int, taken: int, who: str) -> int:
    """The damage a `damage N` edit deals (+, at most what is `left`) or a `heal N` edit
    heals (-, at most what was `taken`, and refused with none to heal)."""
    if edit.action == "heal":
        if taken == 0:
            raise EditRefused(f"edit heal: {who} has no damage to heal")
        return -min(edit.number(1, "the healing"), taken)
    return min(edit.number(1, "the damage"), left)


def act(acts: Mapping[str, Callable[[S, Edit], str]], state: S, edit: Edit) -> str:
    """A ruleset's `apply`: the function for the edit's action, on the state."""
    return acts[edit.action](state, edit)


USAGE = {
    "damage": "damage FIGURE N (deal N damage)",
    "heal": "heal FIGURE N (heal N damage)",
    "move": "move FIGURE X,Y (place it there, anywhere legal on the table)",
    "remove": "remove FIGURE [HOW] (killed, fled, captured... as the ruleset knows them)",
    "add": "add SIDE PROFILE [X,Y] (a figure from the team's catalogue)",
    "status": "status WHO VALUE (a status the ruleset has)",
    "end": "end WINNER REASON... (WINNER: A, B or draw)",
    "die": "die N FACE (the Nth die rolled, from 1: `{replay}`)",
}


def usage(action: str) -> str:
    return "usage: " + USAGE.get(action, action).replace("{replay}", command("replay SAVE --dice"))


def check_words(edit: Edit, line: str) -> None:
    """Refuse a word past those the action's usage `line` takes (`remove CREATURE [HOW]`
    takes two; a slot written `NAME...` any number), naming it: a stray word is never
    ignored."""
    import re

    slots = re.sub(r"\s*\(.*\)\s*$", "", line).split()[1:]  # "(…)" at the end explains
    if any(slot.rstrip("]").endswith("...") for slot in slots):
        return
    args, _ = split_credit(edit.args)  # a `credit=NAME` word is the story's, not the action's
    if len(args) > len(slots):
        stray = args[len(slots)]
        raise EditRefused(f"edit {edit.action}: {stray!r} is a word too many (usage: {line})")


CREDIT = "credit"  # the word (`credit=NAME`) and the data key naming who brought it about


def split_credit(words: Sequence[str]) -> tuple[tuple[str, ...], str]:
    """The words without a `credit=NAME` word, and the name it gives ("" when none): the
    figure the story credits with what the edit did ("Kuote falls, at Tuze's hands"). The
    ruleset never sees the word; the log keeps the name in the edit's `data`."""
    kept: list[str] = []
    named = ""
    for word in words:
        key, sep, value = word.partition("=")
        if sep and key.strip().lower() == CREDIT:
            if not value.strip():
                raise EditRefused("edit: credit=NAME names who brought the change about")
            named = value.strip()
        else:
            kept.append(word)
    return tuple(kept), named


def from_entry(entry: dict[str, Any]) -> Edit:
    """The edit a log entry records (checked as the rules apply it), or an edit token's: a
    `credit=NAME` word among its words goes to its data."""
    args = entry.get("args")
    data = entry.get("data")
    words, named = split_credit([str(a) for a in args] if isinstance(args, list) else [])
    facts = dict(data) if isinstance(data, dict) else {}
    if named:
        facts[CREDIT] = named
    return Edit(
        action=str(entry.get("action")),
        args=words,
        by=str(entry.get("by", "GM")),
        why=str(entry.get("why", "")),
        data=facts,
    )


MAX_WORD = 80  # a figure's name, a spot, a stat: an edit's word is short
MAX_WHY = 300  # a sentence or two


def typed_problem(action: str, words: Sequence[str], by: str, why: str) -> str | None:
    """Why an edit's fields, as typed, cannot be kept: each is checked as a name is (no
    control character, newline or terminal escape; only UTF-8) and for its length. None:
    they may go in the log."""
    fields = [("the action", action, MAX_WORD), ("--by", by, MAX_WORD)]
    fields += [("the word", word, MAX_WORD) for word in words]
    for what, text, most in [*fields, ("--why", why, MAX_WHY)]:
        if problem := _field_problem(text, most):
            return f"{what} {text[:40]!r}: {problem}"
    return None


def _field_problem(text: str, most: int) -> str | None:
    from wargame_cli.text import control_problem

    if problem := control_problem(text):
        return problem
    return f"at most {most} characters" if len(text) > most else None


def parse(action: str, words: Sequence[str], by: str, why: str) -> Edit:
    """An edit from the command line (`wargame edit SAVE ACTION WORDS... --by --why`)."""
    if problem := typed_problem(action, words, by, why):
        raise EditRefused(f"edit: {problem}")
    action = action.strip().lower()
    if action not in ACTIONS:
        raise EditRefused(f"edit {action!r}: the actions are {', '.join(ACTIONS)}")
    who = by.strip().upper()
    if who not in WHO:
        raise EditRefused(f"--by {by!r}: GM, A or B (a side's owner)")
    if not why.strip():
        raise EditRefused("--why: say why the table is edited (it goes in the log)")
    kept, named = split_credit([w.strip() for w in words if w.strip()])
    if named and action in ENGINE_ACTIONS:
        raise EditRefused(f"edit {action}: credit=NAME is for an edit that changes a figure")
    return Edit(action, kept, who, why.strip(), {CREDIT: named} if named else {})


TOKEN = "\x00edit:"  # a controller's answer carrying an edit made at the question ("Table…")


def token(edit: Edit) -> str:
    """The answer a controller gives to make `edit` at the question it is asked."""
    import json

    told: dict[str, Any] = {"action": edit.action, "args": list(edit.args), "by": edit.by}
    told["why"] = edit.why
    if edit.credit:
        told["data"] = {CREDIT: edit.credit}
    return TOKEN + json.dumps(told)


def is_token(key: str) -> bool:
    return key.startswith(TOKEN)


def from_token(key: str) -> Edit:
    import json

    return from_entry(json.loads(key.removeprefix(TOKEN)))


def end_winner(edit: Edit) -> tuple[str | None, str]:
    """The winner (None: a draw) and reason an `end` edit declares."""
    who = edit.word(0).upper()
    if who not in ("A", "B", "DRAW"):
        raise EditRefused(f"edit end: the winner is A, B or draw, not {edit.args[0]!r}")
    reason = " ".join(edit.args[1:]).strip()
    if not reason:
        raise EditRefused(f"edit end: {usage('end')}")
    return (None if who == "DRAW" else who), reason


def edit_words(entry: Mapping[str, Any], names: Mapping[str, str] | None = None) -> str:
    """ "by the GM: Brakka takes 2 damage (why)": who, what changed, and why (`names`: a
    side's owner by the side's name)."""
    from wargame_cli.text import visible

    who = str(entry.get("by", "GM"))
    maker = "the GM" if who == "GM" else (names or {}).get(who, f"side {who}")
    why = entry.get("why")
    told = f"by {maker}: {entry.get('text')}" + (f" ({why})" if why else "")
    return visible(told)  # an older save's words may hold escapes: shown, never acted on
