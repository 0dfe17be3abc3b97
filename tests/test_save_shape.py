"""The untrusted-file shape check (depth, whole-number size, finite floats) refuses exactly what
a plain recursive reading of its rules refuses, at and around every limit."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wargame_cli.saves import untrusted
from wargame_cli.saves.untrusted import MAX_DEPTH, MAX_INT, Untrusted


def reference_problem(item: Any, depth: int = 1) -> bool:
    """The rule as written: any value deeper than MAX_DEPTH (the document is depth 1), any
    whole number beyond MAX_INT, any float not finite."""
    if depth > MAX_DEPTH:
        return True
    if isinstance(item, dict):
        return any(reference_problem(v, depth + 1) for v in item.values())
    if isinstance(item, list):
        return any(reference_problem(v, depth + 1) for v in item)
    if isinstance(item, bool):
        return False
    if isinstance(item, int):
        return abs(item) > MAX_INT
    return isinstance(item, float) and not math.isfinite(item)


def refused(data: Any) -> bool:
    try:
        untrusted.check_shape(data)
    except Untrusted:
        return True
    return False


def nest(depth: int, inner: Any, as_dict: bool = False) -> Any:
    """`inner` inside `depth` containers."""
    for _ in range(depth):
        inner = {"k": inner} if as_dict else [inner]
    return inner


@pytest.mark.parametrize("as_dict", [False, True])
@pytest.mark.parametrize("depth", range(MAX_DEPTH - 3, MAX_DEPTH + 3))
@pytest.mark.parametrize("inner", [1, "x", None, True, [], {}, [[]]])
def test_depth_limit_is_exact(depth, inner, as_dict):
    data = nest(depth, inner, as_dict)
    assert refused(data) == reference_problem(data)


@pytest.mark.parametrize(
    "number",
    [
        MAX_INT,
        -MAX_INT,
        MAX_INT + 1,
        -MAX_INT - 1,
        10**40,
        0.5,
        1e308,
        float("inf"),
        float("-inf"),
        float("nan"),
        True,
    ],
)
def test_numbers_at_the_limits(number):
    for data in (number, [number], {"a": [{"b": number}]}):
        assert refused(data) == reference_problem(data)
    expected = isinstance(number, float) and not math.isfinite(number)
    expected = expected or (type(number) is int and abs(number) > MAX_INT)
    assert refused([number]) == expected


def test_types_json_never_gives_are_judged_too():
    class Big(int):
        pass

    class Table(dict):
        pass

    assert refused([Big(MAX_INT + 1)])
    assert refused({"t": Table(x=float("nan"))})
    assert not refused({"t": Table(x=1), "tuple": (10**40,)})  # a tuple is not JSON: skipped


def test_a_real_save_passes_and_a_parsed_document_is_checked():
    with pytest.raises(Untrusted, match="too large"):
        untrusted.parse_json(json.dumps({"log": [{"faces": [10**19]}]}))
    with pytest.raises(Untrusted, match="nests deeper"):
        untrusted.parse_json("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1))


values = st.recursive(
    st.none()
    | st.booleans()
    | st.text(max_size=3)
    | st.integers(min_value=-(MAX_INT * 4), max_value=MAX_INT * 4)
    | st.sampled_from([MAX_INT, -MAX_INT, MAX_INT + 1, -MAX_INT - 1])
    | st.floats(allow_nan=True, allow_infinity=True),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=2), inner, max_size=3)
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(values, st.integers(min_value=MAX_DEPTH - 8, max_value=MAX_DEPTH + 1), st.booleans())
def test_agrees_with_the_rule_as_written(value, depth, as_dict):
    for data in (value, nest(depth, value, as_dict)):
        assert refused(data) == reference_problem(data)


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.text()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None)
@given(json_values)
def test_the_hash_chain_hashes_canonical_json(value):
    """A save's hashes stay those every earlier version wrote: sorted keys, compact, UTF-8."""
    import hashlib

    from wargame_cli.saves import seal

    text = json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert seal.digest(value) == hashlib.sha256(text.encode("utf-8")).hexdigest()[:20]
