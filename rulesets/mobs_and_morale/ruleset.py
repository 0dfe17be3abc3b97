"""Mobs and Morale as a `Ruleset`: options for every gap, teams and games."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from wargame_cli import versions
from wargame_cli.errors import OptionError
from wargame_cli.kit.teamtext import counts_help, pronoun_help
from wargame_cli.ruleset import (
    Carrying,
    FactWatcher,
    Parts,
    Ruleset,
    StatePositions,
    TableEdits,
)

if TYPE_CHECKING:
    from wargame_cli.rulesets.mobs_and_morale.rules import MobsGame

    from wargame_cli.kit.filekeys import Keys
    from wargame_cli.kit.unitstats import Changes
    from wargame_cli.kit.unitstats import Sheet as UnitSheet
    from wargame_cli.ruleset import NamedRoll, OptionSpec, Setup, TeamBuilder

# The rules load when a game needs them: listing the rulesets imports only this module.

FOLDER = Path(__file__).parent


RENAMED = (  # what behaviour 0 logged under other names
    versions.Renamed(1, "casualty", becomes="pools", when=lambda data: "casualty_pool" in data),
    versions.Renamed(1, "flee", becomes="removed", added={"how": "fled"}),
)


class MobsAndMorale(StatePositions, Ruleset):
    id = "mobs-and-morale"
    # six candidates on eight paired samples, judged by fighting strength (`evaluate`): 61.5% of
    # 200 duels against the default bot, where the default budget won 57.5% (bench/README.md)
    search_budget = {"candidates": 6, "samples": 8, "margin": 0.75}
    name = "Mobs and Morale (RPG skirmish)"
    seed_file = "004_5124030926791a67.txt"
    summary = (
        "Player characters against the GM's chieftains and mobs: success pools of d10s, "
        "carry-over damage, cohesion and morale, and who survives after the battle."
    )
    # 2: max_rounds a safeguard (40, off with a person), announced at the start and at the last
    # round; wording. 3: the GM's hand (scenario areas and powers, the initiative tracker, per
    # creature survival rolls, ending the battle, hidden simultaneous deployment), mob moves
    # that reach (Close on by the pathfinder, figure by figure, typed moves that bend), and a
    # character attacks a mob as one option (`attack:mob:NAME`, the owner picks the figure in
    # reach, e22). Versions 1 and 2 are kept: `Battle.rules_version`. Behaviour 0: version 1
    # as its first builds played it, before it asked no forced questions (`variants`).
    version = "3"
    turn_word = "round"
    safeguards = ("max_rounds",)
    folder = FOLDER
    team_syntax = (
        "Characters by profile, optionally named, and mobs as a count of a minion profile, "
        'optionally under a character: "Brakka=Warrior, Ranger, Mystic" or '
        '"Ugrak=Chieftain, Red Spears=4 Tribal Warrior under Ugrak, 3 Wolf". '
        + counts_help("Wolf")
        + " A count of characters adds numbered ones (Ranger 1, Ranger 2). "
        "A team file (.toml/.json) holds `name`, `characters = [{name, profile}]` and "
        "`mobs = [{name, controller, members = [{profile, count}]}]`; any stat may be "
        "overridden (presence, fierce, defence, health, initiative, move, morale, traits), "
        "and powers given: `reach = N` (inches), `ranged = {name, range}` and "
        "`actions = [names]` from the file's `actions = [{name, range, dice, effect}]` "
        "(effect: damage N, heal N, move N or status fled)." + pronoun_help("Brakka=Warrior")
    )

    def evaluate(self, game: Any, side: str) -> float:
        """Fighting strength, a retreating side's cut (`bot.position_worth`)."""
        from wargame_cli.rulesets.mobs_and_morale.bot import position_worth

        return position_worth(game.state, side)

    def read_options(self) -> tuple[OptionSpec, ...]:
        from wargame_cli.tabletop.scenario import load_options_with_tables

        return load_options_with_tables(FOLDER / "options.toml")

    def units(self) -> list[dict[str, Any]]:
        """Presence / Fierce / defence / health in one column, so the table fits 80 columns;
        a minion without a health stat shows the minion_health option's default."""
        from wargame_cli.rulesets.mobs_and_morale import teams

        minion_health = next(o.default for o in self.options if o.name == "minion_health")
        rows = []
        for p in teams.catalogue().profiles.values():
            health = p.health if p.health is not None else minion_health
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
        from wargame_cli.rulesets.mobs_and_morale import teams

        return teams.parse_inline(text, options)

    def team_file_keys(self) -> Keys:
        from wargame_cli.rulesets.mobs_and_morale import teams

        return teams.FILE_KEYS

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.mobs_and_morale import teams

        return teams.from_data(data, options)

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        from wargame_cli.rulesets.mobs_and_morale import teams

        cat = teams.catalogue()
        name = teams.default_name(side, options)
        preset = {k: v for k, v in cat.preset(name).items() if k != "side"}
        return teams.from_data(preset, options), name

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        from wargame_cli.rulesets.mobs_and_morale import teams

        return {
            p["name"]: {k: v for k, v in p.items() if k != "side"}
            for p in teams.catalogue().presets
        }

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        from wargame_cli.rulesets.mobs_and_morale import teams

        team = yield from teams.builder(side, options)
        return team

    def describe_team(self, team: Any) -> str:
        from wargame_cli.rulesets.mobs_and_morale import teams

        return teams.describe(team)

    def carrying(self) -> Carrying:
        from wargame_cli.rulesets.mobs_and_morale.campaign import CARRYING

        return CARRYING

    def unit_sheet(self) -> UnitSheet:
        from wargame_cli.rulesets.mobs_and_morale import teams

        return teams.sheet()

    def restat(self, team: Any, changes: Changes, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.mobs_and_morale import teams

        return teams.restat(team, changes)

    def sim_watcher(self) -> FactWatcher:
        from wargame_cli.rulesets.mobs_and_morale.simfacts import Watcher

        return Watcher()

    def table_edits(self) -> TableEdits:
        from wargame_cli.rulesets.mobs_and_morale import edits

        return TableEdits(edits.USAGE, edits.apply, edits.after_battle)

    def new_game(self, setup: Setup, options: dict[str, Any]) -> MobsGame:
        if options["success_on"] > options["die"]:
            raise OptionError(
                f"option success_on: {options['success_on']} can never show on a d{options['die']}"
            )
        from wargame_cli.rulesets.mobs_and_morale import teams
        from wargame_cli.rulesets.mobs_and_morale.deploy import room_problem
        from wargame_cli.rulesets.mobs_and_morale.rules import MobsGame, new_battle

        teams_ = {s: teams.from_data(setup.teams[s], options) for s in ("A", "B")}
        battle = new_battle(setup.names, teams_, options)
        if (problem := room_problem(battle)) is not None:
            raise OptionError(
                f"{problem}: the table and deploy_depth {options['deploy_depth']:g} leave too "
                "little open ground to deploy every unit (a smaller team, a deeper deploy_depth "
                "or a table with more open ground)"
            )
        battle.rules_version = versions.number(self)
        return MobsGame(battle)

    def game_type(self) -> type[MobsGame]:
        from wargame_cli.rulesets.mobs_and_morale.rules import MobsGame

        return MobsGame

    def variants(self) -> tuple[int, ...]:
        return (0,) if self.version == "1" else ()

    def migrate_entry(self, entry: dict[str, Any]) -> dict[str, Any]:
        return versions.migrated(entry, versions.number(self), RENAMED)

    def named_rolls(self, options: dict[str, Any]) -> tuple[NamedRoll, ...]:
        from wargame_cli.rulesets.mobs_and_morale import rolls

        return rolls.named_rolls(options)

    def parts(self) -> Parts:
        from wargame_cli.rulesets.mobs_and_morale import picture, story, view

        return Parts(view.VIEW, story.Teller, picture.picture)


RULESET = MobsAndMorale()
