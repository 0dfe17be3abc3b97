"""Pit Fight as a `Ruleset`: fighters from text, a team builder, and the game."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli.engine.requests import Choice, Option
from wargame_cli.ruleset import Ruleset, load_options

FIGHTERS = {"Brawler": 8, "Duelist": 6, "Giant": 12}  # name -> wounds
DEFAULTS = {"A": ("Brawler", "Red Corner"), "B": ("Duelist", "Blue Corner")}


class PitFight(Ruleset):
    id = "pit-fight"
    name = "Pit Fight"
    seed_file = "-"
    summary = "Two fighters in a pit strike, guard or rest until one falls."
    folder = Path(__file__).parent
    # 2: a wound states its damage and a fighter's fall is a `death` event (p3, p4); 1 told
    # neither (its saves replay as they were, under version 1)
    version = "2"
    team_syntax = "One fighter: " + ", ".join(FIGHTERS) + "."

    def read_options(self) -> Any:
        return load_options(self.folder / "options.toml")

    def units(self) -> list[dict[str, Any]]:
        return [{"unit": name, "wounds": wounds} for name, wounds in FIGHTERS.items()]

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        return self.team_from_data({"fighter": text.strip()}, options)

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        from wargame_cli.errors import TeamError

        name = str(data.get("fighter", "")) if isinstance(data, dict) else ""
        found = next((f for f in FIGHTERS if f.lower() == name.lower()), None)
        if found is None:
            raise TeamError(f"unknown fighter {name!r}; choose one of: {', '.join(FIGHTERS)}")
        return {"fighter": found}

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        fighter, name = DEFAULTS[side]
        return {"fighter": fighter}, name

    def build_team(self, side: str, options: dict[str, Any]) -> Any:
        key = yield Choice(
            side,
            "Which fighter?",
            tuple(Option(f, f"{f} ({w} wounds)") for f, w in FIGHTERS.items()),
            default=DEFAULTS[side][0],
        )
        return {"fighter": key}

    def describe_team(self, team: Any) -> str:
        return str(team["fighter"])

    def migrate_entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        """0.1 (version 1) wrote a hit as an `info` event naming attacker and target: today a
        `wound` (the one vocabulary of events), so its old saves replay and verify."""
        data = entry.get("data") or {}
        if entry.get("t") == "event" and entry.get("kind") == "info" and "target" in data:
            return {**entry, "kind": "wound"}
        return entry

    def new_game(self, setup: Any, options: dict[str, Any]) -> Any:
        from wargame_cli import versions
        from wargame_pit_fight.rules import PitGame

        return PitGame(setup, options, versions.number(self))

    def sim_watcher(self) -> Any:
        """`wargame simulate`'s figures per fighter, counted in the one vocabulary of events."""
        from wargame_pit_fight.figures import Watcher

        return Watcher()


RULESET = PitFight()
