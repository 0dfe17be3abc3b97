"""The conformance kit: what our own suite checks of every ruleset, runnable on any installed
one, ours or a plugin's.

    python -m wargame_cli.testing RULESET_ID [--games N] [--turns N] [--skip CHECK]

prints one line per check (`ok` or `FAIL`, and what it did or what broke) and exits 0 when
every check passes, 1 naming the checks that failed, 2 for an unknown ruleset or a bad flag.
The checks are in `checks.py` (each one a function a test can call), the random-legal player
in `random_play.py`, the pseudo-terminal game in `terminal.py`."""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path
from typing import NoReturn, TextIO

from wargame_cli.testing.checks import Check, CheckFailed, default_checks

__all__ = ["Check", "CheckFailed", "default_checks", "main", "run_checks"]


def run_checks(ruleset_id: str, checks: Sequence[Check], out: TextIO | None = None) -> list[str]:
    """Run each check in a folder of its own, printing a line each; the names of those that
    failed."""
    stream = out if out is not None else sys.stdout
    failed = []
    for check in checks:
        started = time.monotonic()
        with tempfile.TemporaryDirectory(prefix="wargame-kit-") as folder:
            try:
                said, mark = check.run(ruleset_id, Path(folder)), "ok  "
            except Exception as error:  # the ruleset's own code: any failure is the check's
                said, mark = f"{type(error).__name__}: {_one_line(str(error))}", "FAIL"
                failed.append(check.name)
        took = time.monotonic() - started
        print(f"{mark}  {check.name:<13} {said} ({took:.1f} s)", file=stream, flush=True)
    return failed


def _one_line(text: str, chars: int = 600) -> str:
    words = " ".join(text.split()) or "no message"
    return words if len(words) <= chars else words[: chars - 1] + "…"


class _Parser(argparse.ArgumentParser):
    """Bad input is one line on stderr and exit 2, as everywhere in the program."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: {message}\n")


def main(argv: Sequence[str] | None = None) -> int:
    from wargame_cli import registry
    from wargame_cli.errors import BadInput

    names = [c.name for c in default_checks()]
    parser = _Parser(
        prog="python -m wargame_cli.testing",
        description="Run the conformance checks on one installed ruleset.",
    )
    parser.add_argument(
        "ruleset", metavar="RULESET_ID", help="the ruleset's id (`wargame rulesets`)"
    )
    parser.add_argument("--games", type=int, default=3, help="random-legal games (default 3)")
    parser.add_argument(
        "--turns", type=int, default=3, help="turns of each random game (0: to the end; default 3)"
    )
    parser.add_argument(
        "--skip", action="append", choices=names, default=[], help="leave a check out"
    )
    args = parser.parse_args(argv)
    if args.games < 1 or args.turns < 0:
        parser.error("--games must be at least 1 and --turns at least 0")
    try:
        registry.info(args.ruleset)
    except BadInput as error:
        print(f"python -m wargame_cli.testing: {error}", file=sys.stderr)
        return 2
    checks = [c for c in default_checks(args.games, args.turns or None) if c.name not in args.skip]
    print(f"Conformance of {args.ruleset}:", flush=True)
    try:
        failed = run_checks(args.ruleset, checks)
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    if failed:
        print(f"{args.ruleset} fails: {', '.join(failed)}", file=sys.stderr)
        return 1
    print(f"{args.ruleset} passes all {len(checks)} checks")
    return 0
