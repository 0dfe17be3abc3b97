"""Drives a ruleset's game generator: answers its requests, checks them and keeps the log.

One runner serves live play, resuming and verification: a saved log is fed back first
(`replay`), then live controllers and dice take over (`run`). Both are answerers of the one
driver (`drive.py`): the runner works out each answer, checks it and logs it; `drive` feeds it
to the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from wargame_cli.engine import judged, takeback
from wargame_cli.engine.dice import RNG, DiceSource, check_faces, rng_of
from wargame_cli.engine.drive import STOP, Answerer, Paused, drive, ended
from wargame_cli.engine.entries import (
    ChoiceEntry,
    EndEntry,
    EventEntry,
    LogEntry,
    RollEntry,
    Shown,
    TakeBackNote,
    TakeBackRecord,
    TurnEntry,
)
from wargame_cli.engine.requests import (
    TAKE_BACK,
    Choice,
    Event,
    Outcome,
    Play,
    Request,
    Roll,
    TurnStart,
)
from wargame_cli.errors import BadInput, ReplayDivergence


class Game(Protocol):
    """What a ruleset's game offers the engine."""

    def play(self) -> Play: ...

    def state_json(self) -> dict[str, Any]: ...


class Controller(Protocol):
    """Answers choices for one side."""

    by: str  # "human", "bot" or "script": recorded with each decision

    def choose(self, choice: Choice, game: Any) -> str: ...

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        """Tell the chooser why `key` was refused; it will be asked again."""


Observer = Callable[[Shown, Any], None]


def roll_entry(
    req: Roll,
    faces: tuple[int, ...],
    source: str | tuple[str, ...],
    proof: dict[str, str] | None = None,
) -> RollEntry:
    entry: RollEntry = {
        "t": "roll",
        "side": req.side,
        "reason": req.reason,
        "dice": list(req.dice),
        "faces": list(faces),
        "source": source if isinstance(source, str) else "mixed",
        "rules": list(req.rules),
    }
    if not isinstance(source, str):
        entry["sources"] = list(source)
    if req.labels:
        entry["labels"] = list(req.labels)
    if proof is not None:  # dice shared between two machines: checked by `remote.fair`
        entry["shared"] = proof
    return entry


def turn_entry(req: TurnStart) -> TurnEntry:
    return {"t": "turn", "n": req.number, "rules": list(req.rules)}


def event_entry(req: Event) -> EventEntry:
    entry: EventEntry = {
        "t": "event",
        "kind": req.kind,
        "text": req.text,
        "rules": list(req.rules),
    }
    if req.data is not None:
        entry["data"] = req.data
    return entry


def end_entry(outcome: Outcome) -> EndEntry:
    entry: EndEntry = {
        "t": "end",
        "winner": outcome.winner,
        "reason": outcome.reason,
        "rules": list(outcome.rules),
    }
    if outcome.data is not None:
        entry["data"] = outcome.data
    return entry


class Runner:
    """`factory` makes a fresh game of the same setup: with it, decisions can be taken back
    (the kept log is replayed into a new game); without it, a take-back is refused."""

    def __init__(
        self,
        game: Game,
        dice: DiceSource,
        controllers: Mapping[str, Controller] | None = None,
        observer: Observer | None = None,
        factory: Callable[[], Game] | None = None,
    ) -> None:
        self.dice = dice
        self.controllers = dict(controllers or {})
        self.observer = observer
        self.factory = factory
        self.takebacks: list[TakeBackRecord] = []
        self.tape = takeback.Tape()
        self._awaiting: TakeBackRecord | None = None  # a take-back waiting for its new decision
        self._start(game)

    def _start(self, game: Game) -> None:
        self.game = game
        self.log: list[LogEntry] = []
        self.turn = 0
        self.outcome: Outcome | None = None
        # where a replayed face marked as the seeded generator's is not what it gives
        self.rng_mismatch: tuple[int, str] | None = None
        self._gen = game.play()
        self.pending: Request | None = None
        self._drive(_first, live=False)

    # -- stepping -------------------------------------------------------------------------
    def _drive(self, answer: Answerer, live: bool = True) -> None:
        """Drive the game from the pending request with `answer` until it gives STOP or the
        game ends (then, in live play, the end is logged). A take-back inside `answer` starts
        a new game, which is left where the take-back put it."""
        gen = self._gen
        result = drive(gen, answer, self.pending)
        if self._gen is not gen:
            return
        if isinstance(result, Paused):
            self.pending = result.request
            return
        self.pending = None
        self.outcome = ended(result)
        if live:
            self._record(end_entry(self.outcome))

    def _compare_drawn(
        self, index: int, seed: int, faces: list[int], drawn: list[int], rolled: list[int]
    ) -> None:
        """Keep the first face marked as the generator's that its stream did not give."""
        for i, expected in zip(drawn, rolled, strict=True):
            if faces[i] != expected:
                self.rng_mismatch = (
                    index,
                    f"die {i + 1} shows {faces[i]}, but the generator with seed {seed} rolled "
                    f"{expected}: the record was edited",
                )
                return

    def _record(self, entry: LogEntry) -> None:
        self.log.append(entry)
        if self.observer is not None:
            self.observer(entry, self.game)

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    # -- replay ---------------------------------------------------------------------------
    def replay(self, entries: Sequence[Mapping[str, Any]]) -> None:
        """Feed a recorded log through the rules, checking every entry against what they ask."""
        feed = enumerate(entries)

        def answer(req: Request) -> Any:
            self.pending = req
            for index, entry in feed:
                return self._replay_one(index, _entry(index, entry))
            return STOP

        if self.pending is not None:
            self._drive(answer, live=False)
        for index, entry in feed:  # the game has ended: only its end is left
            self._replay_one(index, _entry(index, entry))
        if self.outcome is not None and (not self.log or self.log[-1]["t"] != "end"):
            self._record(end_entry(self.outcome))

    def _replay_one(self, index: int, entry: dict[str, Any]) -> Any:
        """Check `entry` against the pending request and log it: the answer it records."""
        req, kind = self.pending, entry.get("t")
        if req is None:
            if kind != "end":
                raise ReplayDivergence(index, f"the game had ended, but the log goes on ({kind})")
            assert self.outcome is not None
            expected = end_entry(self.outcome)
            key = judged.first_difference(entry, expected)  # the reason is wording
            if key is not None:
                raise ReplayDivergence(
                    index,
                    f"result differs: log says {key}={entry.get(key)!r}, "
                    f"the rules give {expected.get(key)!r} ({expected['reason']})",
                )
            self._record(expected)
            return
        if isinstance(req, TurnStart):
            if kind != "turn" or entry.get("n") != req.number:
                raise ReplayDivergence(
                    index, f"expected the start of turn {req.number}, log has {kind}"
                )
            self.turn = req.number
            self._record(turn_entry(req))
            return None
        elif isinstance(req, Roll):
            if kind != "roll":
                raise ReplayDivergence(
                    index, f"the rules ask for dice ({req.reason}), log has {kind}"
                )
            if entry.get("dice") != list(req.dice):
                raise ReplayDivergence(
                    index,
                    f"the rules ask for dice {list(req.dice)} ({req.reason}), "
                    f"log has {entry.get('dice')}",
                )
            faces = entry.get("faces")
            if not isinstance(faces, list):
                raise ReplayDivergence(index, "roll without faces")
            problem = check_faces(req, faces)
            if problem:
                raise ReplayDivergence(index, f"impossible faces for {req.reason}: {problem}")
            source = entry.get("source", RNG)
            if (rng := rng_of(self.dice)) is not None:
                sources = entry.get("sources") or [source] * len(faces)
                drawn = [i for i, s in enumerate(sources[: len(req.dice)]) if s == RNG]
                rolled = rng.skip([req.dice[i] for i in drawn])
                if self.rng_mismatch is None:
                    self._compare_drawn(index, rng.seed, faces, drawn, rolled)
            src: str | tuple[str, ...] = (
                tuple(entry["sources"]) if source == "mixed" and "sources" in entry else source
            )
            proof = entry.get("shared")
            self._record(
                roll_entry(req, tuple(faces), src, proof if isinstance(proof, dict) else None)
            )
            return tuple(faces)
        elif isinstance(req, Choice):
            if kind != "choice":
                raise ReplayDivergence(
                    index, f"the rules ask side {req.side}: {req.prompt}; log has {kind}"
                )
            if entry.get("side") != req.side:
                raise ReplayDivergence(
                    index, f"decision by side {entry.get('side')}, the rules ask side {req.side}"
                )
            key = entry.get("key")
            reason = req.legal(key) if isinstance(key, str) else "no key"
            if reason is not None:
                raise ReplayDivergence(index, f"illegal decision {key!r} ({req.prompt}): {reason}")
            assert isinstance(key, str)  # else refused above: "no key"
            self._record(self._choice_entry(req, key, entry.get("by", "human")))
            return key
        elif isinstance(req, Event):
            ours = event_entry(req)
            key = judged.first_difference(entry, ours)  # its text is wording
            if key == "t":
                raise ReplayDivergence(index, f"the rules give {req.text!r}, log has a {kind}")
            if key is not None:
                raise ReplayDivergence(
                    index,
                    f"the rules give {req.text!r} with {key}={ours.get(key)!r}, "
                    f"log has {key}={entry.get(key)!r} ({entry.get('text')!r})",
                )
            self._record(ours)
        return None

    # -- live play ------------------------------------------------------------------------
    @staticmethod
    def _choice_entry(req: Choice, key: str, by: str) -> ChoiceEntry:
        return {
            "t": "choice",
            "side": req.side,
            "kind": req.kind,
            "prompt": req.prompt,
            "key": key,
            "label": req.label_of(key),
            "by": by,
            "rules": list(req.rules),
        }

    def step(self) -> None:
        """Answer the pending request live."""
        if self.pending is None:
            return
        answered: list[Request] = []

        def once(req: Request) -> Any:
            if answered:
                return STOP
            answered.append(req)
            return self._live(req)

        self._drive(once)

    def _live(self, req: Request) -> Any:
        """The live answer to `req`, logged (STOP: taken back, another request is pending)."""
        if isinstance(req, TurnStart):
            self.turn = req.number
            self._record(turn_entry(req))
        elif isinstance(req, Roll):
            thrown = self.tape.throw(req, self.dice, self.note)
            self._record(roll_entry(req, thrown.faces, thrown.source, thrown.proof))
            return thrown.faces
        elif isinstance(req, Choice):
            answered = self._ask(req)
            if answered is None:  # taken back: an earlier decision is pending again
                return STOP
            key, by = answered
            entry = self._choice_entry(req, key, by)
            if self._awaiting is not None and self._awaiting["at"] == len(self.log):
                self._awaiting["new"] = {"key": key, "label": entry["label"], "by": by}
                self._awaiting = None
            self._record(entry)
            return key
        elif isinstance(req, Event):
            self._record(event_entry(req))
        return None

    def _ask(self, req: Choice) -> tuple[str, str] | None:
        """The controller's legal answer, or None once it took back an earlier decision."""
        controller = self.controllers.get(req.side)
        if controller is None:
            raise BadInput(f"no one answers for side {req.side}: {req.prompt}")
        while True:
            key = controller.choose(req, self.game)
            if key == TAKE_BACK:
                reason = self.take_back()
                if reason is None:
                    return None
            else:
                reason = req.legal(key)
                if reason is None:
                    return key, controller.by
            controller.refused(req, key, reason)

    # -- taking back ----------------------------------------------------------------------
    def note(self, text: str) -> None:
        """Tell the screen something about the play that is not a rule's event."""
        if self.observer is not None:
            self.observer({"t": "note", "text": text}, self.game)

    def keep_takebacks(self, takebacks: list[TakeBackRecord]) -> None:
        """Take-backs from a save, after its log is replayed: one still waiting for its new
        decision gets it from the next one made here."""
        self.takebacks = [t.copy() for t in takebacks]
        last = self.takebacks[-1] if self.takebacks else None
        if last is not None and last.get("new") is None:
            last["at"] = min(last["at"], len(self.log))
            self._awaiting = last

    def take_back(self) -> str | None:
        """Take back the latest decision by a person or a script, with everything after it,
        so that decision is pending again; the dice rolled after it stay on the tape. Returns
        why it cannot, or None when done."""
        at = takeback.latest_taken(self.log)
        if at is None:
            return takeback.NOTHING
        if self.factory is None:
            return "this game cannot take decisions back"
        kept, removed = self.log[:at], self.log[at:]
        self.tape.rewind(self.dice, takeback.faces_of(removed), takeback.proofs_of(removed))
        observer, self.observer = self.observer, None
        try:
            self._start(self.factory())
            self.replay(kept)
        finally:
            self.observer = observer
        taken = removed[0]
        assert taken["t"] == "choice"  # what `latest_taken` finds
        done = takeback.record(taken, at, self.turn)
        for earlier in self.takebacks:
            earlier["at"] = min(earlier["at"], at)
        self.takebacks.append(done)
        self._awaiting = done
        if self.observer is not None:
            text = takeback.describe(done, open_question=True)
            told: TakeBackNote = {"t": "takeback", "text": text, "live": True, **done}
            self.observer(told, self.game)
        return None

    def run(
        self,
        stop_after_turn: int | None = None,
        on_turn_end: Callable[[Runner], None] | None = None,
    ) -> Outcome | None:
        """Play until the game ends or turn `stop_after_turn` is complete."""
        stopped = False

        def answer(req: Request) -> Any:
            nonlocal stopped
            self.pending = req
            if isinstance(req, TurnStart):
                if req.number > 1 and on_turn_end is not None:
                    on_turn_end(self)
                    if self.pending is not req:  # taken back at the between-turns question
                        return STOP
                if stop_after_turn is not None and req.number > stop_after_turn:
                    stopped = True
                    return STOP
            return self._live(req)

        while self.pending is not None and not stopped:
            self._drive(answer)
        if stopped:
            return None
        if on_turn_end is not None:
            on_turn_end(self)
        return self.outcome


def _first(req: Request) -> Any:
    """Answers nothing: driving with it only starts the game (its first request pends)."""
    return STOP


def _entry(index: int, entry: Any) -> dict[str, Any]:
    """A saved log's entry, or why it is not one."""
    if not isinstance(entry, dict) or "t" not in entry:
        raise ReplayDivergence(index, "not a log entry")
    return entry
