"""The rulesets wargame_cli hosts: one package per ruleset, its rules code and TOML data."""
