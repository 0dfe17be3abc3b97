"""Mobs and Morale properties: bot games end under any options and teams, and the state stays
consistent; the pool arithmetic and initiative ordering hold for any faces."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from wargame_cli.rulesets.mobs_and_morale import initiative, pools, teams
from wargame_cli.rulesets.mobs_and_morale.ruleset import RULESET

from tests.helpers import Script
from wargame_cli.engine.session import bot_game
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.tabletop.movement import CONTACT_TOLERANCE

PRESETS = {
    side: [p["name"] for p in teams.catalogue().presets if p["side"] == side] for side in "AB"
}

options = st.fixed_dictionaries(
    {},
    optional={
        "cohesion": st.sampled_from(["chain", "all"]),
        "stragglers": st.sampled_from(["casualty", "dead_pool"]),
        "surprised": st.sampled_from(["none", "A", "B"]),
        "deploy_order": st.sampled_from(["simultaneous", "initiative"]),
        "npc_survival": st.booleans(),
        "minion_health": st.integers(1, 2),
        "max_rounds": st.integers(1, 8),
    },
)


def check_state(game) -> None:
    b = game.state
    standing = b.standing()
    for c in b.creatures.values():
        assert 0 <= c.health <= c.max_health
        assert (c.pos is not None) == (c.status == "standing"), c
        if c.pos is not None:
            assert b.table.on_table(c.pos, 0.5 - 1e-6), c
    for i, x in enumerate(standing):
        for y in standing[i + 1 :]:
            assert x.pos.distance(y.pos) >= 1.0 - CONTACT_TOLERANCE - 1e-6, (x.id, y.id)
    for mob in b.mobs.values():
        assert not mob.dead_pool  # the battle's end moved them all on (e27)
        for cid in mob.casualty_pool:
            assert b.creatures[cid].status in ("dead", "fled", "straggler")
    for side, rows in b.after.items():
        fallen = [
            c
            for c in b.creatures.values()
            if c.side == side and c.status in ("dead", "fled", "straggler")
        ]
        assert len(rows) == len(fallen)
        for row in rows:
            roll = row["roll"]
            assert row["fate"] == (
                "not rolled (NPC)" if roll is None else "lost" if roll < 5 else row["fate"]
            )


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), opts=options)
def test_bot_games_end_and_stay_consistent(seed, opts):
    session = bot_game(RULESET, seed, options=opts)
    assert session.status == "finished"
    assert session.runner.turn <= session.options["max_rounds"]
    check_state(session.game)
    outcome = session.runner.outcome
    assert set(outcome.data["after_battle"]) == {"A", "B"}


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 10**6), a=st.sampled_from(PRESETS["A"]), b=st.sampled_from(PRESETS["B"]))
def test_bot_games_end_with_every_preset(seed, a, b):
    opts = resolve_options(RULESET.options, {"max_rounds": 6})
    cat = teams.catalogue()
    sides = {
        s: teams.from_data({k: v for k, v in cat.preset(n).items() if k != "side"}, opts)
        for s, n in (("A", a), ("B", b))
    }
    game = RULESET.new_game(Setup({"A": a, "B": b}, sides), opts)
    counter = iter(range(10**6))
    script = Script(fallback_face=lambda d: (next(counter) * 7 + seed) % d + 1)
    script.run(game)
    assert script.outcome is not None
    check_state(game)


@given(
    pool=st.integers(0, 12),
    faces=st.lists(st.integers(1, 10), max_size=12),
    defence=st.integers(1, 11),
)
def test_e13_e14_damage_never_exceeds_the_pool(pool, faces, defence):
    faces = faces[:pool]
    dmg = pools.damage(pool, faces, defence)
    assert 0 <= dmg <= pool
    assert dmg == max(0, pool - sum(f >= defence for f in faces))


@given(points=st.integers(0, 30), healths=st.lists(st.integers(1, 6), max_size=8))
def test_e21_carry_over_fills_one_figure_at_a_time(points, healths):
    dealt = pools.carry_over(points, healths)
    assert sum(dealt) == min(points, sum(healths))
    assert all(0 <= d <= h for d, h in zip(dealt, healths, strict=True))
    partial = [i for i, (d, h) in enumerate(zip(dealt, healths, strict=True)) if 0 < d < h]
    assert len(partial) <= 1  # never spread: at most one figure is left wounded
    if partial:
        assert all(d == 0 for d in dealt[partial[0] + 1 :])


@given(
    presences=st.lists(st.tuples(st.integers(0, 4), st.integers(0, 4)), min_size=1, max_size=6),
    seed=st.integers(0, 1000),
)
def test_e6_e7_initiative_is_an_ordering_by_successes_then_base(presences, seed):
    contenders = [
        initiative.Contender(str(i), f"c{i}", "A", p, base) for i, (p, base) in enumerate(presences)
    ]
    counter = iter(range(10**6))
    script = Script(fallback_face=lambda d: (next(counter) * 31 + seed) % d + 1)
    out = {}

    class Wrap:
        def play(self):
            out["v"] = yield from initiative.roll_initiative(contenders, 10, 6, "initiative")
            return None

    script.run(Wrap())
    order, scores = out["v"]
    assert sorted(c.key for c in order) == sorted(c.key for c in contenders)
    ranks = [(scores[c.key], c.base) for c in order]
    assert ranks == sorted(ranks, reverse=True)


def test_e29_every_ending_is_reached_by_bot_games():
    """Bot games of the default scenario end every way e29 allows: a side destroyed, a side
    escaped by its edge after retreating."""
    reasons = set()
    for seed in range(1, 11):
        outcome = bot_game(RULESET, seed).runner.outcome
        reasons |= {w for w in ("destroyed", "escaped") if w in outcome.reason}
    assert reasons == {"destroyed", "escaped"}
