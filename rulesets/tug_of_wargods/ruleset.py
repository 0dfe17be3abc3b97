"""Tug of WarGods as a `Ruleset`: options, teams and games."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from wargame_cli.kit.teamtext import counts_help, pronoun_help, pronouns_by_name, spoken
from wargame_cli.ruleset import (
    Carrying,
    ExactPoints,
    ExactSpread,
    Parts,
    Ruleset,
    StatePositions,
    load_options,
    named_if_preset,
)

if TYPE_CHECKING:
    from wargame_cli.rulesets.tug_of_wargods.rules import TugGame, Win

    from wargame_cli.engine.requests import Outcome
    from wargame_cli.kit.filekeys import Keys
    from wargame_cli.kit.unitstats import Changes
    from wargame_cli.kit.unitstats import Sheet as UnitSheet
    from wargame_cli.ruleset import Below, NamedRoll, OptionSpec, Played, Setup, TeamBuilder

# The rules load when a game needs them: listing the rulesets imports only this module.


class TugOfWarGods(StatePositions, Ruleset):
    id = "tug-of-wargods"
    name = "Tug of WarGods v0.75"
    seed_file = "000_eaa62a6788245757.txt"
    summary = "A dice tug of war: three WarGods a side pull each other across a centre line."
    version = "2"  # 2: wording (a team name ending in s takes an apostrophe alone)
    has_decisions = False
    folder = Path(__file__).parent
    team_syntax = (
        'Three unit names, front of the column first, separated by commas: "Sebeki,Asar,Asar" or '
        '"2 Asar, Sebeki". A Greek the list does not name (a7\'s "other Greeks") is written '
        '"Greek:NAME": "Greek:Myrmidon, Asar, Asar". '
        + counts_help("Asar")
        + ' A team file (.toml/.json) holds `name = "..."` and `models = [...]`, and may '
        'hold `pronouns = { Asar = "he" }`.' + pronoun_help("Asar")
    )

    def read_options(self) -> tuple[OptionSpec, ...]:
        return load_options(self.folder / "options.toml")

    def units(self) -> list[dict[str, Any]]:
        from wargame_cli.rulesets.tug_of_wargods import teams

        cat = teams.catalogue()
        return [
            {
                "unit": u.name,
                "die": f"d{u.die}",
                "limit": f"0-{cat.tier_limits.get(u.die, 3)}",
                "line": u.line,
            }
            for u in cat.units.values()
        ]

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.tug_of_wargods import teams

        plain, said = spoken(text)
        team: dict[str, Any] = {"models": teams.parse_inline(plain, options)}
        if said:  # for the battle report only: the rules read `models`
            team["pronouns"] = {teams.catalogue().lookup(n).name: p for n, p in said}
        return team

    def team_file_keys(self) -> Keys:
        from wargame_cli.rulesets.tug_of_wargods import teams

        return teams.FILE_KEYS

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.tug_of_wargods import teams

        team: dict[str, Any] = {"models": teams.from_data(data, options)}
        said = pronouns_by_name(data.get("pronouns") if isinstance(data, dict) else None)
        if said:
            team["pronouns"] = said
        return team

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        from wargame_cli.rulesets.tug_of_wargods import teams

        cat = teams.catalogue()
        name = cat.defaults[side]
        return {"models": teams.validate(list(cat.example(name)), options)}, name

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        from wargame_cli.rulesets.tug_of_wargods import teams

        return {name: {"models": list(models)} for name, models in teams.catalogue().examples}

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        from wargame_cli.rulesets.tug_of_wargods import teams

        models = yield from teams.builder(side, options)
        presets = {
            name: {"models": list(picked)}
            for name, picked in teams.catalogue().examples
            if not name.startswith("Team Example")  # the seed's unnamed examples
        }
        return named_if_preset({"models": teams.validate(models, options)}, presets)

    def describe_team(self, team: Any) -> str:
        from wargame_cli.rulesets.tug_of_wargods import teams

        cat = teams.catalogue()
        return ", ".join(
            m if cat.unit(m).base else f"{m} (d{cat.unit(m).die})" for m in team["models"]
        )

    def unit_sheet(self) -> UnitSheet:
        from wargame_cli.rulesets.tug_of_wargods import teams

        return teams.sheet()

    def restat(self, team: Any, changes: Changes, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.tug_of_wargods import teams

        models = teams.validate(teams.restat(team["models"], changes), options)
        return {**team, "models": models}

    def points_sizes(self) -> tuple[int, ...]:
        from wargame_cli.rulesets.tug_of_wargods import teams

        return (teams.TEAM_SIZE,)  # a1: exactly three models

    def exact_points(self, options: dict[str, Any], changes: Changes) -> ExactPoints:
        from wargame_cli.rulesets.tug_of_wargods import odds

        return odds.exact_points(options, changes)

    def new_game(self, setup: Setup, options: dict[str, Any]) -> TugGame:
        from wargame_cli.rulesets.tug_of_wargods import teams
        from wargame_cli.rulesets.tug_of_wargods.rules import TugGame, new_state

        models = {side: setup.teams[side]["models"] for side in ("A", "B")}
        dice = teams.dice_for([*models["A"], *models["B"]])
        return TugGame(new_state(setup.names, models, dice, options))

    def game_type(self) -> type[TugGame]:
        from wargame_cli.rulesets.tug_of_wargods.rules import TugGame

        return TugGame

    def fast_games(self, setup: Setup, options: dict[str, Any], below: Below) -> Iterator[Played]:
        """Simulation hook: `fast_play` game after game on one state, redeployed each time."""
        from wargame_cli.rulesets.tug_of_wargods.rules import fast_games, outcome_of

        outcomes: dict[Win, Outcome] = {}  # a handful of distinct endings: made once each
        for win, turns in fast_games(self.new_game(setup, options).state, below):
            outcome = outcomes.get(win)
            if outcome is None:
                outcome = outcomes[win] = outcome_of(win)
            yield outcome, turns

    def carrying(self) -> Carrying:
        from wargame_cli.rulesets.tug_of_wargods.campaign import CARRYING

        return CARRYING

    def exact_spread(self, team_a: Any, team_b: Any, options: dict[str, Any]) -> ExactSpread:
        from wargame_cli.rulesets.tug_of_wargods.spread import exact_spread

        return exact_spread(team_a, team_b, options)

    def named_rolls(self, options: dict[str, Any]) -> tuple[NamedRoll, ...]:
        from wargame_cli.rulesets.tug_of_wargods import rolls

        return rolls.named_rolls(lambda spec: self.load_team(spec, options)[0])

    def parts(self) -> Parts:
        from wargame_cli.rulesets.tug_of_wargods import odds, picture, story, view

        return Parts(view.VIEW, story.Teller, picture.picture, picture.chance, odds)


RULESET = TugOfWarGods()
