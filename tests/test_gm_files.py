"""Files a GM writes (issue 34): a team or table file with a key no ruleset reads is refused
on one line naming the key and the nearest known one, a table's `[teams]` naming no ready team
is refused rather than replaced, and a bad terrain kind names the kinds in words. One check
(`kit.filekeys`) for every ruleset; the files the project ships still load."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.cli_helpers import one_error_line

# Per ruleset: a team file with one key mistyped, the key, and the key it was meant to be.
TEAMS = {
    "mobs-and-morale": (
        'name = "Thorn"\n[[characters]]\nname = "Ugrak"\nprofile = "Chieftain"\n'
        '[[mobs]]\nname = "Thorn wolves"\ncontroler = "Ugrak"\n'
        'members = [{profile = "Wolf", count = 3}]\n',
        "controler",
        "controller",
    ),
    "battle-of-ixu": (
        'nmae = "Axes"\nmodels = [{name = "Kuote", experience = 5}]\n',
        "nmae",
        "name",
    ),
    "seeds-of-wars": (
        'name = "Host"\nunits = ["Spearmen", {type = "Archers", Mv = 1, Ht = 2, Rx = 3}]\n',
        "Rx",
        "Ra",
    ),
    "squad-alpha": (
        'name = "Alpha"\nminiatures = [{name = "Rook", training = "elite", ratng = 4}, '
        '"Hawk regular 2", "Dusty regular 2", "Sparks regular 1", "Kid conscript 0"]\n',
        "ratng",
        "rating",
    ),
    "tug-of-wargods": ('name = "Greens"\nmodel = ["Sebeki", "Asar", "Asar"]\n', "model", "models"),
}


@pytest.mark.parametrize("ruleset", list(TEAMS))
def test_a_mistyped_key_in_a_team_file_is_refused_naming_the_nearest(wargame, tmp_path, ruleset):
    text, bad, meant = TEAMS[ruleset]
    path = tmp_path / "team.toml"
    path.write_text(text)
    line = one_error_line(wargame("play", ruleset, "--no-input", "--team-b", str(path)))
    assert f"unknown key {bad!r}" in line and f"did you mean {meant!r}" in line, line
    fixed = tmp_path / "fixed.toml"
    fixed.write_text(text.replace(bad, meant))
    done = wargame("play", ruleset, "--no-input", "--turns", "1", "--team-b", str(fixed))
    assert done.returncode == 0, done.stderr


def test_a_mistyped_stat_of_a_mob_member_names_the_stat(wargame, tmp_path):
    path = tmp_path / "team.toml"
    path.write_text(
        'name = "Thorn"\n[[mobs]]\nname = "Thorn wolves"\n'
        'members = [{profile = "Wolf", count = 3, fierec = 4}]\n'
    )
    line = one_error_line(wargame("play", "mobs-and-morale", "--no-input", "--team-b", str(path)))
    assert "unknown key 'fierec' in mobs 1, members 1; did you mean 'fierce'?" in line, line


TABLE = 'name = "Glade"\nwidth = 36\nheight = 24\n'


def test_a_table_file_with_an_unknown_key_or_kind_is_refused_in_words(wargame, tmp_path):
    for ruleset in ("mobs-and-morale", "squad-alpha"):
        for text, said in [
            (TABLE.replace("width", "widht"), "unknown key 'widht'; did you mean 'width'?"),
            (
                TABLE + '[[terrain]]\nname = "wood"\nkind = "forest"\nx = 1\ny = 1\nw = 2\nh = 2\n',
                "terrain piece 'wood': kind 'forest' is not one of the kinds: blocking (no entry",
            ),
            (
                TABLE + '[[terrain]]\nname = "wood"\nknd = "soft"\nx = 1\ny = 1\nw = 2\nh = 2\n',
                "unknown key 'knd' in terrain 1; did you mean 'kind'?",
            ),
        ]:
            path = tmp_path / "table.toml"
            path.write_text(text)
            line = one_error_line(
                wargame("play", ruleset, "--no-input", "--option", f"table={path}")
            )
            assert said in line and "{" not in line, line


def test_a_tables_teams_naming_no_ready_team_is_refused_not_replaced(wargame, tmp_path):
    path = tmp_path / "table.toml"
    path.write_text(TABLE + '[teams]\nA = "The Lantern Co"\n')
    line = one_error_line(
        wargame("play", "mobs-and-morale", "--no-input", "--option", f"table={path}")
    )
    assert "'The Lantern Co', which is no ready team: did you mean The Lantern Company?" in line
    path.write_text(TABLE + '[teams]\nA = "The Lantern Company"\n')
    done = wargame(
        "play", "mobs-and-morale", "--no-input", "--turns", "1", "--option", f"table={path}"
    )
    assert done.returncode == 0, done.stderr


def test_the_shipped_tables_and_team_data_still_load(wargame):
    from wargame_cli.kit.filekeys import TABLE_KEYS, unknown_key
    from wargame_cli.saves import untrusted

    root = Path(__file__).parent.parent / "rulesets"
    for path in [*root.glob("*/table.toml"), *root.glob("*/tables/*.toml")]:
        assert unknown_key(untrusted.read_toml(path, 2**20), TABLE_KEYS) is None, path
    done = wargame(
        "play", "mobs-and-morale", "--no-input", "--turns", "1", "--option", "table=ford"
    )
    assert done.returncode == 0, done.stderr
