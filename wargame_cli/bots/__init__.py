"""Bots as policies over the position, apart from the rules.

A policy is asked a `Choice` together with the game where it stands (the `Session`, or None
while no game exists yet, e.g. building a team) and returns a legal key. The rules only
offer a hint (`Choice.hint`); which policy plays a side is chosen with `--bot-level`:

- `default`: the ruleset's hint, as every bot played before levels existed;
- `random`: a uniformly random legal key (its own seeded draws: never the game's dice);
- `search`: each candidate tried on clones of the position, a turn or more ahead, judged
  by the ruleset's `evaluate` hook (`bots/search.py`).

A ruleset may register its own policies or name another default (`Ruleset.bot_policies`,
`Ruleset.default_bot_level`); `policy_for` is the one place a level becomes a policy.
"""

from __future__ import annotations

from wargame_cli.bots.base import DEFAULT, LEVELS, Policy, PolicyController, UnknownLevel

__all__ = ["DEFAULT", "LEVELS", "Policy", "PolicyController", "UnknownLevel"]
