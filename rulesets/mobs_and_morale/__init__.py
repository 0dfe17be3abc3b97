"""Mobs and Morale: the untitled RPG skirmish system (seed 004_5124030926791a67.txt)."""

from wargame_cli.registry import RulesetInfo

INFO = RulesetInfo(
    id="mobs-and-morale",
    name="Mobs and Morale (RPG skirmish)",
    seed_file="004_5124030926791a67.txt",
    summary="Player characters against the GM's chieftains and mobs: success pools of d10s, "
    "carry-over damage, cohesion and morale, and who survives after the battle.",
    loader="rulesets.mobs_and_morale.ruleset:RULESET",
)
