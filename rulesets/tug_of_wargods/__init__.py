"""Tug of WarGods v0.75 (seed 000_eaa62a6788245757.txt)."""

from rulesets.tug_of_wargods.ruleset import TugOfWarGods

INFO = TugOfWarGods.info("rulesets.tug_of_wargods.ruleset:RULESET")
