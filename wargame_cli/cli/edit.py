"""`wargame edit SAVE ACTION WORDS... --why TEXT`: a table edit made on a saved game.

The save is replayed, the edit is made where the game stands (between turns, where a save
stops), and the save is written again with the edit in its log. A die correction replays
the game from that die: the decisions after it are kept while they are still legal, and
the log stops at the first that is not (`wargame resume` asks it). A refused edit changes
nothing: one line on stderr, exit 2, the save as it was.
"""

from __future__ import annotations

from pathlib import Path

from wargame_cli.cli.output import console, emit_json
from wargame_cli.engine import edits
from wargame_cli.engine.runner import Runner
from wargame_cli.errors import BadInput
from wargame_cli.invoked import command
from wargame_cli.saves import games, store
from wargame_cli.text import shown


def edit(
    path: Path,
    action: str | None,
    words: list[str],
    by: str,
    why: str,
    force: bool = False,
    json_out: bool = False,
) -> None:
    if action is None:
        raise BadInput(f"which edit? {command('edit SAVE ACTION WORDS... --why TEXT')}")
    change = edits.parse(action, words, by, why)
    with store.locked(path, new=False):
        data = store.load(path)
        if data["status"] == "finished" and not force:
            raise BadInput(
                f"{shown(path)}: that game is finished; pass --force to edit it all the same"
            )
        session = games.open_save(path, nearest=True)
        runner = session.runner
        allowed = session.ruleset.edit_actions()
        if change.action not in allowed:
            raise edits.EditRefused(
                f"{session.ruleset.name} takes no {change.action!r} edit; "
                f"it takes {', '.join(allowed)} (see {command('rules ' + session.ruleset.id)})"
            )
        edits.check_words(change, allowed[change.action])
        before = len(runner.log)
        runner.edit(change)
        if change.action == "end" and session.meta.get("dice", "auto") == "auto":
            runner.settle()  # the after-battle rolls the rules give, from the seed's dice
        games.save(session, path)
    made = [e for e in runner.log if e["t"] == "edit"]
    line = made[-1]["text"] if made else change.action
    if json_out:
        emit_json(
            {
                "save": str(path),
                "edit": made[-1] if made else None,
                "status": session.status,
                "turns": runner.turn,
                "log_entries": {"before": before, "after": len(runner.log)},
            }
        )
        return
    out = console()
    out.print(f"Edited {shown(path)}: {line}.", markup=False, soft_wrap=True)
    if change.action == "end":
        _told_after(runner, path)
    if change.action == "die":
        where = (
            f"the game ends: {runner.outcome.reason}"
            if runner.outcome is not None
            else f"play on with: {command('resume ' + shown(path))}"
        )
        told = runner.rederived
        kept = f"{told.get('kept', 0)} later decisions kept"
        if told.get("dropped"):
            kept += f", {told['dropped']} left out from the first that no longer fits"
        out.print(f"Replayed from that die ({kept}); {where}.", markup=False, soft_wrap=True)
        for text in told.get("dropped_edits", []):
            out.print(f"  An edit made after it is left out: {text}", markup=False)


def _told_after(runner: Runner, path: Path) -> None:
    """What came after an `end` edit: the after-battle events the rules gave, and a question
    among them left for `resume`."""
    out = console()
    at = max(i for i, e in enumerate(runner.log) if e["t"] == "edit")
    for entry in runner.log[at + 1 :]:
        if entry["t"] == "event":
            out.print(f"  {entry.get('text', '')}", markup=False, soft_wrap=True)
    if runner.pending is not None:
        out.print(
            f"The after-battle steps wait for a decision: {command('resume ' + shown(path))}",
            markup=False,
            soft_wrap=True,
        )
