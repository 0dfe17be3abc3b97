"""Drives a ruleset's game generator: answers its requests, checks them and keeps the log.

One runner serves live play, resuming and verification: a saved log is fed back first
(`replay`), then live controllers and dice take over (`run`). Both are answerers of the one
driver (`drive.py`): the runner works out each answer, checks it and logs it; `drive` feeds it
to the rules.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from wargame_cli.engine import edits, judged, takeback
from wargame_cli.engine import stored as position
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
    REASK,
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
from wargame_cli.kit.serial import SnapshotError, encoded


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


class SignedController:
    """A controller of remote play, whose decisions come signed: the runner keeps a
    decision's signature (`sig`, None when unsigned) in its log entry, and a take-back asked
    at its question takes back its own side's latest decision only (`own_takebacks`: never
    the other player's)."""

    sig: str | None = None
    own_takebacks = True
    # the signatures of the take-back just agreed (the request and the agreement), kept in
    # its record
    took_back: dict[str, Any] | None = None


Observer = Callable[[Shown, Any], None]
# `Runner.rewrite`'s answers: (log index, question) -> (key, by, signature or None)
Answer = Callable[[int, Choice], tuple[str, str, str | None]]
Editor = Callable[[Any, edits.Edit], str]  # a ruleset's `apply_edit`: the line told, or refused
# a ruleset's after-battle steps for a battle an `end` edit ended (`Ruleset.after_declared`)
AfterEnd = Callable[[Any, str | None, str], Play]


def roll_entry(
    req: Roll,
    faces: tuple[int, ...],
    source: str | tuple[str, ...],
    proof: dict[str, str] | None = None,
    sig: str | None = None,
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
    if sig is not None:  # faces typed at one machine of two: its signature (`remote/signing`)
        entry["sig"] = sig
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


def _as_written(entry: dict[str, Any]) -> dict[str, Any]:
    return entry


class Runner:
    """`factory` makes a fresh game of the same setup: with it, decisions can be taken back
    (the kept log is replayed into a new game); without it, a take-back is refused."""

    def __init__(
        self,
        game: Game | None,
        dice: DiceSource,
        controllers: Mapping[str, Controller] | None = None,
        observer: Observer | None = None,
        factory: Callable[[], Game] | None = None,
        migrate: Callable[[dict[str, Any]], dict[str, Any]] | None = None,
        older: bool = False,
        editor: Editor | None = None,
        keeper: position.Keeper | None = None,
        start: bool = True,
        after_end: AfterEnd | None = None,
    ) -> None:
        """`migrate` and `older`: a save of an older version of the rules is replayed (its
        entries in today's shape, its data judged as far as it wrote it; `judged.py`).
        `keeper`: the ruleset's positions (`position.py`): kept in the log at turn starts,
        and a rebuild starts from the nearest one. `start=False`: the caller places the
        runner with `restart` before anything else. `after_end`: the after-battle steps the
        rules give a battle an `end` edit ends (None: it ends there and then)."""
        self.dice = dice
        self.after_end = after_end
        self.migrate = migrate or _as_written
        self.older = older
        self.editor = editor
        self.controllers = dict(controllers or {})
        self.observer = observer
        self.factory = factory
        self.takebacks: list[TakeBackRecord] = []
        # what replaying from a corrected die kept: decisions kept, decisions and edits left
        self.rederived: dict[str, Any] = {}
        self.tape = takeback.Tape()
        self._awaiting: TakeBackRecord | None = None  # a take-back waiting for its new decision
        # called with each live request before it is answered; it may rebuild the game (then
        # the request is void: another is pending). Remote play's hidden placements use it.
        self.interpose: Callable[[Request], None] | None = None
        # positions: kept only where positions are not an older version's (never restored)
        self.keeper = keeper if not older else None
        self._position_size = 0  # the last position's length, to judge when to keep another
        self._last_position = -1  # index in the log of the last turn entry with a position
        self._since = 0  # bytes of the log after it, counted up to entry `_measured`
        self._measured = 0
        self.restored_at = -1  # the position the game was restored at (not judged again)
        self._streams: dict[int, Any] = {}  # position index -> the seeded stream's state there
        if start:
            assert game is not None, "a runner that starts needs its game"
            self._start(game)

    def _start(self, game: Game, prefix: Sequence[LogEntry] = ()) -> None:
        """A game standing at its first request, after `prefix` (the log a position was taken
        at the end of; empty: the game from its start)."""
        self.game = game
        self.log: list[LogEntry] = list(prefix)
        self.turn = next((e["n"] for e in reversed(self.log) if e["t"] == "turn"), 0)
        found = position.nearest(self.log)
        self._last_position = -1 if found is None else found
        self._since, self._measured = 0, self._last_position + 1
        self.restored_at = -1
        # a stream kept at the entry after the prefix stays: a restart replays that entry
        self._streams = {at: kept for at, kept in self._streams.items() if at <= len(self.log)}
        self.outcome: Outcome | None = None
        # where a replayed face marked as the seeded generator's is not what it gives
        self.rng_mismatch: tuple[int, str] | None = None
        # the generator's faces a roll just replayed does not show: a die correction (the
        # entry after it) accounts for them, else they are an edited record
        self._suspect: tuple[int, dict[int, int], str] | None = None
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
        """Note the faces marked as the generator's that its stream did not give: suspect
        until the entries after the roll say whether a die correction accounts for them."""
        wrong = {i: e for i, e in zip(drawn, rolled, strict=True) if faces[i] != e}
        if wrong:
            i = min(wrong)
            self._suspect = (
                index,
                wrong,
                f"die {i + 1} shows {faces[i]}, but the generator with seed {seed} rolled "
                f"{wrong[i]}: the record was edited",
            )

    def _settle_suspect(self) -> None:
        """No correction came for the suspect faces: the record was edited."""
        if self._suspect is not None:
            if self.rng_mismatch is None:
                self.rng_mismatch = (self._suspect[0], self._suspect[2])
            self._suspect = None

    def _record(self, entry: LogEntry) -> None:
        self.log.append(entry)
        if self.observer is not None:
            self.observer(entry, self.game)

    # -- positions ------------------------------------------------------------------------
    def _turn_entry(self, req: TurnStart, saved: Mapping[str, Any] | None = None) -> TurnEntry:
        """The turn's entry, with the game's position where one is kept: live, when the log
        since the last one is `SPACING` times as long as a position (one entry in `SAMPLE`
        measured, standing for the others); replayed, where the save has one, which must be the
        position the replay reaches (else the record was edited). Taken as the turn starts,
        after any edit made between the turns."""
        entry = turn_entry(req)
        at = len(self.log)
        keeper = self.keeper
        if saved is not None:
            stored = saved.get(position.KEY)
            if stored is None:
                return entry
            if keeper is not None and at != self.restored_at:
                ours = keeper.take(self.game)
                if ours is not None and not judged.same(stored, ours):
                    raise ReplayDivergence(
                        at,
                        f"the position stored at the start of turn {req.number} is not the one "
                        "its log gives: the record was edited",
                    )
            entry["position"] = stored  # position.KEY
            self._kept_at(at, len(encoded(stored)))
            return entry
        if keeper is None:
            return entry
        log, sample = self.log, position.SAMPLE
        for index in range(self._measured + (-self._measured) % sample, len(log), sample):
            self._since += sample * len(encoded(log[index]))
        self._measured = len(log)
        if self._since < position.SPACING * self._position_size:
            return entry
        ours = keeper.take(self.game)
        if ours is None:
            return entry
        self._position_size = len(encoded(ours))
        if self._since < position.SPACING * self._position_size:  # half the log's length at most
            return entry
        entry["position"] = ours  # position.KEY
        self._kept_at(at, self._position_size)
        return entry

    def _kept_at(self, at: int, size: int) -> None:
        """A position now stands at log index `at`: remember its size and, for a rebuild
        soon after, where the seeded stream was (only the latest few: each is 2.5 KB)."""
        self._last_position = at
        self._position_size = size
        self._since, self._measured = 0, at + 1
        rng = rng_of(self.dice)
        if rng is not None:
            self._streams[at] = rng.state()
            if len(self._streams) > STREAMS_KEPT:
                del self._streams[min(self._streams)]

    def restart(
        self, entries: Sequence[Mapping[str, Any]], within: int | None = None, saved: bool = False
    ) -> None:
        """Stand where the log `entries` ends: a game made at its nearest position (at or
        before index `within`, if given) with the entries after it replayed, or (no position,
        or a ruleset without them) a fresh game with all of them replayed. The dice's seeded
        stream must be at its start. `saved`: the entries are a save's, with hash links."""
        at = position.nearest(entries, within) if self.keeper is not None else None
        game = None
        if at is not None and self.keeper is not None:
            try:
                game = self.keeper.make(dict(entries[at][position.KEY]))
            except UNREADABLE:  # a position this build cannot read: the whole log is replayed
                game = None  # (and a replay that checks positions names it as edited)
        if game is None:
            assert self.factory is not None  # checked by the callers, with their own reasons
            self._start(self.factory())
            self.replay(entries)
            return
        assert at is not None
        prefix = entries[:at]
        self._start(game, [_as_logged(e) for e in prefix] if saved else prefix)  # type: ignore[arg-type]
        self.restored_at = at
        rng = rng_of(self.dice)
        if rng is not None:
            kept = self._streams.get(at)
            if kept is not None:
                rng.restore(kept)
            else:
                position.skip_dice(rng, entries[:at])
        self.replay(entries[at:], start=at)

    def hand_over(self) -> tuple[Any, Request | None]:
        """The game's generator where it stands and its pending request, for a caller that
        drives it on alone, unlogged (a search bot's lookahead on a clone): the runner is
        done with the game after this."""
        return self._gen, self.pending

    @property
    def finished(self) -> bool:
        return self.outcome is not None

    # -- replay ---------------------------------------------------------------------------
    def replay(self, entries: Sequence[Mapping[str, Any]], start: int = 0) -> None:
        """Feed a recorded log through the rules, checking every entry against what they ask.
        `start`: the index in the whole log of the first of `entries` (a restored game)."""
        feed = enumerate(entries, start)

        def answer(req: Request) -> Any:
            self.pending = req
            for index, entry in feed:
                entry = _entry(index, entry)
                if entry.get("t") != "edit":
                    self._settle_suspect()
                    return self._replay_one(index, self.migrate(entry))
                reply = self._replay_edit(index, entry)
                if reply is not None:
                    return reply
            return STOP

        while self.pending is not None:
            gen = self._gen
            self._drive(answer, live=False)
            if self._gen is gen:  # paused at the log's end, or the game ended
                break  # (else an `end` edit handed over to the after-battle steps)
        for index, entry in feed:  # the game has ended: only its end is left
            entry = _entry(index, entry)
            if entry.get("t") == "edit" and entry.get("action") == "die":
                self._replay_edit(index, entry)
                continue
            self._settle_suspect()
            self._replay_one(index, self.migrate(entry))
        self._settle_suspect()
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
            key = judged.first_difference(entry, expected, self.older)  # the reason is wording
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
            self._record(self._turn_entry(req, entry))
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
            proof, sig = entry.get("shared"), entry.get("sig")
            shared = proof if isinstance(proof, dict) else None
            self._record(
                roll_entry(req, tuple(faces), src, shared, sig if isinstance(sig, str) else None)
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
            sig = entry.get("sig")  # a remote decision's signature stays with it
            self._record(self._choice_entry(req, key, entry.get("by", "human"), sig))
            return key
        elif isinstance(req, Event):
            ours = event_entry(req)
            key = judged.first_difference(entry, ours, self.older)  # its text is wording
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

    # -- table edits ----------------------------------------------------------------------
    def _replay_edit(self, index: int, entry: dict[str, Any]) -> Any:
        """Apply a recorded edit where it stands: None to go on with the same request,
        REASK (the pending question is built again) or STOP (the battle was ended)."""
        edit = edits.from_entry(entry)
        try:
            if edit.action == "die":
                self._replay_correction(index, entry)
                return None
            return self._apply(edit, live=False)
        except edits.EditRefused as exc:
            raise ReplayDivergence(
                index, f"the rules refuse the edit ({exc}): the record was edited"
            ) from None

    def _replay_correction(self, index: int, entry: dict[str, Any]) -> None:
        """A die correction follows its roll: it must fit that roll, and a face it replaced
        that came from the generator must be the one the generator gave."""
        from wargame_cli.engine import edits_dice

        why = edits_dice.problem(entry, self.log)
        if why is not None:
            raise ReplayDivergence(index, f"{why}: the record was edited")
        data = entry["data"]
        if data.get("source") == RNG and rng_of(self.dice) is not None:
            wrong = self._suspect[1] if self._suspect is not None else {}
            if wrong.get(data["pos"]) != data["was"]:
                raise ReplayDivergence(
                    index,
                    f"die {data['die']} was not {data['was']} from the generator: "
                    "the record was edited",
                )
            del wrong[data["pos"]]
            if not wrong:
                self._suspect = None
        self._record(edits.from_entry(entry).entry(str(entry.get("text", ""))))

    def _apply(self, edit: edits.Edit, live: bool) -> Any:
        """Apply a table edit to the game at the pending request and log it: None, REASK
        (a pending question that `reasks` is built again) or STOP (the battle ended)."""
        if edit.action == "end":
            winner, reason = edits.end_winner(edit)
            self._record(edit.entry(f"the battle ends: {_winner_words(winner)} ({reason})"))
            self._gen.close()
            self.pending = None
            if edit.data.get(edits.AFTER) and self.after_end is not None:
                self._gen = _declared(self.after_end(self.game, winner, reason))
                self._drive(_first, live=live)  # the after-battle steps' first request pends
                return STOP
            self._gen = _ended()
            self.outcome = Outcome(winner, reason, cause="declared", data={"declared": True})
            if live:
                self._record(end_entry(self.outcome))
            return STOP
        if self.editor is None:
            raise edits.EditRefused(f"this game takes no {edit.action!r} edit")
        pending = self.pending
        if isinstance(pending, Choice) and not pending.reasks:
            raise edits.EditRefused(
                f"the table cannot be edited at this question ({pending.prompt}): it is asked "
                "from the table as it stands; edit it between turns or at a unit's turn "
                "(ending the battle and correcting a die work at any question)"
            )
        text = self.editor(self.game, edit)
        self._record(edit.entry(text))
        waiting = self._awaiting
        if live and waiting is not None and waiting["at"] == len(self.log) - 1:
            waiting["at"] += 1  # the decision taken back is made again after the edit
        return REASK if isinstance(pending, Choice) and pending.reasks else None

    def edit(self, edit: edits.Edit) -> Any:
        """A table edit made now, at the pending request (`wargame edit`, "Table…"): see
        `_apply`; a die correction replays the game from that die (`correct`)."""
        if self.finished and edit.action != "die":
            raise edits.EditRefused("the game is over: only a die can still be corrected")
        if edit.action == "die":
            self.correct(edit)
            return STOP
        if edit.action == "end" and self.after_end is not None:
            # the log says the after-battle steps follow: an older save's `end`, without
            # this mark, still ends the battle there and then when it is replayed
            edit = edits.Edit(edit.action, edit.args, edit.by, edit.why, {edits.AFTER: True})
        return self._apply(edit, live=True)

    def edit_problem(self, edit: edits.Edit) -> str | None:
        """Why `edit` would be refused now, or None: its words tried on a copy of the game
        (nothing here changes), so "Table…" refuses the first bad word as it is typed and
        never after all of them. `edit.args` empty: whether the action can be made at all."""
        import copy

        if self.finished and edit.action != "die":
            return "the game is over: only a die can still be corrected"
        if edit.action == "die":
            return None  # "Table…" lists the dice rolled and checks the face typed
        if edit.action == "end":
            if not edit.args:
                return None
            try:
                edits.end_winner(edit)
            except edits.EditRefused as exc:
                return str(exc)
            return None
        if self.editor is None:
            return f"this game takes no {edit.action!r} edit"
        pending = self.pending
        if isinstance(pending, Choice) and not pending.reasks:
            return "not at this question, asked from the table as it stands (edit between turns)"
        if not edit.args:
            return None
        try:
            self.editor(copy.deepcopy(self.game), edit)
        except edits.EditRefused as exc:
            return str(exc)
        return None

    def settle(self) -> None:
        """Answer the pending events and dice live, up to the first question: the after-battle
        rolls of a battle `wargame edit` ended are made there and then, from the runner's dice
        source, and a question among them waits for `resume`."""
        while isinstance(self.pending, Event | Roll):
            self.step()

    def correct(self, edit: edits.Edit) -> None:
        """Correct a die to the face really thrown: the game is replayed from that die with
        the new face; the decisions, edits and dice after it are kept while the rules still
        take them, and the first they do not is left pending (asked again at the table; from
        the command line the log stops there). Take-backs after that die are dropped."""
        from wargame_cli.engine import edits_dice

        if self.factory is None:
            raise edits.EditRefused("this game cannot replay a corrected die")
        die, face = edits_dice.pick(self.log, edit)
        roll = self.log[die.at]
        assert roll["t"] == "roll"  # where `dice_of` found the die
        after = die.at + 1
        while after < len(self.log) and _corrects(self.log[after], None, die.at):
            after += 1
        same_roll = [e for e in self.log[die.at + 1 : after] if not _corrects(e, die.pos, die.at)]
        # kept up to the roll of a later correction: its face is not the generator's to reuse
        stop = next(
            (
                int((e.get("data") or {}).get("at", len(self.log)))
                for e in self.log[after:]
                if e["t"] == "edit" and e["action"] == "die"
            ),
            len(self.log),
        )
        later = self.log[after:stop]
        fixed = edits.Edit("die", edit.args, edit.by, edit.why, edits_dice.data(die, face))
        kept: list[Any] = [*self.log[: die.at], edits_dice.corrected(dict(roll), die, face)]
        kept += [*same_roll, fixed.entry(edits_dice.text(die, face))]
        self._rebuild(kept, later)
        self.takebacks = [t for t in self.takebacks if t["at"] <= die.at]
        self._awaiting = None
        told = edits_dice.text(die, face)
        self.note(f"{told[0].upper()}{told[1:]}: the game is replayed from it.")
        if self.pending is not None:
            self._rederive(later)

    def _rederive(self, later: list[LogEntry]) -> None:
        """Play on with what the log had after a corrected die: each decision while it is
        still a legal answer to the question the rules now ask, each table edit while the
        rules take it, the dice from the tape; stop at the first that does not fit."""
        queue = [e for e in later if e["t"] in ("choice", "edit")]
        turns = [e["n"] for e in later if e["t"] == "turn"]  # the turns the log went on into
        stopped = [False]
        self.rederived = {"kept": 0, "dropped": 0, "dropped_edits": []}

        def answer(req: Request) -> Any:
            self.pending = req
            if stopped[0]:
                return STOP
            if isinstance(req, Choice | TurnStart):
                while queue and queue[0]["t"] == "edit":
                    try:
                        reply = self._apply(edits.from_entry(dict(queue.pop(0))), live=True)
                    except edits.EditRefused as exc:
                        self.note(f"An edit made later no longer fits ({exc}); play stops here.")
                        stopped[0] = True
                        return STOP
                    if reply is not None:
                        return reply
            if isinstance(req, Choice):
                head = queue[0] if queue else None
                key = head.get("key") if head is not None and head["t"] == "choice" else None
                if head is None or head.get("side") != req.side or not isinstance(key, str):
                    stopped[0] = True
                    return STOP
                if (reason := req.legal(key)) is not None:
                    self.note(f"{head.get('label')} is no longer legal ({reason}): asked again.")
                    stopped[0] = True
                    return STOP
                queue.pop(0)
                self.rederived["kept"] += 1
                self._record(self._choice_entry(req, key, str(head.get("by", "human"))))
                return key
            if isinstance(req, TurnStart) and req.number not in turns:
                stopped[0] = True  # the log went no further: the turn starts as in play
                return STOP
            if isinstance(req, Roll) and not self.tape.serves(req):
                stopped[0] = True  # dice the log does not have: thrown in play, or resumed
                return STOP
            return self._live(req)

        while self.pending is not None and not stopped[0]:
            gen = self._gen
            self._drive(answer)
            if self._gen is gen:
                break  # (else an `end` edit handed over to the after-battle steps)
        self.rederived["dropped"] = sum(1 for e in queue if e["t"] == "choice")
        self.rederived["dropped_edits"] = [e["text"] for e in queue if e["t"] == "edit"]

    # -- live play ------------------------------------------------------------------------
    @staticmethod
    def _choice_entry(req: Choice, key: str, by: str, sig: object = None) -> ChoiceEntry:
        entry: ChoiceEntry = {
            "t": "choice",
            "side": req.side,
            "kind": req.kind,
            "prompt": req.prompt,
            "key": key,
            "label": req.label_of(key),
            "by": by,
            "rules": list(req.rules),
        }
        if isinstance(sig, str):  # remote play: signed by its side's machine
            entry["sig"] = sig
        return entry

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
        if self.interpose is not None:
            gen = self._gen
            self.interpose(req)
            if self._gen is not gen:  # the game was rebuilt: another request is pending
                return STOP
        if isinstance(req, TurnStart):
            self.turn = req.number
            self._record(self._turn_entry(req))
        elif isinstance(req, Roll):
            thrown = self.tape.throw(req, self.dice, self.note)
            self._record(roll_entry(req, thrown.faces, thrown.source, thrown.proof, thrown.sig))
            return thrown.faces
        elif isinstance(req, Choice):
            answered = self._ask(req)
            if answered is None:  # taken back: an earlier decision is pending again
                return STOP
            key, by = answered
            if key == REASK:  # a table edit: the rules build the question again
                return REASK
            chooser = self.controllers[req.side]
            sig = chooser.sig if isinstance(chooser, SignedController) else None
            entry = self._choice_entry(req, key, by, sig)
            if self._awaiting is not None and self._awaiting["at"] == len(self.log):
                self._awaiting["new"] = {"key": key, "label": entry["label"], "by": by}
                self._awaiting = None
            self._record(entry)
            return key
        elif isinstance(req, Event):
            self._record(event_entry(req))
        return None

    def _ask(self, req: Choice) -> tuple[str, str] | None:
        """The controller's legal answer, or None once it took back an earlier decision (or
        a die correction or an ended battle left another request pending); (REASK, "") once a
        table edit asks for the question to be built again."""
        controller = self.controllers.get(req.side)
        if controller is None:
            raise BadInput(f"no one answers for side {req.side}: {req.prompt}")
        gen = self._gen
        while True:
            key = controller.choose(req, self.game)
            if self._gen is not gen:  # the game was rebuilt meanwhile (remote play: `rewrite`)
                return None
            if key == TAKE_BACK:
                own = isinstance(controller, SignedController) and controller.own_takebacks
                signed = None
                if isinstance(controller, SignedController):
                    signed, controller.took_back = controller.took_back, None
                reason = self.take_back(req.side if own else None, signed)
                if reason is None:
                    return None
            elif edits.is_token(key):
                try:
                    reply = self.edit(edits.from_token(key))
                except edits.EditRefused as exc:
                    reason = str(exc)
                else:
                    if reply is REASK:
                        return REASK, ""
                    if reply is STOP:  # replayed from a corrected die, or the battle ended
                        return None
                    continue  # the same question, asked again on the edited table
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

    def _rebuild(self, kept: list[Any], removed: list[LogEntry]) -> None:
        """A fresh game with `kept` replayed into it, unseen by the observer; the dice of
        `removed` go back on the tape (with any shared roll's proof), to come out again in
        order."""
        assert self.factory is not None  # checked by the callers, with their own reasons
        self.tape.rewind(self.dice, takeback.faces_of(removed), takeback.proofs_of(removed))
        observer, self.observer = self.observer, None
        try:
            self.restart(kept)
        finally:
            self.observer = observer

    def cut(self, length: int) -> None:
        """Back to the log's first `length` entries, nothing else kept (no take-back record,
        an empty dice tape, as a save opened afresh has): a restarted host whose journal says
        its log was cut there after its last save (`remote/journal.py`)."""
        if self.factory is None:
            raise BadInput("this game cannot be cut back")
        self._rebuild(self.log[:length], [])

    def rewrite(self, start: int, upto: int, answer: Answer) -> None:
        """The log from entry `start` on made again, up to `upto` entries, by the rules: each
        question there answered by `answer` (its place in the log and the question: the key,
        who made it and its signature), each event logged live; what follows is pending.
        Remote play's hidden placements: both machines first play them with stand-ins for
        the other side's, then, once they are revealed, write them as they were made."""
        if self.factory is None:
            raise BadInput("this game cannot be written again")
        self._rebuild(self.log[:start], [])

        def step(req: Request) -> Any:
            self.pending = req
            if len(self.log) >= upto:
                return STOP
            if isinstance(req, Choice):
                key, by, sig = answer(len(self.log), req)
                reason = req.legal(key)
                if reason is not None:
                    raise BadInput(f"{req.prompt} {key!r}: {reason}")
                self._record(self._choice_entry(req, key, by, sig))
                return key
            if isinstance(req, Roll):  # never: a stretch written again holds no dice
                raise BadInput(f"the rules ask for dice ({req.reason}) where none were rolled")
            return self._live(req)

        if self.pending is not None:
            self._drive(step)

    def take_back(
        self, side: str | None = None, signed: dict[str, Any] | None = None
    ) -> str | None:
        """Take back the latest decision by a person or a script (of `side`, when given), or
        the latest table edit, with everything after it, so the question it came at is
        pending again; the dice rolled after it stay on the tape. Returns why it cannot, or
        None when done. `signed`: the two machines' signatures of it (remote play), kept in its
        record."""
        at = takeback.latest_taken(self.log, side)
        if at is None:
            return takeback.NOTHING if side is None else takeback.NOTHING_OWN
        if self.factory is None:
            return "this game cannot take decisions back"
        kept, removed = self.log[:at], self.log[at:]
        self._rebuild(kept, removed)
        taken = removed[0]
        for earlier in self.takebacks:
            earlier["at"] = min(earlier["at"], at)
        if taken["t"] == "edit":  # an edit taken back leaves no record: it never happened
            self._awaiting = None
            self.note(f"Took back the edit: {taken['text']}; the question is asked again.")
            return None
        assert taken["t"] == "choice"  # what `latest_taken` finds
        done = takeback.record(taken, at, self.turn)
        if signed is not None:  # remote play: both machines' signatures of it
            done["signed"] = signed
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
        on_first_turn: Callable[[Runner], None] | None = None,
    ) -> Outcome | None:
        """Play until the game ends or turn `stop_after_turn` is complete. `on_turn_end` is
        called before every turn after the first; `on_first_turn` before the first (the
        battle set up: the GM's edits before it)."""
        stopped = False

        def answer(req: Request) -> Any:
            nonlocal stopped
            self.pending = req
            if isinstance(req, TurnStart):
                hook = on_turn_end if req.number > 1 else on_first_turn
                if hook is not None:
                    hook(self)
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


STREAMS_KEPT = 8
# what reading a malformed position may raise (`kit/serial.py`, a ruleset's constructors)
UNREADABLE = (SnapshotError, LookupError, TypeError, ValueError, AttributeError, RecursionError)


def _as_logged(entry: Mapping[str, Any]) -> LogEntry:
    """A saved entry as the runner's log holds it: without the file's hash link."""
    if "h" not in entry:
        return entry  # type: ignore[return-value]
    logged = dict(entry)
    del logged["h"]
    return logged  # type: ignore[return-value]


def _ended() -> Play:
    """What stands for a game ended by an edit: a generator that was never started, and
    that would end at once with no outcome (never sent anything: nothing is pending)."""
    yield from ()
    raise AssertionError("an ended game asks nothing")


def _declared(steps: Play) -> Play:
    """The after-battle steps of a battle an `end` edit ended, whose outcome says it was
    declared (the winner and reason are the edit's; the rules add what they found)."""
    outcome = yield from steps
    done = ended(outcome)
    data = {**(done.data or {}), "declared": True}
    return Outcome(done.winner, done.reason, done.rules, data, cause="declared")


def _winner_words(winner: str | None) -> str:
    return f"side {winner} wins" if winner is not None else "a draw"


def _corrects(entry: Mapping[str, Any], pos: int | None, at: int) -> bool:
    """Whether `entry` is a correction of the roll at log index `at` (of its die `pos`; None:
    of any of its dice)."""
    data = entry.get("data") or {}
    return (
        entry.get("t") == "edit"
        and entry.get("action") == "die"
        and data.get("at") == at
        and (pos is None or data.get("pos") == pos)
    )


def _first(req: Request) -> Any:
    """Answers nothing: driving with it only starts the game (its first request pends)."""
    return STOP


def _entry(index: int, entry: Any) -> dict[str, Any]:
    """A saved log's entry, or why it is not one."""
    if not isinstance(entry, dict) or "t" not in entry:
        raise ReplayDivergence(index, "not a log entry")
    return entry
