"""The keys a file a GM writes may hold (a team file, a table file): one check for every
ruleset, so a mistyped key (`fierec`, `controler`, `nmae`) is refused on one line naming the
nearest known key, never read as nothing. Each ruleset declares its files' keys as data
(`Keys`); this module checks a file against them."""

from __future__ import annotations

import difflib
from collections.abc import Mapping
from typing import Any, TypeAlias

# A table's known keys, each with what its value holds: `Keys` (a table, or a list of tables,
# checked the same way) or None (a value taken as it is: a number, a word, a list of words,
# a table of names the ruleset reads itself).
Keys: TypeAlias = Mapping[str, "Keys | None"]


def unknown_key(data: Any, keys: Keys, where: str = "") -> str | None:
    """Why `data` cannot be read: its first key (in it, or in the tables and lists of tables
    it holds) that `keys` does not know, with the nearest known key; None when every key is
    known. `where`: the place in the file (`mobs 1`), for the refusal."""
    if isinstance(data, list):
        for i, item in enumerate(data):
            if (found := unknown_key(item, keys, f"{where} {i + 1}".strip())) is not None:
                return found
        return None
    if not isinstance(data, dict):
        return None  # a list of names (`models = ["Asar", ...]`): the ruleset reads them
    for key, value in data.items():
        inside = f" in {where}" if where else ""
        if key not in keys:
            return f"unknown key {str(key)[:40]!r}{inside}; {_nearest(str(key), keys)}"
        held = keys[key]
        if held is not None and (found := unknown_key(value, held, _place(where, key))):
            return found
    return None


def _nearest(key: str, keys: Keys) -> str:
    folded = {known.lower(): known for known in keys}  # `rx` is near `Ra`
    near = difflib.get_close_matches(key.lower(), list(folded), n=1, cutoff=0.5)
    if near:
        return f"did you mean {folded[near[0]]!r}?"
    return f"the keys here are {', '.join(keys)}"


def _place(where: str, key: str) -> str:
    return f"{where}, {key}" if where else key


# Table files (`--option table=FILE`), shared by every tabletop ruleset (`tabletop.scenario`).
TABLE_KEYS: Keys = {
    "name": None,
    "width": None,
    "height": None,
    "terrain": {"name": None, "kind": None, "x": None, "y": None, "w": None, "h": None},
    "areas": {"side": None, "name": None, "x": None, "y": None, "w": None, "h": None},
    "teams": {"A": None, "B": None},
}
