"""The Battle of Ixu bot's shortcuts give exactly what the plain definitions give: the dice
scoring with the enemies worked out once, the contact-spot search that stops when the ring
is out of reach, and the state's contact, standing and lookup helpers on plain numbers.
Checked in every position of seeded games and over random crowded positions."""

from __future__ import annotations

import math

from hypothesis import given, settings
from hypothesis import strategies as st
from wargame_cli.rulesets.battle_of_ixu import bot
from wargame_cli.rulesets.battle_of_ixu.attribution import assignments

from wargame_cli import registry
from wargame_cli.engine.session import bot_game
from wargame_cli.kit.sides import other
from wargame_cli.ruleset import resolve_options
from wargame_cli.tabletop import destinations
from wargame_cli.tabletop.destinations import Mover, contact_spot, contact_spot_plain
from wargame_cli.tabletop.geometry import Point
from wargame_cli.tabletop.movement import Body, contact_ring, gap, in_contact
from wargame_cli.tabletop.table import Table

SEEDS = (1, 2, 3, 4)


def _plain_pick(state, warrior, faces):
    """`pick_dice` as it was: every assignment scored by `score_dice` from scratch."""
    return max(
        assignments(faces),
        key=lambda d: (
            round(bot.score_dice(state, warrior, d), 6),
            d.defence,
            d.combat,
            d.movement,
        ),
    )


def test_dice_scoring_and_state_helpers_match_their_definitions_in_seeded_games(monkeypatch):
    real = bot.pick_dice
    compared = 0

    def both(state, warrior, faces):
        nonlocal compared
        score = bot.dice_scorer(state, warrior)
        for dice in assignments(faces):
            assert score(dice) == bot.score_dice(state, warrior, dice)
        picked = real(state, warrior, faces)
        assert picked == _plain_pick(state, warrior, faces)
        for w in state.warriors:
            plain_enemies = [e for e in state.warriors if e.standing and e.side == other(w.side)]
            assert state.enemies(w) == plain_enemies
            assert state.engaged(w) == [e for e in plain_enemies if in_contact(w.body(), e.body())]
            assert w.body() == Body(w.id, w.pos, w.radius, w.name)
            assert state.get(w.id) is w
            for e in state.warriors:
                assert state.gap_to(w, e) == gap(w.body(), e.body())
        assert state.standing() == [w for w in state.warriors if w.standing]
        compared += 1
        return picked

    monkeypatch.setattr(bot, "pick_dice", both)
    for seed in SEEDS:
        bot_game(registry.get("battle-of-ixu"), seed=seed, max_turns=6)
    assert compared > 40


def test_contact_spots_in_seeded_games_are_the_ring_searched_spot_by_spot(monkeypatch):
    compared = 0

    def both(m, enemy):
        nonlocal compared
        got = contact_spot(m, enemy)
        assert got == contact_spot_plain(m, enemy)
        compared += got is not None
        return got

    monkeypatch.setattr(destinations, "contact_spot", both)
    for seed in SEEDS:
        bot_game(registry.get("battle-of-ixu"), seed=seed, max_turns=6)
    assert compared > 10


def _farmstead() -> Table:
    options = resolve_options(registry.get("squad-alpha").options, None)
    return Table.from_data(options["table"])


TABLES = (Table(24.0, 24.0, name="plain"), _farmstead())
near = st.floats(min_value=-3, max_value=3, allow_nan=False).map(lambda v: round(v, 2))


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from(TABLES),
    st.floats(min_value=1, max_value=23, allow_nan=False).map(lambda v: round(v, 2)),
    st.floats(min_value=1, max_value=23, allow_nan=False).map(lambda v: round(v, 2)),
    near,
    near,
    st.lists(st.tuples(near, near), max_size=6),
    st.sampled_from([1.0, 2.0, 3.5, 6.0]),
    st.sampled_from([0.375, 0.5, 0.75]),
)
def test_contact_spot_is_the_ring_searched_spot_by_spot(table, x, y, dx, dy, crowd, inches, r):
    """Crowded positions on an open table and among terrain: bases around the enemy, some
    overlapping, the enemy at or beyond the edge of the move."""
    start = Point(x, y)
    enemy = Body("e", Point(round(x + dx * 2, 2), round(y + dy * 2, 2)), r)
    others = tuple(
        Body(f"o{i}", Point(round(enemy.pos.x + ox, 2), round(enemy.pos.y + oy, 2)), r)
        for i, (ox, oy) in enumerate(crowd)
    ) + (enemy,)
    m = Mover(table, Body("me", start, r), inches, others)
    assert contact_spot(m, enemy) == contact_spot_plain(m, enemy)


def test_contact_spot_stops_only_past_the_reach_of_the_move():
    """An enemy at the very edge of the move: only the spots facing the mover are in reach,
    and the search finds the same one as trying all 180."""
    table = TABLES[0]
    for apart in (2.0, 2.5, 2.74, 2.75, 2.76, 2.8):
        for angle in range(0, 360, 7):
            a = math.radians(angle)
            start = Point(12.0, 12.0)
            enemy = Body(
                "e",
                Point(round(12 + apart * math.cos(a), 2), round(12 + apart * math.sin(a), 2)),
                0.375,
            )
            blocker = Body("b", Point(round(enemy.pos.x - 0.6, 2), round(enemy.pos.y, 2)), 0.375)
            m = Mover(table, Body("me", start, 0.375), 2.0, (enemy, blocker))
            assert contact_spot(m, enemy) == contact_spot_plain(m, enemy), (apart, angle)


spot = st.floats(min_value=1, max_value=23, allow_nan=False).map(lambda v: round(v, 2))


@settings(max_examples=400, deadline=None)
@given(spot, spot, spot, spot, st.lists(st.tuples(spot, spot), max_size=6))
def test_the_bases_test_is_move_problems_on_an_open_table(ax, ay, bx, by, crowd):
    """On a table with no terrain, a move in reach and on the table is refused exactly when
    it ends on a base or passes through one it started clear of."""
    others = tuple(Body(f"o{i}", Point(x, y), 0.5) for i, (x, y) in enumerate(crowd))
    mover = Body("me", Point(ax, ay), 0.5)
    m = Mover(TABLES[0], mover, 40.0, others)
    refused = destinations._on_or_through_a_base(destinations._bases_in_the_way(m), ax, ay, bx, by)
    assert refused == (not m.fits(Point(bx, by)))


def test_remembered_attribution_answers_are_the_worked_out_ones():
    """Every roll of 3-5 d6 (sorted and not): the remembered assignments, leftovers and
    refusals equal a fresh working out, and a caller may change what it was given."""
    from itertools import product

    from wargame_cli.rulesets.battle_of_ixu import attribution

    texts = ("6,5,4", "1,1,1", "6,6", "2,3,1", "x", "5 4 3")
    for n in (3, 4, 5):
        for faces in map(list, product(range(1, 7), repeat=n)):
            offered = attribution.assignments(faces)
            assert tuple(offered) == attribution._assignments.__wrapped__(tuple(faces))
            offered.clear()  # a fresh list each time
            for dice in attribution.assignments(faces):
                left = attribution.unused(faces, dice)
                assert tuple(left) == attribution._unused.__wrapped__(tuple(faces), dice)
                left.append(99)
                assert 99 not in attribution.unused(faces, dice)
            for text in texts:
                plain = attribution._problem.__wrapped__(tuple(faces), text)
                assert attribution.problem(faces, text) == plain


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from(TABLES),
    st.floats(min_value=2, max_value=22, allow_nan=False).map(lambda v: round(v, 2)),
    st.floats(min_value=2, max_value=22, allow_nan=False).map(lambda v: round(v, 2)),
    near,
    near,
    st.lists(st.tuples(near, near), max_size=6),
    st.sampled_from([0.375, 0.5, 0.75]),
)
def test_spots_passed_over_in_a_crowd_are_refused_by_the_move_test(table, x, y, dx, dy, crowd, r):
    """Every ring spot `contact_spot` passes over without testing (on a base, behind the
    enemy) is one the full move test refuses."""
    enemy = Body("e", Point(round(x + dx, 2), round(y + dy, 2)), r)
    others = tuple(
        Body(f"o{i}", Point(round(enemy.pos.x + ox / 2, 2), round(enemy.pos.y + oy / 2, 2)), r)
        for i, (ox, oy) in enumerate(crowd)
    ) + (enemy,)
    m = Mover(table, Body("me", Point(x, y), r), 40.0, others)
    touching = 2 * r
    base = math.atan2(y - enemy.pos.y, x - enemy.pos.x)
    turn = 2 * math.pi / destinations.CONTACT_TRIES
    bases = destinations._bases_in_the_way(m)
    covered = destinations._covered_steps(bases, enemy.pos.x, enemy.pos.y, touching, base, turn)
    behind = destinations._behind_the_enemy(m, enemy, touching, turn)
    ring = contact_ring(m.body.pos, enemy.pos, touching, destinations.CONTACT_TRIES)
    for i, spot in enumerate(ring):
        step = (i + 1) // 2 * (1 if i % 2 else -1)
        if step in covered or abs(step) >= behind:
            assert not m.fits(spot), (step, spot)
