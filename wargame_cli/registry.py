"""Where rulesets are found: the built-in ones plus the entry-point group `wargame_cli.rulesets`.

Listing needs only each ruleset's light `INFO`; its rules load when a game needs them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wargame_cli.errors import UnknownRuleset

if TYPE_CHECKING:
    from wargame_cli.ruleset import Ruleset

ENTRY_POINT_GROUP = "wargame_cli.rulesets"

# Packages whose __init__ defines INFO: one line per built-in ruleset.
BUILTIN = (
    "wargame_cli.rulesets.tug_of_wargods",
    "wargame_cli.rulesets.seeds_of_wars",
    "wargame_cli.rulesets.battle_of_ixu",
    "wargame_cli.rulesets.squad_alpha",
    "wargame_cli.rulesets.mobs_and_morale",
)


@dataclass(frozen=True)
class RulesetInfo:
    id: str
    name: str
    seed_file: str
    summary: str
    loader: str  # "package.module:ATTRIBUTE" naming a Ruleset instance

    def load(self) -> Ruleset:
        module, _, attr = self.loader.partition(":")
        return getattr(importlib.import_module(module), attr)


def _declares_group(folder: str) -> bool:
    """Does any installed distribution under `folder` declare our entry-point group? A text
    search of the small entry_points.txt files: far cheaper than building every
    distribution's metadata, which costs more than the rest of `wargame rulesets`."""
    import glob
    import os

    header = f"[{ENTRY_POINT_GROUP}]"
    for path in glob.glob(os.path.join(glob.escape(folder), "*.*-info", "entry_points.txt")):
        try:
            with open(path, encoding="utf-8") as handle:
                text = handle.read()
        except OSError:
            continue
        section = text.partition(header)[2].lstrip("\n")
        if header in text and section and not section.startswith("["):
            return True
    return False


def _entry_point_infos() -> list[RulesetInfo]:
    import sys

    if not any(_declares_group(folder) for folder in sys.path if folder):
        return []
    from importlib.metadata import entry_points

    found = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        info = ep.load()
        if isinstance(info, RulesetInfo):
            found.append(info)
    return found


def all_infos() -> list[RulesetInfo]:
    infos = [importlib.import_module(name).INFO for name in BUILTIN]
    known = {i.id for i in infos}
    infos += [i for i in _entry_point_infos() if i.id not in known]
    return infos


def info(ruleset_id: str) -> RulesetInfo:
    for name in BUILTIN:  # a built-in id wins over any plugin's: no need to look for plugins
        if (builtin := importlib.import_module(name).INFO).id == ruleset_id:
            return builtin
    for candidate in all_infos():
        if candidate.id == ruleset_id:
            return candidate
    ids = ", ".join(i.id for i in all_infos())
    raise UnknownRuleset(f"unknown ruleset {ruleset_id!r}; known: {ids}")


def get(ruleset_id: str) -> Ruleset:
    return info(ruleset_id).load()
