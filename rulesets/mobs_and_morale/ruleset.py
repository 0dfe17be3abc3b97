"""Mobs and Morale as a `Ruleset`: options for every gap, teams and games."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rulesets.mobs_and_morale import teams
from rulesets.mobs_and_morale.rules import MobsGame, new_battle
from wargame_cli.errors import OptionError
from wargame_cli.ruleset import OptionSpec, Ruleset, Setup, TeamBuilder
from wargame_cli.tabletop.scenario import TableOption
from wargame_cli.tabletop.table import Table


class MobsAndMorale(Ruleset):
    id = "mobs-and-morale"
    name = "Mobs and Morale (RPG skirmish)"
    version = "1"
    folder = Path(__file__).parent
    team_syntax = (
        "Characters by profile, optionally named, and mobs as a count of a minion profile, "
        'optionally under a character: "Brakka=Warrior, Ranger, Mystic" or '
        '"Ugrak=Chieftain, Red Spears=4 Tribal Warrior under Ugrak, 3 Wolf". '
        "A team file (.toml/.json) holds `name`, `characters = [{name, profile}]` and "
        "`mobs = [{name, controller, members = [{profile, count}]}]`; any stat may be "
        "overridden (presence, fierce, defence, health, initiative, move, morale, traits)."
    )
    options = (
        OptionSpec(
            "die",
            10,
            "the die of every pool (Presence, Fierce, defence, morale)",
            choices=(6, 8, 10, 12),
            rule="e6, e12",
        ),
        OptionSpec(
            "success_on",
            6,
            "a pool die showing this or more is a success",
            minimum=2,
            maximum=12,
            rule="e6, e12",
        ),
        OptionSpec(
            "cohesion",
            "chain",
            'chain: each mob member within 3" of another, all linked; all: every pair within 3"',
            choices=("chain", "all"),
            rule="e17",
        ),
        OptionSpec(
            "stragglers",
            "casualty",
            "cohesion losses go straight to the casualty pool, or to the dead pool (then they "
            "count for morale)",
            choices=("casualty", "dead_pool"),
            rule="e17",
        ),
        OptionSpec(
            "surprised",
            "none",
            "the surprised side deploys first",
            choices=("none", "A", "B"),
            rule="e2",
        ),
        OptionSpec(
            "deploy_order",
            "simultaneous",
            "initiative: roll initiative before setup and deploy lowest first",
            choices=("simultaneous", "initiative"),
            rule="e3",
        ),
        OptionSpec(
            "npc_survival", False, "roll survival for the GM side's casualties too", rule="e30"
        ),
        OptionSpec(
            "minion_health",
            1,
            "health of minions whose profile gives none",
            minimum=1,
            maximum=10,
            rule="e21",
        ),
        OptionSpec(
            "reach",
            2.0,
            "attack distance of creatures with the reach trait, inches",
            minimum=1.0,
            maximum=6.0,
            rule="e11",
        ),
        OptionSpec(
            "deploy_depth",
            6.0,
            "depth of each side's deployment area along its own edge, inches",
            minimum=1.0,
            maximum=24.0,
            rule="e1",
        ),
        TableOption(
            "table",
            Table.from_data(teams.catalogue().table).to_data(),
            "the table: a TOML file with width, height and terrain pieces; side A's edge is y=0",
            rule="e1",
        ),
        OptionSpec(
            "max_rounds",
            12,
            "safety cap: after this round both sides draw off (a draw, as when both retreat)",
            minimum=1,
            maximum=100,
            rule="e29",
        ),
    )

    def units(self) -> list[dict[str, Any]]:
        """Presence / Fierce / defence / health in one column, so the table fits 80 columns."""
        rows = []
        for p in teams.catalogue().profiles.values():
            health = p.health if p.health is not None else "opt"
            rows.append(
                {
                    "creature": p.name,
                    "kind": "minion" if p.minion else "character",
                    "P/F/D/H": f"{p.presence}/{p.fierce}/{p.defence}/{health}",
                    "init": p.initiative,
                    "move": f'{p.move:g}"',
                    "morale": p.morale if p.minion else "",
                    "traits": ", ".join(p.traits),
                }
            )
        return rows

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        return teams.parse_inline(text, options)

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        return teams.from_data(data, options)

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        cat = teams.catalogue()
        name = cat.defaults[side]
        preset = {k: v for k, v in cat.preset(name).items() if k != "side"}
        return teams.from_data(preset, options), name

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        team = yield from teams.builder(side, options)
        return team

    def describe_team(self, team: Any) -> str:
        return teams.describe(team)

    def new_game(self, setup: Setup, options: dict[str, Any]) -> MobsGame:
        if options["success_on"] > options["die"]:
            raise OptionError(
                f"option success_on: {options['success_on']} can never show on a d{options['die']}"
            )
        teams_ = {s: teams.from_data(setup.teams[s], options) for s in ("A", "B")}
        return MobsGame(new_battle(setup.names, teams_, options))

    def view(self) -> Any:
        from rulesets.mobs_and_morale import view

        return view


RULESET = MobsAndMorale()
