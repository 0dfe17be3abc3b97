"""The Battle of Ixu as a `Ruleset`: options for the seed's gaps, warbands and games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.battle_of_ixu import warband
from rulesets.battle_of_ixu.rules import IxuGame
from rulesets.battle_of_ixu.state import new_state
from wargame_cli.ruleset import OptionSpec, Ruleset, Setup, TeamBuilder


class BattleOfIxu(Ruleset):
    id = "battle-of-ixu"
    name = "The Battle of Ixu"
    version = "1"
    has_decisions = True
    folder = Path(__file__).parent
    team_syntax = (
        'Models separated by commas, each NAME[:EXPERIENCE[:HEALTH]]: "Tutok:4, Kuote:elite, '
        'Ijoi:3:12" (experience 3/4/5 or inexperienced/regular/elite; regular if left out). '
        'Or a warband\'s name: "Axes", "Swords", "Veterans", "Levy". A team file (.toml/.json) '
        'holds `name = "..."` and `models = [{name, experience, health?, at? = [x, y]}]`.'
    )
    options = (
        OptionSpec(
            "health",
            10,
            "health points of each model (a team may set its own)",
            rule="c7",
            minimum=1,
            maximum=99,
        ),
        OptionSpec(
            "die",
            6,
            "sides of the experience and combat dice",
            choices=(4, 6, 8, 10, 12),
            rule="c2",
        ),
        OptionSpec("width", 24.0, "field width, inches", rule="c5", minimum=6, maximum=120),
        OptionSpec("height", 24.0, "field depth, inches", rule="c5", minimum=6, maximum=120),
        OptionSpec(
            "base", 0.75, "base diameter, inches (pennies)", rule="c6", minimum=0.25, maximum=4
        ),
        OptionSpec(
            "deploy",
            2.0,
            "how far from its own edge a warband lines up, inches",
            rule="c5",
            minimum=0.5,
            maximum=24,
        ),
        OptionSpec(
            "order_ties",
            "reroll",
            "equal order d10s: re-roll among the tied, or higher experience first (then re-roll)",
            choices=("reroll", "experience"),
            rule="c4",
        ),
        OptionSpec(
            "max_turns",
            50,
            "safety cap on turns; then most models standing wins",
            rule="c3",
            minimum=1,
            maximum=1000,
        ),
    )

    def units(self) -> list[dict[str, Any]]:
        return [
            {"experience": rating, "rating": word, "dice": f"{rating}d (keep 3)"}
            for rating, word in warband.EXPERIENCE.items()
        ]

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        return warband.parse_inline(text, options)

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        return warband.from_data(data, options)

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        cat = warband.catalogue()
        name = cat.defaults[side]
        return warband.validate(cat.warbands[name], options), name

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        return (yield from warband.builder(side, options))

    def describe_team(self, team: Any) -> str:
        return ", ".join(
            f"{m['name']} ({warband.EXPERIENCE[m['experience']]})" for m in team["models"]
        )

    def new_game(self, setup: Setup, options: dict[str, Any]) -> IxuGame:
        return IxuGame(new_state(setup.names, setup.teams, options))

    def view(self) -> Any:
        from rulesets.battle_of_ixu import view

        return view


RULESET = BattleOfIxu()
