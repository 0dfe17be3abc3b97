"""Mobs and Morale: the untitled RPG skirmish system (seed 004_5124030926791a67.txt)."""

from wargame_cli.rulesets.mobs_and_morale.ruleset import MobsAndMorale

INFO = MobsAndMorale.info("wargame_cli.rulesets.mobs_and_morale.ruleset:RULESET")
