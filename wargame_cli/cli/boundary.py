"""The one place where errors become exit codes: 2 for bad input, 130 for Ctrl-C."""

from __future__ import annotations

import sys
from typing import Any

import typer

from wargame_cli.errors import BadInput


def _click_exceptions() -> Any:
    try:  # typer >= 0.20 vendors click
        from typer._click import exceptions
    except ImportError:  # pragma: no cover - older typer with click installed
        from click import exceptions  # type: ignore[no-redef]
    return exceptions


def say(message: str) -> None:
    from wargame_cli.ui.text import clean

    print(f"wargame: {clean(message)}", file=sys.stderr)


def run(app: typer.Typer, args: list[str]) -> int:
    exc = _click_exceptions()
    command = typer.main.get_command(app)
    try:
        result = command.main(args=args, prog_name="wargame", standalone_mode=False)
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
    except (KeyboardInterrupt, typer.Abort):
        say("interrupted")
        return 130
    except EOFError:
        say("input ended")
        return 130
    except BrokenPipeError:
        return 0
    return result if isinstance(result, int) else 0
