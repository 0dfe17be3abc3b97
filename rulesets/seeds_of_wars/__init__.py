"""Seeds of Wars "Battlefield" tactical combat (seed 003_e52e7098456b9932.txt)."""

from wargame_cli.rulesets.seeds_of_wars.ruleset import SeedsOfWars

INFO = SeedsOfWars.info("wargame_cli.rulesets.seeds_of_wars.ruleset:RULESET")
