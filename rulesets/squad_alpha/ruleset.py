"""Super Toy Soldier Squad Alpha as a `Ruleset`: options, squads and games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.squad_alpha import squad
from rulesets.squad_alpha.game import SquadGame
from rulesets.squad_alpha.state import new_state
from wargame_cli import versions
from wargame_cli.ruleset import Ruleset, Setup, TeamBuilder, named_if_preset
from wargame_cli.tabletop.scenario import load_options_with_tables

FOLDER = Path(__file__).parent


class SquadAlpha(Ruleset):
    id = "squad-alpha"
    name = "Super Toy Soldier Squad Alpha"
    # 3: moves bend round blocking terrain, no deploying in contact; wording. 4: a typed move
    # or deployment spot is labelled as the menu labels spots. Version 2 is kept (straight
    # moves, contact deployments allowed): `GameState.rules_version`.
    version = "4"
    has_decisions = True
    folder = FOLDER
    team_syntax = (
        "5-10 miniatures separated by commas, each `name training rating` (or "
        '`name:training:rating`): "Sgt Rook elite 4, Hawk regular 2, 3x Trooper conscript 0". '
        "Training is conscript, regular or elite (c/r/e); exactly one miniature must have the "
        "highest rating (the leader). A count prefix adds numbered copies. A squad file "
        '(.toml/.json) holds `name = "..."` and `miniatures = [{name, training, rating}, ...]`.'
    )
    options = load_options_with_tables(FOLDER / "options.toml")

    def units(self) -> list[dict[str, Any]]:
        return [
            {"training": t, "action dice": n, "note": note}
            for (t, n), note in zip(
                squad.TRAINING_DICE.items(),
                ("1 die", "2 dice, any one passing", "3 dice, any one passing"),
                strict=True,
            )
        ]

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        return squad.to_data(squad.parse_inline(text, options))

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        return squad.to_data(squad.from_data(data, options))

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        cat = squad.catalogue()
        name = cat.defaults[side]
        return squad.to_data(squad.validate(list(cat.squad(name)), options)), name

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        return {name: squad.to_data(list(s)) for name, s in squad.catalogue().squads}

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        soldiers = yield from squad.builder(side, options)
        presets = {name: squad.to_data(list(s)) for name, s in squad.catalogue().squads}
        return named_if_preset(squad.to_data(squad.validate(soldiers, options)), presets)

    def describe_team(self, team: Any) -> str:
        soldiers = squad.from_data(team, {"rating_min": -99, "rating_max": 99})
        lead = soldiers[squad.leader_index(soldiers)].name
        return ", ".join(s.describe() + (" [leader]" if s.name == lead else "") for s in soldiers)

    def new_game(self, setup: Setup, options: dict[str, Any]) -> SquadGame:
        squads = {side: squad.from_data(setup.teams[side], options) for side in ("A", "B")}
        state = new_state(setup.names, squads, options)
        state.rules_version = versions.number(self)
        return SquadGame(state)

    def view(self) -> Any:
        from rulesets.squad_alpha import view

        return view


RULESET = SquadAlpha()
