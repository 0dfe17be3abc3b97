"""Properties of Squad Alpha: bot-vs-bot games with any legal squads and options end, and no
rule invariant ever breaks along the way (a casualty never acts, the dice attributed equal the
living miniatures, bases never overlap or stand in buildings, the rating follows casualties)."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from wargame_cli.rulesets.squad_alpha import odds
from wargame_cli.rulesets.squad_alpha.ruleset import RULESET

from wargame_cli.engine.session import start
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.tabletop.movement import CONTACT_TOLERANCE, standing_problem
from wargame_cli.tabletop.sight import line_of_sight

TRAININGS = ("conscript", "regular", "elite")


@st.composite
def squads(draw: Any) -> dict[str, Any]:
    size = draw(st.integers(5, 10))
    ratings = draw(st.lists(st.integers(0, 6), min_size=size - 1, max_size=size - 1))
    leader = draw(st.integers(max(ratings) + 1, 10))
    at = draw(st.integers(0, size - 1))
    ratings.insert(at, leader)
    return {
        "miniatures": [
            {"name": f"M{i}", "training": draw(st.sampled_from(TRAININGS)), "rating": r}
            for i, r in enumerate(ratings)
        ]
    }


class Invariants:
    """A runner observer checking every log entry against the state."""

    def __init__(self) -> None:
        self.dead: set[str] = set()
        self.rolled: dict[str, int] = {}
        self.activations = 0

    def __call__(self, entry: dict[str, Any], game: Any) -> None:
        state = game.state
        if entry["t"] == "roll" and "dice for turn" in entry["reason"]:
            living = len(state.squads[entry["side"]].living)
            assert len(entry["faces"]) == living  # b7, b22
            self.rolled[entry["side"]] = living
        if entry["t"] == "event":
            kind, data = entry["kind"], entry.get("data") or {}
            if kind == "kill":
                assert data["id"] not in self.dead
                self.dead.add(data["id"])
            if kind in ("activate", "move", "shot", "melee", "test"):
                assert data["id"] not in self.dead, entry  # a casualty never acts
                assert state.mini(data["id"]).alive
            if kind == "activate":
                self.activations += 1
                mini = state.mini(data["id"])
                assert mini.die == data["step"] == state.step
            if kind == "attribute":
                side = data["side"]
                assert len(data["dice"]) == len(state.squads[side].living) == self.rolled[side]
                assert all(1 <= f <= 6 for f in data["dice"].values())
        for side, squad in state.squads.items():
            leader = state.leader(side)
            assert state.current_rating(side) == leader.rating - squad.casualties  # b23
            assert state.modifier(side) == min(0, state.current_rating(side))  # b24
        bodies = state.bodies()
        for body in bodies:
            assert standing_problem(state.table, body, bodies) is None
        for i, a in enumerate(bodies):
            for b in bodies[i + 1 :]:
                assert a.pos.distance(b.pos) >= a.radius + b.radius - CONTACT_TOLERANCE


@settings(max_examples=6, deadline=None)
@given(
    seed=st.integers(1, 10**9),
    team_a=squads(),
    team_b=squads(),
    dead_leader=st.sampled_from(("keep", "successor")),
    melee_miss=st.sampled_from(("shooter", "random")),
)
def test_bot_games_end_and_never_break_an_invariant(seed, team_a, team_b, dead_leader, melee_miss):
    options = resolve_options(
        RULESET.options, {"max_turns": 12, "dead_leader": dead_leader, "melee_miss": melee_miss}
    )
    teams = {
        "A": RULESET.team_from_data(team_a, options),
        "B": RULESET.team_from_data(team_b, options),
    }
    check = Invariants()
    session = start(
        RULESET, Setup({"A": "Reds", "B": "Blues"}, teams), options, seed, observer=check
    )
    session.runner.run()
    assert session.status == "finished"
    assert session.runner.turn <= 12
    assert check.activations > 0
    outcome = session.runner.outcome
    state = session.game.state
    if "no miniatures left" in outcome.reason:
        loser = "B" if outcome.winner == "A" else "A"
        assert not state.squads[loser].living and state.squads[outcome.winner].living
    json_state = session.game.state_json()
    for side in ("A", "B"):
        minis = json_state["sides"][side]["miniatures"]
        assert {m["status"] for m in minis} <= {"active", "casualty"}
        casualties = sum(m["status"] == "casualty" for m in minis)
        assert json_state["sides"][side]["casualties"] == casualties


@given(
    faces=st.lists(st.integers(1, 6), min_size=1, max_size=3),
    step=st.integers(1, 6),
    modifier=st.integers(-10, 0),
)
def test_b12_b13_b25_the_action_test_formula(faces, step, modifier):
    expected = any(f == 1 or (f <= step + modifier and f != 6) for f in faces)
    assert odds.test_passes(faces, step, modifier) is expected
    assert odds.pass_chance(len(faces), step, modifier) >= 1 - (5 / 6) ** len(faces) - 1e-12


@given(training_dice=st.integers(1, 3), modifier=st.integers(-10, 0))
def test_pass_chance_rises_with_the_step_and_the_training(training_dice, modifier):
    chances = [odds.pass_chance(training_dice, step, modifier) for step in range(1, 7)]
    assert chances == sorted(chances)
    assert odds.pass_chance(training_dice + 1, 3, modifier) >= odds.pass_chance(
        training_dice, 3, modifier
    )


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_b5_deployment_never_in_sight_of_an_enemy_on_the_default_table(seed):
    """Every placement in seeded bot games is hidden from all enemies already placed, unless
    the fallback was announced."""
    options = resolve_options(RULESET.options, None)
    teams = {s: RULESET.default_team(s, options)[0] for s in ("A", "B")}
    placed: dict[str, Any] = {}
    fallback: set[str] = set()

    def watch(entry: dict[str, Any], game: Any) -> None:
        if entry["t"] != "event":
            return
        data = entry.get("data") or {}
        if entry["kind"] == "deploy-fallback":
            fallback.add(data["id"])
        if entry["kind"] == "deploy":
            me = game.state.mini(data["id"])
            for other_id in placed:
                other = game.state.mini(other_id)
                if other.side != me.side and data["id"] not in fallback:
                    assert not line_of_sight(game.state.table, other.pos, me.pos)
            placed[data["id"]] = me.pos

    session = start(RULESET, Setup({"A": "A", "B": "B"}, teams), options, seed, observer=watch)
    session.runner.run(stop_after_turn=0)
    assert len(placed) == 12
