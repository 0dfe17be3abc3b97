"""Where output goes: rich consoles for people, one JSON object for scripts."""

from __future__ import annotations

import json
import sys
from typing import Any


def console(stderr: bool = False) -> Any:
    from rich.console import Console

    class PipedConsole(Console):
        def on_broken_pipe(self) -> None:
            """rich exits 1 on a closed pipe; `| head` is not an error: the boundary exits 0."""
            raise BrokenPipeError

    return PipedConsole(stderr=stderr, highlight=False)


def emit_json(data: Any) -> None:
    """Strict JSON (no NaN); characters a terminal would act on are written as \\u escapes."""
    from wargame_cli.text import json_safe

    sys.stdout.write(json_safe(json.dumps(data, ensure_ascii=False, allow_nan=False)) + "\n")
    sys.stdout.flush()


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()
