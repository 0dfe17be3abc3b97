"""Settings to compare: `--compare KEY=VALUE,KEY=VALUE` (one setting each) and
`--sweep KEY=V1,V2,...` (one setting per value; numbers also as a range `3..9` or
`3..9:2`), each checked against the ruleset's options before any game is played."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from wargame_cli.errors import BadInput
from wargame_cli.ruleset import OptionSpec, resolve_options

MAX_SETTINGS = 200  # more than a terminal can show, or a study needs in one run
_RANGE = re.compile(r"^\s*(-?[\d.]+)\s*\.\.\s*(-?[\d.]+)\s*(?::\s*([\d.]+)\s*)?$")


@dataclass(frozen=True)
class Setting:
    """One setting: the keys it changes (as given) and the whole options it plays with."""

    changed: dict[str, Any]
    options: dict[str, Any]

    @property
    def label(self) -> str:
        return ", ".join(f"{k}={_shown(v)}" for k, v in self.changed.items()) or "as given"


def _shown(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def compared(specs: tuple[OptionSpec, ...], base: list[str], given: list[str]) -> list[Setting]:
    """`--compare` settings: each a comma-separated list of KEY=VALUE over `--option`s."""
    if len(given) < 2:
        raise BadInput("--compare needs at least two settings to compare" + example(specs))
    if len(given) > MAX_SETTINGS:
        raise BadInput(f"--compare: at most {MAX_SETTINGS} settings")
    out = []
    for text in given:
        items = [item.strip() for item in text.split(",") if item.strip()]
        if not items:
            raise BadInput(f"--compare {text!r}: expected KEY=VALUE[,KEY=VALUE...]")
        for item in items:
            if "=" not in item:
                raise BadInput(f"--compare {text!r}: expected KEY=VALUE[,KEY=VALUE...]")
        options = resolve_options(specs, [*base, *items])
        keys = [item.partition("=")[0].strip() for item in items]
        out.append(Setting({k: options[k] for k in keys}, options))
    return out


def example(specs: tuple[OptionSpec, ...]) -> str:
    """`, e.g. --compare rounding=exact --compare rounding=down`: two values the ruleset's
    own options take (every value shown passes its checks), or nothing without options."""
    for spec in specs:
        values: list[Any] = []
        if spec.choices is not None and len(spec.choices) > 1:
            values = list(spec.choices[:2])
        elif spec.kind is bool:
            values = [spec.default, not spec.default]
        if values:
            return ", e.g. " + " ".join(f"--compare {spec.name}={_shown(v)}" for v in values)
    for spec in specs:
        if spec.kind in (int, float):
            for other in (spec.default + 1, spec.default - 1):
                try:
                    spec.check(spec.kind(other))
                except BadInput:
                    continue
                return (
                    f", e.g. --compare {spec.name}={_shown(spec.default)} "
                    f"--compare {spec.name}={_shown(spec.kind(other))}"
                )
    return ""


def swept(specs: tuple[OptionSpec, ...], base: list[str], given: str) -> list[Setting]:
    """`--sweep KEY=V1,V2,...`: one setting per value, in the order given."""
    key, sep, values = given.partition("=")
    key = key.strip()
    by_name = {s.name: s for s in specs}
    if not sep:
        raise BadInput(f"--sweep {given!r}: expected KEY=V1,V2,... or KEY=LOW..HIGH[:STEP]")
    if key not in by_name:
        raise BadInput(f"--sweep: unknown option {key!r}; options: {', '.join(by_name) or 'none'}")
    texts = expand(key, values)
    if len(texts) < 2:
        raise BadInput(f"--sweep {given!r}: a sweep needs at least two values")
    out = []
    for text in texts:
        options = resolve_options(specs, [*base, f"{key}={text}"])
        out.append(Setting({key: options[key]}, options))
    return out


def expand(key: str, values: str) -> list[str]:
    """The values of a sweep as text: a comma list, each item a value or a numeric range."""
    out: list[str] = []
    for item in (v.strip() for v in values.split(",")):
        if not item:
            continue
        match = _RANGE.match(item)
        if match is None:
            out.append(item)
            continue
        out.extend(_range(key, *match.groups()))
        if len(out) > MAX_SETTINGS:
            raise BadInput(f"--sweep {key}: at most {MAX_SETTINGS} values")
    if len(out) > MAX_SETTINGS:
        raise BadInput(f"--sweep {key}: at most {MAX_SETTINGS} values")
    return out


def _range(key: str, low: str, high: str, step: str | None) -> list[str]:
    whole = all(_is_int(t) for t in (low, high, step or "1"))
    try:
        lo, hi, by = float(low), float(high), float(step or "1")
    except ValueError:
        raise BadInput(f"--sweep {key}: {low}..{high} is not a range of numbers") from None
    if by <= 0:
        raise BadInput(f"--sweep {key}: the step of {low}..{high} must be above 0")
    if hi < lo:
        raise BadInput(f"--sweep {key}: {low}..{high} is empty (it counts up)")
    count = int((hi - lo) / by + 1e-9) + 1
    if count > MAX_SETTINGS:
        raise BadInput(f"--sweep {key}: at most {MAX_SETTINGS} values")
    values = [lo + i * by for i in range(count)]
    return [str(int(v)) if whole else f"{v:g}" for v in values]


def _is_int(text: str) -> bool:
    return re.fullmatch(r"-?\d+", text.strip()) is not None
