"""`wargame replay`: show a saved game turn by turn, verify it, or write its battle report."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from wargame_cli.cli.output import console, emit_json, interactive
from wargame_cli.saves import games, store


class StopReplay(Exception):
    pass


def replay(
    path: Path, verify: bool, no_input: bool, report: str | None, with_rules: bool, json_out: bool
) -> None:
    if report is not None:
        _report(path, report, with_rules)
        return
    if verify:
        session = games.verify(path)
        summary = {
            "save": str(path),
            "verified": True,
            "entries": len(session.runner.log),
            "status": session.status,
            "winner": session.winner,
            "turns": session.runner.turn,
        }
        if json_out:
            emit_json(summary)
        else:
            outcome = session.runner.outcome
            result = (
                f"{session.setup.names.get(outcome.winner, 'nobody')} won"
                if outcome
                else "in progress"
            )
            console().print(
                f"Verified: {summary['entries']} log entries, {summary['turns']} turns, "
                f"every decision legal and every face fits its die; result matches ({result})."
            )
        return
    data = store.load(path)
    names = {s: data["setup"]["names"].get(s, s) for s in ("A", "B")}
    from wargame_cli import registry
    from wargame_cli.ui.live import LiveView

    ruleset = registry.get(data["ruleset"]["id"])
    view = LiveView(console(), ruleset, names, with_rules=with_rules)
    step = interactive() and not no_input and not json_out
    prompter: Any = None
    if step:
        from wargame_cli.ui.prompts import Prompter

        prompter = Prompter(console())

    takebacks = _takebacks_by_place(data, ruleset.turn_word)
    seen = [0]
    show: Any = view if view.console.is_terminal else _turn_boards(view)

    def observer(entry: dict[str, Any], game: Any) -> None:
        if (
            step
            and entry["t"] == "turn"
            and entry["n"] > 1
            and not prompter.step(f"Show {ruleset.turn_word} {entry['n']}")
        ):
            raise StopReplay
        if not json_out:
            for line in takebacks.pop(seen[0], []):
                view({"t": "takeback", "text": line}, game)
            show(entry, game)
        seen[0] += 1

    try:
        session = games.open_save(path, observer=observer)
    except StopReplay:
        return
    if not json_out:
        for line in takebacks.pop(seen[0], []):  # taken back at the open question
            view({"t": "takeback", "text": line}, session.game)
    if json_out:
        emit_json(
            {
                "save": str(path),
                "status": session.status,
                "winner": session.winner,
                "turns": session.runner.turn,
                "state": session.game.state_json(),
            }
        )


def _turn_boards(view: Any) -> Any:
    """Off a terminal (a pipe, a file): a line per entry and the board only where a turn
    begins and at the end, not the grid again after every move."""
    from wargame_cli.ui.live import generic

    render = getattr(view.view, "render_entry", None)

    def show(entry: dict[str, Any], game: Any) -> None:
        if entry["t"] == "end":
            view(entry, game)
            return
        if entry["t"] != "turn":
            line = generic(entry, view.names, view.turn_word)
            if line is not None:
                view.console.print(line)
            return
        shown = render(entry, game.state, view.names) if render is not None else None
        if shown is None or shown is False:
            view.console.print(generic(entry, view.names, view.turn_word))
            view.board(game)
        else:
            view.console.print(shown)

    return show


def _takebacks_by_place(data: dict[str, Any], word: str) -> dict[int, list[str]]:
    """Each take-back's line, keyed by the log index it happened at."""
    from wargame_cli.engine.takeback import describe

    names = data["setup"]["names"]
    out: dict[int, list[str]] = {}
    for done in data.get("takebacks", []):
        out.setdefault(done["at"], []).append(describe(done, names, word))
    return out


def _report(path: Path, target: str, with_rules: bool) -> None:
    from wargame_cli.report import battle_report

    data = store.load(path)
    games.verify(path)  # a report is only written for a game the rules reproduce
    text = battle_report(data, with_rules=with_rules)
    if target == "-":
        print(text, end="" if text.endswith("\n") else "\n")
        return
    out = Path(target)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(text, encoding="utf-8")
    console(stderr=True).print(f"Battle report written to {out}")
