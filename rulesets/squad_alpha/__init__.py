"""Super Toy Soldier Squad Alpha (seed 002_5187e8e16bfe3a7c.txt, first part)."""

from wargame_cli.rulesets.squad_alpha.ruleset import SquadAlpha

INFO = SquadAlpha.info("wargame_cli.rulesets.squad_alpha.ruleset:RULESET")
