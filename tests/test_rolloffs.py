"""The shared roll-off: highest first, ties rolled again among the tied only; one Roll for
the group or one per rival asked of its side; a bonus; a hook that tells of a tie and may
settle it."""

from __future__ import annotations

from wargame_cli.engine.requests import Event, Roll
from wargame_cli.engine.rolloffs import Dice, ranked, roll_off


def drive(gen, rolls):
    """Answer each Roll with the next list of faces (other requests with None); returns
    (order, requests)."""
    asked = []
    try:
        req = gen.send(None)
        while True:
            asked.append(req)
            req = gen.send(tuple(rolls.pop(0)) if isinstance(req, Roll) else None)
    except StopIteration as stop:
        return stop.value, asked


def test_ranked_groups_equal_values_highest_first():
    assert ranked([("a", 3), ("b", 5), ("c", 3)]) == [["b"], ["a", "c"]]


def test_ties_roll_again_among_the_tied_only():
    seen = []
    order, asked = drive(
        roll_off(
            ["a", "b", "c"],
            Dice(10, lambda g, attempt: "-".join(g) + f"#{attempt}", ("e7",), label=str.upper),
            seen=lambda item, face: seen.append((item, face)),
        ),
        [[4, 7, 4], [2, 2], [9, 3]],
    )
    assert order == ["b", "a", "c"]
    assert [r.dice for r in asked] == [(10, 10, 10), (10, 10), (10, 10)]
    assert [r.reason for r in asked] == ["a-b-c#1", "a-c#1", "a-c#2"]
    assert asked[0].labels == ("A", "B", "C") and asked[0].rules == ("e7",)
    assert all(r.side is None for r in asked)
    assert seen[-2:] == [("a", 9), ("c", 3)]


def test_one_contender_rolls_nothing():
    order, asked = drive(roll_off(["solo"], Dice(6, lambda g, _: "", (), label=str)), [])
    assert order == ["solo"] and asked == []


def test_a_bonus_counts_and_a_tie_is_told_before_the_re_roll():
    def tied(group, totals, attempt):
        yield Event(f"tie at {totals[0]} on roll {attempt}")

    order, asked = drive(
        roll_off(
            ["A", "B"],
            Dice(6, lambda g, n: f"roll {n}", ("b4",), str, {"A": 2, "B": 0}.__getitem__),
            tied=tied,
        ),
        [[3, 5], [1, 2]],
    )
    assert order == ["A", "B"]  # 1+2 beats 2: the bonus counts
    assert [type(r).__name__ for r in asked] == ["Roll", "Event", "Roll"]
    assert asked[1].text == "tie at 5 on roll 1" and asked[2].reason == "roll 2"


def test_a_tie_hook_may_settle_the_tie_instead_of_a_re_roll():
    def tied(group, totals, attempt):
        return list(reversed(group))
        yield  # a generator that asks nothing

    dice = Dice(6, lambda g, _: "", (), str)
    order, asked = drive(roll_off(["A", "B"], dice, tied=tied), [[4, 4]])
    assert order == ["B", "A"] and len(asked) == 1


def test_apart_each_rival_rolls_its_own_die_asked_of_its_side():
    totals, asked = drive(
        Dice(
            20,
            lambda rolling, _: f"{rolling[0]} rolls",
            ("d6",),
            label=str.lower,
            bonus={"A": 1, "B": 2}.__getitem__,
            apart=lambda side: side,
        ).roll(["A", "B"]),
        [[10], [9]],
    )
    assert totals == [11, 11]
    assert [(r.dice, r.reason, r.side, r.labels) for r in asked] == [
        ((20,), "A rolls", "A", ("a",)),
        ((20,), "B rolls", "B", ("b",)),
    ]
