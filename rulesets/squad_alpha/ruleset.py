"""Super Toy Soldier Squad Alpha as a `Ruleset`: options, squads and games."""

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
    named_if_preset,
)

if TYPE_CHECKING:
    from wargame_cli.rulesets.squad_alpha.rules import SquadGame

    from wargame_cli.kit.filekeys import Keys
    from wargame_cli.kit.unitstats import Changes
    from wargame_cli.kit.unitstats import Sheet as UnitSheet
    from wargame_cli.ruleset import NamedRoll, OptionSpec, Setup, TeamBuilder

# The rules load when a game needs them: listing the rulesets imports only this module.

FOLDER = Path(__file__).parent


class SquadAlpha(StatePositions, Ruleset):
    id = "squad-alpha"
    name = "Super Toy Soldier Squad Alpha"
    seed_file = "002_5187e8e16bfe3a7c.txt"
    summary = (
        "Squads of 5-10 toy soldiers on a terrain table: dice attributed to miniatures set "
        'who acts at which step; move 4" or shoot, melee on contact, casualties sap the leader.'
    )
    # 3: moves bend round blocking terrain, no deploying in contact; wording. 4: a typed move
    # or deployment spot is labelled as the menu labels spots. Versions 1 (no step events)
    # and 2 (straight moves, contact deployments allowed) are kept: `GameState.rules_version`.
    # Version 2 covers two behaviours: builds of 30 Nov about 18:07-19:17 already bent moves
    # round blocking terrain (behaviour 3) before the number went up (`variants`).
    version = "4"
    has_decisions = True
    folder = FOLDER
    # the search bot: a miniature is alive or dead, so a lookahead's worth moves in whole
    # pieces, tempered by where they stand (`evaluate`); a smaller margin than the default
    # lets it correct the hint, and its lookaheads leave room for more candidates and
    # samples within the second (bench/README.md)
    search_budget = {"margin": 0.75, "candidates": 5, "samples": 6}

    def evaluate(self, game: Any, side: str) -> float:
        """Material less each side's exposure to the other's shots (`bot.position_worth`)."""
        from wargame_cli.rulesets.squad_alpha.bot import position_worth

        return position_worth(game.state, side)

    team_syntax = (
        "5-10 miniatures separated by commas, each `name training rating` (or "
        '`name:training:rating`): "Sgt Rook elite 4, Hawk regular 2, 3x Trooper conscript 0". '
        "Training is conscript, regular or elite (c/r/e); exactly one miniature must have the "
        "highest rating (the leader). "
        + counts_help("Trooper c 0")
        + " Counted miniatures are numbered (Trooper 1, Trooper 2, ...): "
        '"3 Trooper c 0" is three Troopers, not one named "3 Trooper". The builder\'s '
        '"Type it" reads the same text. A squad file (.toml/.json) holds `name = "..."` and '
        "`miniatures = [{name, training, rating, dice?, pronoun?}, ...]` (`dice`: the "
        "miniature's action dice where changed from its training's, 1-10, as "
        "`simulate --unit elite.dice=4` changes a whole training)." + pronoun_help("Hawk regular 2")
    )

    def read_options(self) -> tuple[OptionSpec, ...]:
        from wargame_cli.tabletop.scenario import load_options_with_tables

        return load_options_with_tables(FOLDER / "options.toml")

    def units(self) -> list[dict[str, Any]]:
        from wargame_cli.rulesets.squad_alpha import teams

        return [
            {"training": t, "action dice": n, "note": note}
            for (t, n), note in zip(
                teams.TRAINING_DICE.items(),
                ("1 die", "2 dice, any one passing", "3 dice, any one passing"),
                strict=True,
            )
        ]

    def unit_sheet(self) -> UnitSheet:
        """The unit types are the training levels (b2), each with its action dice (b12)."""
        from wargame_cli.rulesets.squad_alpha import teams

        return teams.sheet()

    def restat(self, team: Any, changes: Changes, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.squad_alpha import teams

        return teams.to_data(teams.from_data(teams.restat(team, changes), options))

    def points_sizes(self) -> tuple[int, ...]:
        from wargame_cli.rulesets.squad_alpha import teams

        return (teams.MIN_SIZE, teams.MIN_SIZE + 1, teams.MIN_SIZE + 2)  # b1: 5-10

    def points_team(self, counts: dict[str, int]) -> str:
        """`Elite 1 elite 1, Elite 2 elite 0, ...`: the first miniature leads (b3)."""
        named = [f"{t.title()} {i} {t}" for t, n in counts.items() for i in range(1, n + 1)]
        return ", ".join(f"{name} {int(not k)}" for k, name in enumerate(named))

    def parse_team(self, text: str, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.squad_alpha import teams

        return teams.to_data(teams.parse_inline(text, options))

    def team_file_keys(self) -> Keys:
        from wargame_cli.rulesets.squad_alpha import teams

        return teams.FILE_KEYS

    def team_from_data(self, data: Any, options: dict[str, Any]) -> Any:
        from wargame_cli.rulesets.squad_alpha import teams

        return teams.to_data(teams.from_data(data, options))

    def default_team(self, side: str, options: dict[str, Any]) -> tuple[Any, str]:
        from wargame_cli.rulesets.squad_alpha import teams

        cat = teams.catalogue()
        name = cat.defaults[side]
        return teams.to_data(teams.validate(list(cat.squad(name)), options)), name

    def preset_teams(self, options: dict[str, Any]) -> dict[str, Any]:
        from wargame_cli.rulesets.squad_alpha import teams

        return {name: teams.to_data(list(s)) for name, s in teams.catalogue().squads}

    def build_team(self, side: str, options: dict[str, Any]) -> TeamBuilder:
        from wargame_cli.rulesets.squad_alpha import teams

        soldiers = yield from teams.builder(side, options)
        presets = {name: teams.to_data(list(s)) for name, s in teams.catalogue().squads}
        return named_if_preset(teams.to_data(teams.validate(soldiers, options)), presets)

    def describe_team(self, team: Any) -> str:
        from wargame_cli.rulesets.squad_alpha import teams

        soldiers = teams.from_data(team, {"rating_min": -99, "rating_max": 99})
        lead = soldiers[teams.leader_index(soldiers)].name
        return ", ".join(s.describe() + (" [leader]" if s.name == lead else "") for s in soldiers)

    def carrying(self) -> Carrying:
        from wargame_cli.rulesets.squad_alpha.campaign import CARRYING

        return CARRYING

    def sim_watcher(self) -> FactWatcher:
        from wargame_cli.rulesets.squad_alpha.simfacts import Watcher

        return Watcher()

    def table_edits(self) -> TableEdits:
        from wargame_cli.rulesets.squad_alpha import edits

        return TableEdits(edits.USAGE, edits.apply)

    def new_game(self, setup: Setup, options: dict[str, Any]) -> SquadGame:
        from wargame_cli.rulesets.squad_alpha import teams
        from wargame_cli.rulesets.squad_alpha.deployment import room_problem
        from wargame_cli.rulesets.squad_alpha.rules import SquadGame
        from wargame_cli.rulesets.squad_alpha.state import new_state

        squads = {side: teams.from_data(setup.teams[side], options) for side in ("A", "B")}
        state = new_state(setup.names, squads, options)
        state.rules_version = versions.number(self)
        if (problem := room_problem(state)) is not None:
            raise OptionError(f"option table: {problem}; choose a table with more open ground")
        return SquadGame(state)

    def game_type(self) -> type[SquadGame]:
        from wargame_cli.rulesets.squad_alpha.rules import SquadGame

        return SquadGame

    def variants(self) -> tuple[int, ...]:
        return (3,) if self.version == "2" else ()

    def named_rolls(self, options: dict[str, Any]) -> tuple[NamedRoll, ...]:
        from wargame_cli.rulesets.squad_alpha import rolls

        return rolls.named_rolls()

    def parts(self) -> Parts:
        from wargame_cli.rulesets.squad_alpha import picture, story, view

        return Parts(view.VIEW, story.Teller, picture.picture)


RULESET = SquadAlpha()
