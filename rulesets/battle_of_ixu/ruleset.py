"""The Battle of Ixu as a `Ruleset`: options (declared in `options.toml`) for the seed's gaps,
warbands and games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.battle_of_ixu import warband
from rulesets.battle_of_ixu.rules import IxuGame
from rulesets.battle_of_ixu.state import new_state
from wargame_cli import versions
from wargame_cli.ruleset import Ruleset, Setup, TeamBuilder, load_options, named_if_preset


class BattleOfIxu(Ruleset):
    id = "battle-of-ixu"
    name = "The Battle of Ixu"
    # 2: order ties, moves and targets worded anew; the bot joins melees. 3: every damaged model
    # takes its c8 check (both falling: a draw); wording. Version 2 is kept:
    # `IxuState.rules_version`.
    version = "3"
    has_decisions = True
    folder = Path(__file__).parent
    team_syntax = (
        'Models separated by commas, each NAME[:EXPERIENCE[:HEALTH]]: "Tutok:4, Kuote:elite, '
        'Ijoi:3:12" (experience 3/4/5 or inexperienced/regular/elite; regular if left out). '
        'Or a warband\'s name: "Axes", "Swords", "Veterans", "Levy". A team file (.toml/.json) '
        'holds `name = "..."` and `models = [{name, experience, health?, at? = [x, y]}]`.'
    )
    options = load_options(Path(__file__).with_name("options.toml"))

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

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        return dict(warband.catalogue().warbands)

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        team = yield from warband.builder(side, options)
        presets = {
            name: warband.validate(models, options)
            for name, models in warband.catalogue().warbands.items()
        }
        return named_if_preset(team, presets)

    def describe_team(self, team: Any) -> str:
        return ", ".join(
            f"{m['name']} ({warband.EXPERIENCE[m['experience']]})" for m in team["models"]
        )

    def new_game(self, setup: Setup, options: dict[str, Any]) -> IxuGame:
        state = new_state(setup.names, setup.teams, options)
        state.rules_version = versions.number(self)
        return IxuGame(state)

    def view(self) -> Any:
        from rulesets.battle_of_ixu import view

        return view


RULESET = BattleOfIxu()
