"""`wargame dice`: the exact odds of one roll, checked through the real entry against an
independent count of every way the dice can fall (`itertools.product`), and each built-in
ruleset's named rolls against the rules' own functions; `--json`, `--html` and bad input."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from fractions import Fraction
from html.parser import HTMLParser
from itertools import product
from typing import Any

import pytest

from tests.cli_helpers import one_error_line


def rolled(wargame: Any, *args: str) -> dict[str, Any]:
    done = wargame("dice", *args, "--json")
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def exact(text: str) -> Fraction:
    numerator, slash, denominator = text.partition("/")
    assert slash and denominator, text  # always "p/q"
    return Fraction(int(numerator), int(denominator))


def table(result: dict[str, Any]) -> dict[int, Fraction]:
    return {row["value"]: exact(row["exact"]) for row in result["distribution"]}


def counted(dice: Iterable[int], value: Callable[[tuple[int, ...]], int]) -> dict[int, Fraction]:
    """Every way `dice` can fall, each equally likely: the chance of each `value`."""
    ways = list(product(*(range(1, d + 1) for d in dice)))
    counts = Counter(value(faces) for faces in ways)
    return {v: Fraction(n, len(ways)) for v, n in sorted(counts.items())}


def chance(dist: dict[int, Fraction], test: Callable[[int], bool]) -> Fraction:
    return sum((p for v, p in dist.items() if test(v)), Fraction(0))


# -- expressions against an independent count -------------------------------------------------
EXPRESSIONS = [
    ("2d10+d8", (10, 10, 8), sum, None),
    ("4d6 highest 3", (6,) * 4, lambda f: sum(sorted(f)[1:]), None),
    ("5d4 lowest 2", (4,) * 5, lambda f: sum(sorted(f)[:2]), None),
    ("3d6 best 1 <= 2", (6,) * 3, min, lambda v: v <= 2),
    ("2 >= 3d6 best 1", (6,) * 3, min, lambda v: v <= 2),
    ("3d6 worst 1 >= 5", (6,) * 3, min, lambda v: v >= 5),
    ("3d8 best 2 > 12", (8,) * 3, lambda f: sum(sorted(f)[1:]), lambda v: v > 12),
    ("d20+3 > 14", (20,), lambda f: f[0] + 3, lambda v: v > 14),
    ("-d6 + 10 != 7", (6,), lambda f: 10 - f[0], lambda v: v != 7),
    ("(d6+d4)-2 = 3", (6, 4), lambda f: f[0] + f[1] - 2, lambda v: v == 3),
    ("d12 - 2d4 < 0", (12, 4, 4), lambda f: f[0] - f[1] - f[2], lambda v: v < 0),
    ("pool 5d6 >= 5", (6,) * 5, lambda f: sum(x >= 5 for x in f), None),
    ("pool 4d8 > 5 >= 2", (8,) * 4, lambda f: sum(x > 5 for x in f), lambda v: v >= 2),
    ("pool 3d10 < 4 + 1", (10,) * 3, lambda f: sum(x < 4 for x in f) + 1, None),
]


@pytest.mark.parametrize(
    ("text", "dice", "value", "test"), EXPRESSIONS, ids=[e[0] for e in EXPRESSIONS]
)
def test_an_expression_is_exactly_what_every_throw_counts(wargame, text, dice, value, test):
    result = rolled(wargame, text)
    truth = counted(dice, value)
    assert table(result) == truth
    if test is None:
        assert result["chance"] is None and result["chance_exact"] is None
    else:
        assert exact(result["chance_exact"]) == chance(truth, test)
        assert [r["holds"] for r in result["distribution"]] == [test(v) for v in truth]
    assert exact(result["mean_exact"]) == sum(v * p for v, p in truth.items())


def test_one_roll_beating_another_in_one_command(wargame):
    """ "What is the chance of 2d10+d8 beating 3d6?": the table is of the difference."""
    result = rolled(wargame, "2d10+d8 > 3d6")
    truth = counted((10, 10, 8, 6, 6, 6), lambda f: f[0] + f[1] + f[2] - f[3] - f[4] - f[5])
    assert table(result) == truth
    assert exact(result["chance_exact"]) == chance(truth, lambda v: v > 0)
    assert result["of"] == "(2d10 + d8) - (3d6)"
    by_value = {r["value"]: r for r in result["distribution"]}
    assert exact(by_value[1]["at_least_exact"]) == exact(result["chance_exact"])


def test_a_pool_against_defence_is_the_mobs_and_morale_attack(wargame):
    """Each success meets a defence die of the same size; each at or over the defence cancels
    one (e12-e14), counted by the rules' own `pools` on every throw of attack and defence."""
    from wargame_cli.rulesets.mobs_and_morale import pools

    result = rolled(wargame, "pool 3d6 >= 4 vs defence 5")

    def damage(faces: tuple[int, ...]) -> int:
        attack, defence = faces[:3], faces[3:]
        hits = pools.successes(attack, 4)
        return pools.damage(hits, defence[:hits], 5)

    assert table(result) == counted((6,) * 6, damage)


def test_the_issue_examples_read_and_the_terminal_shows_table_and_bars(wargame):
    done = wargame("dice", "3d6 best 1 <= 2")
    assert done.returncode == 0, done.stderr
    out = done.stdout
    assert "3d6 lowest 1 <= 2" in out
    for head in ("value", "exact %", "at least %", "at most %"):
        assert head in out
    assert "42.13%" in out and "70.37%" in out  # P(lowest is 1); P(lowest <= 2)
    assert "Chance of 3d6 lowest 1 <= 2: 70.37% (19/27)" in out
    assert "█" in out
    words = wargame("dice", "pool", "4d10", ">=", "6", "vs", "defence", "8")
    assert words.returncode == 0 and "Mean 1.4 (7/5)" in words.stdout


# -- every built-in ruleset's rolls, against the rules' own functions ------------------------
def test_squad_alpha_test_is_the_rules_own_test(wargame):
    from wargame_cli.rulesets.squad_alpha.odds import DIE, test_passes
    from wargame_cli.rulesets.squad_alpha.teams import TRAINING_DICE

    for training, step, modifier in [
        ("elite", 2, 0),
        ("conscript", 6, 0),
        ("regular", 6, 3),
        ("elite", 4, -2),
        ("regular", 1, -5),
    ]:
        result = rolled(
            wargame,
            "squad-alpha",
            "test",
            "--training",
            training,
            f"--step={step}",
            "--modifier",
            str(modifier),
        )
        dice = (DIE,) * TRAINING_DICE[training]
        passes = counted(dice, lambda f, s=step, m=modifier: int(test_passes(f, s, m)))
        assert exact(result["chance_exact"]) == passes.get(1, 0), (training, step, modifier)
        assert result["params"] == {"training": training, "step": step, "modifier": modifier}
        assert result["rules"] == ["b12", "b13", "b24", "b25"]


def test_squad_alpha_save_and_ixu_rolls(wargame):
    from wargame_cli.rulesets.battle_of_ixu.odds import check_fails, hits_exactly
    from wargame_cli.rulesets.squad_alpha.odds import DIE, SAVE_NEEDED, saves

    for kind in SAVE_NEEDED:
        result = rolled(wargame, "squad-alpha", "save", "--cover", kind.value)
        truth = chance(counted((DIE,), lambda f: f[0]), lambda v, k=kind: saves(v, k))
        assert exact(result["chance_exact"]) == truth
    combat = rolled(wargame, "battle-of-ixu", "combat", "--dice", "4", "--defence", "3")
    assert combat["expression"] == "pool 4d6 > 3"
    for k, p in table(combat).items():
        assert float(p) == pytest.approx(hits_exactly(4, 6, 3, k))
    eight = rolled(wargame, "battle-of-ixu", "combat", "--option", "die=8", "--dice", "5")
    assert eight["expression"] == "pool 5d8 > 3" and eight["options"]["die"] == 8
    for damage in (0, 3, 10):
        check = rolled(wargame, "battle-of-ixu", "check", "--damage", str(damage))
        assert float(exact(check["chance_exact"])) == pytest.approx(check_fails(damage))
    assert table(rolled(wargame, "battle-of-ixu", "experience", "--experience", "5")) == (
        counted((6,) * 5, sum)
    )


def test_seeds_of_wars_rolls_are_the_cards_checks(wargame):
    from wargame_cli.rulesets.seeds_of_wars.checks import (
        DIE,
        MAX_BONUS,
        hits,
        morale_passes,
        recovery_passes,
    )

    d20 = counted((DIE,), lambda f: f[0])
    for charging in (False, True):
        flag = ["--charging"] if charging else []
        result = rolled(wargame, "seeds-of-wars", "attack", "--me", "5", "--de", "13", *flag)
        bonus = 5 + (MAX_BONUS if charging else 0)
        assert exact(result["chance_exact"]) == chance(d20, lambda f, b=bonus: hits(f, b, 13))
    ranged = rolled(wargame, "seeds-of-wars", "ranged", "--ra", "-1", "--de", "9")
    assert exact(ranged["chance_exact"]) == chance(d20, lambda f: hits(f, -1, 9))
    recovery = rolled(wargame, "seeds-of-wars", "recovery", "--mo", "3")
    assert exact(recovery["chance_exact"]) == chance(d20, lambda f: recovery_passes(f, 3))
    morale = rolled(wargame, "seeds-of-wars", "morale", "--mo", "2", "--taken", "4")
    assert exact(morale["chance_exact"]) == chance(d20, lambda f: morale_passes(f, 2, 4))


def test_mobs_and_morale_rolls_are_its_pools(wargame):
    from wargame_cli.rulesets.mobs_and_morale import pools
    from wargame_cli.rulesets.mobs_and_morale.odds import damage_at_least

    attack = rolled(wargame, "mobs-and-morale", "attack", "--fierce", "4", "--defence", "8")
    assert attack["expression"] == "pool 4d10 >= 6 vs defence 8"
    for row in attack["distribution"]:
        assert row["at_least"] == pytest.approx(damage_at_least(4, 10, 6, 8, row["value"]))
    small = rolled(
        wargame, "mobs-and-morale", "attack", "--fierce", "2", "--defence", "4", "--option", "die=6"
    )
    assert small["expression"] == "pool 2d6 >= 6 vs defence 4"
    morale = rolled(wargame, "mobs-and-morale", "morale", "--dead", "3", "--morale", "5")
    assert table(morale) == counted((10,) * 3, lambda f: pools.in_danger(f, 5))
    presence = rolled(wargame, "mobs-and-morale", "presence", "--presence", "3")
    assert table(presence) == counted((10,) * 3, lambda f: pools.successes(f, 6))
    survival = rolled(wargame, "mobs-and-morale", "survival")
    truth = counted((pools.SURVIVAL_DIE,), lambda f: int(pools.survives(f[0])))
    assert exact(survival["chance_exact"]) == truth[1]


def test_tug_rolls_read_teams_as_the_game_does(wargame):
    from wargame_cli.rulesets.tug_of_wargods import odds, teams

    cat = teams.catalogue()
    team_a = list(cat.example(cat.defaults["A"]))
    team_b = ["Beloved of Sobek", "Sebeki", "Basti"]
    pull = rolled(
        wargame,
        "tug-of-wargods",
        "pull",
        "--team-a",
        cat.defaults["A"],
        "--team-b",
        ", ".join(team_b),
    )
    diff = odds.difference_odds(odds.pool({"models": team_a}), odds.pool({"models": team_b}))
    assert table(pull) == diff
    assert exact(pull["chance_exact"]) == chance(diff, lambda d: d > 0)
    roll = rolled(wargame, "tug-of-wargods", "roll", "--team", ", ".join(team_b))
    assert table(roll) == counted((12, 10, 4), sum)
    bad = one_error_line(wargame("dice", "tug-of-wargods", "roll", "--team", "Nobody"))
    assert "Nobody" in bad


BUILTIN = ("tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale")


def test_the_builtin_rulesets_are_all_here():
    from wargame_cli.registry import all_infos

    assert sorted(i.id for i in all_infos() if i.builtin) == sorted(BUILTIN)


@pytest.mark.parametrize("ruleset", BUILTIN)
def test_every_builtin_ruleset_lists_its_rolls_and_each_works_out(wargame, ruleset):
    listing = rolled(wargame, ruleset)
    assert listing["ruleset"] == ruleset and listing["rolls"]
    for roll in listing["rolls"]:
        result = rolled(wargame, ruleset, roll["name"])  # every parameter at its default
        assert result["expression"] == roll["expression"]
        assert result["params"] == {p["name"]: p["default"] for p in roll["params"]}
        assert sum(table(result).values()) == 1
    shown = wargame("dice", ruleset)
    assert shown.returncode == 0 and f"wargame dice {ruleset}" in shown.stdout
    for roll in listing["rolls"]:
        assert roll["name"] in shown.stdout


def test_a_ruleset_naming_no_rolls_keeps_working(wargame):
    from wargame_cli.registry import all_infos

    plugin = next(i for i in all_infos() if not i.builtin)
    done = wargame("dice", plugin.id)
    assert done.returncode == 0 and "names no rolls" in done.stdout
    assert rolled(wargame, plugin.id)["rolls"] == []
    assert "names no rolls" in one_error_line(wargame("dice", plugin.id, "attack"))


def test_a_change_to_the_rules_changes_the_roll(wargame, monkeypatch):
    from wargame_cli.rulesets.squad_alpha import teams

    monkeypatch.setitem(teams.TRAINING_DICE, "elite", 4)
    result = rolled(wargame, "squad-alpha", "test", "--training", "elite", "--step", "2")
    assert result["expression"] == "4d6 lowest 1 <= 2"


# -- JSON and HTML ----------------------------------------------------------------------------
def test_json_is_one_object_with_exact_strings_and_floats(wargame):
    result = rolled(wargame, "2d6")
    rows = result["distribution"]
    assert [r["value"] for r in rows] == list(range(2, 13))
    assert rows[5] == {
        "value": 7,
        "exact": "1/6",
        "chance": pytest.approx(1 / 6),
        "at_least_exact": "7/12",
        "at_least": pytest.approx(7 / 12),
        "at_most_exact": "7/12",
        "at_most": pytest.approx(7 / 12),
    }
    assert rows[0]["at_least_exact"] == "1/1" and rows[-1]["at_most_exact"] == "1/1"
    assert result["mean_exact"] == "7/1" and result["expression"] == "2d6"


class Page(HTMLParser):
    """What the page holds: its tags in order, the table's cells, the SVG's bars."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.cells: list[str] = []
        self.bars = 0
        self.svgs = 0
        self.scripts = 0
        self._cell = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in ("meta", "br"):
            self.stack.append(tag)
        self._cell = tag == "td"
        self.svgs += tag == "svg"
        self.scripts += tag == "script"
        if tag == "rect" and dict(attrs).get("fill") in ("#2e8b57", "#b8b8b8", "#1f77b4"):
            self.bars += 1

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "rect" and dict(attrs).get("fill") in ("#2e8b57", "#b8b8b8", "#1f77b4"):
            self.bars += 1

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack.pop() == tag, (tag, self.stack)
        self._cell = False

    def handle_data(self, data: str) -> None:
        if self._cell:
            self.cells.append(data)


def test_html_holds_the_table_and_a_chart_and_needs_force_to_replace(wargame, tmp_path):
    target = tmp_path / "odds.html"
    done = wargame("dice", "2d10+d8 > 3d6", "--html", str(target))
    assert done.returncode == 0, done.stderr
    page = Page()
    page.feed(target.read_text(encoding="utf-8"))
    result = rolled(wargame, "2d10+d8 > 3d6")
    assert page.svgs == 1 and page.scripts == 0 and page.stack == []
    assert page.bars == len(result["distribution"])
    for row in result["distribution"]:
        assert row["exact"] in page.cells
    assert result["chance_exact"] in target.read_text()
    again = one_error_line(wargame("dice", "d6", "--html", str(target)))
    assert "--force" in again and result["chance_exact"] in target.read_text()
    forced = wargame("dice", "d6", "--html", str(target), "--force", "--json")
    assert forced.returncode == 0 and json.loads(forced.stdout)["expression"] == "d6"
    assert "1/6" in target.read_text() and result["chance_exact"] not in target.read_text()


def _browser() -> str | None:
    return next(
        (b for b in ("chromium", "chromium-browser", "google-chrome") if shutil.which(b)), None
    )


@pytest.mark.skipif(
    _browser() is None, reason="no Chromium installed: `apt-get install -y chromium`"
)
def test_a_real_browser_reads_the_whole_page(wargame, tmp_path):
    """Headless Chromium loads the page and gives back its document: every row of the
    table and the chart are there, as the browser read them."""
    target = tmp_path / "odds.html"
    args = ("mobs-and-morale", "attack", "--fierce", "4", "--defence", "8")
    assert wargame("dice", *args, "--html", str(target)).returncode == 0
    profile = tempfile.mkdtemp(prefix="wargame-chromium-")
    try:
        done = subprocess.run(
            [
                str(_browser()),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--dump-dom",
                target.as_uri(),
            ],
            capture_output=True,
            text=True,
            timeout=180,
            env={**os.environ, "HOME": profile},
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    page = Page()
    page.feed(done.stdout)
    result = rolled(wargame, *args)
    assert page.svgs == 1 and page.bars == len(result["distribution"]), done.stderr[-2000:]
    rows = [r["exact"] for r in result["distribution"]]
    assert [c for c in page.cells if c in rows] == rows
    assert "Mobs and Morale" in done.stdout and "pool 4d10 &gt;= 6 vs defence 8" in done.stdout


# -- bad input --------------------------------------------------------------------------------
BAD = [
    ("2d6 +", "expected a die or a number at the end"),
    ("2d6 # 3", "'#' is not part of a dice expression at column 5"),
    ("d0", "a die has 1 to 1000 sides, not 0 at column 1"),
    ("3d6 best 4", "cannot keep 4 of 3 dice at column 10"),
    ("d20 > d20 > 3", "unexpected '>' at column 11"),
    ("(d6", "expected ')' at the end"),
    ("pool 4d10 vs 3", "expected what a success is"),
    ("2d6 frob 2", "unexpected 'frob' at column 5"),
    ("101d6", "too many dice (at most 100 in one expression) at column 1"),
    ("12345678d6", "too large at column 1"),
    ("50d1000", "more than 20,001 values) at column 1"),
    ("d6 + 20d1000 + 2d10", "more than 20,001 values) at column 16"),
    ("90d20 best 45", "too large to work out at column 12"),
    ("40d100 > 40d100", "comparing these two rolls is too large to work out exactly at column 8"),
    ("", "give a dice expression"),
]


@pytest.mark.parametrize(("text", "said"), BAD, ids=[b[0] or "empty" for b in BAD])
def test_a_bad_expression_is_one_line_naming_the_problem_and_where(wargame, text, said):
    line = one_error_line(wargame("dice", *([text] if text else [])))
    assert said in line, line


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("squad-alpha", "tset"), "no roll 'tset'; did you mean test?"),
        (("squad-alpha", "test", "--steps", "2"), "takes no --steps; its parameters: --training"),
        (("squad-alpha", "test", "--step", "9"), "roll test: step: 9 is above 6"),
        (("squad-alpha", "test", "--training", "veteran"), "is not one of conscript"),
        (("squad-alpha", "test", "--step"), "--step needs a value"),
        (("squad-alpha", "test", "2"), "'2' is not a --PARAMETER"),
        (("mobs-and-morale", "attack", "--option", "die=7"), "option die: 7 is not one of"),
        (("squad-alpa", "test"), "did you mean squad-alpha?"),
        (("2d6", "--step", "2"), "no such option: --step"),
        (("2d6", "--option", "die=8"), "--option goes with a ruleset's roll"),
        (("squad-alpha", "--html", "x.html"), "--html draws a roll"),
    ],
)
def test_a_bad_roll_or_parameter_is_one_line(wargame, args, said):
    line = one_error_line(wargame("dice", *args))
    assert said in line, line


def test_help_stays_light():
    """`wargame --help` loads none of the dice code (the command imports it when run)."""
    probe = (
        "import atexit, json, sys\n"
        "atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))\n"
        "sys.argv = ['wargame', '--help']\n"
        "from wargame_cli.cli.app import main\n"
        "main()\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    ours = {"wargame_cli.cli.dice", "wargame_cli.report.dice_page"}
    ours |= {"wargame_cli.kit.dice_expr", "wargame_cli.kit.dice_odds"}
    assert not [m for m in loaded if m in ours or m.endswith(".rolls")]
