"""The command that plays one simulated game again: every game of a run plays on a seed of
its own (`engine/fast.stream_seed(run seed, index)`), and `wargame play ID --no-input --seed
S` with the same options, unit changes, teams and bot levels plays that very game (the same
dice, the same bots' answers). `--csv` and `--out` give it on every game's row. Pure."""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from wargame_cli.kit.sides import SIDES

SEED = "{seed}"  # where a game's own seed goes in a recipe's template


@dataclass(frozen=True)
class Recipe:
    """What a job's games were played with, as `wargame play` takes it: `--option` and
    `--unit` items (later ones win, as in play), each side's team as given (None: the
    ruleset's default, which play takes too) and the `--bot-level` text."""

    ruleset_id: str
    options: Sequence[str] = ()
    units: Sequence[str] = ()
    teams: Mapping[str, str | None] = field(default_factory=dict)
    bot_level: str | None = None

    def template(self) -> str:
        words = ["wargame", "play", self.ruleset_id, "--no-input", "--seed", SEED]
        for item in self.options:
            words += ["--option", item]
        for item in self.units:
            words += ["--unit", item]
        for side in SIDES:
            spec = self.teams.get(side)
            if spec is not None:
                words += [f"--team-{side.lower()}", spec]
        if self.bot_level is not None:
            words += ["--bot-level", self.bot_level]
        return " ".join(w if w == SEED else shlex.quote(w) for w in words)

    def command(self, seed: int) -> str:
        return self.template().replace(SEED, str(seed))
