"""Seeds of Wars on screen: the grid with every unit's state and Ht taken, the profile panel at
its side, the result listing units by fate, and no line that only repeats the next one."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console
from wargame_cli.rulesets.seeds_of_wars import view
from wargame_cli.rulesets.seeds_of_wars.rules import SeedsGame
from wargame_cli.rulesets.seeds_of_wars.state import DESTROYED, ROUTED, SHAKEN, Battle

from tests.helpers import Script
from tests.test_seeds_of_wars_rules import make, place
from tests.view_helpers import Watching

DEFAULT_A = "Knights, Swordsmen, Spearmen, Archers, Light Horse"
DEFAULT_B = "Guard, Spearmen, Spearmen, Crossbowmen, Skirmishers"


def deployed() -> Battle:
    battle = place(
        make(DEFAULT_A, DEFAULT_B),
        A1="b2",
        A2="a2",
        A3="c2",
        A4="b2",
        A5="a2",
        B1="b3",
        B2="a3",
        B3="c3",
        B4="b3",
        B5="a3",
    )
    battle.round, battle.step, battle.initiative = 2, "movement", "A"
    return battle


def shown(renderable: Any, width: int = 130) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


def test_the_grid_shows_every_unit_with_its_state_and_ht_taken():
    battle = deployed()
    battle.unit("A1").state, battle.unit("A1").taken = SHAKEN, 2
    battle.unit("B4").state = ROUTED
    text = "\n".join(shown(view.grid(battle)))
    for unit in battle.units:
        assert f"{unit.uid} {unit.kind.name}" in text
    assert re.search(r"Shaken\s.*\n.*Ht taken 2/3", text) and "Routed" in text
    assert text.count("Steady") == 8 and text.count("Ht taken") == 1  # only hits are listed
    assert not re.search(r"Ht \d", text)
    assert "4 B Reserve" in text and "1 A Reserve" in text


def test_the_profile_panel_sits_beside_the_grid_at_130_columns():
    battle = deployed()
    battle.unit("A4").fate = DESTROYED  # "destroyed" is the widest entry in the panel
    lines = shown(view.board(battle, battle.names), width=130)
    assert max(len(line) for line in lines) <= 130
    side_by_side = [line for line in lines if "B Line 1" in line]
    assert side_by_side and "Units" in lines[0]  # the panel's title on the grid's top line
    panel = "\n".join(lines)
    assert "A1 Knights" in panel and "+5" in panel and "Mounted" in panel
    assert "destroyed" in panel
    # too narrow for both: the panel goes under the grid instead of squeezing it
    narrow = shown(view.board(battle, battle.names), width=100)
    assert max(len(line) for line in narrow) <= 100
    assert "Units" not in narrow[0]


def test_the_panels_two_sides_line_up():
    lines = shown(view.profiles(deployed()), width=130)
    a1 = next(line for line in lines if "A1 Knights" in line)
    b1 = next(line for line in lines if "B1 Guard" in line)
    assert a1.index(" 13 ") == b1.index(" 14 ")  # the De column


def entry(t: str, **fields: Any) -> dict[str, Any]:
    return {"t": t, **fields}


def test_lines_the_next_event_restates_are_left_out():
    battle = deployed()
    show = Watching(view.VIEW)
    heading = show(entry("event", kind="x", text="x"), battle, battle.names)
    assert "Round 2, step 3 of 6, movement" in "\n".join(shown(heading))  # the step, once
    for kind in ("deploy", "move", "shoot", "melee", "retreat"):
        assert show(entry("choice", kind=kind), battle, battle.names) is False
    for rules in (["d10", "d11"], ["d12"], ["d4"], ["d14"]):
        assert show(entry("roll", rules=rules), battle, battle.names) is False
    for rules in (["d1"], ["d6"], ["d13"]):  # opposed rolls: the event gives only totals
        assert show(entry("roll", rules=rules), battle, battle.names) is None
    assert show(entry("choice", kind="team"), battle, battle.names) is None


def test_the_grid_follows_a_deployment_only_when_the_other_side_deploys_next():
    battle = deployed()
    show = Watching(view.VIEW)
    battle.step = "deployment"
    same = entry("event", kind="deploy", text="x", data={"unit": "A1", "next_side": "A"})
    other = entry("event", kind="deploy", text="x", data={"unit": "A1", "next_side": "B"})
    last = entry("event", kind="deploy", text="x", data={"unit": "A1", "next_side": None})
    assert len(shown(show(same, battle, battle.names))) == 1
    assert len(shown(show(other, battle, battle.names))) > 10
    assert len(shown(show(last, battle, battle.names))) == 1  # the round's follows
    roll = entry("event", kind="deploy_roll", text="x", data={})
    assert len(shown(show(roll, battle, battle.names))) > 10  # the empty field


def test_a_played_game_is_not_a_wall_of_grids(wargame):
    shown = wargame(
        "play", "seeds-of-wars", "--no-input", "--seed", "5", "--no-save", env={"COLUMNS": "130"}
    )
    text = shown.stdout
    deployment = text[: text.index("Round 1 begins")]
    assert deployment.count("┏") == 2  # the empty field, then after the first side's units
    assert "(computer)" not in text  # every decision is told by the event that follows
    assert "d20 ->" in text  # the opposed rolls keep their lines
    assert text.count("Units") == text.count("begins") + 1  # the panel: each round and the end
    assert max(len(line) for line in text.splitlines()) <= 130


def test_d17_the_result_lists_destroyed_captured_and_escaped_units_per_side():
    battle = place(make("3 Spearmen", "2 Spearmen"), A1="b3", A2="a2", A3="c2", B1="b3", B2="a3")
    battle.unit("A3").fate = DESTROYED
    script = Script()
    gen = SeedsGame(battle).finish("B", "test", ("d16",))
    script.run(type("G", (), {"play": lambda self: gen})())
    (result,) = [e for e in script.events if e.kind == "result"]
    assert result.text == (
        "Result. Red: destroyed A3 Spearmen; captured A1 Spearmen; escaped A2 Spearmen. "
        "Blue: destroyed none; captured none; escaped none; held the field B1 Spearmen, "
        "B2 Spearmen."
    )
    table = "\n".join(shown(view.result(battle)))
    for name in ("A1 Spearmen", "A2 Spearmen", "A3 Spearmen", "B1 Spearmen", "B2 Spearmen"):
        assert name in table
    for header in ("destroyed", "captured", "escaped", "held the field"):
        assert header in table
