"""Where rulesets are found: the built-in ones plus the entry-point group `wargame_cli.rulesets`.

Listing needs only each ruleset's light `INFO`; its rules load when a game needs them.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from wargame_cli.errors import BadInput, UnknownRuleset

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

    @property
    def builtin(self) -> bool:
        """One of ours (under `wargame_cli.rulesets`), not a plugin's."""
        return self.loader.startswith("wargame_cli.rulesets.")

    def load(self) -> Ruleset:
        """The ruleset instance; a plugin whose rules do not import, or that lacks what the
        contract requires, is one `BrokenRuleset` line naming what is wrong."""
        module, _, attr = self.loader.partition(":")
        try:
            loaded = getattr(importlib.import_module(module), attr)
        except Exception as error:  # a plugin's own code: any failure is its fault, told
            raise BrokenRuleset(
                f"ruleset {self.id!r} cannot load its rules ({self.loader}): {_said(error)}"
            ) from None
        lacking = missing_parts(loaded)
        if not lacking and loaded.id != self.id:
            lacking = [f"the id {self.id!r} its entry lists (its Ruleset says {loaded.id!r})"]
        if lacking:
            raise BrokenRuleset(f"ruleset {self.id!r} ({self.loader}) lacks {', '.join(lacking)}")
        return loaded


class BrokenRuleset(BadInput):
    """A plugin's rules that cannot be used: told in one line, every other ruleset still plays."""


REQUIRED = ("parse_team", "team_from_data", "default_team", "new_game")
"""The methods the `Ruleset` base class cannot supply (its own raise NotImplementedError)."""


def missing_parts(loaded: object) -> list[str]:
    """What a loaded ruleset lacks of the contract, in words (empty when it meets it)."""
    from wargame_cli.ruleset import Ruleset

    if not isinstance(loaded, Ruleset):
        return [f"a Ruleset instance (found {type(loaded).__name__})"]
    made = type(loaded)
    overridden = {  # the base class's own raise NotImplementedError
        "parse_team": made.parse_team is not Ruleset.parse_team,
        "team_from_data": made.team_from_data is not Ruleset.team_from_data,
        "default_team": made.default_team is not Ruleset.default_team,
        "new_game": made.new_game is not Ruleset.new_game,
    }
    lacking = [
        f"`{name}`" for name, value in (("id", loaded.id), ("name", loaded.name)) if not value
    ]
    return lacking + [f"`{name}()`" for name in REQUIRED if not overridden[name]]


def _said(error: BaseException) -> str:
    """An exception as one short line."""
    words = " ".join(str(error).split()) or "no message"
    return f"{type(error).__name__}: {words[:200]}"


_WARNED: set[str] = set()


def warn(line: str) -> None:
    """One line on stderr, once a process: a broken plugin never stops the others."""
    import sys

    from wargame_cli.text import safe

    if line not in _WARNED:
        _WARNED.add(line)
        print(f"warning: {safe(line)}", file=sys.stderr)


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


def _entry_point_infos() -> list[tuple[RulesetInfo, str]]:
    """Each plugin's `RulesetInfo` with the words naming its package, for a warning."""
    import sys

    if not any(_declares_group(folder) for folder in sys.path if folder):
        return []
    from importlib.metadata import entry_points

    found = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        package = ep.dist.name if ep.dist is not None else ep.value.partition(":")[0]
        where = f"plugin package {package!r} (entry point {ep.name} = {ep.value})"
        try:
            info = ep.load()
        except Exception as error:  # a plugin's own code: any failure is its own, told
            warn(f"{where} is left out: it failed to load: {_said(error)}")
            continue
        if not isinstance(info, RulesetInfo):
            warn(f"{where} is left out: it names a {type(info).__name__}, not a RulesetInfo")
            continue
        found.append((info, where))
    return found


def all_infos() -> list[RulesetInfo]:
    """The built-ins, then every plugin that loads and does not take an id already listed."""
    infos = [importlib.import_module(name).INFO for name in BUILTIN]
    known = {i.id: i.loader for i in infos}
    for plugin, where in _entry_point_infos():
        if plugin.id in known:
            if known[plugin.id] != plugin.loader:
                warn(f"{where} is left out: its id {plugin.id!r} is taken by {known[plugin.id]}")
            continue
        known[plugin.id] = plugin.loader
        infos.append(plugin)
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
