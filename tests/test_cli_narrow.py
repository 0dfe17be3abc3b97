"""Nothing cut at 80 columns: `simulate --matrix` in blocks of columns, `rules ID` with every
option name whole."""

from __future__ import annotations

import re

import pytest

from tests.view_helpers import IDS

TUG = "tug-of-wargods"


@pytest.mark.parametrize("columns", [80, 120])
def test_matrix_splits_its_columns_into_blocks_that_fit(wargame, columns):
    shown = wargame("simulate", TUG, "--matrix", env={"COLUMNS": str(columns)})
    assert shown.returncode == 0, shown.stderr
    lines = shown.stdout.splitlines()
    assert all(len(line) <= columns for line in lines)
    headers = [line for line in lines if line.lstrip().startswith("# pool")]
    numbers = [int(n) for header in headers for n in header.split("mean")[1].split()]
    assert numbers == list(range(1, 30))  # every column, once, in order
    if columns == 80:
        assert len(headers) == 2 and "columns 20-29 of 29" in shown.stdout
    rows = [line for line in lines if re.match(r"\s*29 d4 d4 d4", line)]
    assert len(rows) == len(headers)  # every row in every block
    assert rows[-1].split()[-1] == "50"  # the last column: d4 d4 d4 against itself


@pytest.mark.parametrize("ruleset_id", IDS)
@pytest.mark.parametrize("columns", [80, 120, 200])
def test_rules_shows_every_option_name_whole(wargame, ruleset_id, columns):
    from wargame_cli import registry

    shown = wargame("rules", ruleset_id, env={"COLUMNS": str(columns)})
    assert shown.returncode == 0, shown.stderr
    assert "…" not in shown.stdout
    for option in registry.get(ruleset_id).options:
        assert re.search(rf"(^|\s){option.name}\s", shown.stdout, re.M), option.name
    assert all(len(line) <= columns for line in shown.stdout.splitlines())
