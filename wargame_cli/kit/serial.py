"""A game's state as JSON-safe data and back, exactly: the one serialiser every ruleset's
positions use (`Ruleset.snapshot`, `engine/position.py`).

What it keeps: dataclass instances (every field that takes part in equality, rebuilt through
the class's constructor; a field with `compare=False` is a cache and comes back as the
constructor makes it; a class registered with `restored_as` is handed to its function for
the object to use, e.g. the one table object whose memos are already warm), lists, dicts
(any hashable keys, in their order), tuples, sets, frozensets, enums, dict subclasses, and
the numbers, strings, booleans and None inside them. Identity is kept too: an object or a
mutable container reached twice is written once and referred to after (`{"$r": n}`), so two
lists of the same units still share their units when restored. Non-field attributes
(`cached_property` values, memos kept in `__dict__`) are left out: they are worked out again
when asked for.

Classes are named by module and qualified name, written once in a table; `load` finds them
only in modules already imported (the ruleset imports its rules before loading), so a
snapshot read from a file can never make Python import anything.

Sets are written in a fixed order (by their elements' encoding), so the same state gives
the same bytes in any process, whatever the string hash seed: a stored position can be
compared with the one a replay gives.
"""

from __future__ import annotations

import dataclasses
import enum
import json
import math
import sys
from collections.abc import Callable, Mapping
from operator import attrgetter
from types import ModuleType
from typing import Any

VERSION = 1  # of this encoding
_ATOMS = (str, int, bool, type(None))
_FLOATS = {"inf": math.inf, "-inf": -math.inf, "nan": math.nan}


_RESTORED: dict[type, Callable[[Any], Any]] = {}
LATER = "serial_later"  # a field's metadata: added after positions of its class were stored
_KEPT = object()  # no default to leave out: the field is always written


def later(default: Any = None) -> Any:
    """A dataclass field added after positions of its class were stored: left out of a
    position while it holds `default` (and read back as it), so a game that does not use it
    has the same position as before, and a position stored before it still reads."""
    return dataclasses.field(default=default, metadata={LATER: True})


def restored_as(cls: type, pick: Callable[[Any], Any]) -> None:
    """Objects of `cls` read back from a snapshot are replaced by `pick(obj)`: for a class
    that keeps one object per value (the tabletop's `Table`, whose memos live on it)."""
    _RESTORED[cls] = pick


class SnapshotError(ValueError):
    """A snapshot that cannot be read back (an unknown class, a malformed node)."""


def dump(root: Any, known: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """`root` as JSON-safe data. `known`: objects both sides already have (the session's
    options), written by name when met by identity."""
    return _Dumper(known or {}).top(root)


def load(data: Any, known: Mapping[str, Any] | None = None) -> Any:
    """What `dump` wrote, rebuilt: equal to the original, with the same sharing."""
    if not isinstance(data, dict) or data.get("serial") != VERSION:
        raise SnapshotError("not a snapshot of this encoding")
    classes = data.get("classes")
    if not isinstance(classes, list):
        raise SnapshotError("a snapshot without its class table")
    return _Loader([_find(name) for name in classes], known or {}).node(data.get("root"))


def encoded(data: Any) -> str:
    """The canonical text of dumped data (to compare two positions or measure one)."""
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False, allow_nan=False)


class _Dumper:
    def __init__(self, known: Mapping[str, Any]) -> None:
        self.known = {id(v): k for k, v in known.items()}
        self.seen: dict[int, int] = {}
        self.keep: list[Any] = []  # holds every numbered object, so no id is reused
        self.classes: dict[type, int] = {}
        self.inside_set = 0  # >0: writing a set's member, which is never numbered

    def top(self, root: Any) -> dict[str, Any]:
        node = self.node(root)
        names = [f"{c.__module__}:{c.__qualname__}" for c in self.classes]
        return {"serial": VERSION, "classes": names, "root": node}

    def _number(self, obj: Any) -> None:
        self.seen[id(obj)] = len(self.keep)
        self.keep.append(obj)

    def _class(self, cls: type) -> int:
        index = self.classes.get(cls)
        if index is None:
            index = self.classes[cls] = len(self.classes)
        return index

    def node(self, obj: Any) -> Any:
        kind = type(obj)
        if kind in _ATOMS:
            return obj
        if kind is float:
            return obj if math.isfinite(obj) else {"$x": repr(obj)}
        name = self.known.get(id(obj))
        if name is not None:
            return {"$k": name}
        ref = self.seen.get(id(obj))
        if ref is not None:
            return {"$r": ref}
        if isinstance(obj, enum.Enum):
            return {"$e": self._class(kind), "v": self.node(obj.value)}
        if kind is tuple:
            return {"$t": [self.node(x) for x in obj]}
        if kind is frozenset:
            return {"$f": self._sorted(obj)}
        if not self.inside_set:  # mutable containers and objects: written once, referred to
            self._number(obj)
        if kind is list:
            return [self.node(x) for x in obj]
        if kind is set:
            return {"$s": self._sorted(obj)}
        if isinstance(obj, dict):
            body = self._dict(obj)
            if kind is dict:
                return body
            return {"$c": self._class(kind), "$d": body}
        if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
            out: dict[str, Any] = {"$c": self._class(kind)}
            for name, read, unless in _readers(kind):
                value = read(obj)
                if unless is not _KEPT and value == unless:
                    continue  # a field added later, at its default: as positions were
                out[name] = self.node(value)
            return out
        raise SnapshotError(f"a {kind.__qualname__} cannot be part of a position")

    def _dict(self, obj: dict[Any, Any]) -> Any:
        if all(type(k) is str and not k.startswith("$") for k in obj):
            return {k: self.node(v) for k, v in obj.items()}
        return {"$d": [[self.node(k), self.node(v)] for k, v in obj.items()]}

    def _sorted(self, items: Any) -> list[Any]:
        # a set's members are hashable (atoms, tuples, frozen objects): never numbered, so
        # their encoding does not depend on where they are met, and sorted by it
        self.inside_set += 1
        try:
            nodes = [self.node(x) for x in items]
        finally:
            self.inside_set -= 1
        return sorted(nodes, key=encoded)


class _Loader:
    def __init__(self, classes: list[type], known: Mapping[str, Any]) -> None:
        self.classes = classes
        self.known = known
        self.made: list[Any] = []
        self.inside_set = 0  # >0: reading a set's member, which was never numbered

    def _numbered(self, obj: Any) -> Any:
        if not self.inside_set:
            self.made.append(obj)
        return obj

    def _members(self, nodes: Any) -> list[Any]:
        self.inside_set += 1
        try:
            return [self.node(x) for x in nodes]
        finally:
            self.inside_set -= 1

    def _class(self, index: Any) -> type:
        if not isinstance(index, int) or not 0 <= index < len(self.classes):
            raise SnapshotError(f"no class numbered {index!r}")
        return self.classes[index]

    def node(self, data: Any) -> Any:
        kind = type(data)
        if kind in _ATOMS or kind is float:
            return data
        if kind is list:
            out: list[Any] = self._numbered([])
            out.extend(self.node(x) for x in data)
            return out
        if kind is not dict:
            raise SnapshotError(f"a {kind.__name__} in a snapshot")
        if "$r" in data:
            ref = data["$r"]
            if not isinstance(ref, int) or not 0 <= ref < len(self.made):
                raise SnapshotError(f"a reference to nothing ({ref!r})")
            found = self.made[ref]
            if found is None:
                raise SnapshotError("an object that holds itself (a cycle) is not kept")
            return found
        if "$x" in data:
            return _FLOATS[data["$x"]]
        if "$k" in data:
            return self.known[data["$k"]]
        if "$t" in data:
            return tuple(self.node(x) for x in data["$t"])
        if "$f" in data:
            return frozenset(self._members(data["$f"]))
        if "$s" in data:
            made: set[Any] = self._numbered(set())
            made.update(self._members(data["$s"]))
            return made
        if "$e" in data:
            return self._class(data["$e"])(self.node(data["v"]))
        if "$c" in data:
            return self._object(data)
        plain: dict[Any, Any] = self._numbered({})
        return self._fill(plain, data)

    def _fill(self, target: dict[Any, Any], data: dict[str, Any]) -> dict[Any, Any]:
        if "$d" in data:
            for pair in data["$d"]:
                key = self.node(pair[0])
                target[key] = self.node(pair[1])
        else:
            for key, value in data.items():
                target[key] = self.node(value)
        return target

    def _object(self, data: dict[str, Any]) -> Any:
        cls = self._class(data["$c"])
        if "$d" in data and issubclass(cls, dict):
            mapping = self._numbered(cls())
            return self._fill(mapping, data["$d"])
        if not dataclasses.is_dataclass(cls):
            raise SnapshotError(f"{cls.__qualname__} is not a dataclass")
        slot = len(self.made)
        self._numbered(None)  # its number, taken before its fields' (as `dump` gave them)
        given: dict[str, Any] = {}
        later: dict[str, Any] = {}  # fields its constructor does not take
        for f in dataclasses.fields(cls):
            if not f.compare:
                continue  # a cache: the constructor makes it afresh
            if f.name not in data:
                if f.metadata.get(LATER):
                    continue  # added later, left out at its default: the constructor's
                raise SnapshotError(f"{cls.__qualname__} without its {f.name}")
            (given if f.init else later)[f.name] = self.node(data[f.name])
        obj = cls(**given)
        for name, value in later.items():
            setattr(obj, name, value)
        intern = _RESTORED.get(cls)
        if intern is not None:  # a class that keeps one object per value (a table)
            obj = intern(obj)
        if not self.inside_set:
            self.made[slot] = obj
        return obj


_READERS: dict[type, tuple[tuple[str, Callable[[Any], Any], Any], ...]] = {}


def _readers(cls: type) -> tuple[tuple[str, Callable[[Any], Any], Any], ...]:
    """The fields of a dataclass a position keeps (those equality reads), each with its
    reader and, for a field added `later`, the default it is left out at (worked out once per
    class)."""
    found = _READERS.get(cls)
    if found is None:
        fields = dataclasses.fields(cls)
        found = _READERS[cls] = tuple(
            (f.name, attrgetter(f.name), f.default if f.metadata.get(LATER) else _KEPT)
            for f in fields
            if f.compare
        )
    return found


def _find(name: Any) -> type:
    """A class named `module:Qual.Name`, from a module already imported."""
    if not isinstance(name, str) or ":" not in name:
        raise SnapshotError(f"{name!r} names no class")
    module_name, _, qualname = name.partition(":")
    found: Any = sys.modules.get(module_name)
    if found is None:
        raise SnapshotError(f"{name}: its module is not loaded")
    for part in qualname.split("."):
        found = vars(found).get(part) if isinstance(found, type | ModuleType) else None
    if not isinstance(found, type) or not (
        dataclasses.is_dataclass(found) or issubclass(found, enum.Enum | dict)
    ):
        raise SnapshotError(f"{name} is not a class a position holds")
    return found


def option_values(options: Mapping[str, Any]) -> dict[str, Any]:
    """The objects among a game's option values (a table's data), by name: both the game
    and its restorer have them, so a position names them instead of holding a copy."""
    return {f"option {k}": v for k, v in options.items() if type(v) not in (*_ATOMS, float)}
