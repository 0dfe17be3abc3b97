"""Spectators: each gets the game so far (a sealed save, then the log entries it does not
cover) and every log entry as it is recorded. Read-only: nothing a spectator sends is read.

Each spectator has its own outbox and its own thread that sends from it, so the game never
waits on a spectator: one that falls `BEHIND` messages behind (it stopped reading, or reads
too slowly) is dropped, as is one that goes away, and the game goes on. Each message is
encoded once, on the game's thread (a snapshot: the game moves on meanwhile), for every
spectator; the game so far, sent again after a take-back, replaces what a spectator had
not been sent yet.

While part of the game is hidden from a side (a hidden deployment), nothing is sent: the
entries wait for the reveal, so no spectator's wire ever carries where a hidden piece stands
before it."""

from __future__ import annotations

import json
import threading
import time
from collections import deque
from collections.abc import Callable
from typing import Any

from wargame_cli.remote import sight
from wargame_cli.remote.wire import Link, RemoteError
from wargame_cli.saves import games

LOG_KINDS = frozenset({"turn", "roll", "choice", "event", "end"})
BEHIND = 256  # messages a spectator may have waiting before it is dropped
FAREWELL = 5.0  # seconds the game's end waits for spectators to be sent the rest


class Spectator:
    """One spectator's link, outbox and sending thread."""

    def __init__(self, link: Link, gone: Callable[[Spectator, str], None]) -> None:
        self.link = link
        self.gone = gone
        self._box: deque[str | None] = deque()  # encoded messages; None: the last was sent
        self._ready = threading.Condition()
        self.thread = threading.Thread(target=self._send, daemon=True)
        self.thread.start()

    def put(self, text: str, afresh: bool = False) -> bool:
        """`text` (an encoded message) to be sent; `afresh`: the game so far, which replaces
        what was waiting. False when the spectator is too far behind to take it."""
        with self._ready:
            if afresh:
                self._box.clear()
            if len(self._box) >= BEHIND:
                return False
            self._box.append(text)
            self._ready.notify()
        return True

    def finish(self) -> None:
        with self._ready:
            self._box.append(None)
            self._ready.notify()

    def _send(self) -> None:
        while True:
            with self._ready:
                while not self._box:
                    self._ready.wait()
                text = self._box.popleft()
            if text is None:
                break
            try:
                self.link.post_encoded(text)
            except RemoteError:
                self.gone(self, "a spectator left")
                break
        self.link.close()


class Watchers:
    def __init__(self, tell: Callable[[str], None]) -> None:
        self.tell = tell
        self._lock = threading.Lock()
        self._new: list[Link] = []  # let in, not yet sent the game
        self._live: list[Spectator] = []
        self._held: list[str] = []  # entries for `_live` kept until the reveal (encoded)
        self._afresh = False  # a take-back while hidden: the game so far, at the reveal
        self._view: Any = None  # the ruleset's view: what each side may see of a state

    def add(self, link: Link) -> None:
        """A spectator let in (the gate's thread): sent the game at the next entry."""
        with self._lock:
            self._new.append(link)

    def entry(self, entry: Any, session: Any) -> None:
        """A log entry recorded (the game's thread): to every spectator, never waited on;
        while part of the game is hidden from a side, kept until the reveal."""
        kind = entry.get("t")
        if kind not in LOG_KINDS and kind != "takeback":
            return
        with self._lock:
            if not self._new and not self._live:
                return
            if kind == "takeback":  # the log was cut back: the game so far, again, to all
                self._afresh, self._held = True, []
            elif self._live and not self._afresh:
                self._held.append(_encoded({"t": "entry", "entry": entry}))
            if self._hidden(session):
                return
            held, self._held = self._held, []
            afresh, self._afresh = self._afresh, False
            live = list(self._live)
            fresh = [Spectator(link, self._gone) for link in self._new]
            self._new = []
            self._live += fresh
        if afresh:
            fresh, live = fresh + live, []
        for spectator in live:
            for told in held:
                self._put(spectator, told)
        if fresh:  # the game so far holds this entry already
            so_far = _encoded(_so_far(session))
            for spectator in fresh:
                self._put(spectator, so_far, afresh=True)

    def _hidden(self, session: Any) -> bool:
        if self._view is None:
            self._view = session.ruleset.view()
        return sight.hidden(self._view, session.game.state)

    def end(self) -> None:
        """The game is over: each spectator is sent the rest and a goodbye (waited for a
        few seconds in all, never longer)."""
        with self._lock:
            live, self._live = self._live, []
        bye = _encoded({"t": "bye"})
        for spectator in live:
            spectator.put(bye)
            spectator.finish()
        end = time.monotonic() + FAREWELL
        for spectator in live:
            spectator.thread.join(timeout=max(0.0, end - time.monotonic()))
            if spectator.thread.is_alive():
                spectator.link.cut()

    def _put(self, spectator: Spectator, text: str, afresh: bool = False) -> None:
        if not spectator.put(text, afresh):
            spectator.link.cut()  # its thread, waiting on it, ends
            self._gone(spectator, f"a spectator fell {BEHIND} messages behind and was dropped")

    def _gone(self, spectator: Spectator, why: str) -> None:
        with self._lock:
            if spectator not in self._live:
                return
            self._live.remove(spectator)
        self.tell(why)


def _encoded(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False)


def _so_far(session: Any) -> dict[str, Any]:
    """The save, and the entries after it that a save leaves out (a turn just begun)."""
    data = games.to_save(session)
    return {"t": "game", "save": data, "rest": session.runner.log[len(data["log"]) :]}
