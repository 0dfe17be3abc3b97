"""No layer imports a layer above it (docs/writing-a-ruleset.md, "Layers"), inside functions
too: the rules never reach for the screen, saves never for the ui, simulate never for the CLI.

Imports under `if TYPE_CHECKING:` are left out: they are names for annotations, never run."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Lowest first. A module belongs to the longest prefix listed here.
LAYERS: list[tuple[str, ...]] = [
    ("wargame_cli", "wargame_cli.errors", "wargame_cli.wording", "wargame_cli.text"),
    ("wargame_cli.engine", "wargame_cli.view"),
    (
        *("wargame_cli.ruleset", "wargame_cli.registry", "wargame_cli.tabletop"),
        *("wargame_cli.rulesets", "wargame_cli.bots"),
    ),
    ("wargame_cli.saves", "wargame_cli.history"),
    (
        *("wargame_cli.simulate", "wargame_cli.report", "wargame_cli.remote"),
        *("wargame_cli.testing", "wargame_cli.campaigns"),
    ),
    ("wargame_cli.ui",),
    ("wargame_cli.cli", "wargame_cli.__main__"),
]
# Modules whose job puts them in another layer than their folder's, each with its reason.
PLACED = {
    # a ruleset as it played at an earlier version: beside the Ruleset it copies
    "wargame_cli.versions": 2,
    # reads untrusted files (stdlib only): team files (ruleset, tabletop) and saves alike
    "wargame_cli.saves.untrusted": 0,
    # starts a game of a ruleset: the engine's entry, above the ruleset it is given
    "wargame_cli.engine.session": 2,
    # a game's positions: binds a ruleset's position hooks to a game, clones sessions
    "wargame_cli.engine.position": 2,
    # sampled odds: plays an option on clones of the position (`position.clone`)
    "wargame_cli.engine.sampled": 2,
    # draws the table for the screen (rich) and for a report (SVG), beside its geometry
    "wargame_cli.tabletop.view": 5,
    "wargame_cli.tabletop.picture": 4,
    # the exact-odds hook: serves simulate and replays, words its chances as simulate does
    "wargame_cli.rulesets.tug_of_wargods.odds": 4,
    # the exact distribution (simulate --exact), from the odds' chain: beside the odds
    "wargame_cli.rulesets.tug_of_wargods.spread": 4,
    # a league's standings end with the next pairing's exact odds: beside the odds
    "wargame_cli.rulesets.tug_of_wargods.campaign": 4,
    # the common part of the rulesets' campaign hooks (named figures on a roster)
    "wargame_cli.kit.figures": 2,
    # the check of shared dice (hashing only): read by saves, written by remote play
    "wargame_cli.remote.fair": 1,
    # the statements remote play signs and the check of a signature: read by saves' verify,
    # made by remote play (`cryptography` imported only to sign or check)
    "wargame_cli.remote.signing": 1,
}
PLACED_SUFFIX = {".view": 5, ".story": 4, ".picture": 4}
# The one exception: a ruleset's `Ruleset` hands out its own view, story, picture and odds
# from `parts()` (and its exact distribution from `exact_spread()`, its campaign reading from
# `carrying()`), imported when called, so the ruleset registers once and nothing finds those
# modules by name.
HANDED_OUT = (".view", ".story", ".picture", ".odds", ".spread", ".campaign")


def handed_out(module: str, target: str) -> bool:
    package, _, leaf = module.rpartition(".")
    return (
        module.startswith("wargame_cli.rulesets.")
        and leaf == "ruleset"
        and target.rpartition(".")[0] == package
        and target.endswith(HANDED_OUT)
    )


def layer(module: str) -> int:
    if module in PLACED:
        return PLACED[module]
    if module.startswith("wargame_cli.rulesets."):
        for suffix, level in PLACED_SUFFIX.items():
            if module.endswith(suffix):
                return level
    best, level = -1, -1
    for i, names in enumerate(LAYERS):
        for name in names:
            if (module == name or module.startswith(name + ".")) and len(name) > best:
                best, level = len(name), i
    assert level >= 0, module
    return level


def _type_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def imports(tree: ast.AST, package: str, known: frozenset[str] = frozenset()) -> list[str]:
    """The modules `tree` imports at run time (relative imports resolved against `package`):
    for `from P import m`, the submodule `P.m` where it is one (`known`), else `P`."""
    found: list[str] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_only(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*parts, base] if base else parts)
            for alias in node.names:
                found.append(f"{base}.{alias.name}" if f"{base}.{alias.name}" in known else base)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def ours(name: str) -> bool:
    return name.split(".")[0] == "wargame_cli"


def modules() -> dict[str, Path]:
    out = {}
    for top in ("wargame_cli", "rulesets"):  # rulesets/ installs as wargame_cli.rulesets
        for path in (ROOT / top).rglob("*.py"):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if top == "rulesets":
                parts.insert(0, "wargame_cli")
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def test_no_module_imports_from_a_layer_above_its_own():
    known = modules()
    upward = []
    for module, path in sorted(known.items()):
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for target in imports(tree, package, frozenset(known)):
            if not ours(target) or target not in known:
                continue  # a name imported from a module, or someone else's module
            if layer(target) > layer(module) and not handed_out(module, target):
                upward.append(f"{module} ({layer(module)}) imports {target} ({layer(target)})")
    assert upward == []


def test_the_rules_import_no_drawing_and_no_terminal():
    """A ruleset's rules (everything but its view, story and picture) import neither rich nor
    questionary, not even inside a function."""
    for module, path in modules().items():
        if not module.startswith("wargame_cli.rulesets.") or layer(module) > 2:
            continue
        for target in imports(ast.parse(path.read_text(encoding="utf-8")), module):
            assert target.split(".")[0] not in ("rich", "questionary"), (module, target)


def test_the_checker_sees_an_upward_import_inside_a_function():
    tree = ast.parse("def f():\n    from wargame_cli.ui.live import generic\n")
    assert "wargame_cli.ui.live" in imports(tree, "wargame_cli.saves")
    typed = ast.parse("if TYPE_CHECKING:\n    from wargame_cli.ui import live\n")
    assert imports(typed, "wargame_cli.saves") == []
    assert layer("wargame_cli.ui.live") > layer("wargame_cli.saves.games")
