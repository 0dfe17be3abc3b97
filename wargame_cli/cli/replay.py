"""`wargame replay`: show a saved game turn by turn, verify it, or write its battle report.

In a terminal the replay is a screen (`cli/replay_screen.py`), built by replaying the log
once: the reader steps decision by decision or turn by turn, jumps, or quits. Elsewhere it prints
the whole game. `--turn N` shows the table as it stood at the end of turn N; `--odds N`
adds each side's chance at the end of every turn (`wargame_cli/simulate/from_save.py`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli.cli.output import console, emit_json, interactive
from wargame_cli.cli.replay_pages import (
    Pages,
    TakeBacks,
    buffered,
    header,
    names_of,
    odds_line,
    players_of,
    turn_name,
)
from wargame_cli.errors import BadInput
from wargame_cli.limits import MAX_GAMES
from wargame_cli.saves import games, store

ODDS_SEED = 1  # --odds is a reading of the save: the same save always gives the same odds


def replay(
    path: Path,
    verify: bool,
    no_input: bool,
    report: str | None,
    with_rules: bool,
    json_out: bool,
    turn: int | None = None,
    odds: int | str | None = None,
    html: str | None = None,
    force: bool = False,
    dice: bool = False,
    style: str = "full",
    pictures: Path | None = None,
) -> None:
    if dice:
        _dice(path, json_out)
        return
    if report is not None or html is not None or pictures is not None:
        _report(path, report, html, with_rules, force, style, pictures)
        return
    if verify:
        _verify(path, json_out)
        return
    odds = _games_each(odds)
    if turn is not None:
        _one_turn(path, turn, json_out, odds)
        return
    rows = _odds(path, odds) if odds is not None else None
    if interactive() and not no_input and not json_out:
        _navigate(path, with_rules, rows)
    else:
        _straight(path, with_rules, json_out, rows)


def _dice(path: Path, json_out: bool) -> None:
    """`--dice`: every die rolled, numbered from 1 in the order rolled, as `edit die N`
    names them."""
    from dataclasses import asdict

    from rich.text import Text

    from wargame_cli.engine.edits_dice import dice_of

    session = games.open_save(path)
    dice = dice_of(session.runner.log)
    if json_out:
        emit_json({"save": str(path), "dice": [asdict(d) for d in dice]})
        return
    names = session.setup.names
    word = session.ruleset.turn_word
    out = console()
    if not dice:
        out.print("No die was rolled in this game.")
    for d in dice:
        who = names.get(d.side or "", "")
        when = f"{word} {d.turn}" if d.turn else "setting up"
        fixed = f", corrected from {d.was}" if d.was is not None else ""
        line = f"{d.number:>4}. {when}: {who + ': ' if who else ''}{d.reason}: d{d.size} {d.face}"
        out.print(Text(f"{line} ({d.source}{fixed})"))


def _games_each(odds: int | str | None) -> int | None:
    """`--odds [N]`: bot games per turn, at least one."""
    if odds is None:
        return None
    try:
        games_each = int(odds)
    except ValueError:
        raise BadInput(f"--odds {odds!r}: a whole number of games per turn") from None
    if games_each < 1:
        raise BadInput(f"--odds {games_each}: finish the game at least once per turn")
    if games_each > MAX_GAMES:
        raise BadInput(f"--odds {games_each}: at most {MAX_GAMES:,} games per turn")
    return games_each


def _verify(path: Path, json_out: bool) -> None:
    from wargame_cli.saves import proved, provenance

    session = games.verify(path)
    told = provenance.of_session(session)
    signed = session.meta.get("signatures")  # `saves/signed.py`: a signed remote save's
    shared = bool(told.faces.get("shared"))
    meaning = proved.paragraph(signed is not None, shared, bool(told.faces.get("rng")))
    summary = {
        "save": str(path),
        "verified": True,
        "entries": len(session.runner.log),
        "status": session.status,
        "winner": session.winner,
        "turns": session.runner.turn,
        "provenance": told.as_json(),
        "reworded": session.meta.get("reworded", 0),
        "signed": signed.as_json() if signed is not None else None,
        "proved": meaning,
    }
    if json_out:
        emit_json(summary)
        return
    outcome = session.runner.outcome
    result = (
        f"{session.setup.names.get(outcome.winner or '', 'nobody')} won"
        if outcome
        else "in progress"
    )
    from rich.text import Text

    from wargame_cli.text import clean

    result = clean(result)
    turns = f"{session.runner.turn} turn{'s' * (session.runner.turn != 1)}"
    record = "the record is as written" if told.sealed else "the record is unsealed"
    console().print(
        Text(
            f"Verified: {summary['entries']} log entries, {turns}, "
            f"every decision legal and every face fits its die; result matches ({result}); "
            f"{record}."
        )
    )
    if summary["reworded"]:
        n = summary["reworded"]
        console().print(
            f"Note: {n} {'line is' if n == 1 else 'lines are'} worded differently by this build "
            "(wording is not judged; reports show this build's)."
        )
    for line in told.lines():
        console().print(Text(f"  {line[0].upper()}{line[1:]}."))
    if signed is not None:
        console().print(Text(f"  {signed.line()[0].upper()}{signed.line()[1:]}."))
    elif shared:
        console().print(Text("  Not signed: no machine's signature vouches for its shared dice."))
    console().print()
    console().print(Text(meaning))


def _odds(path: Path, games_each: int) -> list[dict[str, Any]]:
    import sys

    from wargame_cli.simulate.from_save import odds_by_turn

    say = console(stderr=True)
    tell = sys.stderr.isatty()

    def progress(turn: int) -> None:
        if tell:
            say.print(f"odds: turn {turn} done", end="\r")

    rows = odds_by_turn(path, games_each, ODDS_SEED, progress=progress)
    if tell:
        say.print(" " * 40, end="\r")
    return rows


def _navigate(path: Path, with_rules: bool, rows: list[dict[str, Any]] | None) -> None:
    """The replay as a screen (`cli/replay_screen.py`): board, the turn's lines paged, and the
    navigation in view; Enter steps on decision by decision."""
    from wargame_cli import history, registry
    from wargame_cli.cli.replay_screen import FOOTER, Book, Reader
    from wargame_cli.ui.prompts import Prompter

    out = console()
    data = store.load(path)
    ruleset = registry.get(data["ruleset"]["id"])
    names = names_of(data)
    book = Book(ruleset, names, players_of(data), out, max(8, out.height - 14))
    shown = TakeBacks(data, ruleset.turn_word, book.entry)
    saved_turns = data["turns"]
    word = ruleset.turn_word

    def turn_end(turn: int, game: Any) -> None:
        if turn == saved_turns:
            shown.finish(game)  # taken back at the question the save stops at
        if rows is not None:
            book.after.setdefault(turn, []).append(odds_line(rows[turn], names, word))
        book.turn_end(turn, game)

    h = history.load(path, on_turn_end=turn_end, observer=shown)
    reader = Reader(book, word, h.last, [header(h.session, path)])
    reader.complete = h.turns[-1].complete
    prompter = Prompter(out)

    def jump() -> int:
        turns = {turn_name(t, word).capitalize(): t for t in range(h.last + 1)}
        choices = list(turns)
        return turns[prompter.select(f"Which {word}?", choices, choices[reader.stop.turn])]

    while True:
        items, default = reader.menu()
        pick = prompter.select(
            "Replay (PgUp/PgDn: earlier/later lines)",
            items,
            default,
            top=reader.top,
            clear=True,
            footer=FOOTER,
            pager=reader.page,
        )
        if not reader.go(pick, jump):
            return


def _straight(
    path: Path, with_rules: bool, json_out: bool, rows: list[dict[str, Any]] | None
) -> None:
    """The whole game at once (no terminal, `--no-input`), or its summary as JSON."""
    from wargame_cli import history, registry
    from wargame_cli.ui.live import LiveView

    data = store.load(path)
    ruleset = registry.get(data["ruleset"]["id"])
    names = names_of(data)
    out = console()
    page, buffer = buffered(out)  # the header, with the replayed result, goes first
    # Off a terminal (a pipe, a file): the replay as live play shows it, every line of it,
    # except that a picture a view draws beside a line (a grid after a move) is kept once a
    # turn for each kind of entry; the boards a view draws at a turn's start and the end stay.
    view = (
        None
        if json_out
        else LiveView(
            page,
            ruleset,
            names,
            with_rules=with_rules,
            players=players_of(data),
            once_a_turn=not out.is_terminal,
        )
    )

    def turn_end(turn: int, game: Any) -> None:
        if rows is not None and not json_out:
            page.print(odds_line(rows[turn], names, ruleset.turn_word))

    shown = TakeBacks(data, ruleset.turn_word, view) if view is not None else None
    h = history.load(path, on_turn_end=turn_end, observer=shown)
    if shown is not None:
        shown.finish(h.session.game)
    if json_out:
        from wargame_cli.saves import provenance

        session = h.session
        summary: dict[str, Any] = {
            "save": str(path),
            "status": session.status,
            "winner": session.winner,
            "turns": session.runner.turn,
            "provenance": provenance.of_session(session).as_json(),
            "state": session.game.state_json(),
        }
        if rows is not None:
            summary["odds"] = rows
        emit_json(summary)
        return
    out.print(header(h.session, path))
    out.file.write(buffer.getvalue())
    out.file.flush()


def _one_turn(path: Path, turn: int, json_out: bool, odds: int | None = None) -> None:
    """The table as it stood at the end of turn `turn` (with `odds`: each side's chance)."""
    from wargame_cli import history, registry
    from wargame_cli.simulate.from_save import exact_odds, odds_at

    data = store.load(path)
    ruleset = registry.get(data["ruleset"]["id"])
    names = names_of(data)
    out = console()
    # Views may read the state when drawn, so the table is drawn as the replay passes it.
    pages = None if json_out else Pages(out, ruleset, names, False, players_of(data))
    exact_module = exact_odds(path)
    exact: dict[str, float] | None = None

    def turn_end(at: int, game: Any) -> None:
        nonlocal exact
        if at != turn:
            return
        if pages is not None:
            pages.turn_end(at, game)
        if exact_module is not None:
            exact = exact_module.chance_from_state(game.state)

    h = history.load(path, on_turn_end=turn_end)
    mark = h.mark(turn)
    row = None
    if odds is not None or (exact is not None and not json_out):
        row = odds_at(h, turn, odds or 1, ODDS_SEED, exact=exact)
    if json_out:
        table: dict[str, Any] = {"save": str(path), "turn": turn, "state": mark.state}
        if odds is not None:
            table["odds"] = row
        emit_json(table)
        return
    from rich.text import Text

    from wargame_cli.text import clean, shown

    word = ruleset.turn_word
    what = "the deployment" if turn == 0 else f"{word} {turn} of {h.last}"
    unfinished = " (the save stops in the middle of it)" if not mark.complete else ""
    title = f"{shown(path.name)}: {clean(ruleset.name)}, the table at the end of {what}"
    out.print(Text(title + unfinished, "bold"))
    assert pages is not None
    out.file.write(pages.pages[-1])
    out.file.flush()
    if row is not None:
        out.print(odds_line(row, names, word))


def _report(
    path: Path,
    report: str | None,
    html: str | None,
    with_rules: bool,
    force: bool,
    style: str,
    pictures: Path | None,
) -> None:
    from wargame_cli.report.writing import write_reports
    from wargame_cli.text import shown

    for out in write_reports(path, report, html, with_rules, force, style, pictures):
        what = "Pictures of every turn written to" if out.is_dir() else "Battle report written to"
        err = console(stderr=True)  # piped: one line whatever its length (a path to copy)
        err.print(f"{what} {shown(out)}", markup=False, soft_wrap=not err.is_terminal)
