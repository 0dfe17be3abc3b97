"""`wargame fork`: branch a saved game at the end of a turn, to play on differently.

The fork is a new save, in progress, whose log is the original's up to the end of that turn
and nothing after; it names its parent (`forked_from`). It is written by the same code as any
save, from the cut log replayed through the rules, so `resume` and `replay --verify` take it
as they take any other save.
"""

from __future__ import annotations

from pathlib import Path

from wargame_cli import history
from wargame_cli.cli.output import console, emit_json
from wargame_cli.errors import BadInput
from wargame_cli.invoked import command
from wargame_cli.saves import games, store
from wargame_cli.text import shown


def fork(
    path: Path,
    turn: int,
    target: Path | None = None,
    force: bool = False,
    json_out: bool = False,
    saves_dir: Path | None = None,
) -> None:
    h = history.load(path)
    mark = h.mark(turn)
    word = h.session.ruleset.turn_word
    if turn == h.last and h.session.runner.finished:
        raise BadInput(
            f"--turn {turn}: the game ended in {word} {turn}, so there is nothing to play on; "
            f"fork at {word} 0 to {turn - 1}"
            if turn
            else f"--turn {turn}: the game is over"
        )
    if not mark.complete:
        raise BadInput(
            f"--turn {turn}: {word} {turn} is not over in this save; fork at {word} 0 to {turn - 1}"
        )
    out = target if target is not None else _fork_path(path, turn, saves_dir)
    if out.exists() and out.resolve() == path.resolve():
        raise BadInput(
            f"--save {shown(out)}: that is the save being forked; a fork goes to a new file"
        )
    if out.is_dir():
        raise BadInput(f"--save {shown(out)}: that is a folder; name the file to write")
    if out.exists() and not force:
        raise BadInput(f"--save {shown(out)}: that file exists; pass --force to overwrite it")
    session = games.open_save(path, replay=False)
    kept = h.cut(turn)
    session.runner.replay(kept)
    takebacks = session.runner.takebacks
    if takebacks:  # only those made in the turns the fork keeps
        session.runner.takebacks = [t for t in takebacks if t.get("at", 0) < len(kept)]
    session.created = ""  # a new save: created now
    session.meta["forked_from"] = {"save": path.name, "turn": turn}
    # a fork is a new game at one terminal: the two machines' keys signed the parent only
    session.meta.pop(games.SIGNING, None)
    try:
        with store.locked(out):  # never under a game running on that file
            store.write_atomic(out, games.to_save(session))
    except OSError as exc:
        raise BadInput(f"--save {shown(out)}: cannot write it ({exc.strerror or exc})") from None
    if json_out:
        emit_json(
            {
                "save": str(out),
                "forked_from": session.meta["forked_from"],
                "turns": session.runner.turn,
                "status": session.status,
            }
        )
        return
    console().print(
        f"Forked {shown(path.name)} at the end of {word} {turn} into {shown(out)}; "
        f"play on with: {command('resume ' + shown(out))}",
        markup=False,
    )


def _fork_path(path: Path, turn: int, saves_dir: Path | None) -> Path:
    """`<original>_fork-t<N>.json` in the saves folder, numbered if that name is taken."""
    folder = store.saves_dir(saves_dir)
    stem = f"{path.stem}_fork-t{turn}"
    out = folder / f"{stem}.json"
    n = 2
    while out.exists():
        out = folder / f"{stem}-{n}.json"
        n += 1
    return out
