"""Statistics stated right: the seat advantage over both seats from the paired seat swap's
variance, several seat tests at once with their correction, a plot finer than a few points a
cell, counts that read right and an example that works."""

from __future__ import annotations

import json
import math
import re

import pytest

from tests.cli_helpers import one_error_line
from tests.test_simulate_runs import run_json
from wargame_cli import registry
from wargame_cli.ruleset import resolve_options
from wargame_cli.simulate import batch, seats
from wargame_cli.simulate.settings import compared
from wargame_cli.simulate.stats import Z95, holm, stratified_share

TUG = "tug-of-wargods"


def _tally(seat_a: int, seat_b: int) -> batch.Tally:
    tally = batch.Tally()
    tally.results[("A", 5, "x")] = seat_a
    tally.results[("B", 5, "x")] = seat_b
    return tally


def test_the_seat_interval_is_the_paired_swaps_not_one_binomials():
    """Greentoe v Clearsky: the strong team wins ~90% in either seat. Seat A wins 1800 of the
    first 2000 games and 200 of the 2000 swapped ones: the seat is worth nothing, and the
    interval is the paired swap's, checked against the pairs' own sample variance."""
    first = [1.0] * 1800 + [0.0] * 200
    # the swapped half: 10% seat-A wins in each block of the first, so the pairs are uncorrelated
    second = [1.0] * 180 + [0.0] * 1620 + [1.0] * 20 + [0.0] * 180
    pairs = [(x + y) / 2 for x, y in zip(first, second, strict=True)]
    m = len(pairs)
    mean = sum(pairs) / m
    direct = Z95 * math.sqrt(sum((p - mean) ** 2 for p in pairs) / (m - 1) / m)
    found = seats.seat_advantage([_tally(1800, 200), _tally(200, 1800)])
    assert found.share == 0.5 == mean
    assert (found.hi - found.lo) / 2 == pytest.approx(direct, rel=2e-3)
    assert (found.hi - found.lo) / 2 == pytest.approx(0.0093, abs=2e-4)  # not Binomial's 0.0155
    binomial = seats.seat_advantage([_tally(2000, 2000)])  # a mirror: one binomial sample
    assert (binomial.hi - binomial.lo) / 2 == pytest.approx(0.0155, abs=2e-4)
    share, lo, hi = stratified_share([(1800, 2000), (200, 2000)])
    assert (share, lo, hi) == (0.5, found.lo, found.hi)


def test_swap_reports_the_paired_interval(wargame):
    out = run_json(wargame, TUG, "--games", "4000", "--seed", "2", "--swap", "--workers", "1")
    first, second = out["seats"]
    p1 = first["wins"]["A"] / first["games"]
    p2 = second["wins"]["A"] / second["games"]
    half = (out["seat_advantage"]["ci95"][1] - out["seat_advantage"]["ci95"][0]) / 2
    expected = Z95 * math.sqrt(2000 * (p1 * (1 - p1) + p2 * (1 - p2))) / 4000
    assert p1 > 0.85 and p2 < 0.15  # Greentoe is the stronger team in either seat
    assert half == pytest.approx(expected, rel=0.01)
    assert half < 0.011  # the Binomial(4000, 1/2) half-width is 0.0155


def test_holm_keeps_the_family_at_its_level():
    assert holm([0.01, 0.04, 0.03, 0.5]) == [True, False, False, False]
    assert holm([0.001, 0.012, 0.02, 0.9]) == [True, True, True, False]
    assert holm([]) == []


def test_many_seat_tests_at_once_warn_and_correct(wargame):
    args = (TUG, "--team-b", "Greentoe", "--games", "60", "--seed", "1", "--sweep", "start=2..5")
    out = run_json(wargame, *args)
    family = out["seat_tests"]
    assert family["tests"] == 4 and family["bonferroni_level"] == pytest.approx(0.9875)
    assert family["expected_by_chance"] == pytest.approx(0.2)
    assert all("seat_advantage" in row for row in out["settings"])
    shown = wargame("simulate", *args)
    text = " ".join(shown.stdout.split())
    assert "4 seat tests at 95% each: about one in twenty flags a fair seat by chance" in text
    assert "Holm" in text and "98.75%" in text
    plain = run_json(wargame, TUG, "--games", "20", "--seed", "1", "--sweep", "start=2..3")
    assert "seat_tests" not in plain  # not a mirror: no seat tests


def test_a_sweeps_plot_is_finer_than_a_few_points_a_cell(wargame):
    shown = wargame("simulate", TUG, "--games", "2000", "--seed", "3", "--sweep", "start=2..5")
    assert shown.returncode == 0, shown.stderr
    chart = shown.stdout[shown.stdout.index("Side A wins against start") :]
    assert chart.splitlines()[11].split() == ["2", "3", "4", "5"]  # the value along x
    assert "◆" in chart or "◈" in chart  # with the exact odds
    cell = float(re.search(r"a cell: ([\d.]+) points", shown.stdout).group(1))
    assert cell < 1.0  # the rows span 81%-94%: well under the 6 points a 0-100% scale gave
    compared_ = wargame(
        "simulate",
        TUG,
        "--games",
        "500",
        "--seed",
        "3",
        "--compare",
        "start=4",
        "--compare",
        "start=3",
    )
    assert "A wins vs first" in compared_.stdout and "no difference" in compared_.stdout


ONE = re.compile(r"(?<![\d.,])1 (?:[\w-]+ )?games\b")


@pytest.mark.parametrize(
    "args",
    [
        ("--games", "1"),
        ("--games", "1", "--swap"),
        ("--games", "1", "--compare", "start=3", "--compare", "start=4"),
        ("--games", "2", "--matrix"),
    ],
)
def test_one_game_reads_right(wargame, tmp_path, args):
    page = tmp_path / "page.html"
    done = wargame("simulate", TUG, "--seed", "1", *args, "--html", str(page))
    assert done.returncode == 0, done.stderr
    for text in (done.stdout, page.read_text()):
        assert not ONE.search(" ".join(text.split())), ONE.search(" ".join(text.split()))


@pytest.mark.parametrize("ruleset_id", [info.id for info in registry.all_infos()])
def test_the_compare_example_is_valid_for_each_ruleset(wargame, ruleset_id):
    line = one_error_line(wargame("simulate", ruleset_id, "--games", "1", "--compare", "x=1"))
    suggested = re.findall(r"--compare (\w+=\S+)", line)
    assert len(suggested) == 2, line
    ruleset = registry.get(ruleset_id)
    settings = compared(ruleset.options, [], suggested)  # every value passes its checks
    assert settings[0].options != settings[1].options
    assert resolve_options(ruleset.options, None)  # the defaults stand
    json.dumps([s.changed for s in settings])


# -- the bots' share of the result ------------------------------------------------------------
def test_mirrors_run_at_each_bot_level_and_correct_for_their_number(wargame, tmp_path):
    page = tmp_path / "mirrors.html"
    args = (TUG, "--mirrors", "--games", "100", "--seed", "4", "--workers", "1")
    out = run_json(wargame, *args, "--html", str(page))
    rows = out["mirrors"]
    assert out["levels"] == ["default", "random", "search"]
    assert {(r["team"], r["level"]) for r in rows} == {
        (team, level) for team in {r["team"] for r in rows} for level in out["levels"]
    }
    assert out["seat_tests"]["tests"] == len(rows) == 15
    assert all(r["A"] + r["B"] + r["draws"] == 100 for r in rows)
    assert out["run"]["bots"]["A"] == "default, random, search"
    assert "15 seat tests at 95% each" in " ".join(page.read_text().split())
    one = run_json(wargame, *args, "--bot-level", "random")
    assert {r["level"] for r in one["mirrors"]} == {"random"}
    assert one["mirrors"] == [r for r in rows if r["level"] == "random"]  # the same seeds
    for bad, needle in (
        (("--bot-level", "A=random,B=default"), "one --bot-level for both sides"),
        (("--team-a", "Greentoe"), "drop --team-a"),
        (("--swap",), "one study at a time"),
    ):
        assert needle in one_error_line(wargame("simulate", *args, *bad))


def test_every_study_says_which_bots_played_and_plays_them(wargame):
    base = (TUG, "--games", "60", "--seed", "3", "--workers", "1")
    cases = [(), ("--compare", "start=3", "--compare", "start=4"), ("--matrix",)]
    for study in cases:
        default = run_json(wargame, *base, *study)
        levelled = run_json(wargame, *base, *study, "--bot-level", "A=random")
        assert default["run"]["bots"] == {"A": "default", "B": "default"}
        assert levelled["run"]["bots"] == {"A": "random", "B": "default"}, study
        # Tug asks no decisions (`has_decisions` False): on the same dice (each game on its
        # own seed, as `wargame play --seed S --bot-level` plays it) any bot plays the same
        if not study:
            assert (levelled["wins"], levelled["lengths"]) == (default["wins"], default["lengths"])
        shown = wargame("simulate", *base, *study, "--bot-level", "A=random")
        assert "Bots: random level (A), default level (B)" in shown.stdout, study
    # where the bots decide, the levels play other games on the same dice
    ixu = ("battle-of-ixu", "--games", "6", "--seed", "3", "--workers", "1")
    stock, randomised = run_json(wargame, *ixu), run_json(wargame, *ixu, "--bot-level", "A=random")
    assert stock["lengths"] != randomised["lengths"]
    # the same team under different bots is no mirror: no seat advantage claimed
    same = run_json(wargame, *base, "--team-b", "Greentoe", "--bot-level", "A=random")
    assert "seat_advantage" not in same
    mirror = run_json(wargame, *base, "--team-b", "Greentoe", "--bot-level", "random")
    assert "seat_advantage" in mirror


def test_replays_odds_line_counts_one_bot_game_right():
    from wargame_cli.cli.replay_pages import odds_line

    row = {"turn": 2, "A": 1.0, "B": 0.0, "draw": 0.0, "method": "bots", "games": 1}
    shown = odds_line(row, {"A": "Swords", "B": "Axes"}, "turn").plain
    assert "(1 bot game)" in shown and "1 bot games" not in shown
    assert "(2 bot games)" in odds_line({**row, "games": 2}, {"A": "S", "B": "X"}, "turn").plain
