"""The `wargame` command line: thin Typer commands delegating to plain functions.

Ctrl-C while the program is still starting (importing typer takes a moment) exits 130
without a traceback: until `boundary.run` takes over, an interrupt just ends the process."""

from __future__ import annotations

import os
import signal
import sys


def _interrupted_while_starting(signum: int, frame: object) -> None:
    os.write(2, b"wargame: interrupted\n")
    os._exit(130)


def _started_as_wargame() -> bool:
    first = sys.argv[0] if sys.argv else ""
    return os.path.basename(first) == "wargame" or first.endswith(
        os.path.join("wargame_cli", "__main__.py")
    )


if _started_as_wargame() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _interrupted_while_starting)
