"""`wargame host`: start a game (or `--resume` one), print the join line, let the joiner in,
set the game up with it and play; after a drop, wait for the joiner to come back."""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.bots.base import checked_level
from wargame_cli.cli import play
from wargame_cli.cli.remote import (
    DEFAULT_PORT,
    Local,
    Play,
    can_ask,
    kind_of,
    own_team,
    tell_for,
    tell_whole,
)
from wargame_cli.engine.session import draw_seed, start
from wargame_cli.errors import BadInput, Interrupted
from wargame_cli.invoked import command
from wargame_cli.kit.sides import other
from wargame_cli.remote import codes, journal, kept, pledge, signing, tls
from wargame_cli.remote import typed as typed_dice
from wargame_cli.remote.gate import DoorClosed, Gate, Visitor
from wargame_cli.remote.peer import HOST, Peer
from wargame_cli.remote.wire import Dropped, Link, RemoteError
from wargame_cli.ruleset import SIDES, Ruleset, Setup, check_team_numbers, resolve_options
from wargame_cli.saves import games, store
from wargame_cli.saves.untrusted import Untrusted
from wargame_cli.text import name_problem, shown
from wargame_cli.ui.names import same_name


@dataclass
class HostArgs:
    ruleset_id: str | None
    seat: str | None
    local: Local = field(default_factory=Local)
    options: list[str] = field(default_factory=list)
    port: int | None = None  # None: 7375, or a resumed game's own
    listen: str = "0.0.0.0"
    resume: Path | None = None
    dice: str | None = None  # `--dice`: the sides proposed to type real dice (the joiner agrees)


def host(args: HostArgs) -> None:
    local = args.local
    if args.resume is None or not _kept_keys(args.resume):
        tls.require()  # before any question: the team is not asked for in vain
    if args.resume is not None:
        with store.locked(args.resume, new=False) as path:
            _host_resumed(args, path)
        return
    seat = _seat(args.seat or "A")
    if args.ruleset_id is None:
        raise BadInput(f"name a ruleset: {command('host ID --seat A')} (see {command('rulesets')})")
    ruleset = registry.get(args.ruleset_id)
    options = resolve_options(ruleset.options, args.options)
    typed = typed_dice.proposed(args.dice)
    typed_dice.check_own(typed, seat, kind_of(local) == "human")
    if local.save is not None:
        play._check_new_save(local.save, local.force)
    prompter = play._prompter() if can_ask(local) else None
    try:
        team, name = own_team(ruleset, seat, options, local, prompter)
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
        keys |= {"side": seat, "port": str(gate.port)}
        _keep_keys(path, keys)
        peer = Peer(None, HOST, "the other player", None, tell_for(local))  # type: ignore[arg-type]
        game = Play(local, seat, peer, prompter)
        game.promises = _promises(path, keys)
        game.key = signing.Key.from_hex(keys["sign"])
        hosting = Hosting(gate, game, ruleset, (seat, name, team, options))
        hosting.typed = typed
        _serve(hosting, path)


def _seat(text: str) -> str:
    seat = text.strip().upper()
    if seat not in SIDES:
        raise BadInput(f"--seat {text!r}: a seat is A or B")
    return seat


def _host_resumed(args: HostArgs, path: Path) -> None:
    local = args.local
    data = store.load(path)
    if data["status"] == "finished":
        raise BadInput(f"{shown(path)}: that game is finished ({command('replay ' + shown(path))})")
    keys = _keys(path, fresh=False)
    seat = _seat(args.seat or keys.get("side") or "A")
    if args.port is None and str(keys.get("port", "")).isdigit():
        args.port = int(keys["port"])
    prompter = play._prompter() if can_ask(local) else None
    peer = Peer(None, HOST, "the other player", None, tell_for(local))  # type: ignore[arg-type]
    game = Play(local, seat, peer, prompter)
    game.promises = _promises(path, keys)
    names = dict(data["setup"]["names"])
    peer.name = str(names.get(other(seat), peer.name))
    typed = typed_dice.from_words(data["setup"].get("dice"))
    session = games.open_save(path, dice=game.dice(typed), controllers=game.controllers(names))
    session.meta["dice"] = typed_dice.words(typed)
    _take_up_keys(game, session, path, keys)
    _take_up_journal(game, session, path)
    game.attach(session, path)
    # a game played at one terminal becomes a remote one only when the joiner comes
    game.untouched = not str(data["setup"].get("dice", "")).startswith(typed_dice.SHARED_WORD)
    if not game.untouched:
        game.save()  # all the journal held: it starts afresh
        game.keep_journal()
    gate = _open_gate(args, keys, session.ruleset, local)
    _serve(Hosting(gate, game, session.ruleset, None), path)


def _take_up_keys(game: Play, session: Any, path: Path, keys: dict[str, Any]) -> None:
    """A signed game goes on signed with the key it began with (kept in `SAVE.host`); a game
    begun unsigned (an earlier build's) goes on unsigned."""
    block = session.meta.get(signing.BLOCK)
    if block is None:
        return
    game.key = signing.Key.from_hex(keys.get("sign"))
    told = block.get("keys") if isinstance(block, dict) else None
    ours = told.get(game.side) if isinstance(told, dict) else None
    theirs = signing.public_key(told.get(other(game.side))) if isinstance(told, dict) else None
    if game.key is None or ours != game.key.public or theirs is None:
        where = shown(path.with_name(path.name + ".host"))
        raise BadInput(
            f"{shown(path)}: this game is signed with a key {where} no longer holds: it cannot "
            "go on signed (start a new game)"
        )
    game.peer.signer = signing.Pair(game.key, theirs)


def _take_up_journal(game: Play, session: Any, path: Path) -> None:
    """The game as this host had it when its process stopped: the save, then its journal
    (`remote/journal.py`): every entry logged since the save, and each roll it revealed,
    settled with the values it was revealed with."""
    found = journal.read(journal.beside(path))
    if found.game != journal.game_of(session.seed, session.created):
        return  # none, or of another game: the save is all there is
    promises = game.promises
    assert promises is not None  # set before the dice were made
    for pledged in found.pledges.values():  # no other value of the joiner's for those rolls
        if isinstance(pledged, journal.Pledge):
            promises.answered(pledged.commit, pledged.join)
    added = journal.restore(session.runner, found, promises.value_for)
    if added:
        game.tell(
            f"took up the {added} log entries played after the save from its journal "
            f"({shown(journal.beside(path))})"
        )


def _serve(hosting: Hosting, path: Path) -> None:
    """Host the game to its end; Ctrl-C saves, tells the joiner, and exits 130. A game that
    never started leaves nothing behind (no save, no codes)."""
    try:
        hosting.serve(path)
    except KeyboardInterrupt:
        _unstarted(hosting, path)
        raise hosting.game.interrupted("Ctrl-C") from None
    except DoorClosed as exc:
        raise hosting.closed(exc, path) from None
    finally:
        hosting.gate.close()


def _unstarted(hosting: Hosting, path: Path) -> None:
    """A new game that never started (no joiner came): its codes are gone with it."""
    if hosting.game.session is None:
        keys_of(path).unlink(missing_ok=True)


def keys_of(path: Path) -> Path:
    """Where a hosted game's codes, key and promised values are kept: `SAVE.host`."""
    return path.with_name(path.name + ".host")


def _keys(path: Path, fresh: bool) -> dict[str, Any]:
    """The hosted game's codes and TLS identity, kept beside its save (readable by its owner
    only) so `host --resume` shows the same fingerprint and takes the same codes (new ones
    after the door closed on wrong codes: `_new_codes`)."""
    kept = None if fresh else _kept_keys(path)
    if kept is not None:
        return kept
    identity = tls.new_identity()
    keys: dict[str, Any] = {
        "seat": codes.new_code(),
        "watch": codes.new_code(),
        "key": identity.key_pem,
        "cert": identity.cert_pem,
        "sign": signing.Key.new().hex,  # this machine's key for signing the game
    }
    _keep_keys(path, keys)
    return keys


def _kept_keys(path: Path) -> dict[str, Any] | None:
    """The codes and identity kept beside a hosted save (`SAVE.host`), if whole."""
    where = keys_of(path)
    try:
        kept = json.loads(where.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if isinstance(kept, dict) and all(
        isinstance(kept.get(k), str) for k in ("seat", "watch", "key", "cert")
    ):
        return kept
    return None


def _keep_keys(path: Path, keys: dict[str, Any]) -> None:
    pledge.write_private(keys_of(path), keys)


def _new_codes(path: Path) -> None:
    """The door closed on wrong codes: the next `host --resume` gives new codes (the same
    host key, and the values the host committed to, are kept)."""
    keys = _keys(path, fresh=False)
    keys |= {"seat": codes.new_code(), "watch": codes.new_code()}
    _keep_keys(path, keys)


def _promises(path: Path, keys: dict[str, Any]) -> pledge.Promises:
    """The values of the commitments this host sends, kept in `SAVE.host` (with its codes and
    key) before each commitment leaves, and taken up again by `host --resume`: the roll in
    progress when this process died is revealed as committed."""

    def store(values: dict[str, dict[str, str]]) -> None:
        keys["dice"] = values
        _keep_keys(path, keys)

    return pledge.Promises(keys.get("dice"), store)


def _open_gate(args: HostArgs, keys: dict[str, str], ruleset: Ruleset, local: Local) -> Gate:
    door = codes.Door(keys["seat"], keys["watch"])
    identity = tls.Identity(keys["key"], keys["cert"])
    port = DEFAULT_PORT if args.port is None else args.port
    return Gate(args.listen, port, identity, door, (ruleset.id, ruleset.version), tell_for(local))


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
        self.typed: frozenset[str] = frozenset()  # the sides proposed to type real dice

    def serve(self, path: Path) -> None:
        game, gate = self.game, self.gate
        address = _shown_address(gate.sock.getsockname()[0], gate.port)
        self.tell(
            f"Hosting {self.ruleset.name} (version {self.ruleset.version}) as side "
            f"{game.side}. Give the other player this line:"
        )
        tell_whole(game.local, f"  {command(f'join {address} --code {gate.door.seat}')}")
        tell_whole(
            game.local, f"Spectators: {command(f'watch {address} --code {gate.door.watch}')}"
        )
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
        keys_of(path).unlink(missing_ok=True)  # its codes are done
        if game.peer.journal is not None:
            game.peer.journal.close()
        journal.beside(path).unlink(missing_ok=True)  # the save holds the whole game
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
        if game.key is not None:
            welcome["sign"] = game.key.public
        if game.session is None and self.new is not None:
            side, name, team, options = self.new
            welcome["setup"] = {"options": options, "side": side, "name": name, "team": team}
            if self.typed:  # the joiner accepts or declines
                welcome["setup"]["dice"] = sorted(self.typed)
        return welcome

    def closed(self, why: DoorClosed, path: Path) -> BadInput:
        """The door closed on wrong codes: what the host says as it stops, and how to go on
        (new codes for the game; or, when no game had started, a new game)."""
        told = f"{why}: this game's codes are refused from now on"
        if self.game.session is None:
            keys_of(path).unlink(missing_ok=True)
            side = self.new[0] if self.new is not None else "A"
            return RemoteError(
                f"{told}; no game had started, so nothing was saved (host a new one for new "
                f"codes: {command(f'host {self.ruleset.id} --seat {side}')})"
            )
        self.game.save()
        _new_codes(path)
        again = command(f"host --resume {shown(path)}")
        return RemoteError(f"{told} ({again} gives new ones)")

    def _admit(self, gone: Link | None = None) -> Link:
        """The joiner, let in and sent the game as it stands; the roll it names as in progress
        (`pledge`), unless our game settled it already, is revealed under its commitment.
        `gone`: the link of the joiner that dropped."""
        visitor = self._signer_admitted(gone)
        session = self.game.session
        assert session is not None
        claim = visitor.claim
        used = claim is not None and pledge.used(session.runner.log, claim.commit)
        self.game.peer.claim = None if used else claim
        if self.game.untouched:  # a game played at one terminal: remote from now on
            self.game.untouched = False
            self.game.save()
            self.game.keep_journal()
        self._send_game(visitor)
        return visitor.link

    def _signer_admitted(self, gone: Link | None) -> Visitor:
        """The next player let in that signs with the key this game's other side signs with
        (any player in a game begun unsigned). Another key takes the seat only while nothing
        in the game is signed with the first (a joiner that left before its first roll).
        `gone`: the link of the joiner that dropped (its seat is free)."""
        game = self.game
        while True:
            visitor = self.gate.admit(gone)
            gone = visitor.link  # refused below: its seat is free again
            signer, session = game.peer.signer, game.session
            if signer is None or visitor.key == signer.theirs:
                return visitor
            assert session is not None
            if visitor.key is not None and not signing.any_signed(session.runner.log):
                foe = other(game.side)
                block = session.meta[signing.BLOCK]
                session.meta[signing.BLOCK] = signing.block(
                    block["host"], {**block["keys"], foe: visitor.key}
                )
                game.peer.signer = signing.Pair(signer.mine, visitor.key)
                game.told_keys()
                return visitor
            why = (
                "this game's other side signed with another key: join from the machine that "
                "played it, with --save and the save it kept (its key is kept beside it)"
            )
            with contextlib.suppress(RemoteError):
                visitor.link.post({"t": "refused", "why": why})
            visitor.link.close()
            self.tell(f"refused the other player: {why}")

    def _send_game(self, visitor: Visitor) -> None:
        session = self.game.session
        assert session is not None
        tape = kept.words(session.runner.tape)  # a take-back's kept dice: the joiner's too
        visitor.link.post({"t": "game", "save": games.to_save(session), "tape": tape})
        self.tell(f"the other player joined from {visitor.address}")

    def _rejoin(self, why: Dropped) -> Link:
        self.game.save()
        self.tell(
            f"{self.game.peer.name} dropped ({why}); waiting for them to join again with the "
            "same code (Ctrl-C saves and exits)…"
        )
        return self._admit(self.game.peer.link)

    def _set_up(self, path: Path) -> None:
        """A new game: the joiner's team comes, the game starts, the joiner gets it."""
        assert self.new is not None
        side, name, team, options = self.new
        game, ruleset = self.game, self.ruleset
        gone: Link | None = None
        while True:
            visitor = self.gate.admit(gone)
            gone = visitor.link
            try:
                if visitor.key is None:
                    raise RemoteError(
                        "its wargame does not sign what it sends (an earlier build): both "
                        "machines need one that does"
                    )
                theirs, their_name, their_kind, agreed = self._their_team(
                    visitor.link, options, name
                )
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
        players = {side: kind_of(game.local), foe: their_kind}
        peer = game.peer
        peer.link, peer.name = visitor.link, their_name
        typed = self.typed if agreed else frozenset()
        if self.typed:
            self.tell(
                f"{their_name} {'accepted' if agreed else 'declined'} typed dice for side "
                f"{' and '.join(sorted(self.typed))}" + ("" if agreed else ": every roll is shared")
            )
        session = start(
            ruleset,
            Setup(names=names, teams=teams),
            options,
            draw_seed(),
            game.dice(typed),
            game.controllers(names),
        )
        session.meta["players"] = players
        session.meta["dice"] = typed_dice.words(typed)
        assert game.key is not None and visitor.key is not None  # made, and checked above
        session.meta[signing.BLOCK] = signing.block(side, {side: game.key.public, foe: visitor.key})
        peer.signer = signing.Pair(game.key, visitor.key)
        game.told_keys()
        if players.get(game.side) == "bot":  # this machine's computer side's level
            session.meta["bots"] = {game.side: checked_level(game.local.bot_level)}
        game.attach(session, path)
        game.save()
        game.keep_journal()
        self._send_game(visitor)

    def _their_team(
        self, link: Link, options: dict[str, Any], ours: str
    ) -> tuple[Any, str, str, bool]:
        """The joiner's team, name and kind of player, checked as a team file is, and
        whether it accepted the typed dice proposed."""
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
        player = kind if kind in ("human", "bot") else "human"
        return team, name, player, typed_dice.answer_of(message)
