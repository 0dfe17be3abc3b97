"""`wargame join`: take a hosted game's seat, build this side's team here, take the game
the host sends through our own rules and play it; when the host drops, try again until it is
back."""

from __future__ import annotations

import json
import time
from contextlib import nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.cli import play
from wargame_cli.cli.remote import DEFAULT_PORT, Local, Play, can_ask, kind_of, own_team, tell_for
from wargame_cli.engine import judged
from wargame_cli.engine.takeback import Tape
from wargame_cli.errors import BadInput
from wargame_cli.kit.sides import other
from wargame_cli.remote import kept, pledge, signing
from wargame_cli.remote import typed as typed_dice
from wargame_cli.remote.gate import knock
from wargame_cli.remote.peer import JOIN, Peer, Tips
from wargame_cli.remote.wire import Dropped, Link, Refused, RemoteError
from wargame_cli.ruleset import SIDES, Ruleset, resolve_options
from wargame_cli.saves import games, seal, store
from wargame_cli.ui.names import distinct_default, same_name

RETRY = 1.0  # seconds between a joiner's tries to reach a host that dropped


@dataclass
class JoinArgs:
    address: str
    code: str
    local: Local = field(default_factory=Local)


def join(args: JoinArgs) -> None:
    local = args.local
    tell = tell_for(local)
    going = local.save is not None and _in_progress(local.save)
    if local.save is not None and not going:
        play._check_new_save(local.save, local.force)
    rulesets = {info.id: registry.get(info.id).version for info in registry.all_infos()}
    pending = pledge.kept(local.save) if local.save is not None and going else None
    roll = pending.told() if pending is not None else None
    key = _own_key(local.save if going else None)
    link, welcome, fingerprint = knock(
        args.address, args.code, rulesets, DEFAULT_PORT, roll, key.public
    )
    link.beat()  # a half-open connection is noticed on both sides (`wire.DEAD`)
    tell(f"connected to {args.address}; host key fingerprint {fingerprint}")
    ruleset = registry.get(str(welcome.get("ruleset")))
    side = str(welcome.get("seat"))
    if side not in SIDES:
        raise RemoteError("the host offered no seat")
    prompter = play._prompter() if can_ask(local) else None
    peer = Peer(link, JOIN, "the host", None, tell)  # type: ignore[arg-type]
    peer.pending = pending
    game = Play(local, side, peer, prompter)
    game.key = key
    game.host_key = signing.public_key(welcome.get("sign"))
    setup = welcome.get("setup")
    if isinstance(setup, dict):
        game.typed = _send_team(link, ruleset, side, setup, local, prompter)
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
) -> frozenset[str]:
    """Our team, name and answer to the host's typed dice sent: the sides whose player types
    real dice, as we agreed (none when we declined)."""
    options = resolve_options(ruleset.options, setup.get("options") or {})
    host_name = str(setup.get("name"))
    team, name = own_team(ruleset, side, options, local, prompter, taken=host_name)
    if local.name is None:
        name = distinct_default(name, host_name, side)
    elif same_name(name, host_name):
        raise BadInput(f"--name {name!r}: the host's side is already called that")
    answer = _dice_answer(setup.get("dice"), side, {other(side): host_name}, local, prompter)
    told = {"t": "team", "team": team, "name": name, "player": kind_of(local)}
    link.post({**told, "dice": answer})
    return typed_dice.offered(setup.get("dice")) if answer == typed_dice.ACCEPT else frozenset()


def _dice_answer(
    offer: object, side: str, names: dict[str, str], local: Local, prompter: Any
) -> str:
    """The host's proposal of typed physical dice, accepted or declined by this machine's
    person (a bot or a script declines: it has no dice to throw)."""
    typed = typed_dice.offered(offer)
    if not typed:
        return typed_dice.DECLINE
    told = typed_dice.offer_words(typed, names, side)
    if prompter is None or kind_of(local) != "human":
        tell_for(local)(f"{told} Declined: no person at this machine to throw dice.")
        return typed_dice.DECLINE
    import questionary

    items = [
        questionary.Choice("Accept: those sides' players type real dice", typed_dice.ACCEPT),
        questionary.Choice("Decline: every roll shared", typed_dice.DECLINE),
    ]
    return str(prompter.select(told, items, items[0]))


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
        try:
            path = _open_game(game, message["save"], path, message.get("tape"))
        except Refused as exc:
            game.peer.fail(str(exc))
            raise
        try:
            game.run()
            game.finish()
            key_file(path).unlink(missing_ok=True)  # the game is over: its key is done
            return
        except Dropped as exc:
            game.save()
            game.tell(
                f"the host dropped ({exc}); trying again every {RETRY:g} s "
                "(Ctrl-C saves and exits)…"
            )
            pending = game.peer.pending
            link = _reach_again(args, rulesets, fingerprint, pending, game.key)
            game.peer.link = link


def key_file(save: Path) -> Path:
    """Where the joiner keeps its key for signing the game: `SAVE.sign` (its owner's only),
    so that `wargame join --save SAVE` goes on signing with it."""
    return save.with_name(save.name + ".sign")


def _own_key(save: Path | None) -> signing.Key:
    """The key this machine signs the game with: kept beside the save of a game it goes on
    with, else a new one."""
    if save is not None:
        try:
            told = json.loads(key_file(save).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            told = None
        kept_key = signing.Key.from_hex(told.get("sign")) if isinstance(told, dict) else None
        if kept_key is not None:
            return kept_key
    return signing.Key.new()


def _reach_again(
    args: JoinArgs,
    rulesets: dict[str, str],
    fingerprint: str,
    pending: pledge.Pending | None,
    key: signing.Key | None,
) -> Link:
    """The host again, told of our roll in progress (if any)."""
    roll = pending.told() if pending is not None else None
    public = key.public if key is not None else None
    while True:
        time.sleep(RETRY)
        try:
            link, _, seen = knock(args.address, args.code, rulesets, DEFAULT_PORT, roll, public)
        except Dropped:
            continue
        if seen != fingerprint:
            link.close()
            raise RemoteError(
                f"the host came back with another key ({seen}, not {fingerprint}): refused"
            )
        link.beat()
        return link


def _open_game(game: Play, data: dict[str, Any], chosen: Path | None, tape: object) -> Path:
    """Write the host's save as ours and open it: its log replays through our own rules
    (every decision judged, every shared roll derived again) before play goes on, with the
    take-back's kept dice both sides hold (`tape`: the host's; `remote/kept.py`)."""
    before = game.session  # our game as it was at the drop (None: this process starts now)
    names = data.get("setup", {}).get("names") or {}
    ruleset_id = str((data.get("ruleset") or {}).get("id"))
    if chosen is None:
        folder = store.saves_dir(game.local.saves_dir)
        chosen = folder / store.file_name(ruleset_id, {s: str(names.get(s, s)) for s in SIDES})
    ours = _ours(chosen)
    if game.key is not None:  # kept before the game goes on (`join --save` takes it up)
        pledge.write_private(key_file(chosen), {"sign": game.key.hex})
    typed = _typed_as_agreed(game, data, ours)
    store.write_atomic(chosen, data)
    try:
        session = games.open_save(
            chosen, dice=game.dice(typed), controllers=game.controllers(dict(names))
        )
    except BadInput as exc:
        raise RemoteError(f"the host's game does not replay here: {exc}") from None
    game.peer.name = str(names.get(other(game.side), "the host"))
    session.meta["dice"] = typed_dice.words(typed)
    game.attach(session, chosen)
    try:
        theirs = kept.from_words(tape) if tape is not None else Tape()
        if theirs is None:
            raise Refused("the host sent kept dice that are not a tape of dice")
        _take_keys(game, data)
        _settled(game, ours, theirs)
        _take_tape(game, before, theirs)
    except Refused:
        if ours is not None:
            store.write_atomic(chosen, ours)  # our save as it was: the host's is refused
        raise
    return chosen


def _take_keys(game: Play, data: dict[str, Any]) -> None:
    """The host's game names both machines' keys: ours must be this machine's, the host's the
    one it told us; a game begun unsigned (an earlier build's) goes on unsigned."""
    block = data.get(signing.BLOCK)
    if block is None:
        game.peer.signer = None
        return
    told = block.get("keys") if isinstance(block, dict) else None
    keys = told if isinstance(told, dict) else {}
    if game.key is None or keys.get(game.side) != game.key.public:
        raise Refused(
            "the host's game names another key for this side's signatures than this "
            "machine's (join with the save this machine kept, or start a new game)"
        )
    theirs = signing.public_key(keys.get(other(game.side)))
    if theirs is None or theirs != game.host_key:
        raise Refused("the host's game names another key for its signatures than it told us")
    first = game.peer.signer is None
    game.peer.signer = signing.Pair(game.key, theirs)
    session = game.session
    assert session is not None
    session.meta[signing.BLOCK] = block
    if first:
        game.told_keys()


def _typed_as_agreed(
    game: Play, data: dict[str, Any], ours: dict[str, Any] | None
) -> frozenset[str]:
    """The sides whose player types real dice: as this side agreed (its answer at setup, or
    the save it wrote of this game; neither: it is asked now, as at setup), never as the
    host's game says; a host's game that names other typed dice is refused."""
    setup = data.get("setup") or {}
    theirs = typed_dice.from_words(setup.get("dice"))
    agreed = game.typed
    if agreed is None and ours is not None and ours.get("seed") == data.get("seed"):
        agreed = typed_dice.from_words((ours.get("setup") or {}).get("dice"))
    if agreed is None:
        names = {str(s): str(n) for s, n in (setup.get("names") or {}).items()}
        answer = _dice_answer(sorted(theirs), game.side, names, game.local, game.prompter)
        agreed = theirs if answer == typed_dice.ACCEPT else frozenset()
    game.typed = agreed
    if theirs != agreed:
        raise Refused(
            f"the host's game has {typed_dice.told(theirs)}, but this side agreed to "
            f"{typed_dice.told(agreed)} at setup: refused"
        )
    return agreed


def _ours(path: Path) -> dict[str, Any] | None:
    try:
        return store.load(path)
    except BadInput:
        return None


def _settled(game: Play, ours: dict[str, Any] | None, tape: Tape) -> None:
    """The host's game must hold everything it settled with us: our game as we had it
    (`ours`, saved at the drop or when we stopped) may go on past it only by our own
    decisions, which are made again as we made them (`peer.redo`), and by rolls the kept
    dice of a take-back gave (`tape`, the host's: they come out again the same), never by a
    roll settled between the machines or the host's decision (a host that came back from a
    save behind them, and would roll again what it had rolled, is refused: `pledge.BEHIND`).
    Our roll in progress, when the host's game reaches it, must be there as committed and
    answered (`pledge`); then it is no longer in progress."""
    pending, log = game.peer.pending, game.peer.runner.log
    if ours is not None and _same_game(ours, game):
        old = [seal.unchained(entry) for entry in ours.get("log") or []]
        shared = judged.agreed(old, log)
        beyond = old[shared:]
        lost = pledge.lost(kept.untaken(tape, beyond), game.side)
        if lost is not None:
            told = pledge.BEHIND.format(lost=lost, count=len(beyond), at=shared)
            raise Refused(told)
        if shared == len(log) and beyond:
            game.peer.redo = pledge.redone(beyond, game.side, shared)
    if pending is None:
        return
    if len(log) > pending.at:
        why = pending.logged(log, game.peer.tips.tip(log[: pending.at]))
        if why is not None:
            raise Refused(f"{pledge.BROKEN}: {why}")
        game.peer.pending = None


def _take_tape(game: Play, before: Any, theirs: Tape) -> None:
    """The kept dice of a take-back, the same on both machines, taken up by our new game:
    the host's, which must be ours as we carried it on (each side's advanced by the rolls the
    other's game holds beyond its own); a joiner that starts afresh checks each kept shared
    roll instead."""
    runner = game.peer.runner
    if before is None:
        why = kept.problem(theirs)
        if why is not None:
            raise Refused(f"the host's kept dice from the take-back: {why}")
        runner.tape = theirs
        return
    old = before.runner
    shared = judged.agreed(old.log, runner.log)
    ours = kept.after(old.tape, runner.log[shared:])
    if not kept.same(ours, kept.after(theirs, old.log[shared:])):
        raise Refused(
            "the host came back with other kept dice from the take-back than ours: the game "
            "stops here; the joiner's save keeps the game as it was"
        )
    runner.tape = theirs


def _same_game(ours: dict[str, Any], game: Play) -> bool:
    """Is our save of the game the host sent (its header: the same seed, setup, options)?"""
    header = {k: ours.get(k) for k in seal.HEADER}
    return bool(Tips(header).tip([]) == game.peer.tips.tip([]))
