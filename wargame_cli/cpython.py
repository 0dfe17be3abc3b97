"""The few places the program leans on CPython's internals or its garbage collector, each
behind a plain fallback: another Python (or a CPython that drops a private name) runs the
same program, a little slower, with the same results.

Nothing else in the program names a private attribute of the standard library or calls the
collector's switches; a test keeps it so.
"""

from __future__ import annotations

import gc
import json
import random
from collections.abc import Callable
from typing import Any

RANDBELOW = "_randbelow"  # random.Random's private draw of a number below n
C_ENCODER = "c_make_encoder"  # json.encoder's C encoder factory


def die_faces(seed: int) -> Callable[[int], int]:
    """`below(sides)`: a die's face minus one, drawn as `random.Random(seed).randint(1, sides)`
    draws it. `randint(1, d)` is exactly `1 + _randbelow(d)`, so the private method gives the
    same faces at half the cost; the public call is the fallback."""
    rng = random.Random(seed)
    below: Callable[[int], int] | None = getattr(rng, RANDBELOW, None)
    if below is None:
        randint = rng.randint
        return lambda sides: randint(1, sides) - 1
    return below


def reseeded_faces() -> tuple[Callable[[int], int], Callable[[int], None]]:
    """`die_faces` for many streams in turn: `(below, reseed)`, where after `reseed(seed)`
    the same `below` draws exactly the faces `die_faces(seed)` would (`random.Random(seed)`
    is `Random().seed(seed)`), without building a generator per stream, and a `below`
    already handed to a ruleset's game loop follows each new stream."""
    rng = random.Random(0)
    below: Callable[[int], int] | None = getattr(rng, RANDBELOW, None)
    if below is None:
        randint = rng.randint
        return (lambda sides: randint(1, sides) - 1), rng.seed
    return below, rng.seed


def json_encoder(**options: Any) -> Callable[[Any], str]:
    """`json.JSONEncoder(**options).encode`, built once: `json.dumps` with options makes a new
    encoder per call, which costs as much as encoding a small value. The C encoder is used
    directly where this Python has it (no circular check: the values come from JSON)."""
    plain = json.JSONEncoder(**options)
    make = getattr(json.encoder, C_ENCODER, None)
    if make is None or options.get("indent") is not None:  # as `plain.indent`
        return plain.encode
    strings = json.encoder.encode_basestring_ascii if plain.ensure_ascii else None
    encode = make(
        None,
        plain.default,
        strings or json.encoder.encode_basestring,
        None,
        plain.key_separator,
        plain.item_separator,
        plain.sort_keys,
        plain.skipkeys,
        plain.allow_nan,
    )
    return lambda value: "".join(encode(value, 0))


def collect_and_freeze() -> None:
    """Collect now and move what survives out of the collector's sight: done while a person
    reads, so no collection lands between a key press and the next question."""
    gc.collect()
    if hasattr(gc, "freeze"):
        gc.freeze()


def pause_collector() -> None:
    """Stop automatic collections (the screen collects while a person reads instead)."""
    collect_and_freeze()
    gc.disable()


def resume_collector() -> None:
    gc.enable()
