"""The Battle of Ixu (seed 002_5187e8e16bfe3a7c.txt, second part)."""

from wargame_cli.registry import RulesetInfo

INFO = RulesetInfo(
    id="battle-of-ixu",
    name="The Battle of Ixu",
    seed_file="002_5187e8e16bfe3a7c.txt",
    summary="Skirmish of named gods: experience dice split into movement, combat and defence.",
    loader="rulesets.battle_of_ixu.ruleset:RULESET",
)
