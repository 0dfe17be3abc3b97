"""`wargame host` and `wargame join`: one game on two machines. Each machine runs the rules;
only decisions, dice (by commit and reveal) and control messages cross the wire (see
`wargame_cli/remote/`). Both sides save after every decision and end with the same save."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.cli import play
from wargame_cli.cli.output import console, interactive
from wargame_cli.engine.bots import BotController, run_builder
from wargame_cli.engine.requests import TAKE_BACK
from wargame_cli.engine.session import Session, draw_seed, start
from wargame_cli.errors import BadInput, Interrupted
from wargame_cli.kit.sides import other
from wargame_cli.remote import codes, tls
from wargame_cli.remote.gate import Gate, Visitor, knock
from wargame_cli.remote.peer import HOST, JOIN, Announcing, Peer, RemoteController, SharedDice, Tips
from wargame_cli.remote.watchers import Watchers
from wargame_cli.remote.wire import Dropped, Link, RemoteError
from wargame_cli.ruleset import SIDES, Ruleset, Setup, check_team_numbers, resolve_options
from wargame_cli.saves import games, store
from wargame_cli.saves.untrusted import Untrusted
from wargame_cli.text import name_problem, shown
from wargame_cli.ui.names import distinct_default, same_name

DEFAULT_PORT = 7375
RETRY = 1.0  # seconds between a joiner's tries to reach a host that dropped


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


@dataclass
class HostArgs:
    ruleset_id: str | None
    seat: str | None
    local: Local = field(default_factory=Local)
    options: list[str] = field(default_factory=list)
    port: int | None = None  # None: 7375, or a resumed game's own
    listen: str = "0.0.0.0"
    resume: Path | None = None


@dataclass
class JoinArgs:
    address: str
    code: str
    local: Local = field(default_factory=Local)


def _tell(local: Local) -> Callable[[str], None]:
    """Lines about the connection: on stdout for a person, on stderr under --json."""

    def tell(text: str) -> None:
        if local.json_out:
            print(f"wargame: {text}", file=sys.stderr, flush=True)
        else:
            console().print(text, markup=False, soft_wrap=True)

    return tell


def _kind(local: Local) -> str:
    return "bot" if local.bot or local.no_input else "human"


def _can_ask(local: Local) -> bool:
    return interactive() and _kind(local) == "human"


def _own_team(
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
        if _kind(local) == "human" and local.choices is None:
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


def _local_controller(local: Local, names: dict[str, str], prompter: Any) -> Any:
    if _kind(local) == "bot":
        inner: Any = BotController()
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
        self.tell = _tell(local)
        self._controller: Any = None
        self.view: Any = None
        self.watchers = Watchers(self.tell)

    def controllers(self, names: dict[str, str]) -> dict[str, Any]:
        if self._controller is None:
            self._controller = _local_controller(self.local, names, self.prompter)
        waiting = self._waiting
        return {
            self.side: Announcing(self._controller, self.peer),
            other(self.side): RemoteController(self.peer, waiting, self._agree),
        }

    def _agree(self, name: str) -> bool:
        """The other player asks to take back the latest decision: a bot or a script agrees;
        a person is asked."""
        if self.prompter is None or _kind(self.local) == "bot":
            return True
        import questionary

        from wargame_cli.engine.takeback import latest_taken

        log = self.peer.runner.log
        at = latest_taken(log)
        what = f" {log[at]['label']!r}" if at is not None else ""
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
        from rich.text import Text

        out = console()
        layout = screen.compose(out.width, out.height, 2, 0, None, self.side)
        out.clear()
        for line in layout.lines:
            out.print(Text.from_ansi(line))
        out.print(Text(f"waiting for {name}… (Ctrl-C saves and exits)", style="bold"))

    def attach(self, session: Session, path: Path) -> None:
        """Watch `session`: save after every decision, show it as it goes."""
        self.session, self.path = session, path
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
            if view.screen is None:
                view.board(session.game)
        self.view = view

        def observe(entry: Any, game: Any) -> None:
            if view is not None:
                view(entry, game)
            self.watchers.entry(entry, session)
            if entry.get("t") == "choice":
                games.save(session, path, settle=False)

        session.runner.observer = observe

    def save(self) -> None:
        if self.session is not None and self.path is not None:
            games.save(self.session, self.path)

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
        runner.run(on_turn_end=lambda _: self.save())
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
        return Interrupted(
            f"interrupted; game saved to {shown(self.path)}"
            + (
                " (wargame host --resume " + shown(self.path) + ")"
                if self.peer.role == HOST
                else ""
            )
        )


def _header(session: Session) -> dict[str, Any]:
    from wargame_cli.saves import seal

    data = games.to_save(session)
    return {k: data.get(k) for k in seal.HEADER}


# -- host -------------------------------------------------------------------------------------


def host(args: HostArgs) -> None:
    local = args.local
    if args.resume is not None:
        with store.locked(args.resume, new=False) as path:
            _host_resumed(args, path)
        return
    seat = _seat(args.seat or "A")
    if args.ruleset_id is None:
        raise BadInput("name a ruleset: wargame host ID --seat A (see wargame rulesets)")
    ruleset = registry.get(args.ruleset_id)
    options = resolve_options(ruleset.options, args.options)
    if local.save is not None:
        play._check_new_save(local.save, local.force)
    prompter = play._prompter() if _can_ask(local) else None
    try:
        team, name = _own_team(ruleset, seat, options, local, prompter)
    except KeyboardInterrupt:
        raise Interrupted("interrupted during setup: no game had started") from None
    if problem := name_problem(name):
        raise BadInput(f"--name {name!r}: {problem}")
    names = {seat: name, other(seat): "Remote"}
    held = (
        store.locked(local.save)
        if local.save is not None
        else store.locked_new(store.saves_dir(local.saves_dir), ruleset.id, names)
    )
    with held as path:
        keys = _keys(path, fresh=True)
        gate = _open_gate(args, keys, ruleset, local)
        _keep_keys(path, keys | {"side": seat, "port": str(gate.port)})
        peer = Peer(None, HOST, "the other player", None, _tell(local))  # type: ignore[arg-type]
        game = Play(local, seat, peer, prompter)
        hosting = Hosting(gate, game, ruleset, (seat, name, team, options))
        try:
            hosting.serve(path)
        except KeyboardInterrupt:
            raise game.interrupted("Ctrl-C") from None
        finally:
            gate.close()


def _seat(text: str) -> str:
    seat = text.strip().upper()
    if seat not in SIDES:
        raise BadInput(f"--seat {text!r}: a seat is A or B")
    return seat


def _host_resumed(args: HostArgs, path: Path) -> None:
    local = args.local
    data = store.load(path)
    if data["status"] == "finished":
        raise BadInput(f"{shown(path)}: that game is finished (wargame replay {shown(path)})")
    keys = _keys(path, fresh=False)
    seat = _seat(args.seat or keys.get("side") or "A")
    if args.port is None and str(keys.get("port", "")).isdigit():
        args.port = int(keys["port"])
    prompter = play._prompter() if _can_ask(local) else None
    peer = Peer(None, HOST, "the other player", None, _tell(local))  # type: ignore[arg-type]
    game = Play(local, seat, peer, prompter)
    names = dict(data["setup"]["names"])
    peer.name = str(names.get(other(seat), peer.name))
    session = games.open_save(path, dice=SharedDice(peer), controllers=game.controllers(names))
    session.meta["dice"] = "shared"
    game.attach(session, path)
    gate = _open_gate(args, keys, session.ruleset, local)
    hosting = Hosting(gate, game, session.ruleset, None)
    try:
        hosting.serve(path)
    except KeyboardInterrupt:
        raise game.interrupted("Ctrl-C") from None
    finally:
        gate.close()


def _keys(path: Path, fresh: bool) -> dict[str, str]:
    """The hosted game's codes and TLS identity, kept beside its save (readable by its owner
    only) so `host --resume` shows the same fingerprint and takes the same codes."""
    where = path.with_name(path.name + ".host")
    if not fresh and where.exists():
        try:
            keys = json.loads(where.read_text(encoding="utf-8"))
            if isinstance(keys, dict) and all(
                isinstance(keys.get(k), str) for k in ("seat", "watch", "key", "cert")
            ):
                return keys
        except (OSError, ValueError):
            pass
    identity = tls.new_identity()
    keys = {
        "seat": codes.new_code(),
        "watch": codes.new_code(),
        "key": identity.key_pem,
        "cert": identity.cert_pem,
    }
    _keep_keys(path, keys)
    return keys


def _keep_keys(path: Path, keys: dict[str, str]) -> None:
    where = path.with_name(path.name + ".host")
    fd = os.open(where, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as out:
        json.dump(keys, out)


def _open_gate(args: HostArgs, keys: dict[str, str], ruleset: Ruleset, local: Local) -> Gate:
    door = codes.Door(keys["seat"], keys["watch"])
    identity = tls.Identity(keys["key"], keys["cert"])
    port = DEFAULT_PORT if args.port is None else args.port
    return Gate(args.listen, port, identity, door, (ruleset.id, ruleset.version), _tell(local))


def _shown_address(listen: str, port: int) -> str:
    if listen in ("0.0.0.0", "::", ""):
        import socket

        try:
            probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
            probe.connect(("192.0.2.1", 9))  # no packet is sent: it picks the way out
            listen = probe.getsockname()[0]
            probe.close()
        except OSError:
            listen = socket.gethostname()
    return f"[{listen}]:{port}" if ":" in listen else f"{listen}:{port}"


class Hosting:
    """The host's game: waits for the joiner, sets the game up with it (or sends the game
    so far), runs it, and after a drop waits for the joiner to come back."""

    def __init__(
        self, gate: Gate, game: Play, ruleset: Ruleset, new: tuple[str, str, Any, Any] | None
    ) -> None:
        self.gate = gate
        self.game = game
        self.ruleset = ruleset
        self.new = new
        self.tell = game.tell

    def serve(self, path: Path) -> None:
        game, gate = self.game, self.gate
        address = _shown_address(gate.sock.getsockname()[0], gate.port)
        self.tell(
            f"Hosting {self.ruleset.name} (version {self.ruleset.version}) as side "
            f"{game.side}. Give the other player this line:"
        )
        self.tell(f"  wargame join {address} --code {gate.door.seat}")
        self.tell(f"Spectators: wargame watch {address} --code {gate.door.watch}")
        self.tell(f"Host key fingerprint: {gate.fingerprint}")
        self.tell(f"waiting for the other player to join on port {gate.port}…")
        gate.on_watcher = game.watchers.add
        gate.open(self._welcome)
        if game.session is None:
            self._set_up(path)
        else:
            game.peer.link = self._admit()
        game.peer.rejoin = self._rejoin
        game.run()
        game.watchers.end()
        path.with_name(path.name + ".host").unlink(missing_ok=True)  # its codes are done
        game.finish()

    def _welcome(self, role: str) -> dict[str, Any]:
        game = self.game
        if role != "player":
            return {"t": "welcome", "watch": True, "ruleset": self.ruleset.id}
        welcome: dict[str, Any] = {
            "t": "welcome",
            "seat": other(game.side),
            "ruleset": self.ruleset.id,
            "version": self.ruleset.version,
        }
        if game.session is None and self.new is not None:
            side, name, team, options = self.new
            welcome["setup"] = {"options": options, "side": side, "name": name, "team": team}
        return welcome

    def _admit(self) -> Link:
        """The joiner, let in and sent the game as it stands."""
        visitor = self.gate.admit()
        self._send_game(visitor)
        return visitor.link

    def _send_game(self, visitor: Visitor) -> None:
        session = self.game.session
        assert session is not None
        visitor.link.post({"t": "game", "save": games.to_save(session)})
        self.tell(f"the other player joined from {visitor.address}")

    def _rejoin(self, why: Dropped) -> Link:
        self.game.save()
        self.tell(
            f"{self.game.peer.name} dropped ({why}); waiting for them to join again with the "
            "same code (Ctrl-C saves and exits)…"
        )
        return self._admit()

    def _set_up(self, path: Path) -> None:
        """A new game: the joiner's team comes, the game starts, the joiner gets it."""
        assert self.new is not None
        side, name, team, options = self.new
        game, ruleset = self.game, self.ruleset
        while True:
            visitor = self.gate.admit()
            try:
                theirs, their_name, their_kind = self._their_team(visitor.link, options, name)
                break
            except Dropped as exc:
                self.tell(f"the other player left during setup ({exc}); waiting again…")
            except RemoteError as exc:
                visitor.link.post({"t": "refused", "why": str(exc)})
                visitor.link.close()
                self.tell(f"refused the other player's team: {exc}")
        foe = other(side)
        names = {side: name, foe: their_name}
        # as a save reads back on both machines (a picked preset's own name is left out)
        teams = {side: ruleset.team_from_data(team, options), foe: theirs}
        players = {side: _kind(game.local), foe: their_kind}
        peer = game.peer
        peer.link, peer.name = visitor.link, their_name
        session = start(
            ruleset,
            Setup(names=names, teams=teams),
            options,
            draw_seed(),
            SharedDice(peer),
            game.controllers(names),
        )
        session.meta["players"] = players
        session.meta["dice"] = "shared"
        game.attach(session, path)
        game.save()
        self._send_game(visitor)

    def _their_team(self, link: Link, options: dict[str, Any], ours: str) -> tuple[Any, str, str]:
        """The joiner's team, name and kind of player, checked as a team file is."""
        message = link.recv()
        if message["t"] != "team":
            raise RemoteError(f"the other player sent {str(message['t'])[:20]!r} for its team")
        name, kind = message.get("name"), message.get("player")
        if not isinstance(name, str) or (problem := name_problem(name)):
            raise RemoteError(f"its name: {problem if isinstance(name, str) else 'none'}")
        if same_name(name, ours):
            raise RemoteError(f"both sides would be named {ours!r}; choose another --name")
        try:
            check_team_numbers(message.get("team"))
            team = self.ruleset.team_from_data(message.get("team"), options)
        except (BadInput, Untrusted) as exc:
            raise RemoteError(f"its team: {exc}") from None
        except (KeyError, TypeError, ValueError, AttributeError, IndexError):
            raise RemoteError("its team is not a team of these rules") from None
        return team, name, kind if kind in ("human", "bot") else "human"


# -- join -------------------------------------------------------------------------------------


def join(args: JoinArgs) -> None:
    local = args.local
    tell = _tell(local)
    if local.save is not None and not _in_progress(local.save):
        play._check_new_save(local.save, local.force)
    rulesets = {info.id: registry.get(info.id).version for info in registry.all_infos()}
    link, welcome, fingerprint = knock(args.address, args.code, rulesets, DEFAULT_PORT)
    tell(f"connected to {args.address}; host key fingerprint {fingerprint}")
    ruleset = registry.get(str(welcome.get("ruleset")))
    side = str(welcome.get("seat"))
    if side not in SIDES:
        raise RemoteError("the host offered no seat")
    prompter = play._prompter() if _can_ask(local) else None
    peer = Peer(link, JOIN, "the host", None, tell)  # type: ignore[arg-type]
    game = Play(local, side, peer, prompter)
    setup = welcome.get("setup")
    if isinstance(setup, dict):
        _send_team(link, ruleset, side, setup, local, prompter)
    held: Any = store.locked(local.save) if local.save is not None else nullcontext(None)
    with held as chosen:
        try:
            _join_loop(args, game, link, chosen, rulesets, fingerprint)
        except KeyboardInterrupt:
            raise game.interrupted("Ctrl-C") from None


def _in_progress(path: Path) -> bool:
    """A save of a game still going: joining again, it is brought up to the host's."""
    try:
        return bool(store.load(path)["status"] == "in_progress")
    except BadInput:
        return False


def _send_team(
    link: Link, ruleset: Ruleset, side: str, setup: dict[str, Any], local: Local, prompter: Any
) -> None:
    options = resolve_options(ruleset.options, setup.get("options") or {})
    host_name = str(setup.get("name"))
    team, name = _own_team(ruleset, side, options, local, prompter, taken=host_name)
    if local.name is None:
        name = distinct_default(name, host_name, side)
    elif same_name(name, host_name):
        raise BadInput(f"--name {name!r}: the host's side is already called that")
    link.post({"t": "team", "team": team, "name": name, "player": _kind(local)})


def _join_loop(
    args: JoinArgs,
    game: Play,
    link: Link,
    chosen: Path | None,
    rulesets: dict[str, str],
    fingerprint: str,
) -> None:
    """Take the game the host sends and play it; when the host drops, try again until it
    is back (the same code, the same host key), then carry on from where it stands."""
    path = chosen
    while True:
        message = link.recv()
        if message["t"] == "refused":
            raise RemoteError(f"the host refused: {str(message.get('why'))[:300]}")
        if message["t"] != "game" or not isinstance(message.get("save"), dict):
            raise RemoteError("the host sent no game")
        path = _open_game(game, message["save"], path)
        try:
            game.run()
            game.finish()
            return
        except Dropped as exc:
            game.save()
            game.tell(
                f"the host dropped ({exc}); trying again every {RETRY:g} s "
                "(Ctrl-C saves and exits)…"
            )
            link = _reach_again(args, rulesets, fingerprint)
            game.peer.link = link


def _reach_again(args: JoinArgs, rulesets: dict[str, str], fingerprint: str) -> Link:
    while True:
        time.sleep(RETRY)
        try:
            link, _, seen = knock(args.address, args.code, rulesets, DEFAULT_PORT)
        except Dropped:
            continue
        if seen != fingerprint:
            link.close()
            raise RemoteError(
                f"the host came back with another key ({seen}, not {fingerprint}): refused"
            )
        return link


def _open_game(game: Play, data: dict[str, Any], chosen: Path | None) -> Path:
    """Write the host's save as ours and open it: its log replays through our own rules
    (every decision judged, every shared roll derived again) before play goes on."""
    names = data.get("setup", {}).get("names") or {}
    ruleset_id = str((data.get("ruleset") or {}).get("id"))
    if chosen is None:
        folder = store.saves_dir(game.local.saves_dir)
        chosen = folder / store.file_name(ruleset_id, {s: str(names.get(s, s)) for s in SIDES})
    store.write_atomic(chosen, data)
    try:
        session = games.open_save(
            chosen, dice=SharedDice(game.peer), controllers=game.controllers(dict(names))
        )
    except BadInput as exc:
        raise RemoteError(f"the host's game does not replay here: {exc}") from None
    game.peer.name = str(names.get(other(game.side), "the host"))
    session.meta["dice"] = "shared"
    game.attach(session, chosen)
    return chosen
