"""Tug of WarGods rule points a1-a19, each test named by its rule id."""

from __future__ import annotations

import pytest
from wargame_cli.rulesets.tug_of_wargods import teams
from wargame_cli.rulesets.tug_of_wargods.ruleset import RULESET

from tests.helpers import Script
from wargame_cli.engine.requests import Roll, TurnStart
from wargame_cli.errors import TeamError
from wargame_cli.ruleset import Setup, resolve_options

DEFAULTS = resolve_options(RULESET.options, None)
GREENTOE = ["Sebeki", "Asar", "Asar"]
CLEARSKY = ["Heru", "Asar", "Basti"]


def game(a=GREENTOE, b=CLEARSKY, **options):
    opts = resolve_options(RULESET.options, options)
    setup = Setup(
        names={"A": "Greentoe", "B": "Clearsky"},
        teams={"A": {"models": list(a)}, "B": {"models": list(b)}},
    )
    return RULESET.new_game(setup, opts)


def play_turns(g, faces, turns):
    """Answer `turns` whole turns with `faces`; returns the script (stopped before the next)."""
    script = Script(faces)
    count = {"n": 0}

    def until(req):
        if isinstance(req, TurnStart):
            count["n"] += 1
            return count["n"] > turns
        return False

    script.run(g, until=until)
    return script


def fronts(g):
    return g.state.sides["A"].front, g.state.sides["B"].front


# --- teams -----------------------------------------------------------------------------------
def test_a1_team_has_exactly_three():
    with pytest.raises(TeamError, match=r"exactly 3.*\(a1\)"):
        teams.parse_inline("Sebeki,Asar", DEFAULTS)
    with pytest.raises(TeamError, match="a1"):
        teams.parse_inline("Asar,Asar,Asar,Asar", DEFAULTS)
    assert teams.parse_inline("Sebeki,Asar,Asar", DEFAULTS) == GREENTOE


def test_a2_each_model_adds_its_die():
    g = game()
    script = Script([4, 3, 6, 4, 4, 3])
    script.run(g, until=lambda r: isinstance(r, TurnStart) and r.number == 2)
    rolls = [r for r in script.requests if isinstance(r, Roll)]
    assert [r.dice for r in rolls] == [(10, 6, 6), (8, 6, 4)]


def test_a3_heru_and_typhon_never_together():
    with pytest.raises(TeamError, match="Heru may not be on a team with Typhon"):
        teams.parse_inline("Heru,Typhon,Asar", DEFAULTS)
    off = {**DEFAULTS, "restrictions": "off"}
    assert teams.parse_inline("Heru,Typhon,Asar", off) == ["Heru", "Typhon", "Asar"]


def test_a3_strict_demands_one_game_line():
    strict = {**DEFAULTS, "restrictions": "strict"}
    with pytest.raises(TeamError, match="one game line"):
        teams.parse_inline("Sebeki,Amazon,Asar", strict)
    assert teams.parse_inline("Sebeki,Anubi,Asar", strict)


def test_a4_one_d12_per_team_by_tier():
    with pytest.raises(TeamError, match=r"at most 1 d12.*\(a4\)"):
        teams.parse_inline("Minotaur,Beloved of Sobek,Asar", DEFAULTS)
    by_type = {**DEFAULTS, "limits": "type"}
    assert teams.parse_inline("Minotaur,Beloved of Sobek,Asar", by_type)
    with pytest.raises(TeamError, match="a4"):
        teams.parse_inline("2 Minotaur, Asar", by_type)


def test_a5_two_d10_per_team():
    assert teams.parse_inline("2 Sebeki, To-Tanem", DEFAULTS) == ["Sebeki", "Sebeki", "To-Tanem"]
    with pytest.raises(TeamError, match=r"at most 2 d10.*\(a5\)"):
        teams.parse_inline("Sebeki,Wendigo,Sebeki", DEFAULTS)


@pytest.mark.parametrize(
    "unit,die",
    [
        ("Heru", 8),
        ("Mycenean", 8),
        ("Amazon", 6),
        ("Spartan", 6),
        ("Satyr", 4),
        ("Frost Maidens", 4),
    ],
)
def test_a6_a7_a8_tiers_allow_three(unit, die):
    models = teams.parse_inline(f"3 {unit}", DEFAULTS)
    assert len(models) == 3
    assert teams.catalogue().units[models[0]].die == die


def test_seed_team_examples_are_legal():
    for spec in ("2 Sebeki, 1 To-Tanem", "1 Amazon, 2 Satyrs", "1 Wendigo, 2 Frost Maidens"):
        assert len(teams.parse_inline(spec, DEFAULTS)) == 3


def test_unknown_unit_is_named():
    with pytest.raises(TeamError, match="unknown unit 'Dragon'"):
        teams.parse_inline("Dragon,Asar,Asar", DEFAULTS)


# --- play ------------------------------------------------------------------------------------
def test_a9_a10_columns_start_four_inches_out_one_inch_apart():
    g = game()
    assert [m.distance for m in g.state.sides["A"].models] == [4.0, 5.0, 6.0]
    assert [m.distance for m in g.state.sides["B"].models] == [4.0, 5.0, 6.0]
    g2 = game(start=6.0, spacing=0.5)
    assert [m.distance for m in g2.state.sides["B"].models] == [6.0, 6.5, 7.0]


def test_play_example_turn_one():
    """The seed's play example: 4,3,6 = 13 against 4,4,3 = 11: Clearsky pulled 1" to 3"."""
    g = game()
    script = play_turns(g, [4, 3, 6, 4, 4, 3], 1)
    assert g.state.last.totals == {"A": 13, "B": 11}
    assert fronts(g) == (5.0, 3.0)
    pull = [e for e in script.events if e.kind == "pull"][0]
    assert pull.data == {"winner": "A", "difference": 2, "inches": 1.0}


def test_a11_every_member_rolls_even_across():
    g = game()
    # turn 1: 12 vs 3 -> B pulled 4.5": its front model is across (-0.5)
    script = play_turns(g, [6, 3, 3, 1, 1, 1, 2, 2, 2, 2, 2, 2], 2)
    assert g.state.sides["B"].models[0].across
    rolls = [r for r in script.requests if isinstance(r, Roll)]
    assert [(r.side, len(r.dice)) for r in rolls] == [("A", 3), ("B", 3), ("A", 3), ("B", 3)]


def test_a12_total_is_sum_plus_modifier():
    g = game()
    play_turns(g, [5, 3, 2, 4, 4, 2], 2 - 1)  # tie at 10
    assert g.state.sides["A"].penalty == 1
    play_turns(g, [5, 3, 2, 4, 4, 1], 1)
    assert g.state.last.totals == {"A": 9, "B": 8}
    assert g.state.last.modifiers == {"A": -1, "B": -1}


def test_a13_a14_winner_backs_off_loser_pulled_sum_is_twice_start():
    g = game()
    play_turns(g, [1, 1, 1, 8, 6, 4], 1)  # 3 vs 18: B wins by 15, pulls 7.5"
    a, b = fronts(g)
    assert (a, b) == (-3.5, 11.5)
    assert a + b == 8.0


def test_a13_rounding_exact_and_down():
    g = game()
    play_turns(g, [4, 3, 6, 4, 4, 2], 1)  # 13 vs 10: difference 3
    assert fronts(g) == (5.5, 2.5)
    g = game(rounding="down")
    play_turns(g, [4, 3, 6, 4, 4, 2], 1)
    assert fronts(g) == (5.0, 3.0)
    g = game(rounding="down")
    script = play_turns(g, [4, 3, 6, 4, 4, 4], 1)  # difference 1: moves 0, not a tie
    assert fronts(g) == (4.0, 4.0)
    assert g.state.sides["A"].penalty == 0
    assert "tie" not in script.kinds()


def test_a15_a16_tie_nobody_moves_and_minus_one_next_roll():
    g = game()
    script = play_turns(g, [4, 3, 6, 4, 4, 5], 1)  # 13 vs 13
    assert fronts(g) == (4.0, 4.0)
    assert script.kinds() == ["tie"]
    assert [t.penalty for t in g.state.sides.values()] == [1, 1]
    play_turns(g, [4, 3, 6, 4, 4, 5], 1)  # tie again: does not stack by default
    assert [t.penalty for t in g.state.sides.values()] == [1, 1]
    play_turns(g, [4, 3, 6, 4, 4, 3], 1)  # a decided roll clears it
    assert [t.penalty for t in g.state.sides.values()] == [0, 0]


def test_a16_stacking_option():
    g = game(tie_penalty_stacks=True)
    play_turns(g, [4, 3, 6, 4, 4, 5, 4, 3, 6, 4, 4, 5], 2)
    assert [t.penalty for t in g.state.sides.values()] == [2, 2]


def test_a17_two_across_wins_for_the_other_team():
    g = game()
    script = Script([10, 6, 6, 1, 1, 1])  # 22 vs 3: 9.5": B at -5.5, -4.5, -3.5
    script.run(g)
    assert script.outcome.winner == "A"
    assert script.outcome.rules == ("a17",)


def test_a17_exactly_on_the_line_is_not_across():
    g = game()
    # 12 vs 4: pull 4": B front at 0.0 (on the line, not across), no crossing
    script = play_turns(g, [6, 3, 3, 2, 1, 1], 1)
    assert g.state.sides["B"].front == 0.0
    assert not g.state.sides["B"].models[0].across
    assert "cross" not in script.kinds()


def test_a18_same_model_across_on_two_turns():
    g = game()
    # t1: 12 vs 3 -> 4.5": B front -0.5 (crossing 1, one across)
    # t2: 3 vs 12 -> B wins, pulls 4.5": B front 4.0 (back on its side)
    # t3: 12 vs 3 -> B front -0.5 again: second crossing of the same model
    script = Script([6, 3, 3, 1, 1, 1, 1, 1, 1, 6, 3, 3, 6, 3, 3, 1, 1, 1])
    script.run(g)
    assert script.outcome.winner == "A"
    assert script.outcome.rules == ("a18",)
    assert g.state.sides["B"].models[0].crossings == 2
    assert g.state.sides["B"].across_count == 1


def test_a19_rolls_until_someone_wins():
    g = game()
    script = Script([4, 3, 6, 4, 4, 5] * 5 + [10, 6, 6, 1, 1, 1])
    script.run(g)
    assert sum(isinstance(r, TurnStart) for r in script.requests) == 6
    assert script.outcome.winner == "A"
