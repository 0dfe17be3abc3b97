"""A game's save written after every turn at a cost that does not grow with the game.

The file is one JSON object: the header, then `"log":[…` with the entries, then the
trailer (`],"status":…,"seal":"…"}`), then spaces to the end of a 4 KB page and a newline.
Each turn's save writes the turn's new entries and a new trailer over the old trailer, in
one `pwrite` that stays inside the file's last page: the kernel never splits a write inside
one page, so a kill at any moment leaves the old save or the new one. The hash chain is
carried forward (`seal.Chain`): only the new entries are encoded and hashed.

When the new bytes would pass the end of that page, or the log changed behind the last
save (a take-back), the file is written whole through a temporary file and a rename
(`store.write_file`), with a fresh page for the trailer. Between turns of a fast game, such
rewrites come at most every `REWRITE_LAG` seconds (the file stays the last whole save
meanwhile); a settled save (the game stops, or a person plays it) is written at once and
flushed to disk."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path
from typing import Any

from wargame_cli.errors import SaveError
from wargame_cli.saves import seal, store

PAGE = 4096
REWRITE_LAG = 0.05  # seconds between whole rewrites while turns come faster than that
SYNC_EVERY = 1.0  # seconds between flushes to disk of a rewrite while a game runs
TRAILER = ("status", "turns", "result", "takebacks", "updated")  # what changes each turn


def _normal(text: str) -> Any:
    return json.loads(text)


class SaveWriter:
    """Writes one save again and again as its game goes on (see the module's docstring)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._header: dict[str, Any] | None = None  # as given, to see a change
        self._normal_header: dict[str, Any] = {}
        self._chain = seal.Chain({})
        self._body = bytearray()  # header and the encoded entries, as the file has them
        self._count = 0  # log entries in the body
        self._last: Any = None  # the log's entry object encoded last
        self._file: Any = None  # the file written last, open for writing in place
        self._real = path
        self._size = 0  # the file's size, a whole number of pages
        self._at = -1  # where the trailer starts in the file
        self._end = 0  # where the JSON ends in the file
        self._on_disk = -1  # how much of the body the file holds before the trailer
        self._rewritten = float("-inf")
        self._synced = float("-inf")
        self._swept = False

    def write(self, data: dict[str, Any], settle: bool = True) -> None:
        """Save `data` (a save's fields, its log unsealed). `settle`: the save goes to disk
        now (fsync); otherwise a whole rewrite may wait `REWRITE_LAG`."""
        log = data["log"]
        header = {k: v for k, v in data.items() if k != "log" and k not in TRAILER}
        if header != self._header or not self._continues(log):
            self._start(header)
        self._extend(log)
        tail = _normal(store.dumps({k: data[k] for k in TRAILER if k in data}))
        sealed = self._chain.seal({**self._normal_header, **tail})
        trailer = ("]," + store.dumps({**tail, "seal": sealed})[1:]).encode("utf-8")
        if self._in_place(trailer):
            if settle:
                self._sync()
        elif not settle and time.monotonic() - self._rewritten < REWRITE_LAG:
            return  # the file keeps the last whole save; a later turn writes this one
        else:
            self._rewrite(trailer, settle)

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None

    # -- the log in memory ----------------------------------------------------------------
    def _continues(self, log: list[dict[str, Any]]) -> bool:
        """The log still begins with every entry already encoded (a take-back rebuilds it
        from new entries, so the last one encoded is no longer at its place)."""
        count = self._count
        return count <= len(log) and (count == 0 or log[count - 1] is self._last)

    def _start(self, header: dict[str, Any]) -> None:
        import copy

        self._header = copy.deepcopy(header)
        self._normal_header = _normal(store.dumps(header))
        self._chain = seal.Chain(self._normal_header)
        self._body = bytearray(store.dumps(self._normal_header)[:-1].encode("utf-8"))
        self._body += b',"log":[' if self._normal_header else b'"log":['
        self._count = 0
        self._last = None
        self._on_disk = -1  # the file no longer begins as the body does

    def _extend(self, log: list[dict[str, Any]]) -> None:
        body = self._body
        for entry in log[self._count :]:
            text = store.dumps(entry)
            tip = self._chain.tip
            self._chain.link(_normal(text))
            if self._count:
                body += b","
            body += f'{text[:-1]}{"," if len(text) > 2 else ""}"h":"{tip}"}}'.encode()
            self._count += 1
        if len(log) > 0:
            self._last = log[-1]

    # -- the file -------------------------------------------------------------------------
    def _in_place(self, trailer: bytes) -> bool:
        """Write the new entries and trailer over the old trailer, when the file is the one
        written last and they fit before its last byte, inside its last page."""
        if self._file is None or self._on_disk < 0:
            return False
        grown = len(self._body) - self._on_disk
        end = self._at + grown + len(trailer)
        if end >= self._size or self._at < self._size - PAGE or not self._unchanged():
            return False
        new = bytes(self._body[self._on_disk :])
        blob = new + trailer + b" " * max(0, self._end - end)
        try:
            written = os.pwrite(self._file.fileno(), blob, self._at)
        except OSError as exc:
            raise SaveError(f"cannot write {self._shown()}: {exc.strerror or exc}") from None
        if written != len(blob):  # inside the file's own bytes: no disk space is needed
            raise SaveError(f"cannot write {self._shown()}: a short write")
        self._at += grown
        self._end = end
        self._on_disk = len(self._body)
        return True

    def _unchanged(self) -> bool:
        try:
            now, ours = os.stat(self._real), os.fstat(self._file.fileno())
        except OSError:
            return False
        return (now.st_dev, now.st_ino, now.st_size) == (ours.st_dev, ours.st_ino, self._size)

    def _rewrite(self, trailer: bytes, settle: bool) -> None:
        """The whole file through a temporary file and a rename; the trailer starts a fresh
        page when little of the body's last page is left."""
        head = len(self._body)
        room = PAGE - head % PAGE
        gap = room if room < len(trailer) + PAGE // 2 else 0
        at = head + gap
        end = at + len(trailer)
        size = (end // PAGE + 1) * PAGE
        blob = b"".join((self._body, b" " * gap, trailer, b" " * (size - end - 1), b"\n"))
        if not self._swept:
            real, _ = store.target(self.path)
            if real.parent.is_dir():
                store.remove_leftovers(real.parent)
            self._swept = True
        durable = settle or time.monotonic() - self._synced >= SYNC_EVERY
        self.close()
        self._real, fd = store.write_file(self.path, blob, durable=durable, keep_open=True)
        assert fd is not None  # kept open, as asked
        self._file = os.fdopen(fd, "r+b", buffering=0)  # closed with the writer
        now = time.monotonic()
        self._rewritten = now
        if durable:
            self._synced = now
        self._size, self._at, self._end, self._on_disk = size, at, end, head

    def _sync(self) -> None:
        if self._file is not None:
            try:
                os.fsync(self._file.fileno())
            except OSError as exc:
                raise SaveError(f"cannot write {self._shown()}: {exc.strerror or exc}") from None
            self._synced = time.monotonic()

    def _shown(self) -> str:
        from wargame_cli.text import shown

        return shown(self.path)
