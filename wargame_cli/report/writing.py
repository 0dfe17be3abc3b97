"""`wargame replay SAVE --report [FILE] --html FILE`: replay the save once, then write the
Markdown and/or the HTML report of the game the rules reproduce."""

from __future__ import annotations

from pathlib import Path

from wargame_cli.report.output import ReportRefused, check, write
from wargame_cli.report.replayed import replay

STDOUT = "-"


def write_reports(
    save: Path, report: str | None, html: str | None, with_rules: bool, force: bool
) -> list[Path]:
    """Every target is checked before the replay, so a refusal costs nothing; returns the
    files written."""
    targets = {"--report": report, "--html": html}
    files = {opt: Path(t) for opt, t in targets.items() if t is not None and t != STDOUT}
    if html == STDOUT:
        raise ReportRefused("--html needs a FILE to write the page to")
    for option, target in files.items():
        check(target, save, force, option)
    if len(files) == 2 and files["--report"].absolute() == files["--html"].absolute():
        raise ReportRefused("--report and --html name the same file")
    replayed = replay(save, pictures=html is not None)
    written = []
    if report is not None:
        from wargame_cli.report.markdown import battle_report

        text = battle_report(replayed.save, with_rules=with_rules, told=replayed.told)
        if report == STDOUT:
            print(text, end="" if text.endswith("\n") else "\n")
        else:
            write(files["--report"], text, save, force, "--report")
            written.append(files["--report"])
    if html is not None:
        from wargame_cli import registry
        from wargame_cli.report.html import html_report

        word = registry.get(str(replayed.save["ruleset"]["id"])).turn_word
        write(files["--html"], html_report(replayed, with_rules, word), save, force, "--html")
        written.append(files["--html"])
    return written
