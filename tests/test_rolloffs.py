"""The shared roll-off: highest first, ties rolled again among the tied only."""

from __future__ import annotations

from wargame_cli.engine.rolloffs import ranked, settle_ties


def drive(gen, rolls):
    """Answer each Roll with the next list of faces; returns (order, requests)."""
    asked = []
    try:
        req = gen.send(None)
        while True:
            asked.append(req)
            req = gen.send(tuple(rolls.pop(0)))
    except StopIteration as stop:
        return stop.value, asked


def test_ranked_groups_equal_values_highest_first():
    assert ranked([("a", 3), ("b", 5), ("c", 3)]) == [["b"], ["a", "c"]]


def test_ties_roll_again_among_the_tied_only():
    seen = []
    order, asked = drive(
        settle_ties(
            ["a", "b", "c"],
            10,
            lambda g: "-".join(g),
            ("e7",),
            label=str.upper,
            seen=lambda item, face: seen.append((item, face)),
        ),
        [[4, 7, 4], [2, 2], [9, 3]],
    )
    assert order == ["b", "a", "c"]
    assert [r.dice for r in asked] == [(10, 10, 10), (10, 10), (10, 10)]
    assert [r.reason for r in asked] == ["a-b-c", "a-c", "a-c"]
    assert asked[0].labels == ("A", "B", "C") and asked[0].rules == ("e7",)
    assert seen[-2:] == [("a", 9), ("c", 3)]


def test_one_contender_rolls_nothing():
    order, asked = drive(settle_ties(["solo"], 6, str, (), label=str), [])
    assert order == ["solo"] and asked == []
