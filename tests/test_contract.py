"""The ruleset contract in one place: every hook the program calls is declared on `Ruleset` or
`View` with a default, nothing probes for one (`hasattr`/`getattr`) or finds a module by its
file name, `INFO` is made from the class, and listing the rulesets loads no rules."""

from __future__ import annotations

import ast
import inspect
import json
import subprocess
import sys
from pathlib import Path

import pytest

from wargame_cli import registry
from wargame_cli.engine.requests import Outcome
from wargame_cli.ruleset import Ruleset, Setup
from wargame_cli.view import View

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "wargame_cli"

# The only attributes looked up by name in the program, none of them a ruleset's hook: what
# a platform or the interpreter may lack. Any other `hasattr`/`getattr` fails the test.
ALLOWED = {
    "O_CLOEXEC": "an os flag some platforms lack",
    "pthread_sigmask": "POSIX only",
}
# The interpreter's private names and the collector's switches are looked up in one module,
# each with a plain fallback (tests/test_one_driver.py checks them).
INTERPRETER = "cpython.py"
# An entry point names its target as "module:attribute": found by name by definition.
ENTRY_POINT = ("registry.py", "getattr(importlib.import_module(module), attr)")


def probes() -> list[tuple[str, str]]:
    """Every `hasattr`/`getattr` in the program that is not an allowed look-up."""
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        where = path.relative_to(PACKAGE).as_posix()
        if where == INTERPRETER:
            continue
        for node in ast.walk(tree):
            if not (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id in ("hasattr", "getattr")
            ):
                continue
            name = node.args[1] if len(node.args) > 1 else None
            if isinstance(name, ast.Constant) and name.value in ALLOWED:
                continue
            if (where, ast.unparse(node)) != ENTRY_POINT:
                found.append((where, ast.unparse(node)))
    return found


def test_nothing_probes_for_a_hook():
    assert probes() == []


def test_no_ruleset_module_is_found_by_its_file_name():
    for path in PACKAGE.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != "registry.py":
            assert "import_module" not in text, path
    hooks = (PACKAGE / "report" / "hooks.py").read_text(encoding="utf-8")
    assert "except Exception" not in hooks


def test_the_defaults_mean_this_ruleset_has_none():
    bare = Ruleset()
    setup = Setup({"A": "a", "B": "b"}, {"A": {}, "B": {}})
    assert bare.options == ()
    assert bare.fast_games(setup, {}, lambda sides: 0) is None
    assert bare.sim_figures(None, Outcome("A", "won")) is None
    assert bare.odds() is None
    assert bare.teller({}, None) is None  # type: ignore[arg-type]
    assert bare.picture(None, {}) is None
    assert bare.chance(None) is None
    view = bare.view()
    assert type(view) is View
    assert view.board(None, {}) is None and view.compact_board(None, {}) is None
    assert view.card(None, None, {}) is None and view.cards(None, {}) == []  # type: ignore[arg-type]
    assert view.render_entry({"t": "turn", "n": 1}, None, {}, {}) is None


def hooks_of(cls: type) -> list[str]:
    return [
        name
        for name, member in vars(cls).items()
        if not name.startswith("_") and (inspect.isfunction(member) or isinstance(member, property))
    ]


@pytest.mark.parametrize("cls", [Ruleset, View])
def test_the_guide_names_every_hook(cls):
    guide = (ROOT / "docs" / "writing-a-ruleset.md").read_text(encoding="utf-8")
    missing = [name for name in hooks_of(cls) if f"`{name}(" not in guide]
    assert missing == []


@pytest.mark.parametrize("info", registry.all_infos(), ids=lambda i: i.id)
def test_info_is_made_from_the_class(info):
    ruleset = info.load()
    assert isinstance(ruleset, Ruleset)
    assert (info.id, info.name) == (ruleset.id, ruleset.name)
    assert info.seed_file == ruleset.seed_file and info.summary == ruleset.summary
    assert isinstance(ruleset.view(), View)
    package = Path(sys.modules[info.loader.partition(":")[0]].__file__ or "").parent
    init = (package / "__init__.py").read_text(encoding="utf-8")
    assert f'"{ruleset.id}"' not in init  # written once, in the class


LOADED = """
import atexit, json, sys
atexit.register(lambda: print(json.dumps(sorted(sys.modules)), file=sys.stderr))
sys.argv = ["wargame", *{args!r}]
from wargame_cli.cli.app import main
main()
"""


@pytest.mark.parametrize("args", [["--help"], ["rulesets"], ["rulesets", "--json"]])
def test_listing_loads_no_rules_and_no_view(args):
    done = subprocess.run(
        [sys.executable, "-c", LOADED.format(args=args)], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    loaded = json.loads(done.stderr.strip().splitlines()[-1])
    ours = [m for m in loaded if m.startswith("wargame_cli.rulesets.")]
    assert all(m.count(".") == 2 or m.endswith(".ruleset") for m in ours), ours
    for heavy in (
        "questionary",
        "wargame_cli.tabletop",
        "wargame_cli.ui.live",
        "wargame_cli.saves",
    ):
        assert heavy not in loaded, heavy
    if args == ["--help"]:
        assert ours == []


COMMANDS = ("rulesets", "rules", "play", "resume", "replay", "fork", "edit", "saves")
COMMANDS += ("simulate", "host", "join", "watch")


@pytest.mark.parametrize("command", COMMANDS)
def test_help_texts_name_no_ruleset(wargame, command):
    """A plugin's author reads the same help: what a flag does is said of any ruleset, and
    `wargame rules ID` tells what one ruleset has (its exact odds, its edits)."""
    boxed = wargame(command, "--help").stdout.lower()
    shown = " ".join("".join(" " if c in "│╭╮╰╯─" else c for c in boxed).split())
    for info in registry.all_infos():
        ruleset = info.load()
        name = info.name.lower()
        units = {str(u.get("unit", "")).lower() for u in ruleset.units()}
        names = {info.id, name, name.split(" v0")[0].split(":")[0], *units}
        named = [n for n in names if n and n in shown]
        assert not named, (command, named)


def test_rules_say_whether_a_ruleset_has_exact_odds(wargame):
    for info in registry.all_infos():
        ruleset = info.load()
        shown = wargame("rules", info.id).stdout
        said = json.loads(wargame("rules", info.id, "--json").stdout)["exact_odds"]
        assert said is (ruleset.odds() is not None)
        # `wargame`, or however the program was started (tests/test_hints_run.py)
        hint = f" simulate {info.id} --exact" if said else f" simulate {info.id} --games"
        assert hint in " ".join(shown.split())


def test_the_command_list_wraps_each_summary_at_the_terminals_width(wargame):
    """`wargame --help`: a summary's line is cut only where the next word does not fit,
    never where the docstring happened to break its line."""
    boxed = wargame("--help").stdout.splitlines()
    start = next(i for i, line in enumerate(boxed) if "Commands" in line)
    rows = [line[1:-1].rstrip() for line in boxed[start + 1 :] if line.startswith("│")]
    inner = len(boxed[start]) - 2
    for row, after in zip(rows, rows[1:], strict=False):
        if after.startswith("   ") and after.strip():  # the summary goes on
            room = inner - 1 - len(row)  # the columns left on this row
            assert len(after.split()[0]) + 1 > room, (row, after)
