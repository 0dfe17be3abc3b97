"""A third-party ruleset registered under the entry-point group plays through the real CLI,
with nothing about it special-cased."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

TOY = textwrap.dedent('''
    """A toy race to 10, as a third-party package would ship it."""
    from pathlib import Path

    from wargame_cli.engine.requests import Choice, Event, Option, Outcome, Roll, TurnStart
    from wargame_cli.registry import RulesetInfo
    from wargame_cli.ruleset import Ruleset

    INFO = RulesetInfo(id="toy-race", name="Toy Race", seed_file="-", summary="First to 10.",
                       loader="toy_race:RULESET")


    class Game:
        def __init__(self):
            self.state = {"A": 0, "B": 0}

        def play(self):
            turn = 0
            while True:
                turn += 1
                yield TurnStart(turn)
                for side in ("A", "B"):
                    key = yield Choice(side, "Sprint or jog?", (Option("sprint", "Sprint"),
                                       Option("jog", "Jog")), default="jog", rules=("t2",))
                    faces = yield Roll((6, 6) if key == "sprint" else (6,), "run", side,
                                       rules=("t1",))
                    self.state[side] += sum(faces)
                    yield Event(f"{side} is at {self.state[side]}", rules=("t1",))
                    if self.state[side] >= 10:
                        return Outcome(side, f"{side} reached 10", rules=("t3",))

        def state_json(self):
            return dict(self.state)


    class Toy(Ruleset):
        id = "toy-race"
        name = "Toy Race"
        folder = Path(__file__).parent

        def parse_team(self, text, options):
            return {"runner": text}

        def team_from_data(self, data, options):
            return data

        def default_team(self, side, options):
            return {"runner": side}, f"Runner {side}"

        def new_game(self, setup, options):
            return Game()


    RULESET = Toy()
''')


def test_entry_point_ruleset_plays_saves_and_verifies(tmp_path):
    _install(tmp_path, {"toy_race": TOY})
    wargame = _wargame_beside(tmp_path)

    ids = [r["id"] for r in json.loads(wargame("rulesets", "--json").stdout)]
    assert "toy-race" in ids and "tug-of-wargods" in ids
    done = wargame("play", "toy-race", "--no-input", "--seed", "4", "--json")
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["status"] == "finished" and result["ruleset"] == "toy-race"
    assert max(result["state"].values()) >= 10
    assert wargame("replay", result["save"], "--verify").returncode == 0

    # no view, story or picture of its own: the base class's defaults show every entry
    # by the generic lines and tell the report by the events' own text
    shown = wargame("play", "toy-race", "--no-input", "--seed", "4", "--no-save")
    assert shown.returncode == 0, shown.stderr
    assert "reached 10" in shown.stdout and "Turn 1" in shown.stdout
    replayed = wargame("replay", result["save"], "--no-input")
    assert replayed.returncode == 0, replayed.stderr
    assert "reached 10" in replayed.stdout
    report = wargame("replay", result["save"], "--report", str(tmp_path / "r.md"))
    assert report.returncode == 0, report.stderr
    assert "reached 10" in (tmp_path / "r.md").read_text()


BROKEN = textwrap.dedent("""
    raise ImportError("a dependency this plugin needs is missing")
""")
NOT_INFO = "INFO = {'id': 'dict-race'}\n"
SHADOW = TOY.replace('id="toy-race"', 'id="tug-of-wargods"').replace("toy_race:", "shadow:")
LACKING = (
    TOY.replace('id="toy-race"', 'id="lacking-race"')
    .replace('id = "toy-race"', 'id = "lacking-race"')
    .replace("toy_race:", "lacking:")
    .replace("def new_game(self, setup, options):", "def not_new_game(self, setup, options):")
)

MISNAMED = TOY.replace('id="toy-race"', 'id="misnamed-race"').replace("toy_race:", "misnamed:")


def _wargame_beside(tmp_path):
    """`wargame ARGS` as a process that finds the modules `_install` put in `tmp_path`."""
    env = {**os.environ, "PYTHONPATH": str(tmp_path), "WARGAME_SAVES_DIR": str(tmp_path / "s")}

    def wargame(*args):
        return subprocess.run(
            [sys.executable, "-m", "wargame_cli", *args],
            capture_output=True,
            text=True,
            env=env,
            cwd=tmp_path,
            input="",
            timeout=120,
        )

    return wargame


def _install(tmp_path, modules, values=None):
    """Each module beside a dist-info declaring it under our entry-point group (as
    `name:INFO`, or the value `values` gives it)."""
    for name, text in modules.items():
        if text is not None:
            (tmp_path / f"{name}.py").write_text(text)
        dist = tmp_path / f"{name}-0.1.dist-info"
        dist.mkdir()
        (dist / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
        value = (values or {}).get(name, f"{name}:INFO")
        (dist / "entry_points.txt").write_text(f"[wargame_cli.rulesets]\n{name} = {value}\n")


def test_a_broken_plugin_is_one_warning_and_every_other_ruleset_still_plays(tmp_path):
    _install(
        tmp_path,
        {
            "toy_race": TOY,
            "broken": BROKEN,
            "notinfo": NOT_INFO,
            "shadow": SHADOW,
            "lacking": LACKING,
            "wrongname": None,  # its entry point names an attribute toy_race does not have
            "nomodule": None,  # and this one a module nobody installed
            "misnamed": MISNAMED,
        },
        {"wrongname": "toy_race:RULES", "nomodule": "not_installed_anywhere:INFO"},
    )
    wargame = _wargame_beside(tmp_path)
    listed = wargame("rulesets", "--json")
    assert listed.returncode == 0, listed.stderr
    ids = [r["id"] for r in json.loads(listed.stdout)]
    assert ids.count("tug-of-wargods") == 1 and "toy-race" in ids and "lacking-race" in ids
    warnings = listed.stderr.strip().splitlines()
    assert "Traceback" not in listed.stderr
    # broken, notinfo, shadow, wrongname, nomodule: one line each, naming the package
    assert len(warnings) == 5, warnings
    assert all(w.startswith("warning: plugin package '") for w in warnings), warnings
    assert any("'broken'" in w and "ImportError" in w and "dependency" in w for w in warnings)
    assert any("'notinfo'" in w and "dict, not a RulesetInfo" in w for w in warnings)
    assert any(
        "'shadow'" in w and "'tug-of-wargods' is taken" in w and "tug_of_wargods" in w
        for w in warnings
    )
    assert any("'wrongname'" in w and "toy_race:RULES" in w and "RULES" in w for w in warnings)
    assert any("'nomodule'" in w and "not_installed_anywhere" in w for w in warnings)
    # the built-in keeps its id: it plays as itself, not as the plugin's toy
    tug = wargame("play", "tug-of-wargods", "--no-input", "--seed", "3", "--json", "--no-save")
    assert tug.returncode == 0, tug.stderr
    assert json.loads(tug.stdout)["ruleset"] == "tug-of-wargods"
    assert wargame("play", "toy-race", "--no-input", "--no-save").returncode == 0
    # a plugin lacking a required method is told what it lacks, in one line, exit 2
    lacking = wargame("play", "lacking-race", "--no-input", "--no-save")
    assert lacking.returncode == 2
    assert lacking.stderr.strip().splitlines()[-1].count("\n") == 0
    assert "`new_game()`" in lacking.stderr and "Traceback" not in lacking.stderr
    # a plugin whose Ruleset calls itself by another id than its entry is told so
    misnamed = wargame("play", "misnamed-race", "--no-input", "--no-save")
    assert misnamed.returncode == 2 and "Traceback" not in misnamed.stderr
    assert "'misnamed-race'" in misnamed.stderr and "'toy-race'" in misnamed.stderr
    # and all the while every other ruleset lists and plays as itself
    for ruleset_id in ("toy-race", "pit-fight"):
        if ruleset_id in ids:
            done = wargame("play", ruleset_id, "--no-input", "--no-save", "--seed", "2")
            assert done.returncode == 0, done.stderr
