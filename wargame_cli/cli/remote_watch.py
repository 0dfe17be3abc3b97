"""`wargame watch`: follow a hosted game read-only. The game so far replays here through our
own rules (every shared roll derived again), then each entry as the host records it; after a
take-back the host sends the game so far again."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.cli.output import console, emit_json
from wargame_cli.cli.remote import DEFAULT_PORT
from wargame_cli.engine.session import Session
from wargame_cli.errors import BadInput, Interrupted
from wargame_cli.remote import fair, sight
from wargame_cli.remote.gate import knock
from wargame_cli.remote.wire import Dropped, Link, RemoteError
from wargame_cli.saves import games, provenance, store


def watch(address: str, code: str, json_out: bool = False) -> None:
    rulesets = {info.id: registry.get(info.id).version for info in registry.all_infos()}
    link, _, fingerprint = knock(address, code, rulesets, DEFAULT_PORT)
    if not json_out:
        console().print(
            f"watching {address}; host key fingerprint {fingerprint} (Ctrl-C to stop)",
            markup=False,
        )
    try:
        with tempfile.TemporaryDirectory() as folder:
            session = _follow(link, Path(folder) / "watched.json", json_out)
    except KeyboardInterrupt:
        raise Interrupted("stopped watching") from None
    except Dropped as exc:
        raise RemoteError(f"the host's game went away ({exc})") from None
    if json_out:  # what was seen: the game's end as the rules here reached it
        seen = provenance.of_session(session).as_json()
        emit_json(
            {"ruleset": session.ruleset.id, "status": session.status}
            | {"winner": session.winner, "entries": len(session.runner.log), "provenance": seen}
        )


def _follow(link: Link, path: Path, json_out: bool) -> Session:
    """Play along until the host says goodbye: the session as it ended here."""
    session: Session | None = None
    while True:
        message = link.recv()
        kind = message["t"]
        if kind == "bye" and session is not None:
            return session
        if kind == "game":
            session = _opened(message, path, json_out, shown=session is None)
        elif kind == "entry" and session is not None:
            _take(session, message.get("entry"))
        else:
            raise RemoteError(f"the host sent {str(kind)[:20]!r} to a spectator")


def _opened(message: dict[str, Any], path: Path, json_out: bool, shown: bool) -> Session:
    """The game so far, as the host sent it, replayed here (shown from its board)."""
    if not isinstance(message.get("save"), dict):
        raise RemoteError("the host sent no game")
    store.write_atomic(path, message["save"])
    try:
        session = games.open_save(path)
    except BadInput as exc:
        raise RemoteError(f"the host's game does not replay here: {exc}") from None
    if not json_out:
        from wargame_cli.ui.live import LiveView

        view = LiveView(
            console(), session.ruleset, session.setup.names, players=session.meta["players"]
        )
        view.sees = sight.neutral(view.view)  # what both sides see: no one's hidden pieces
        if not shown:
            console().print("(a decision was taken back: the game as it stands now)")
        view.board(session.game)
        session.runner.observer = view
    for entry in message.get("rest") or []:
        _take(session, entry)
    return session


def _take(session: Session, entry: Any) -> None:
    """One entry the host recorded, through our own rules."""
    runner = session.runner
    if not isinstance(entry, dict):
        raise RemoteError("the host sent a log entry that is not one")
    if entry.get("t") == "roll" and "shared" in entry and (why := fair.problem(entry)):
        raise RemoteError(f"the host sent shared dice that do not hold: {why}")
    if entry.get("t") == "end" and runner.finished:  # the replay logged the end already
        if runner.outcome is None or entry.get("winner") != runner.outcome.winner:
            raise RemoteError("the host's game ends otherwise than the rules here end it")
        return
    runner.replay([entry])
