"""Seeds of Wars as a `Ruleset`: the options that fill the card's gaps, armies and games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.seeds_of_wars import army
from rulesets.seeds_of_wars.rules import SeedsGame, new_battle
from wargame_cli.ruleset import OptionSpec, Ruleset, Setup, TeamBuilder


class SeedsOfWars(Ruleset):
    id = "seeds-of-wars"
    name = "Seeds of Wars: Tactical Combat"
    version = "1"
    has_decisions = True
    folder = Path(__file__).parent
    team_syntax = (
        'Unit types separated by commas, with an optional Order rating: "order=2, Knights, '
        '2 Spearmen, Archers x2". An army file (.toml/.json) holds `name`, `order` and '
        "`units = [...]` (type names, or tables with `type` and Mv/Ra/Me/De/Mo/Ht/tags)."
    )
    options = (
        OptionSpec("columns", 3, "spaces across the battlefield", rule="d8", minimum=1, maximum=8),
        OptionSpec(
            "battle_lines",
            1,
            "battle lines (rows) per side, in front of its Reserve",
            rule="d8",
            minimum=1,
            maximum=3,
        ),
        OptionSpec(
            "neutral_rows",
            0,
            "rows of open ground between the two sides' battle lines",
            rule="d8",
            minimum=0,
            maximum=3,
        ),
        OptionSpec(
            "stack_limit",
            2,
            "most units of one side that may end a move in a space",
            rule="d8",
            minimum=1,
            maximum=10,
        ),
        OptionSpec("army_size", 8, "most units in an army", rule="d1", minimum=1, maximum=30),
        OptionSpec(
            "attacker",
            "A",
            "the attacking side; the other defends (deploys first on a tied deployment roll)",
            choices=("A", "B"),
            rule="d2",
        ),
        OptionSpec(
            "deploy_order",
            "loser_first",
            "who deploys first after an untied deployment roll: the loser, or as the "
            "winner chooses",
            choices=("loser_first", "winner_chooses"),
            rule="d1",
        ),
        OptionSpec(
            "initiative_ties",
            "reroll",
            "a tied initiative roll is rolled again, or goes to the attacker or defender",
            choices=("reroll", "attacker", "defender"),
            rule="d6",
        ),
        OptionSpec(
            "pass_rule",
            "other_finishes",
            "after one side passes in steps 3-5 the other finishes its actions, or the "
            "first pass ends the step",
            choices=("other_finishes", "first_pass_ends"),
            rule="d7",
        ),
        OptionSpec(
            "flank",
            "attacked",
            "flanking: another friendly unit already attacked the target in melee this "
            "round; or the attacker's side outnumbers the enemy in the space; or off",
            choices=("attacked", "outnumber", "off"),
            rule="d12",
        ),
        OptionSpec(
            "shaken_can_charge",
            False,
            "Shaken units may move into a space held by an enemy",
            rule="d12",
        ),
        OptionSpec(
            "engaged_can_move",
            False,
            "units sharing a space with an enemy may move away in step 3",
            rule="d9",
        ),
        OptionSpec(
            "engaged_can_shoot",
            False,
            "units sharing a space with an enemy may still shoot",
            rule="d11",
        ),
        OptionSpec(
            "max_rounds",
            30,
            "the battle is a draw after this many rounds (a safety cap)",
            rule="d3",
            minimum=1,
            maximum=1000,
        ),
    )

    def units(self) -> list[dict[str, Any]]:
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
            for t in army.catalogue().types.values()
        ]

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        return army.parse_inline(text, options)

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        return army.from_data(data, options)

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        return army.default_army(side, options)

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        return (yield from army.builder(side, options))

    def describe_team(self, team: Any) -> str:
        units = ", ".join(u["type"] for u in team["units"])
        return f"Order {team['order']}: {units}"

    def new_game(self, setup: Setup, options: dict[str, Any]) -> SeedsGame:
        return SeedsGame(new_battle(setup.names, setup.teams, options))

    def view(self) -> Any:
        from rulesets.seeds_of_wars import view

        return view


RULESET = SeedsOfWars()
