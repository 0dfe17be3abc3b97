"""Seeds of Wars "Battlefield" tactical combat (seed 003_e52e7098456b9932.txt)."""

from wargame_cli.registry import RulesetInfo

INFO = RulesetInfo(
    id="seeds-of-wars",
    name="Seeds of Wars: Tactical Combat",
    seed_file="003_e52e7098456b9932.txt",
    summary="Units on a grid of battle lines and Reserves: deployment, initiative, movement, "
    "ranged and melee combat, morale and rout, until one side quits the field.",
    loader="rulesets.seeds_of_wars.ruleset:RULESET",
)
