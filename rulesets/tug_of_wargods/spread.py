"""The exact distribution of a Tug of WarGods game (`simulate --exact`): the chance that it
ends at each turn, and by which ending (a17, a18), from the same Markov chain as the exact
odds (`odds.py`): the chance of being in each state is carried forward turn by turn, and
what leaves the chain at a turn is a game ending then. Each ending is the rules' own
`resolve` of that state and difference."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from wargame_cli.rulesets.tug_of_wargods.odds import (
    Chain,
    _copy,
    chain_for,
    difference_odds,
    pool,
)
from wargame_cli.rulesets.tug_of_wargods.rules import outcome_of, resolve

from wargame_cli.engine.requests import Outcome
from wargame_cli.ruleset import ExactSpread

TAIL = 1e-12  # chance still in play below which the game counts as over
HORIZON = 100_000  # turns: a chain that leaks less than this never ends (no legal pool does)


def exact_spread(team_a: Any, team_b: Any, options: dict[str, Any]) -> ExactSpread:
    chain = chain_for(options)
    weights = [(d, float(p)) for d, p in difference_odds(pool(team_a), pool(team_b)).items()]
    lengths: dict[int, float] = defaultdict(float)
    endings: dict[tuple[str, str, tuple[str, ...]], float] = defaultdict(float)
    outcomes: dict[tuple[str, str, tuple[str, ...]], Outcome] = {}
    ends: dict[tuple[int, int], Outcome] = {}
    here: dict[int, float] = {0: 1.0}
    turn = 0
    while here and sum(here.values()) > TAIL and turn < HORIZON:
        turn += 1
        after: dict[int, float] = defaultdict(float)
        for state, chance in here.items():
            for difference, p in weights:
                target = chain.move(state, difference)
                if isinstance(target, int):
                    after[target] += chance * p
                    continue
                outcome = ends.get((state, difference))
                if outcome is None:
                    outcome = ends[(state, difference)] = _ending(chain, state, difference)
                key = (outcome.winner or "", outcome.cause, outcome.rules)
                outcomes[key] = outcome
                endings[key] += chance * p
                lengths[turn] += chance * p
        here = after
    return ExactSpread(dict(lengths), [(outcomes[k], endings[k]) for k in endings])


def _ending(chain: Chain, state: int, difference: int) -> Outcome:
    """How the game ends when `state` sees `difference`: the rules' own win (a17, a18)."""
    after = _copy(chain.states[state])
    turn = resolve(after, max(difference, 0), max(-difference, 0))
    assert turn.win is not None  # the chain says this move ends the game
    return outcome_of(turn.win)
