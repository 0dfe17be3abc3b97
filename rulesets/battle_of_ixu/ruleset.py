"""The Battle of Ixu as a `Ruleset`: options (declared in `options.toml`) for the seed's gaps,
warbands and games."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from wargame_cli import versions
from wargame_cli.errors import TeamError
from wargame_cli.kit import teamtext
from wargame_cli.ruleset import (
    Carrying,
    FactWatcher,
    Parts,
    Ruleset,
    StatePositions,
    TableEdits,
    load_options,
    named_if_preset,
)

if TYPE_CHECKING:
    from wargame_cli.rulesets.battle_of_ixu.rules import IxuGame

    from wargame_cli.kit.filekeys import Keys
    from wargame_cli.kit.unitstats import Changes
    from wargame_cli.kit.unitstats import Sheet as UnitSheet
    from wargame_cli.ruleset import NamedRoll, OptionSpec, Setup, TeamBuilder

# The rules load when a game needs them: listing the rulesets imports only this module.

RENAMED = (  # what version 1 logged under other names (version 2 renamed them)
    versions.Renamed(2, "move", becomes="stand", when=lambda data: data.get("inches") == 0),
    versions.Renamed(2, "wound", keys={"model": "target", "by": "attacker"}),
)


class BattleOfIxu(StatePositions, Ruleset):
    id = "battle-of-ixu"
    name = "The Battle of Ixu"
    seed_file = "002_5187e8e16bfe3a7c.txt"
    summary = "Skirmish of named gods: experience dice split into movement, combat and defence."
    # 2: order ties, moves and targets worded anew; the bot joins melees. 3: every damaged model
    # takes its c8 check (both falling: a draw); wording. 4: the warbands'
    # bases may not start overlapping across the centre line (c5). Versions 1 and 2 are kept:
    # `IxuState.rules_version`.
    version = "4"
    has_decisions = True
    # the search on 8 samples of the same luck a candidate (common random numbers), leaving
    # the hint for a gain of half a model (bench/README.md, Bot levels)
    search_budget = {"candidates": 4, "samples": 8, "margin": 0.5}
    folder = Path(__file__).parent
    team_syntax = (
        'Models separated by commas, each NAME[:EXPERIENCE[:HEALTH]]: "Tutok:4, Kuote:elite, '
        'Ijoi:3:12" (experience 3/4/5 or inexperienced/regular/elite; regular if left out). '
        'Or a warband\'s name: "Axes", "Swords", "Veterans", "Levy". A team file (.toml/.json) '
        'holds `name = "..."` and `models = [{name, experience, health?, dice?, damage?, at? = '
        '[x, y], pronoun?, ranged? = {range = 6, dice = "combat"}}]` (`dice`: the experience '
        "dice it rolls where changed from its experience's, 3-10, as `simulate --unit "
        "elite.dice=6` changes a whole rating; `damage`: taken before the battle, as a campaign "
        "carries it, c8); a ranged attack (c9) is off unless a team gives it."
        + teamtext.pronoun_help("Kuote:elite")
    )

    def read_options(self) -> tuple[OptionSpec, ...]:
        return load_options(self.folder / "options.toml")

    def units(self) -> list[dict[str, Any]]:
        from wargame_cli.rulesets.battle_of_ixu import teams

        return [
            {"experience": rating, "rating": word, "dice": f"{rating}d (keep 3)"}
            for rating, word in teams.EXPERIENCE.items()
        ]

    def unit_sheet(self) -> UnitSheet:
        """The unit types are the experience ratings (c1): the dice each rolls, its health."""
        from wargame_cli.rulesets.battle_of_ixu import teams

        return teams.sheet()

    def restat(self, team: Any, changes: Changes, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.battle_of_ixu import teams

        return teams.restat(team, changes, options)

    def points_team(self, counts: dict[str, int]) -> str:
        """`Elite 1:elite, Regular 1:regular, ...`: every model named (c1)."""
        return ", ".join(
            f"{rating.title()} {i}:{rating}"
            for rating, n in counts.items()
            for i in range(1, n + 1)
        )

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.battle_of_ixu import teams

        return teams.parse_inline(text, options)

    def spelled_out(self, name: str) -> str:
        return f"a warband of one model alone is written {name}:regular"

    def team_file_keys(self) -> Keys:
        from wargame_cli.rulesets.battle_of_ixu import teams

        return teams.FILE_KEYS

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.battle_of_ixu import teams

        return teams.from_data(data, options)

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        from wargame_cli.rulesets.battle_of_ixu import teams

        cat = teams.catalogue()
        name = cat.defaults[side]
        return teams.validate(cat.warbands[name], options), name

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        from wargame_cli.rulesets.battle_of_ixu import teams

        return dict(teams.catalogue().warbands)

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        from wargame_cli.rulesets.battle_of_ixu import teams

        team = yield from teams.builder(side, options)
        presets = {
            name: teams.validate(models, options)
            for name, models in teams.catalogue().warbands.items()
        }
        return named_if_preset(team, presets)

    def describe_team(self, team: Any) -> str:
        from wargame_cli.rulesets.battle_of_ixu import teams

        return ", ".join(
            f"{m['name']} ({teams.EXPERIENCE[m['experience']]})" for m in team["models"]
        )

    def carrying(self) -> Carrying:
        from wargame_cli.rulesets.battle_of_ixu.campaign import CARRYING

        return CARRYING

    def sim_watcher(self) -> FactWatcher:
        from wargame_cli.rulesets.battle_of_ixu.simfacts import Watcher

        return Watcher()

    def table_edits(self) -> TableEdits:
        from wargame_cli.rulesets.battle_of_ixu import edits

        return TableEdits(edits.USAGE, edits.apply)

    def new_game(self, setup: Setup, options: dict[str, Any]) -> IxuGame:
        from wargame_cli.rulesets.battle_of_ixu.rules import IxuGame
        from wargame_cli.rulesets.battle_of_ixu.state import new_state, overlap_problem

        state = new_state(setup.names, setup.teams, options)
        state.rules_version = versions.number(self)
        if state.rules_version >= 4 and (problem := overlap_problem(state)) is not None:
            raise TeamError(problem)
        return IxuGame(state)

    def game_type(self) -> type[IxuGame]:
        from wargame_cli.rulesets.battle_of_ixu.rules import IxuGame

        return IxuGame

    def migrate_entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        return versions.migrated(entry, versions.number(self), RENAMED)

    def named_rolls(self, options: dict[str, Any]) -> tuple[NamedRoll, ...]:
        from wargame_cli.rulesets.battle_of_ixu import rolls

        return rolls.named_rolls(options)

    def parts(self) -> Parts:
        from wargame_cli.rulesets.battle_of_ixu import picture, story, view

        return Parts(view.VIEW, story.Teller, picture.picture)


RULESET = BattleOfIxu()
