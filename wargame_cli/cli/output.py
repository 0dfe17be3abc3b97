"""Where output goes: rich consoles for people, one JSON object for scripts."""

from __future__ import annotations

import json
import sys
from typing import Any


def console(stderr: bool = False) -> Any:
    from rich.console import Console

    return Console(stderr=stderr, highlight=False)


def emit_json(data: Any) -> None:
    sys.stdout.write(json.dumps(data, ensure_ascii=False) + "\n")
    sys.stdout.flush()


def interactive() -> bool:
    return sys.stdin.isatty() and sys.stdout.isatty()
