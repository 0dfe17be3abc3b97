"""Tug of WarGods told as a story (the report's hook): each pull, each stalemate and each model
dragged over the line; the aftermath lists the crossings, since nobody dies in a tug of war.
In the brief style a run of stalemates is one line (`fact`: a tie is a lull)."""

from __future__ import annotations

from typing import Any

from wargame_cli.rulesets.tug_of_wargods.teams import told_apart

from wargame_cli.kit import pronouns
from wargame_cli.kit.sides import SIDES, other
from wargame_cli.report import voice as v
from wargame_cli.report.hooks import Teller as BaseTeller
from wargame_cli.report.reading import Line
from wargame_cli.report.scenes import LULL, Fact

PULLS = (
    "{w} heaves {l} {d} toward the line",
    "{w} drags {l} {d}",
    "{w} hauls {l} {d} closer to the line",
    "{w} yanks {l} forward {d}",
    "{w} wins the pull and gains {d} on {l}",
)
TIES = (
    "The teams strain, and neither gives an inch",
    "A stalemate: the rope does not move",
    "Both sides dig in; nothing moves",
)
CROSSES = (
    "{t}'s {m} is dragged across the centre line",
    "{t}'s {m} loses {mp} footing and stumbles over the line",
    "{t}'s {m} is pulled across, {mp} heels scraping the dirt",
    "{t}'s {m} digs {mp} heels in, but is dragged over the line",
)
AGAIN = ("{t}'s {m} is dragged across the line once more, for all {mp} straining",)


class Teller(BaseTeller):
    tally_kinds = frozenset({"cross"})
    tally_title = "Pulled across the centre line, in order:"
    no_tally = "No one was pulled across the centre line."
    quiet = ("the rope does not move", "neither team gives an inch", "both teams dig in")

    def __init__(self, save: dict[str, Any], voice: v.Voice) -> None:
        super().__init__(save, voice)
        setup = save.get("setup", {})
        self.models = {}
        for side in SIDES:
            team = setup.get("teams", {}).get(side) or {}
            self.models[side] = team.get("models", []) if isinstance(team, dict) else []

    def tell(self, kind: str, data: dict[str, Any], text: str) -> str | None:
        say = self.voice.say
        if kind == "pull":
            winner = str(data.get("winner", ""))
            loser = other(winner) if winner in SIDES else ""
            return say(
                PULLS,
                w=self.sides.get(winner, "?"),
                l=self.sides.get(loser, "?"),
                d=v.inches(data.get("inches")),
            )
        if kind == "tie":
            return say(TIES)
        if kind == "cross":
            side = str(data.get("side", ""))
            models = self.models.get(side, [])
            index = data.get("model")
            unit, model = "?", "?"
            if isinstance(index, int) and 0 <= index < len(models):
                unit, model = models[index], told_apart(models, side, index)
            pool = AGAIN if int(data.get("crossings", 1)) > 1 else CROSSES
            said = (self.save.get("setup", {}).get("teams", {}).get(side) or {}).get("pronouns")
            p = pronouns.of(said.get(unit)) if isinstance(said, dict) else pronouns.THEY
            # its own team's pronoun: the other team's Asar may be someone else
            return say(pool, t=self.sides.get(side, "?"), m=model, mp=p.possessive)
        return text

    def fact(self, line: Line) -> Fact | None:
        """A stalemate is a lull: two or more in a row are one line in the brief style."""
        return Fact(LULL) if line.kind == "tie" else None
