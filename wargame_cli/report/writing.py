"""`wargame replay SAVE --report [FILE] --html FILE [--style brief|full] [--pictures DIR]`:
replay the save once, then write the Markdown and/or the HTML report of the game the rules
reproduce (with `--pictures`, the Markdown's turn pictures as SVG files in DIR)."""

from __future__ import annotations

import os
from pathlib import Path

from wargame_cli.report.hooks import STYLES
from wargame_cli.report.output import ReportRefused, check, write
from wargame_cli.report.replayed import replay

STDOUT = "-"


def write_reports(
    save: Path,
    report: str | None,
    html: str | None,
    with_rules: bool,
    force: bool,
    style: str = "full",
    pictures: Path | None = None,
) -> list[Path]:
    """Every target is checked before the replay, so a refusal costs nothing; returns the
    files written."""
    if style not in STYLES:
        raise ReportRefused(f"--style {style}: choose {' or '.join(STYLES)}")
    if pictures is not None and report is None:
        raise ReportRefused("--pictures DIR draws the turns for --report; give --report too")
    if pictures is not None and pictures.exists() and not pictures.is_dir():
        raise ReportRefused(f"--pictures {pictures}: that is not a folder")
    targets = {"--report": report, "--html": html}
    files = {opt: Path(t) for opt, t in targets.items() if t is not None and t != STDOUT}
    if html == STDOUT:
        raise ReportRefused("--html needs a FILE to write the page to")
    for option, target in files.items():
        check(target, save, force, option)
    if len(files) == 2 and files["--report"].absolute() == files["--html"].absolute():
        raise ReportRefused("--report and --html name the same file")
    replayed = replay(save, pictures=html is not None or pictures is not None)
    written = []
    if report is not None:
        from wargame_cli.report.markdown import battle_report

        shown = {}
        if pictures is not None:
            home = files["--report"].parent if "--report" in files else Path.cwd()
            shown = _draw(replayed.pictures, pictures, home, save, force)
            written.append(pictures)  # told as one folder of pictures
        text = battle_report(replayed.save, with_rules, replayed.told, style, shown)
        if report == STDOUT:
            print(text, end="" if text.endswith("\n") else "\n")
        else:
            write(files["--report"], text, save, force, "--report")
            written.append(files["--report"])
    if html is not None:
        from wargame_cli import registry
        from wargame_cli.report.html import html_report

        word = registry.get(str(replayed.save["ruleset"]["id"])).turn_word
        page = html_report(replayed, with_rules, word, style)
        write(files["--html"], page, save, force, "--html")
        written.append(files["--html"])
    return written


def _name(turn: int) -> str:
    return f"turn-{turn}.svg"


def _draw(
    drawn: dict[int, str], folder: Path, home: Path, save: Path, force: bool
) -> dict[int, str]:
    """Each turn's picture as `folder/turn-N.svg`; returns turn -> its address from `home`
    (the report's folder), as the Markdown links it."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ReportRefused(f"--pictures {folder}: cannot make it ({exc.strerror})") from None
    out = {}
    for turn, picture in sorted(drawn.items()):
        target = folder / _name(turn)
        write(target, picture + "\n", save, force, "--pictures")
        out[turn] = Path(os.path.relpath(target.absolute(), home.absolute())).as_posix()
    return out
