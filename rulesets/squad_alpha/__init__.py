"""Super Toy Soldier Squad Alpha (seed 002_5187e8e16bfe3a7c.txt, first part)."""

from wargame_cli.registry import RulesetInfo

INFO = RulesetInfo(
    id="squad-alpha",
    name="Super Toy Soldier Squad Alpha",
    seed_file="002_5187e8e16bfe3a7c.txt",
    summary="Squads of 5-10 toy soldiers on a terrain table: dice attributed to miniatures set "
    'who acts at which step; move 4" or shoot, melee on contact, casualties sap the leader.',
    loader="rulesets.squad_alpha.ruleset:RULESET",
)
