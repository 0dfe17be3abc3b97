"""Tug of WarGods v0.75 (seed 000_eaa62a6788245757.txt)."""

from wargame_cli.rulesets.tug_of_wargods.ruleset import TugOfWarGods

INFO = TugOfWarGods.info("wargame_cli.rulesets.tug_of_wargods.ruleset:RULESET")
