"""Spectators: each gets the game so far (a sealed save, then the log entries it does not
cover) and every log entry as it is recorded. Read-only: nothing a spectator sends is read.
A spectator who goes away is dropped from the list, and the game goes on. While part of the
game is hidden from a side (a hidden deployment), nothing is sent: the entries wait for the
reveal, so no spectator's wire ever carries where a hidden piece stands before it."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from wargame_cli.remote import sight
from wargame_cli.remote.wire import Link, RemoteError
from wargame_cli.saves import games

LOG_KINDS = frozenset({"turn", "roll", "choice", "event", "end"})


class Watchers:
    def __init__(self, tell: Callable[[str], None]) -> None:
        self.tell = tell
        self._lock = threading.Lock()
        self._new: list[Link] = []  # let in, not yet sent the game
        self._live: list[Link] = []
        self._held: list[dict[str, Any]] = []  # entries for `_live` kept until the reveal
        self._view: Any = None  # the ruleset's view: what each side may see of a state

    def add(self, link: Link) -> None:
        """A spectator let in (the gate's thread): sent the game at the next entry."""
        with self._lock:
            self._new.append(link)

    def entry(self, entry: Any, session: Any) -> None:
        """A log entry recorded (the game's thread): to every spectator, or, while part of
        the game is hidden from a side, kept until the reveal."""
        kind = entry.get("t")
        if kind not in LOG_KINDS and kind != "takeback":
            return
        with self._lock:
            if not self._new and not self._live:
                return
            if kind == "takeback":  # the log was cut back: the game so far, again
                self._new += self._live
                self._live, self._held = [], []
            elif self._live:
                self._held.append({"t": "entry", "entry": entry})
            if self._hidden(session):
                return
            held, self._held = self._held, []
            for link in list(self._live):
                self._send(link, *held)
            for link in self._new:  # the game so far holds this entry already
                self._live.append(link)
                self._send(link, _so_far(session))
            self._new = []

    def _hidden(self, session: Any) -> bool:
        if self._view is None:
            self._view = session.ruleset.view()
        return sight.hidden(self._view, session.game.state)

    def end(self) -> None:
        with self._lock:
            for link in self._live:
                self._send(link, {"t": "bye"})
                link.close()
            self._live = []

    def _send(self, link: Link, *messages: dict[str, Any]) -> None:
        try:
            link.post(*messages)
        except RemoteError:
            if link in self._live:
                self._live.remove(link)
            self.tell("a spectator left")


def _so_far(session: Any) -> dict[str, Any]:
    """The save, and the entries after it that a save leaves out (a turn just begun)."""
    data = games.to_save(session)
    return {"t": "game", "save": data, "rest": session.runner.log[len(data["log"]) :]}
