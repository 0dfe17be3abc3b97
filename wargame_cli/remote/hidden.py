"""Hidden placements on the wire: while part of the game is hidden from a side (Mobs and
Morale's hidden deployment, e2), a decision crosses the wire as a commitment only: a salted
hash of it (`commitment`), never its key. Each machine runs the rules on, with a stand-in for
each of the other side's hidden decisions (a legal answer: where the sides deploy apart, no
side's questions depend on where the other's pieces stand). When the stretch ends (the rules
reveal what was hidden, or ask for dice), both machines send their decisions with their salts
(`unseal`), each checks every one against its commitment (one that does not open it is
refused: `BROKEN`), and both write the stretch again as it was decided (`Runner.rewrite`),
each decision signed by its side's machine where it stands in the real log (`Signatures`), so
the logs of both machines end identical.

Until then nothing of the stretch is saved, journalled or sent to a spectator: a game that
stops in it (a drop, a refusal, Ctrl-C) goes back to where it began, and both sides place
again. No take-back is asked in it (the other side would answer with a log it cannot hold)."""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from wargame_cli.engine.requests import Choice, Request, Roll
from wargame_cli.remote import fair, signing
from wargame_cli.remote.wire import Refused

LABEL = b"wargame-hidden-v1\n"
SALT_BYTES = 32
BROKEN = "a hidden placement revealed does not open its commitment"
NO_TAKEBACK = (
    "no take-back while the sides deploy unseen: the other machine holds only a commitment "
    "to each placement until both have deployed"
)


def commitment(salt: bytes, at: int, side: str, key: str, by: str) -> str:
    """The hash that stands for a hidden decision on the wire until it is revealed: of its
    place, side, key and maker, and a salt that no one can guess it through."""
    told = json.dumps({"at": at, "side": side, "key": key, "by": by}, sort_keys=True)
    return hashlib.sha256(LABEL + salt + told.encode()).hexdigest()


def stand_in(choice: Choice) -> str:
    """A legal answer to `choice` that stands for the other side's hidden one meanwhile."""
    keys = [choice.default, *(o.key for o in choice.options if o.disabled is None)]
    for key in keys:
        if isinstance(key, str) and choice.legal(key) is None:
            return key
    raise Refused(f"no answer can stand for a hidden one: {choice.prompt}")


class Rewound(Exception):
    """The link dropped in a hidden stretch: the game went back to where it began (and the
    other side is back): the question in hand is void."""


@dataclass
class Own:
    """One of this machine's hidden decisions, as it will be revealed."""

    key: str
    by: str
    salt: bytes

    def told(self, at: int) -> dict[str, Any]:
        return {"at": at, "key": self.key, "by": self.by, "salt": self.salt.hex()}


@dataclass
class Stretch:
    """A stretch of hidden decisions under way: where it began (the log's length and the
    chain's tip there), this machine's decisions and the other's commitments, by log index."""

    start: int
    tip: str
    own: dict[int, Own] = field(default_factory=dict)
    theirs: dict[int, tuple[str, str]] = field(default_factory=dict)  # at -> (side, commit)
    revealed: dict[int, tuple[str, str]] = field(default_factory=dict)  # at -> (key, by)


class Hidden:
    """The hidden stretches of one machine's game. `hidden()`: is part of the game hidden
    from a side now (`sight.hidden`)? Set on the peer (`Peer.hidden`) and on the runner
    (`Runner.interpose`: `before`)."""

    def __init__(self, peer: Any, hidden: Callable[[], bool]) -> None:
        self.peer = peer
        self.hidden = hidden
        self.stretch: Stretch | None = None
        self.rewriting = False  # the stretch is being written as decided (no stand-ins)

    @property
    def active(self) -> bool:
        return self.stretch is not None

    # -- the runner's side ------------------------------------------------------------------
    def before(self, req: Request) -> None:
        """Each live request: a question asked while part of the game is hidden begins a
        stretch; the first request once nothing is hidden (or dice) ends it: revealed."""
        if self.rewriting:
            return
        if self.stretch is None:
            if isinstance(req, Choice) and self.hidden():
                at, tip = self.peer.at
                self.stretch = Stretch(at, tip)
            return
        if isinstance(req, Roll) or not self.hidden():
            try:
                self.reveal()
            except Rewound:  # the game went back to where the stretch began
                return

    def rewind(self) -> bool:
        """Back to where the stretch began (the game stops or drops in it); True if it was
        under way."""
        stretch = self.stretch
        if stretch is None:
            return False
        self.stretch = None
        self.peer.runner.cut(stretch.start)
        return True

    # -- this side's decisions ----------------------------------------------------------------
    def seal(self, choice: Choice, key: str, by: str) -> dict[str, Any]:
        """The message that tells the other machine of this side's decision: its commitment."""
        stretch = self.stretch
        assert stretch is not None
        peer = self.peer
        at, _ = peer.at
        salt = os.urandom(SALT_BYTES)
        stretch.own[at] = Own(key, by, salt)
        commit = commitment(salt, at, choice.side, key, by)
        told = {"t": "sealed", "side": choice.side, "at": at, "from": stretch.start}
        told |= {"tip": stretch.tip, "commit": commit}
        return peer.signed(told, _sealed(peer.tips.root, at, choice.side, commit))

    # -- the other side's ---------------------------------------------------------------------
    def sealed(self, choice: Choice, message: dict[str, Any]) -> str:
        """The other side's commitment to its decision at this question, checked and kept:
        a stand-in answers the question meanwhile."""
        stretch = self.stretch
        assert stretch is not None
        peer = self.peer
        at, _ = peer.at
        if message.get("side") != choice.side or message.get("at") != at:
            raise Refused(
                f"{peer.name} sealed a decision of side {_short(message.get('side'))} at log "
                f"entry {_short(message.get('at'))}; the rules ask side {choice.side} at {at}: "
                "the games went apart"
            )
        if message.get("from") != stretch.start or message.get("tip") != stretch.tip:
            raise Refused(
                f"{peer.name}'s hidden placements begin elsewhere than at log entry "
                f"{stretch.start}: the games went apart"
            )
        commit = message.get("commit")
        if not isinstance(commit, str) or fair.hex_value(commit) is None:
            raise Refused(f"{peer.name} sent a malformed commitment ({choice.prompt})")
        peer.sig(message, _sealed(peer.tips.root, at, choice.side, commit), "hidden placement")
        stretch.theirs[at] = (choice.side, commit)
        return stand_in(choice)

    # -- the reveal ---------------------------------------------------------------------------
    def reveal(self) -> None:
        """Both sides' decisions of the stretch, sent and checked against their commitments;
        the stretch written again as decided, signed by both machines."""
        stretch = self.stretch
        assert stretch is not None
        peer, runner = self.peer, self.peer.runner
        upto = len(runner.log)
        mine = [own.told(at) for at, own in sorted(stretch.own.items())]
        told = {"t": "unseal", "from": stretch.start, "tip": stretch.tip, "placed": mine}

        def unseal() -> dict[str, Any]:
            peer.post(told)
            return peer.expect("unseal")

        stretch.revealed = self._opened(peer.exchange(unseal))
        self.rewriting = True
        try:
            peer.tips.back_to(stretch.start)
            signed = Signatures(peer, stretch)
            runner.rewrite(stretch.start, upto, signed.answer)
            signed.post_ours()  # the last of ours
        finally:
            self.rewriting = False
        self.stretch = None

    def _opened(self, message: dict[str, Any]) -> dict[int, tuple[str, str]]:
        """The other side's decisions of the stretch, each opening its commitment."""
        stretch = self.stretch
        assert stretch is not None
        name = self.peer.name
        placed = message.get("placed")
        if message.get("from") != stretch.start or not isinstance(placed, list):
            raise Refused(f"{name} revealed no hidden placements of this stretch")
        out: dict[int, tuple[str, str]] = {}
        for item in placed:
            if not isinstance(item, dict) or not isinstance(item.get("at"), int):
                raise Refused(f"{name} revealed a malformed hidden placement")
            at, key, by = item["at"], item.get("key"), item.get("by")
            salt = fair.hex_value(item.get("salt"))
            if at not in stretch.theirs or at in out:
                raise Refused(f"{name} revealed a placement at log entry {at} it never sealed")
            side, commit = stretch.theirs[at]
            if not isinstance(key, str) or not isinstance(by, str) or salt is None:
                raise Refused(f"{name} revealed a malformed hidden placement (log entry {at})")
            if commitment(salt, at, side, key, by) != commit:
                raise Refused(f"{BROKEN}: {name}'s placement at log entry {at}")
            out[at] = (key, by)
        if set(out) != set(stretch.theirs):
            missing = min(set(stretch.theirs) - set(out))
            raise Refused(f"{name} did not reveal its placement at log entry {missing}")
        return out


class Signatures:
    """The stretch written as decided, each decision signed by its side's machine where the
    real log puts it (its place and the chain's tip there, which covers the signatures before
    it): ours made as we come to them and sent before we wait; the other's received when we
    come to the first we lack (it sends them before it waits for ours), checked at the next
    pause. A stretch of one side's decisions, then the other's, takes one message each way."""

    def __init__(self, peer: Any, stretch: Stretch) -> None:
        self.peer = peer
        self.stretch = stretch
        self.unsent: dict[int, str] = {}
        self.got: dict[int, str] = {}

    def answer(self, at: int, choice: Choice) -> tuple[str, str, str | None]:
        """What `Runner.rewrite` answers at entry `at`: the decision made there, signed."""
        peer, stretch = self.peer, self.stretch
        signer = peer.signer
        own = stretch.own.get(at)
        if own is not None:
            if signer is None:
                return own.key, own.by, None
            said = signing.decision(at, self._tip(), choice.side, own.key, own.by)
            self.unsent[at] = sig = signer.sign(said)
            return own.key, own.by, sig
        revealed = stretch.revealed.get(at)
        if revealed is None:
            raise Refused(f"the rules ask at log entry {at} for no placement made there")
        key, by = revealed
        why = choice.legal(key)
        if why is not None:
            raise Refused(f"{peer.name} revealed an illegal placement {key!r}: {why}")
        if signer is None:
            return key, by, None
        while at not in self.got:
            self.post_ours()
            self.got |= peer.exchange(self._received)
        said = signing.decision(at, self._tip(), choice.side, key, by)
        return key, by, peer.sig({"sig": self.got[at]}, said, f"placement at log entry {at}")

    def _tip(self) -> str:
        return str(self.peer.tips.tip(self.peer.runner.log))

    def post_ours(self) -> None:
        """Our signatures not sent yet, if any."""
        if self.unsent:
            told = {"t": "unsealed", "sigs": {str(at): sig for at, sig in self.unsent.items()}}
            self.peer.exchange(lambda: self.peer.post(told))
            self.unsent = {}

    def _received(self) -> dict[int, str]:
        sigs = self.peer.expect("unsealed").get("sigs")
        theirs = self.stretch.revealed
        if not isinstance(sigs, dict) or not all(
            isinstance(sig, str)
            and at.isascii()
            and at.isdigit()
            and len(at) < 10
            and int(at) in theirs
            for at, sig in sigs.items()
        ):
            raise Refused(f"{self.peer.name} signed no hidden placement of its own")
        return {int(at): sig for at, sig in sigs.items()}


def _sealed(game: str, at: int, side: str, commit: str) -> dict[str, Any]:
    """What a hidden placement's commitment says, signed by the machine that sends it."""
    return {"t": "sealed", "game": game, "at": at, "side": side, "commit": commit}


def _short(value: object) -> str:
    from wargame_cli.text import visible

    return visible((value if isinstance(value, str) else repr(value))[:40])
