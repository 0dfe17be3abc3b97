"""Remote play's parts shared by `wargame host` and `wargame join` (`remote_host.py`,
`remote_join.py`): this machine's side (`Local`), its team, its controller, and `Play`, its
part of the game: each machine runs the rules; only decisions, dice (by commit and reveal) and
control messages cross the wire (see `wargame_cli/remote/`)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from wargame_cli.bots.base import DEFAULT, PolicyController, checked_level
from wargame_cli.cli import play
from wargame_cli.cli.output import console, interactive
from wargame_cli.engine.bots import BotController, run_builder
from wargame_cli.engine.requests import TAKE_BACK
from wargame_cli.engine.session import Session
from wargame_cli.errors import Interrupted, SaveError
from wargame_cli.invoked import command
from wargame_cli.kit.sides import other
from wargame_cli.remote import journal, pledge, sight, signing
from wargame_cli.remote import kept as dice_kept
from wargame_cli.remote import typed as typed_dice
from wargame_cli.remote.hidden import Hidden
from wargame_cli.remote.peer import HOST, Announcing, Peer, RemoteController, SharedDice, Tips
from wargame_cli.remote.watchers import Watchers
from wargame_cli.remote.wire import Dropped, RemoteError
from wargame_cli.ruleset import SIDES, Ruleset
from wargame_cli.saves import games
from wargame_cli.text import shown
from wargame_cli.ui.names import distinct_default

DEFAULT_PORT = 7375


@dataclass
class Local:
    """This machine's side: who plays it and how (the flags `play` has)."""

    team: str | None = None
    name: str | None = None
    bot: bool = False
    no_input: bool = False
    choices: str | None = None
    json_out: bool = False
    save: Path | None = None
    force: bool = False
    saves_dir: Path | None = None
    bot_level: str | None = None  # how the computer plays this side (`--bot-level`)


def tell_for(local: Local) -> Callable[[str], None]:
    """Lines about the connection: on stdout for a person, on stderr under --json."""

    def tell(text: str) -> None:
        if local.json_out:
            print(f"wargame: {text}", file=sys.stderr, flush=True)
        else:  # at a terminal wrapped at words (never `play|er`); piped, one line each
            out = console()
            out.print(text, markup=False, soft_wrap=not out.is_terminal)

    return tell


def tell_whole(local: Local, text: str) -> None:
    """A line to copy (a command to give the other player): never broken into lines here, so
    the terminal wraps it on screen and a copy of it is one line."""
    if local.json_out:
        print(f"wargame: {text}", file=sys.stderr, flush=True)
    else:
        console().print(text, markup=False, soft_wrap=True)


def kind_of(local: Local) -> str:
    return "bot" if local.bot or local.no_input else "human"


def can_ask(local: Local) -> bool:
    return interactive() and kind_of(local) == "human"


def own_team(
    ruleset: Ruleset,
    side: str,
    options: dict[str, Any],
    local: Local,
    prompter: Any,
    taken: str | None = None,
) -> tuple[Any, str]:
    """This side's team and name: from --team, the ruleset's default for a bot or a script,
    else built here by the player and named, as `play` builds and names one (never `taken`,
    the other side's name)."""
    if local.team is not None:
        team, name = ruleset.load_team(local.team, options)
        return team, local.name or name or f"Side {side}"
    if prompter is None:
        if kind_of(local) == "human" and local.choices is None:
            play._need_terminal(f"building side {side}'s team")
        team, name = ruleset.default_team(side, options)
        return team, local.name or name
    from wargame_cli.ui.prompts import HumanController

    team = run_builder(
        lambda: ruleset.build_team(side, options),
        HumanController(prompter, {s: f"Side {s}" for s in SIDES}),
    )
    if local.name is not None:
        return team, local.name
    default = ruleset.team_name(team) or f"Side {side}"
    if taken is not None:
        default = distinct_default(default, taken, side)
    while (name := prompter.name(side, default, taken=taken)) == TAKE_BACK:
        prompter.setup_refused("the team is chosen; type this side's name")
    return team, str(name)


def local_controller(local: Local, names: dict[str, str], prompter: Any) -> Any:
    if kind_of(local) == "bot":
        level = checked_level(local.bot_level)
        inner: Any = PolicyController(None, level) if level != DEFAULT else BotController()
    else:
        if prompter is None and local.choices is None:
            play._need_terminal("this side's decisions")
        from wargame_cli.ui.prompts import HumanController

        inner = HumanController(prompter, names) if prompter is not None else BotController()
    if local.choices is not None:
        from wargame_cli.engine.scripted import ChoiceScript, parse_choices

        return ChoiceScript(parse_choices(local.choices)).controllers({"X": inner})["X"]
    return inner


class Play:
    """One machine's part of the game: its session, its save, the peer and the screen."""

    def __init__(self, local: Local, side: str, peer: Peer, prompter: Any) -> None:
        self.local = local
        self.side = side
        self.peer = peer
        self.prompter = prompter
        self.session: Session | None = None
        self.path: Path | None = None
        self.tell = tell_for(local)
        self._controller: Any = None
        self.view: Any = None
        self.watchers = Watchers(self.tell)
        self.promises: pledge.Promises | None = None  # the host's values, kept beside its save
        self.key: signing.Key | None = None  # this machine's key for signing the game
        self.host_key: str | None = None  # the joiner's: the host's public key, as it told
        self.record: pledge.Record | None = None  # the joiner's latest roll, beside its save
        # the sides whose player types real dice, as this machine's player agreed at setup
        # (the joiner's own answer; None: not asked in this process)
        self.typed: frozenset[str] | None = None
        self.unsaved = False  # a decision is logged that the save does not hold yet
        self.turned = False  # and a turn ended since the last save: flush it to disk
        # a game played at one terminal, hosted (`host --resume`): its save is left as it was
        # until the joiner comes (so it stays that game's save if no one does)
        self.untouched = False

    def controllers(self, names: dict[str, str]) -> dict[str, Any]:
        if self._controller is None:
            self._controller = local_controller(self.local, names, self.prompter)
        waiting = self._waiting
        return {
            self.side: Announcing(self._controller, self.peer),
            other(self.side): RemoteController(self.peer, waiting, self._agree),
        }

    def dice(self, typed: frozenset[str]) -> SharedDice:
        """The game's dice: shared, but for the sides whose player types real dice (agreed
        at setup), typed by this machine's person for its own side."""
        person = self.prompter if kind_of(self.local) == "human" else None
        asker = typed_dice.asker(person)
        return SharedDice(self.peer, typed, self.side, asker, self._waiting, self.promises)

    def told_keys(self) -> None:
        """Both machines' keys, as `replay --verify` names them: each player can check that
        the save names their own machine's."""
        signer = self.peer.signer
        if signer is not None:
            self.tell(
                f"signing the game with key {signing.fingerprint(signer.mine.public)}; "
                f"{self.peer.name}'s machine signs with key {signing.fingerprint(signer.theirs)}"
            )

    def _agree(self, name: str) -> bool:
        """The other player asks to take back the latest decision: a bot or a script agrees;
        a person is asked."""
        if self.prompter is None or kind_of(self.local) == "bot":
            return True
        import questionary

        from wargame_cli.engine.takeback import latest_taken, named

        log = self.peer.runner.log
        at = latest_taken(log, other(self.side))  # theirs: a take-back asks back the asker's
        what = f" their last decision: {named(log[at])}" if at is not None else ""
        items = [questionary.Choice("Agree", True), questionary.Choice("Decline", False)]
        answer = self.prompter.select(f"{name} asks to take back{what}.", items, items[0])
        return answer is True

    def _waiting(self, name: str) -> None:
        """While the other machine decides: the board and what happened since this side's
        last decision, drawn afresh as its moves come (a decision screen), and who we wait
        for."""
        if self.local.json_out:
            return
        screen = self.view.screen if self.view is not None else None
        if screen is None or screen.state is None:
            self.tell(f"waiting for {name}…")
            return
        told = f"waiting for {name}… (Ctrl-C saves and exits)"
        if self.prompter is not None:  # Look… while waiting; ends when their move comes
            self.prompter.wait(self.side, told, self.peer.link.fileno())
            return
        from rich.text import Text

        out = console()
        layout = screen.compose(out.width, out.height, 2, 0, None, self.side)
        out.clear()
        for line in layout.lines:
            out.print(Text.from_ansi(line))
        out.print(Text(told, style="bold"))

    def attach(self, session: Session, path: Path) -> None:
        """Watch `session`: save after every decision, show it as it goes."""
        self.session, self.path = session, path
        kept = self.record is not None and self.record.where == pledge.beside(path)
        if self.peer.role != HOST and not kept:
            self.record = pledge.Record(path)  # the joiner's rolls, kept beside its save
            self.peer.keep_roll = self.record.put
        self.peer.runner = session.runner
        self.peer.tips = Tips(_header(session))
        players = session.meta["players"]
        view = None
        if not self.local.json_out:
            view = play._live_view(
                session.ruleset,
                session.setup.names,
                self.prompter,
                {self.side: players[self.side], other(self.side): "remote"},
                session.game,
                session.runner.log,
            )
            view.sees = sight.of_side(view.view, self.side)  # never the other's hidden pieces
            if view.screen is None:
                view.board(session.game)
        self.view = view

        runner = session.runner
        plain = session.ruleset.view()  # what each side may see: a hidden stretch's bounds
        hidden = self.peer.hidden = Hidden(
            self.peer, lambda: sight.hidden(plain, session.game.state)
        )
        runner.interpose = hidden.before

        def observe(entry: Any, game: Any) -> None:
            if hidden.active and not hidden.rewriting:  # stand-ins for the other's: shown only
                if view is not None:  # (which hides the other side's pieces)
                    view(entry, game)
                return
            written = self.peer.journal
            if written is not None:  # first: nothing is sent of it before it is kept
                log = runner.log  # a new list after a take-back
                if log and log[-1] is entry:
                    written.logged(len(log) - 1, entry)
                elif entry.get("t") == "takeback":
                    written.cut(entry["at"])
                    written.tape(len(log), dice_kept.words(runner.tape))
            if view is not None and not hidden.rewriting:  # shown as it was decided
                view(entry, game)
            self.watchers.entry(entry, session)
            if entry.get("t") == "choice":
                self.unsaved = True
            elif entry.get("t") == "takeback":
                # saved at once: a save never keeps a decision both sides took back, whose
                # rolls a host that came back without them would seem to have lost
                self.unsaved = True
                self._settle()

        session.runner.observer = observe
        self.peer.idle = self._settle
        if self.prompter is not None and kind_of(self.local) == "human":
            self.prompter.app.while_reading = self._settle_reading
        else:
            self.peer.asking = self._settle

    def keep_journal(self) -> None:
        """The host starts its journal afresh (`remote/journal.py`): call it once the save
        holds everything the game has logged."""
        session, path = self.session, self.path
        assert session is not None and path is not None
        if self.peer.journal is not None:
            self.peer.journal.close()
        made = journal.game_of(session.seed, session.created)
        self.peer.journal = journal.Journal(journal.beside(path), made)
        if session.runner.tape:  # a take-back's kept dice, not used up yet
            tape = dice_kept.words(session.runner.tape)
            self.peer.journal.tape(len(session.runner.log), tape)

    def _settle(self) -> None:
        """Save the decisions (and turns) logged since the last save: when this machine is
        about to wait for the other's decision with nothing come yet, when a bot is asked, or
        while a person reads their question, so that the save never stands between a key and
        the next question (nor between a decision and the dice it calls for) on either
        machine (`Peer.idle`, `Peer.asking`). The other machine's signatures are checked first,
        and ours signed ahead (`Peer.pause`): a save never keeps one that does not hold."""
        self.peer.pause()
        hidden = self.peer.hidden
        if hidden is not None and hidden.active:  # nothing of a hidden stretch is saved
            return
        if self.unsaved and self.session is not None and self.path is not None:
            self.unsaved = False
            turned, self.turned = self.turned, False
            games.save(self.session, self.path, settle=turned)
            self._keep_roll()

    def _settle_reading(self) -> None:
        """`_settle` from the prompt's loop: a save that fails is left to the next one, which
        says why (a callback there has no one to tell)."""
        try:
            self._settle()
        except (OSError, SaveError, RemoteError):  # a bad signature: told at the next pause
            self.unsaved = True

    def _turn_over(self) -> None:
        """A turn ended: saved and flushed to disk at the next `_settle`."""
        self.unsaved = self.turned = True

    def save(self) -> None:
        """Save (when this side stops, drops or ends): in a hidden stretch, the game as it
        was where the stretch began (`remote/hidden.py`)."""
        if self.peer.hidden is not None:
            self.peer.hidden.rewind()
        if self.session is not None and self.path is not None and not self.untouched:
            self.unsaved = False
            games.save(self.session, self.path)
            self._keep_roll()

    def _keep_roll(self) -> None:
        """The save holds every roll made: the joiner's record beside it keeps only its roll
        in progress (if any: `pledge.Record`), and goes once the game is over."""
        if self.record is None or self.session is None:
            return
        if self.session.status == "finished":
            self.record.end()
        else:
            self.record.put(self.peer.pending)

    def run(self) -> None:
        """Play to the end and compare the ends; a refusal is told to the other side, and
        the save keeps every decision made up to it."""
        try:
            self._run()
        except Dropped:
            self.save()
            raise
        except RemoteError as exc:
            self.save()
            self.peer.fail(str(exc))
            raise

    def _run(self) -> None:
        assert self.session is not None
        runner = self.session.runner
        runner.run(on_turn_end=lambda _: self._turn_over())
        self.peer.pause()  # the last signatures checked before the last save
        self.save()
        at, tip = self.peer.at
        self.peer.exchange(lambda: self.peer.post({"t": "bye", "at": at, "tip": tip}))
        self.peer.check_tip(self.peer.exchange(lambda: self.peer.expect("bye")), "end")

    def finish(self) -> None:
        assert self.session is not None
        play._finish(self.session, self.path, self.local.json_out)

    def interrupted(self, what: str) -> Interrupted:
        self.save()
        self.peer.fail(f"{what}; their save is kept", kind="leave")
        if self.path is None:
            return Interrupted("interrupted; nothing was saved")
        if self.untouched:
            return Interrupted(
                f"interrupted before the other player joined; {shown(self.path)} is as it was"
            )
        return Interrupted(
            f"interrupted; game saved to {shown(self.path)}"
            + (
                f" ({command('host --resume ' + shown(self.path))})"
                if self.peer.role == HOST
                else ""
            )
        )


def _header(session: Session) -> dict[str, Any]:
    from wargame_cli.saves import seal

    data = games.to_save(session)
    return {k: data.get(k) for k in seal.HEADER}
