"""The Battle of Ixu (seed 002_5187e8e16bfe3a7c.txt, second part)."""

from wargame_cli.rulesets.battle_of_ixu.ruleset import BattleOfIxu

INFO = BattleOfIxu.info("wargame_cli.rulesets.battle_of_ixu.ruleset:RULESET")
