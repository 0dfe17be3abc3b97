"""The shared part of a campaign's `Carrying` (`wargame_cli/ruleset.py`) for a ruleset whose
team is a list of named entries (`{"models": [...]}`, `{"miniatures": [...]}`): each entry
becomes a roster figure by its name, the ready figures are mustered back into that list,
and the kills of a battle are read from its events (`engine/events.Blows`)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from wargame_cli.engine.events import Blows
from wargame_cli.errors import TeamError
from wargame_cli.ruleset import Carrying, Figure, Finished, Roster


class NamedFigures(Carrying):
    """Figures named by their team entries. `members`: the team form's list key;
    `carried`: entry keys the roster keeps as the figure's state, not as its entry (an Ixu
    model's `damage`), put back by `entry_for` when it is mustered."""

    members = "models"
    carried: tuple[str, ...] = ()

    def enlist(
        self,
        roster: Roster,
        team: Any,
        battle: int,
        options: dict[str, Any],
        name: str | None = None,
    ) -> Roster:
        figures = list(roster.figures)
        for entry in team[self.members]:
            called = str(entry["name"])
            if any(f.name.casefold() == called.casefold() for f in figures):
                raise TeamError(f"{called} is on the roster already: a recruit needs a new name")
            kept = {k: v for k, v in entry.items() if k not in self.carried}
            figures.append(Figure(name=called, entry=kept, joined=battle, **self.joined(entry)))
        return Roster(figures, dict(roster.extra))

    def joined(self, entry: dict[str, Any]) -> dict[str, Any]:
        """What a recruit brings of its carried state (its `wounds`). Default: nothing."""
        return {}

    def entry_for(self, figure: Figure, options: dict[str, Any]) -> dict[str, Any]:
        """A ready figure's team entry for the next battle. Default: its entry as kept."""
        return dict(figure.entry)

    def muster(self, roster: Roster, battle: int, options: dict[str, Any]) -> Any:
        ready = roster.ready()
        if not ready:
            raise TeamError("no figure on the roster can fight: recruit with --team-a/--team-b")
        return {self.members: [self.entry_for(f, options) for f in ready]}

    def fought(self, finished: Finished, side: str) -> list[str]:
        """The figures of `side` who fought the battle, in their team's order."""
        return [str(e["name"]) for e in finished.teams[side][self.members]]


def blows(finished: Finished) -> Blows:
    """Who hurt and who finished whom in a battle, by the names its events use."""
    seen = Blows()
    for event in finished.events:
        seen.event(event["kind"], event["data"])
    return seen


def kills(finished: Finished, names: dict[str, str]) -> Counter[str]:
    """Each figure's kills in a battle: `names` maps a game's name for a figure (which may
    carry its side's name where both sides share one) to its roster name."""
    out: Counter[str] = Counter()
    for name, count in blows(finished).kills.items():
        if name in names:
            out[names[name]] += count
    return out
