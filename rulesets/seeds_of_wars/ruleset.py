"""Seeds of Wars as a `Ruleset`: the options that fill the card's gaps (`options.toml`),
armies and games."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from wargame_cli import versions
from wargame_cli.kit.teamtext import counts_help, pronoun_help
from wargame_cli.ruleset import (
    Carrying,
    FactWatcher,
    Parts,
    Ruleset,
    StatePositions,
    TableEdits,
    load_options,
)

if TYPE_CHECKING:
    from wargame_cli.rulesets.seeds_of_wars.rules import SeedsGame

    from wargame_cli.kit.filekeys import Keys
    from wargame_cli.kit.unitstats import Changes
    from wargame_cli.kit.unitstats import Sheet as UnitSheet
    from wargame_cli.ruleset import NamedRoll, OptionSpec, Setup, TeamBuilder

# The rules load when a game needs them: listing the rulesets imports only this module.


class SeedsOfWars(StatePositions, Ruleset):
    id = "seeds-of-wars"
    name = "Seeds of Wars: Tactical Combat"
    seed_file = "003_e52e7098456b9932.txt"
    summary = (
        "Units on a grid of battle lines and Reserves: deployment, initiative, movement, "
        "ranged and melee combat, morale and rout, until one side quits the field."
    )
    # 2: one question per attack (unit and target), auto_attack. 3: surrender between rounds,
    # only a chosen pass ends a step; wording. Versions 1 and 2 are kept: `Battle.rules_version`.
    # Version 2 covers two behaviours: builds of 30 Nov about 18:12-19:17 already asked
    # whether to fight on between rounds (behaviour 3) before the number went up (`variants`).
    version = "3"
    turn_word = "round"
    has_decisions = True
    folder = Path(__file__).parent
    team_syntax = (
        'Unit types separated by commas, with an optional Order rating: "order=2, Knights, '
        '2 Spearmen, Archers x2". '
        + counts_help("Spearmen")
        + " An army file (.toml/.json) holds `name`, `order` and "
        "`units = [...]` (type names, or tables with `type` and Mv/Ra/Me/De/Mo/Ht/tags), and "
        'may hold `pronouns = { Knights = "they" }`.' + pronoun_help("Knights")
    )

    def read_options(self) -> tuple[OptionSpec, ...]:
        return load_options(self.folder / "options.toml")

    def units(self) -> list[dict[str, Any]]:
        from wargame_cli.rulesets.seeds_of_wars import teams

        return [
            {
                "unit": t.name,
                "Mv": t.mv,
                "Ra": "-" if t.ra is None else t.ra,
                "Me": t.me,
                "De": t.de,
                "Mo": t.mo,
                "Ht": t.ht,
                "tags": ", ".join(t.tags),
            }
            for t in teams.catalogue().types.values()
        ]

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.seeds_of_wars import teams

        return teams.parse_inline(text, options)

    def team_file_keys(self) -> Keys:
        from wargame_cli.rulesets.seeds_of_wars import teams

        return teams.FILE_KEYS

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.seeds_of_wars import teams

        return teams.from_data(data, options)

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        from wargame_cli.rulesets.seeds_of_wars import teams

        return teams.default_army(side, options)

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        from wargame_cli.rulesets.seeds_of_wars import teams

        return dict(teams.catalogue().armies)

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        from wargame_cli.rulesets.seeds_of_wars import teams

        return (yield from teams.builder(side, options))

    def describe_team(self, team: Any) -> str:
        units = ", ".join(u["type"] for u in team["units"])
        return f"Order {team['order']}: {units}"

    def carrying(self) -> Carrying:
        from wargame_cli.rulesets.seeds_of_wars.campaign import CARRYING

        return CARRYING

    def unit_sheet(self) -> UnitSheet:
        from wargame_cli.rulesets.seeds_of_wars import teams

        return teams.sheet()

    def restat(self, team: Any, changes: Changes, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.seeds_of_wars import teams

        return teams.restat(team, changes)

    def sim_watcher(self) -> FactWatcher:
        from wargame_cli.rulesets.seeds_of_wars.simfacts import Watcher

        return Watcher()

    # the search bot: its lookaheads are cheap here (0.1 s a decision), and `evaluate` counts
    # morale in quarter steps (bench/README.md, "Bot levels")
    search_budget = {"candidates": 6, "samples": 6, "margin": 0.3}

    def evaluate(self, game: Any, side: str) -> float:
        """The search bot's judgement: each unit not out of the battle is worth 1 plus the
        share of its hits left, less as its morale falls (shaken, routed); own less theirs."""
        from wargame_cli.rulesets.seeds_of_wars.state import ROUTED, SHAKEN

        morale = {SHAKEN: 0.75, ROUTED: 0.4}
        worth = 0.0
        for unit in game.state.units:
            if unit.fate:
                continue
            kept = max(0, unit.kind.ht - unit.taken) / max(1, unit.kind.ht)
            value = (1 + kept) * morale.get(unit.state, 1.0)
            worth += value if unit.side == side else -value
        return worth

    def table_edits(self) -> TableEdits:
        from wargame_cli.rulesets.seeds_of_wars import edits

        return TableEdits(edits.USAGE, edits.apply)

    def new_game(self, setup: Setup, options: dict[str, Any]) -> SeedsGame:
        from wargame_cli.rulesets.seeds_of_wars.rules import SeedsGame, new_battle

        battle = new_battle(setup.names, setup.teams, options)
        battle.rules_version = versions.number(self)
        return SeedsGame(battle)

    def game_type(self) -> type[SeedsGame]:
        from wargame_cli.rulesets.seeds_of_wars.rules import SeedsGame

        return SeedsGame

    def variants(self) -> tuple[int, ...]:
        return (3,) if self.version == "2" else ()

    def named_rolls(self, options: dict[str, Any]) -> tuple[NamedRoll, ...]:
        from wargame_cli.rulesets.seeds_of_wars import rolls

        return rolls.named_rolls()

    def parts(self) -> Parts:
        from wargame_cli.rulesets.seeds_of_wars import picture, story, view

        return Parts(view.VIEW, story.Teller, picture.picture)


RULESET = SeedsOfWars()
