"""The other machine as one more answer source: its side's decisions come off the wire
(`RemoteController`), ours go onto it (`Announcing`), and every roll is settled by commit
and reveal with it (`SharedDice`). Both machines run the rules, so each checks what it
receives with the question's own `Choice.legal`, and the hash chain tip of both logs is
compared at every decision."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable
from functools import partial
from typing import Any, TypeVar

from wargame_cli.engine import edits, takeback
from wargame_cli.engine.dice import Thrown
from wargame_cli.engine.requests import TAKE_BACK, Choice, Roll
from wargame_cli.engine.runner import SignedController
from wargame_cli.remote import fair, pledge, signing
from wargame_cli.remote import typed as typed_dice
from wargame_cli.remote.hidden import NO_TAKEBACK, Hidden, Rewound, stand_in
from wargame_cli.remote.journal import Journal
from wargame_cli.remote.wire import Dropped, Link, Refused, RemoteError
from wargame_cli.saves import seal

HOST, JOIN = "host", "join"
T = TypeVar("T")
BY = ("human", "bot", "script")
REASON = 300  # characters of the other side's reason for stopping shown (a sentence or two)
AHEAD = 6  # the host's commitments (and reveals) signed ahead in a pause: a turn's rolls
# A remote decision is an answer to the question asked, never a table edit: edits are made at
# one terminal (or with `wargame edit` on a save), not in remote play.
NO_EDITS = "a decision in remote play answers the question asked; table edits are not made here"


class Tips:
    """The hash chain over a runner's log as it grows (the chain a save carries, from its
    header), linked one new entry at a time."""

    def __init__(self, header: dict[str, Any]) -> None:
        self.chain = seal.Chain(json.loads(json.dumps(header)))
        self.tips = [self.chain.tip]  # the tip after each number of entries

    @property
    def root(self) -> str:
        """The tip over no entries: the hash of the game's header (what a die's signatures
        name as their game, `signing`)."""
        return self.tips[0]

    def back_to(self, length: int) -> None:
        """Forget the tips past the log's first `length` entries (entries written anew
        there: `remote/hidden.py`)."""
        del self.tips[length + 1 :]
        self.chain.tip = self.tips[-1]

    def tip(self, log: list[Any]) -> str:
        """The tip over `log`; a log cut back (a take-back) is followed from where it kept."""
        if len(log) < len(self.tips) - 1:
            del self.tips[len(log) + 1 :]
            self.chain.tip = self.tips[-1]
        for entry in log[len(self.tips) - 1 :]:
            self.chain.link(json.loads(json.dumps(entry)))
            self.tips.append(self.chain.tip)
        return self.chain.tip


class Peer:
    """The connection to the other machine during a game. `runner` is set once the game's
    runner exists; `rejoin` (the host's) waits for the other side to come back after a drop
    and gives the new link, already brought up to date."""

    def __init__(
        self,
        link: Link | None,
        role: str,
        name: str,
        tips: Tips,
        tell: Callable[[str], None],
        rejoin: Callable[[Dropped], Link] | None = None,
    ) -> None:
        self._link = link
        self.role = role
        self.name = name  # the other side's
        self.tips = tips
        self.tell = tell
        self.rejoin = rejoin
        self.runner: Any = None
        # the next roll's commitment made in advance: the host's value, the joiner's hash
        self.next: bytes | str | None = None
        # the save of the decisions not saved yet, never between a key and the next question:
        # `idle` when this side is about to wait for the other side's decision and nothing has
        # come yet; `asking` when this side is asked (a bot's; a person's is saved while they
        # read the question: `Play.attach`)
        self.idle: Callable[[], None] = _nothing
        self.asking: Callable[[], None] = _nothing
        # this side's decision, held until this side next sends or waits or is asked again:
        # the joiner's value for the roll the decision calls for then goes with it
        self.held: list[dict[str, Any]] = []
        # messages read ahead (`SharedDice._early`), given by the next `expect`s in order
        self.ahead: list[dict[str, Any]] = []
        # the host, told of the other side's decision: reads and checks a roll's value come
        # with it (revealed only when the rules reach that roll)
        self.decided: Callable[[], None] = _nothing
        # a roll in progress at a drop, kept across links: the joiner's (`pledge.Pending`),
        # and the commitment the rejoined joiner names for it (the host's)
        self.pending: pledge.Pending | None = None
        self.claim: pledge.Pending | None = None
        # the joiner's roll in progress put on disk before its value leaves (`pledge.Record`)
        self.keep_roll: Callable[[pledge.Pending | None], None] = _keep_nothing
        # the host's journal: what it settled with the other side, kept before it is sent
        self.journal: Journal | None = None
        # the joiner's decisions the host came back without (log entry, key, by): made
        # again as they were, at their places, never asked again
        self.redo: list[tuple[int, str, str]] = []
        # this game's keys (`signing`): None for a game begun unsigned (an earlier build's)
        self.signer: signing.Pair | None = None
        # the other machine's signatures received since the last pause, checked in the next
        # (`pause`), and what this machine signs ahead there (the host: its next reveals)
        self.unchecked: list[tuple[str, dict[str, Any], str]] = []
        self.sign_ahead: Callable[[], None] = _nothing
        # the hidden stretches of the game (`remote/hidden.py`), once the game is attached
        self.hidden: Hidden | None = None

    @property
    def at(self) -> tuple[int, str]:
        log = self.runner.log
        return len(log), self.tips.tip(log)

    @property
    def link(self) -> Link:
        if self._link is None:
            raise Dropped(f"{self.name} has not joined")
        return self._link

    @link.setter
    def link(self, link: Link) -> None:
        self._link = link
        self.next = None  # a commitment made on the old link is void
        self.held.clear()  # the game so far, sent again, holds it (or it is asked again)
        self.ahead.clear()

    def post(self, message: dict[str, Any]) -> None:
        held, self.held = self.held, []
        self._send(*held, message)

    def _send(self, *messages: dict[str, Any]) -> None:
        try:
            self.link.post(*messages)
        except Dropped:
            self._last_word()
            raise

    def _last_word(self) -> None:
        """A write failed: the other side may have said why it stopped before it went (a
        refusal crosses our message). That reason, read now, is the one to give, never a
        bare drop to wait out."""
        told = list(self.ahead)
        link = self._link
        with contextlib.suppress(RemoteError, TimeoutError):
            while link is not None and link.ready() and len(told) < 64:
                told.append(link.recv(timeout=1.0))
        self.ahead = told
        for message in told:
            _stopped(self.name, message)

    def hold(self, message: dict[str, Any]) -> None:
        """Send `message` with the next one, or before this side waits or is asked."""
        self.held.append(message)

    def flush(self) -> None:
        if self.held:
            held, self.held = self.held, []
            self._send(*held)

    def expect(self, *kinds: str, waiting: Callable[[], None] | None = None) -> dict[str, Any]:
        """The next message, which must be of one of `kinds`. `waiting`, when the other side
        decides: when nothing has come yet, what is unsaved is saved (`idle`), then `waiting`
        shows the wait (it returns when the link has input, or at once)."""
        self.flush()
        message = self.ahead.pop(0) if self.ahead else None
        if message is None:
            if waiting is not None and not self.link.ready():
                self.idle()
                waiting()
            message = self.link.recv()
        _stopped(self.name, message)
        told = message["t"]
        if told not in kinds:
            due = " or ".join(repr(kind) for kind in kinds)
            raise Refused(f"{self.name} sent {_text(told)!r} where {due} was due")
        return message

    def exchange(self, step: Callable[[], T]) -> T:
        """`step` (messages about the request in hand); when the other side drops, the host
        waits for it to come back, brought up to the request in hand, and runs `step` again."""
        while True:
            try:
                return step()
            except Dropped as exc:
                if self.rejoin is None:
                    raise
                rewound = self.hidden is not None and self.hidden.rewind()
                self.link = self.rejoin(exc)
                if rewound:  # the game went back to where its hidden stretch began
                    raise Rewound(str(exc)) from None

    def fail(self, why: str, kind: str = "error") -> None:
        """Tell the other side why this side stops (best effort: it may be gone); `kind`
        "leave": it stops for now, its save kept, and may come back."""
        if self._link is None:
            return
        with contextlib.suppress(RemoteError):
            self.link.post({"t": kind, "why": why})

    def signed(self, message: dict[str, Any], statement: dict[str, Any]) -> dict[str, Any]:
        """`message` signed by this machine (as it is, in a game begun unsigned)."""
        return message if self.signer is None else self.signer.signed(message, statement)

    def sig(
        self, message: dict[str, Any], statement: dict[str, Any], what: str, field: str = "sig"
    ) -> str | None:
        """The other machine's signature of `statement`, which `message` must carry in `field`
        (None in a game begun unsigned); checked in the next pause, refused then if it does not
        sign it (refused now when there is none)."""
        if self.signer is None:
            return None
        sig = message.get(field)
        if not isinstance(sig, str):
            raise Refused(f"{self.name}'s {what} is not signed")
        self.unchecked.append((sig, statement, what))
        return sig

    def pause(self) -> None:
        """A pause in the game (this machine waits, or its side is asked): the signatures
        received since the last are checked, and what comes next is signed ahead, so that no
        signature is checked or made between a key and the next question that need not be."""
        signer = self.signer
        if signer is None:
            return
        while self.unchecked:
            sig, statement, what = self.unchecked[0]
            if not signer.holds(sig, statement):  # it stays, to be told again
                raise Refused(f"{self.name}'s {what} is not signed with its key for this game")
            del self.unchecked[0]
        self.sign_ahead()

    def check_tip(self, message: dict[str, Any], what: str) -> None:
        at, tip = self.at
        if message.get("at") != at:
            raise Refused(
                f"{self.name}'s {what} comes at log entry {message.get('at')!r}, "
                f"this side is at {at}: the games went apart"
            )
        if message.get("tip") != tip:
            raise Refused(
                f"the hash chains differ at log entry {at} ({what}): the two games went "
                "apart; both saves keep every decision up to here"
            )


class RemoteController(SignedController):
    """Answers the other machine's side: its decisions, as they arrive, and its requests to
    take a decision back, which this side's player accepts or declines (`agree`). A
    take-back asks back the asker's own latest decision, never this side's."""

    def __init__(
        self,
        peer: Peer,
        waiting: Callable[[str], None],
        agree: Callable[[str], bool] = lambda name: True,
    ) -> None:
        self.peer = peer
        self.waiting = waiting
        self.agree = agree
        self.by = "human"
        self.sig: str | None = None  # the decision's signature, kept in its log entry

    def choose(self, choice: Choice, game: Any) -> str:
        peer = self.peer
        hidden = peer.hidden
        if hidden is not None and hidden.active:
            return self._sealed(choice, hidden)
        shown = partial(self.waiting, peer.name)
        while True:
            message = peer.exchange(lambda: peer.expect("decide", "takeback", waiting=shown))
            if message["t"] == "decide":
                return self._decided(choice, message)
            peer.check_tip(message, "take-back")
            asked = _takeback_said(peer, choice.side)
            if asked is None:
                raise Refused(f"{peer.name} asked to take back a decision it never made")
            ask_sig = peer.sig(message, signing.takeback(*asked), "take-back request")
            accept = self.agree(peer.name)
            reply: dict[str, Any] = {"t": "agree", "accept": accept}
            if accept:  # signed, as the request is: both stay with the take-back's record
                reply = peer.signed(reply, signing.agreed(*asked))
                self.took_back = _takeback_signed(asked, ask_sig, reply.get(signing.SIG))
            try:
                peer.post(reply)
            except Dropped as exc:  # asked again, if at all, once it is back
                if peer.rejoin is None:
                    raise
                peer.link = peer.rejoin(exc)
                continue
            if accept:
                return TAKE_BACK  # the runner takes back the latest decision, as there

    def _sealed(self, choice: Choice, hidden: Hidden) -> str:
        """The other side's hidden decision: its commitment comes, a stand-in answers."""
        peer = self.peer
        shown = partial(self.waiting, peer.name)
        self.by, self.sig = "human", None
        try:
            message = peer.exchange(lambda: peer.expect("sealed", waiting=shown))
        except Rewound:  # the game went back: this question is void
            return stand_in(choice)  # any legal answer: the runner sets it aside
        return hidden.sealed(choice, message)

    def _decided(self, choice: Choice, message: dict[str, Any]) -> str:
        if message.get("side") != choice.side:
            raise Refused(
                f"{self.peer.name} answered side {_text(message.get('side'))}'s question, but "
                f"the rules ask side {choice.side}: {choice.prompt}"
            )
        self.peer.check_tip(message, "decision")
        key, by = message.get("key"), message.get("by")
        if not isinstance(key, str) or key == TAKE_BACK:
            raise Refused(f"{self.peer.name} sent no key for: {choice.prompt}")
        if edits.is_token(key):
            raise Refused(f"{self.peer.name} sent a table edit as a decision: {NO_EDITS}")
        self.by = by if by in BY else "human"
        said = signing.decision(message["at"], message.get("tip"), choice.side, key, self.by)
        self.sig = self.peer.sig(message, said, "decision")
        if self.peer.journal is not None:  # before anything that follows from it leaves
            told = {"t": "choice", "side": choice.side, "key": key, "by": self.by}
            signed = {signing.SIG: self.sig} if self.sig is not None else {}
            self.peer.journal.logged(message["at"], told | signed)
        self.peer.decided()
        return key

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise Refused(
            f"{self.peer.name} sent an illegal answer {key!r} to {choice.prompt!r}: {reason}"
        )


class Announcing(SignedController):
    """This machine's side: its controller's legal answers are told to the other machine
    before the rules take them. A take-back asked here asks back this side's own latest
    decision, never the other player's."""

    def __init__(self, inner: Any, peer: Peer) -> None:
        self.inner = inner
        self.peer = peer
        self._again_by: str | None = None  # who made the decision made again (`_again`)
        self.sig: str | None = None  # the decision's signature, kept in its log entry

    @property
    def by(self) -> str:
        return self._again_by or str(self.inner.by)

    def bind(self, session: Any) -> None:
        """The game, for a bot that reads its position (`session.bind`)."""
        from wargame_cli.engine.session import Binds

        if isinstance(self.inner, Binds):
            self.inner.bind(session)

    def choose(self, choice: Choice, game: Any) -> str:
        hidden = self.peer.hidden
        while True:
            try:
                self.peer.exchange(self.peer.flush)
            except Rewound:  # the game went back: this question is void
                return stand_in(choice)  # any legal answer: the runner sets it aside
            self.peer.asking()
            key = self._again(choice)
            if key is None:
                key = self.inner.choose(choice, game)
            if key == TAKE_BACK and hidden is not None and hidden.active:
                self.inner.refused(choice, key, NO_TAKEBACK)
                continue
            if key == TAKE_BACK:
                reason = self._ask_take_back(choice.side)
                if reason is None:
                    return key  # agreed: the runner takes it back, as the other side does
                self.inner.refused(choice, key, reason)
                continue
            if edits.is_token(key):  # never made here: the other machine would not know of it
                self.inner.refused(choice, key, NO_EDITS)
                continue
            if choice.legal(key) is not None:
                return key  # the runner refuses it and asks again
            if hidden is not None and hidden.active:  # a commitment only, revealed later
                self.sig = None  # signed where the real log puts it, once revealed
                self.peer.hold(hidden.seal(choice, key, self.by))
                return key
            at, tip = self.peer.at
            told = {"t": "decide", "side": choice.side, "key": key, "by": self.by}
            said = signing.decision(at, tip, choice.side, key, self.by)
            sent = self.peer.signed({**told, "at": at, "tip": tip}, said)
            self.sig = sent.get(signing.SIG)
            self.peer.hold(sent)  # sent with what comes next
            return key

    def _again(self, choice: Choice) -> str | None:
        """The decision made here before the host came back without it, when this is its
        place and it is still legal (else none is made again: the player is asked)."""
        self._again_by = None
        redo = self.peer.redo
        if not redo:
            return None
        at, key, by = redo[0]
        if at != self.peer.at[0] or choice.legal(key) is not None:
            redo.clear()
            return None
        del redo[0]
        self._again_by = by if by in BY else "human"
        return key

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        self.inner.refused(choice, key, reason)

    def _ask_take_back(self, side: str) -> str | None:
        """Ask the other player to agree to a take-back of `side`'s own latest decision:
        None when agreed, else why not."""
        peer = self.peer
        asked = _takeback_said(peer, side)
        if asked is None:
            return takeback.NOTHING_OWN
        at, tip = peer.at
        peer.tell(f"asking {peer.name} to agree to a take-back…")
        request = peer.signed({"t": "takeback", "at": at, "tip": tip}, signing.takeback(*asked))

        def ask() -> dict[str, Any]:
            peer.post(request)
            return peer.expect("agree")

        answer = peer.exchange(ask)
        if answer.get("accept") is True:
            agree_sig = peer.sig(answer, signing.agreed(*asked), "agreement to the take-back")
            self.took_back = _takeback_signed(asked, request.get(signing.SIG), agree_sig)
            return None
        return f"{peer.name} declined the take-back"


Asked = tuple[str, int, str, str, Any, Any]  # what a take-back's signatures say


def _takeback_said(peer: Peer, side: str) -> Asked | None:
    """The take-back of `side`'s latest decision in the fields its signatures say (the
    game's root, the decision's place and the chain's tip there, its side, key and maker),
    or None when `side` has none to take back."""
    log = peer.runner.log
    cut = takeback.latest_taken(log, side)
    if cut is None:
        return None
    peer.tips.tip(log)
    entry = log[cut]
    return peer.tips.root, cut, peer.tips.tips[cut], side, entry.get("key"), entry.get("by")


def _takeback_signed(asked: Asked, ask: str | None, agree: str | None) -> dict[str, Any] | None:
    """A take-back record's signatures (`signing.TAKEBACK`): none in a game begun unsigned."""
    if ask is None or agree is None:
        return None
    _, at, tip, *_ = asked
    return {"at": at, "tip": tip, signing.ASK: ask, signing.AGREE: agree}


def _stopped(name: str, message: dict[str, Any]) -> None:
    """`message` says the other side stopped: raised as what it is."""
    told = message["t"]
    if told == "error":
        raise RemoteError(f"{name} stopped: {_text(message.get('why'), REASON)}")
    if told == "leave":  # saved and gone for now: waited for, as a drop is
        raise Dropped(f"{name} left: {_text(message.get('why'), REASON)}")


class SharedDice:
    """Every roll by commit and reveal (see `fair`), in one round trip: the host's reveal of
    one roll carries its commitment for the next (a value no one knows the dice of yet), so
    a roll is the joiner's value one way and the host's reveal the other. The first roll,
    and the first after a reconnection, begins with a commitment of its own."""

    def __init__(
        self,
        peer: Peer,
        typed: frozenset[str] = frozenset(),
        side: str | None = None,
        ask: typed_dice.Ask | None = None,
        waiting: Callable[[str], None] | None = None,
        promises: pledge.Promises | None = None,
    ) -> None:
        self.peer = peer
        self.promises = promises or pledge.Promises()  # the host's values, kept
        if peer.role == HOST:
            peer.decided = self._early
            peer.sign_ahead = self._sign_ahead
        self.typed = typed  # the sides whose player types real dice (agreed at setup)
        self.side = side  # this machine's side
        self.ask = ask or (lambda roll: [])
        self.waiting = waiting

    def throw(self, roll: Roll) -> Thrown:
        if roll.side is not None and roll.side in self.typed:
            faces, sig = self._typed(roll, roll.side)
            if faces:
                return Thrown(faces, typed_dice.source_of(roll.side), sig=sig)
        if self.peer.role == HOST:
            return self.peer.exchange(lambda: self._commit(roll))
        return self._answer(roll)

    def _typed(self, roll: Roll, side: str) -> tuple[tuple[int, ...], str | None]:
        """A typed roll's faces: typed here, signed and sent, or typed there and checked here
        (none: that player left it to the shared dice); and the typing machine's signature of
        them at their place in the log (`signing.typed`)."""
        peer = self.peer
        at, tip = peer.at
        if side == self.side:
            peer.exchange(peer.flush)  # the other side hears of our decision meanwhile
            faces = tuple(self.ask(roll))
            said = signing.typed(peer.tips.root, at, tip, side, list(roll.dice), list(faces))
            told = peer.signed(typed_dice.typed_message(roll, faces, at), said)
            sig = told.get(signing.SIG)
            if peer.journal is not None and faces:  # kept before it leaves
                peer.journal.typed(at, roll.dice, faces, typed_dice.source_of(side), sig)
            peer.exchange(partial(peer.post, told))
            return faces, sig
        shown = partial(self.waiting, f"{peer.name} to type the faces") if self.waiting else None
        message = peer.exchange(lambda: peer.expect("typed", waiting=shown))
        faces = typed_dice.received(peer.name, roll, message, at)
        if not faces:
            return faces, None
        said = signing.typed(peer.tips.root, at, tip, side, list(roll.dice), list(faces))
        return faces, peer.sig(message, said, f"typed faces for {roll.reason}")

    def _early(self) -> None:
        """The joiner's decision came, and with it its value for the roll that decision calls
        for: read it now and check it against our commitment (a bad one is refused at once),
        but reveal ours only when our rules reach that very roll and find it is the one the
        value names (`_commit`): a value for any later roll is refused where a decision was
        due (`Peer.expect`), and a second value before the reveal is refused, never taken in
        place of the first. Nothing is revealed before the rules ask for the roll."""
        peer = self.peer
        mine = peer.next
        if not isinstance(mine, bytes) or not peer.link.ready():
            return
        try:
            message = peer.link.recv()
            if message["t"] == "value":
                self._value(message, fair.commitment(mine), "a roll")
                if peer.link.ready():  # nothing is due from it before our reveal
                    peer.ahead.append(message)
                    message = peer.link.recv()
                    if message["t"] == "value":
                        raise Refused(
                            f"{peer.name} sent a second value for the roll at log entry "
                            f"{_text(message.get('at'))} before its first was revealed"
                        )
        except Dropped:
            return  # the next exchange finds the link gone, and waits for the other side
        peer.ahead.append(message)

    def _value(self, answer: dict[str, Any], commit: str, reason: str) -> bytes:
        theirs = fair.hex_value(answer.get("value"))
        if theirs is None or answer.get("commit") != commit:
            raise Refused(f"{self.peer.name} sent a malformed value for {reason}")
        why = self.promises.answered(commit, theirs)
        if why is not None:
            raise Refused(why)
        return theirs

    def _signed_value(
        self, answer: dict[str, Any], commit: str, dice: object, reason: str
    ) -> str | None:
        """The joiner's signature of its value (`_value`) for a roll of `dice`."""
        if not isinstance(dice, list):
            raise Refused(f"{self.peer.name} sent a malformed value for {reason}")
        said = signing.pledge(self.peer.tips.root, dice, commit, answer.get("value"))
        return self.peer.sig(answer, said, f"value for {reason}")

    def _reveal(
        self, commit: str, mine: bytes, their_sig: str | None, upcoming: bytes
    ) -> tuple[dict[str, Any], dict[str, str]]:
        """The reveal of `mine`, carrying the next roll's commitment (`upcoming`'s), each
        signed; and the signatures the roll's proof keeps (the joiner's `their_sig` of its
        value, and ours of the reveal)."""
        peer, root = self.peer, self.peer.tips.root
        after = fair.commitment(upcoming)
        told = {"t": "reveal", "value": mine.hex(), "next": after}
        if peer.signer is None or their_sig is None:
            return told, {}
        told = peer.signed(told, signing.reveal(root, commit, mine.hex()))
        told["next_sig"] = peer.signer.sign(signing.commitment(root, after))
        return told, {signing.HOST_SIG: told[signing.SIG], signing.JOIN_SIG: their_sig}

    def _sign_ahead(self) -> None:
        """The host's signatures of its next reveals and commitments, made in a pause."""
        signer, root = self.peer.signer, self.peer.tips.root
        if signer is None:
            return
        told = []
        ready = self.peer.next
        for value in [
            *([ready] if isinstance(ready, bytes) else []),
            *self.promises.unsent[:AHEAD],
        ]:
            commit = fair.commitment(value)
            told += [signing.commitment(root, commit), signing.reveal(root, commit, value.hex())]
        signer.ahead(told)

    def _commitment_of(self, mine: bytes) -> dict[str, Any]:
        """The commitment to `mine`, sent on its own (a first roll, or one after a drop)."""
        commit = fair.commitment(mine)
        told = {"t": "commit", "commit": commit}
        return self.peer.signed(told, signing.commitment(self.peer.tips.root, commit))

    def _commit(self, roll: Roll) -> Thrown:
        peer = self.peer
        ready = self._claimed(roll)  # the roll in progress at a drop: its value, as committed
        if ready is None:
            ready = peer.next if isinstance(peer.next, bytes) else None
        mine = ready if ready is not None else self.promises.promise()
        if mine is not ready:
            peer.post(self._commitment_of(mine))
        commit = fair.commitment(mine)
        answer = peer.expect("value")  # read already when it came with a decision (`_early`)
        self._same_roll(answer, roll)  # the roll the rules ask for now: then ours is revealed
        theirs = self._value(answer, commit, roll.reason)
        said = self._signed_value(answer, commit, list(roll.dice), roll.reason)
        upcoming = peer.next = self.promises.promise()
        reveal, sigs = self._reveal(commit, mine, said, upcoming)
        if peer.journal is not None:
            peer.journal.pledge(answer["at"], roll.dice, commit, theirs, sigs)
        peer.post(reveal)
        return _thrown(roll, commit, mine, theirs, sigs)

    def _claimed(self, roll: Roll) -> bytes | None:
        """The value committed to for the roll the rejoined joiner named as in progress, when
        this roll is that one (its place and dice: as the joiner judges it); none once the
        game is past that place."""
        peer = self.peer
        claim = peer.claim
        at, tip = peer.at
        if claim is None or at < claim.at:
            return None
        peer.claim = None
        return self.promises.value_for(claim.commit) if claim.here(at, tip, roll.dice) else None

    def _same_roll(self, answer: dict[str, Any], roll: Roll) -> None:
        peer = self.peer
        at, _ = peer.at
        if answer.get("dice") != list(roll.dice) or answer.get("at") != at:
            raise Refused(
                f"{peer.name} rolls dice {_text(answer.get('dice'))} at log entry "
                f"{_text(answer.get('at'))}; the rules here ask for {list(roll.dice)} at {at} "
                f"({roll.reason}): the games went apart"
            )

    def _answer(self, roll: Roll) -> Thrown:
        """The joiner's side of a roll. The roll in progress at a drop (`peer.pending`) is
        answered again with the same value, and must be revealed under its commitment."""
        peer = self.peer
        at, tip = peer.at
        pending = peer.pending
        if pending is not None and at >= pending.at and not pending.here(at, tip, roll.dice):
            raise Refused(f"{pledge.BROKEN}: {pending.same_roll(at, tip, roll.dice)}")
        elif pending is not None and at < pending.at:
            pending = None  # not there yet: this roll is a fresh one
        if pending is not None:
            commit, mine = pending.commit, pending.value
        else:
            ready = peer.next
            if isinstance(ready, str):
                commit = ready
            else:
                commit = _commitment(peer, peer.expect("commit"), roll)
            mine = fair.draw()
            peer.pending = pledge.Pending(commit, mine, at, tip, tuple(roll.dice))
            peer.keep_roll(peer.pending)  # on disk before it leaves: no crash undoes it
        told = {"t": "value", "commit": commit, "value": mine.hex()}
        said = signing.pledge(peer.tips.root, roll.dice, commit, mine.hex())
        sent = peer.signed({**told, "dice": list(roll.dice), "at": at}, said)
        peer.post(sent)
        reveal = peer.expect(*(("reveal",) if pending is None else ("reveal", "commit")))
        if reveal["t"] == "commit":  # the one sent before the drop was due
            raise Refused(f"{pledge.BROKEN}: it sent a new commitment for that roll")
        opened = fair.hex_value(reveal.get("value"))
        why = fair.reveal_problem(commit, opened)
        if why is not None:
            if pending is not None:
                raise Refused(f"{pledge.BROKEN}: {why}")
            raise Refused(f"{peer.name}'s dice for {roll.reason}: {why}")
        assert opened is not None  # else refused above
        said = signing.reveal(peer.tips.root, commit, opened.hex())
        host_sig = peer.sig(reveal, said, f"reveal for {roll.reason}")
        peer.next = _commitment(peer, reveal, roll, "next")
        peer.pending = None
        join_sig = sent.get(signing.SIG)
        sigs = {}
        if isinstance(host_sig, str) and isinstance(join_sig, str):  # a signed game
            sigs = {signing.HOST_SIG: host_sig, signing.JOIN_SIG: join_sig}
        return _thrown(roll, commit, opened, mine, sigs)


def _commitment(peer: Peer, message: dict[str, Any], roll: Roll, field: str = "commit") -> str:
    """A commitment as sent (64 hex digits, in `field` of `message`), signed by the host."""
    commit = message.get(field)
    if not isinstance(commit, str) or fair.hex_value(commit) is None:
        raise Refused(f"{peer.name} sent a malformed commitment ({roll.reason})")
    said = signing.commitment(peer.tips.root, commit)
    peer.sig(message, said, "commitment", "sig" if field == "commit" else f"{field}_sig")
    return commit


def _thrown(
    roll: Roll, commit: str, host: bytes, join: bytes, sigs: dict[str, str] | None = None
) -> Thrown:
    faces = fair.derive(host, join, roll.dice)
    return Thrown(faces, fair.SHARED, fair.proof(commit, host, join) | (sigs or {}))


def _nothing() -> None:
    return None


def _keep_nothing(pending: pledge.Pending | None) -> None:
    return None


def _text(value: object, limit: int = 60) -> str:
    """A value from the wire, short and printable, for a message."""
    from wargame_cli.text import visible

    text = value if isinstance(value, str) else repr(value)
    return visible(text[:limit])
