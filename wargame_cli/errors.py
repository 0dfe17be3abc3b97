"""Typed errors. Everything a user can cause is a `BadInput` (exit 2); anything else is a bug."""

from __future__ import annotations


class WargameError(Exception):
    """Base of every error the program raises on purpose."""


class BadInput(WargameError):
    """Input the user can fix: shown as one line on stderr, exit code 2."""


class TeamError(BadInput):
    """A team breaks a limit, names an unknown unit, or cannot be read."""


class OptionError(BadInput):
    """An unknown ruleset option or a value it does not accept."""


class DiceError(BadInput):
    """A die face that does not fit the die it was given for."""


class SaveError(BadInput):
    """A save file that is missing, corrupt, truncated or from a newer version."""


class ReplayDivergence(BadInput):
    """A log that the rules do not reproduce; names the first entry that differs."""

    def __init__(self, index: int, reason: str) -> None:
        super().__init__(f"log entry {index}: {reason}")
        self.index = index
        self.reason = reason


class UnknownRuleset(BadInput):
    """No registered ruleset has that id."""


class NoTerminal(BadInput):
    """A prompt is needed but stdin is not a terminal."""


class Impossible(WargameError):
    """A refused decision; the reason is shown and the same question asked again."""


class Interrupted(WargameError):
    """Ctrl-C, with a word on what became of the game ("nothing was saved"): the boundary
    prints it and exits 130. Not a KeyboardInterrupt, which typer turns into a silent exit."""
