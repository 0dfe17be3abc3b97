"""wargame_cli: a command-line runner for tabletop miniature wargames.

Ctrl-C while the program is still starting (importing typer takes a moment) exits 130 without
a traceback: from the first line of this package until `cli.boundary.run` takes over, and
again once it is done, an interrupt just ends the process with one line. So this is the
first thing the package does. The `wargame` script (bin/wargame) guards the lines before it
the same way; before the script's first line, Ctrl-C meets Python's own start-up (`site`)."""

import os
import signal
import sys
import types

__version__ = "0.1.0"


def _interrupted_while_starting(signum: int, frame: object) -> None:
    os.write(2, b"wargame: interrupted\n")
    os._exit(130)


def _started_as_wargame() -> bool:
    first = sys.argv[0] if sys.argv else ""
    return os.path.basename(first) == "wargame" or first.endswith(
        os.path.join("wargame_cli", "__main__.py")
    )


def guard_start() -> None:
    """Ctrl-C ends a starting `wargame` at once (not a library's importer, nor a worker). The
    `wargame` script (bin/wargame) guards its own first lines the same way; this takes over."""
    if not _started_as_wargame():
        return
    current = signal.getsignal(signal.SIGINT)
    if current is signal.default_int_handler or _the_scripts(current):
        signal.signal(signal.SIGINT, _interrupted_while_starting)


def _the_scripts(handler: object) -> bool:
    """Is `handler` the `wargame` script's own (bin/wargame's `_interrupted`)?"""
    return (
        isinstance(handler, types.FunctionType)
        and handler.__module__ == "__main__"
        and handler.__name__ == "_interrupted"
    )


guard_start()
