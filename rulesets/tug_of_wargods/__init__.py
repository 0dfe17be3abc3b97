"""Tug of WarGods v0.75 (seed 000_eaa62a6788245757.txt)."""

from wargame_cli.registry import RulesetInfo

INFO = RulesetInfo(
    id="tug-of-wargods",
    name="Tug of WarGods v0.75",
    seed_file="000_eaa62a6788245757.txt",
    summary="A dice tug of war: three WarGods a side pull each other across a centre line.",
    loader="rulesets.tug_of_wargods.ruleset:RULESET",
)
