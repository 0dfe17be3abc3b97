"""Properties of the Battle of Ixu over many games: bot games end, any legal play ends, and
the table never holds an impossible position."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from wargame_cli.rulesets.battle_of_ixu.ruleset import RULESET

from tests.helpers import Script
from wargame_cli.engine.requests import Choice, TurnStart
from wargame_cli.engine.session import bot_game
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.tabletop.movement import CONTACT_TOLERANCE

OPTIONS = st.fixed_dictionaries(
    {
        "health": st.integers(1, 14),
        "die": st.sampled_from((4, 6, 8, 10, 12)),
        "order_ties": st.sampled_from(("reroll", "experience")),
        "max_turns": st.integers(1, 60),
    }
)


def check_state(state):
    """Invariants of any position: the standing are unhurt enough, apart and on the table."""
    standing = state.standing()
    for w in standing:
        assert w.damage < w.health
        assert state.table.on_table(w.pos, w.radius)
    for i, a in enumerate(standing):
        for b in standing[:i]:
            assert a.pos.distance(b.pos) >= a.radius + b.radius - CONTACT_TOLERANCE - 1e-6
    for w in state.warriors:
        if w.dead:
            assert w.id in state.fallen and w.died_turn is not None
    assert len(state.fallen) == len(set(state.fallen))


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), options=OPTIONS)
def test_bot_games_end_and_the_winner_has_models_standing(seed, options):
    session = bot_game(RULESET, seed, options)
    assert session.status == "finished"
    state = session.game.state
    assert 1 <= state.turn <= options["max_turns"]
    check_state(state)
    outcome = session.runner.outcome
    deaths = [e for e in session.runner.log if e["t"] == "event" and e["kind"] == "death"]
    assert [d["data"]["model"] for d in deaths] == [state.name_of(i) for i in state.fallen]
    if outcome.winner is not None:
        assert state.standing(outcome.winner)
    if "cap" not in outcome.reason:
        loser = "B" if outcome.winner == "A" else "A"
        assert not state.standing(loser)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), options=OPTIONS)
def test_any_legal_play_ends_with_sound_positions(seed, options):
    rnd = random.Random(seed)  # the choices and dice of a player who does anything legal
    opts = resolve_options(RULESET.options, {**options, "max_turns": min(options["max_turns"], 20)})
    teams = {s: RULESET.default_team(s, opts)[0] for s in "AB"}
    game = RULESET.new_game(Setup({"A": "Axes", "B": "Swords"}, teams), opts)

    def anything(choice: Choice) -> str:
        legal = [o.key for o in choice.options if o.disabled is None]
        return rnd.choice(legal)

    class Random(Script):
        def answer(self, req):
            if isinstance(req, Choice):
                self.choices = [anything]
            if isinstance(req, TurnStart):
                check_state(game.state)
            return super().answer(req)

    script = Random(fallback_face=lambda die: rnd.randint(1, die))
    script.run(game)
    assert script.outcome is not None
    check_state(game.state)


@settings(max_examples=20, deadline=None)
@given(faces=st.lists(st.integers(1, 6), min_size=3, max_size=5))
def test_c2_every_offered_assignment_uses_the_highest_rolled_dice(faces):
    from wargame_cli.rulesets.battle_of_ixu import attribution

    top = sorted(faces, reverse=True)[:3]
    offered = attribution.assignments(faces)
    assert 1 <= len(offered) <= 6
    for dice in offered:
        assert sorted([dice.movement, dice.combat, dice.defence], reverse=True) == top
        assert attribution.problem(faces, attribution.key_of(dice)) is None
        assert len(attribution.unused(faces, dice)) == len(faces) - 3
