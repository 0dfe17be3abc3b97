"""The one place where errors become exit codes: 2 for bad input, 130 for Ctrl-C."""

from __future__ import annotations

import os
import sys
from typing import Any

import typer

from wargame_cli.errors import BadInput, Interrupted


def _click_exceptions() -> Any:
    try:  # typer >= 0.20 vendors click
        from typer._click import exceptions
    except ImportError:  # pragma: no cover - older typer with click installed
        from click import exceptions  # type: ignore[no-redef]
    return exceptions


def say(message: str) -> None:
    """One line on stderr; a control character in it (a file name's) shown as an escape."""
    from wargame_cli.text import visible

    print(f"wargame: {visible(message)}", file=sys.stderr)


# Options whose value may be left out, and what it then means (typer has no optional values).
OPTIONAL_VALUES = {"--report": "-", "--odds": "6"}


def fill_optional_values(args: list[str]) -> list[str]:
    """`--report` alone means `--report -` (stdout); `--report FILE` is left as it is."""
    out: list[str] = []
    for i, arg in enumerate(args):
        out.append(arg)
        if arg in OPTIONAL_VALUES and "--" not in args[:i]:
            following = args[i + 1] if i + 1 < len(args) else None
            if following is None or (following.startswith("-") and following != "-"):
                out.append(OPTIONAL_VALUES[arg])
    return out


def run(app: typer.Typer, args: list[str]) -> int:
    """The command's exit code. A Ctrl-C from here on is a KeyboardInterrupt (a game saves
    and exits 130); once the command is done, as while starting, it ends the process at once
    with one line (nothing is left to save, and no traceback comes out of the shutdown)."""
    import signal

    import wargame_cli

    ours = signal.getsignal(signal.SIGINT) is wargame_cli._interrupted_while_starting
    try:
        if ours:
            signal.signal(signal.SIGINT, _interrupt)  # from here: save, exit 130
        return _run(app, args)
    except KeyboardInterrupt:  # before or after the command's own handling
        say("interrupted")
        return 130
    except Exception:
        if not _interrupts:
            raise
        say("interrupted")  # a library that turned the Ctrl-C into an error of its own
        return 130
    finally:
        if ours:
            signal.signal(signal.SIGINT, wargame_cli._interrupted_while_starting)


_interrupts: list[int] = []  # the Ctrl-Cs this process was sent while running a command


def _interrupt(signum: int, frame: object) -> None:
    """Python's own handler, noting the Ctrl-C: a library may turn the KeyboardInterrupt into
    an error of its own (pydantic's schema builder, under typer's parameter coercion, makes it
    a SchemaError), which is still the person's Ctrl-C, not a fault to show a traceback for."""
    _interrupts.append(signum)
    raise KeyboardInterrupt


def _run(app: typer.Typer, args: list[str]) -> int:
    exc = _click_exceptions()
    try:
        if (problem := _not_utf8(args)) is not None:
            say(problem)
            return 2
        args = fill_optional_values(args)
        if len(args) == 2 and args[0] in ("--show-completion", "--install-completion"):
            from wargame_cli.cli import completion

            return completion.for_named_shell(args[0], args[1])
        command = typer.main.get_command(app)
        result = command.main(args=args, prog_name="wargame", standalone_mode=False)
    except exc.NoArgsIsHelpError:
        return 0  # `wargame` alone: the help has been shown
    except exc.UsageError as error:
        hint = ""
        if error.ctx is not None:
            hint = f" (see: {error.ctx.command_path} --help)"
        say(f"{error.format_message()}{hint}")
        return 2
    except exc.ClickException as error:
        say(error.format_message())
        return 2
    except BadInput as error:
        say(str(error))
        return 2
    except Interrupted as error:
        say(str(error))
        return 130
    except (KeyboardInterrupt, typer.Abort):
        say("interrupted")
        return 130
    except EOFError:
        say("input ended")
        return 130
    except BrokenPipeError:
        _quiet_stdout()  # `| head -1`: the reader has what it wanted
        return 0
    except SystemExit as stop:
        if isinstance(stop.__context__, BrokenPipeError):  # click's own exit 1 on EPIPE
            _quiet_stdout()
            return 0
        raise
    except OSError as error:  # disk full, unwritable folder, name too long...
        from wargame_cli.text import shown

        where = f"{shown(error.filename)}: " if error.filename else ""
        say(f"{where}{error.strerror or error}")
        return 2
    if result == INTERRUPTED:  # typer's silent `Exit(130)` for a KeyboardInterrupt
        say("interrupted")
    return result if isinstance(result, int) else 0


INTERRUPTED = 130  # what typer returns for a Ctrl-C inside a command; no command returns it


def _not_utf8(args: list[str]) -> str | None:
    """The first argument holding bytes that are not UTF-8 (Python keeps each such byte as
    a lone surrogate), named as the shell would write it: nothing can store or print it."""
    from wargame_cli.text import shown

    for arg in args:
        if any(0xDC80 <= ord(c) <= 0xDCFF for c in arg):
            return f"{shown(arg)}: not UTF-8 text (file names and words must be UTF-8)"
    return None


def _quiet_stdout() -> None:
    """Point stdout at /dev/null so the flush at exit does not hit the closed pipe again."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass
