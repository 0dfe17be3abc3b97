"""Remote play's speed, as ratios within one run (see bench/README.md, "Remote play").

1. Key to next question: the time from one side's answer to its next question, in a bot
   game of the same ruleset played at one terminal (one process, the seeded dice, saving as
   `play` does for a person: after every turn) and played remotely (`wargame host` as a
   process, the joiner here, both on loopback: every roll by commit and reveal, both sides
   saving every decision: the host's bot when asked or when it waits for the joiner's
   decision, the joiner as a person's machine does, while its question is read). Medians
   over every decision of the joiner's side, pooled over `--games` games.
2. A roll's commit and reveal against one round trip: the same TLS link on loopback carries
   N rolls (`SharedDice`, each machine signing what it sends and checking what it gets in
   its pauses, as in a game: the host pauses before each roll) and N ping-pongs.

    .venv/bin/python bench/bench_remote.py [--ruleset squad-alpha] [--rolls 300] [--games 3]
"""

from __future__ import annotations

import argparse
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.engine import bots
from wargame_cli.engine.requests import Roll
from wargame_cli.engine.session import start
from wargame_cli.remote import signing, tls
from wargame_cli.remote.gate import quick
from wargame_cli.remote.peer import HOST, JOIN, Peer, SharedDice, Tips
from wargame_cli.remote.wire import Link
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.saves import games

SIDE = "B"  # the joiner's side
ORIGINAL = bots.BotController.choose


class Clock:
    """Times from each answer of `SIDE` to its next question."""

    def __init__(self) -> None:
        self.gaps: list[float] = []
        self._answered: float | None = None
        # what a person's machine does while they read the question (the remote joiner's
        # save: `Play.attach` sets it as the prompt's `while_reading`): after it is shown
        self.reading: Any = None

    def install(self) -> None:
        clock, choose = self, ORIGINAL

        def timed(controller: Any, choice: Any, game: Any) -> str:
            if choice.side == SIDE:
                now = time.perf_counter()
                if clock._answered is not None:
                    clock.gaps.append(now - clock._answered)
                if clock.reading is not None:
                    clock.reading()
                key = choose(controller, choice, game)
                clock._answered = time.perf_counter()
                return key
            return choose(controller, choice, game)

        bots.BotController.choose = timed  # type: ignore[method-assign]


def one_terminal(save: Path, folder: Path) -> list[float]:
    """The remote game again at one terminal: its setup, its faces (`--rolls`), the same
    bots (so the same decisions), saving after every turn as `play` does for a person."""
    import json

    from wargame_cli.engine.dice import RngDice, ScriptDice

    clock = Clock()
    clock.install()
    data = json.loads(save.read_text())
    ruleset = registry.get(data["ruleset"]["id"])
    options = resolve_options(ruleset.options, data["options"])
    teams = {s: ruleset.team_from_data(data["setup"]["teams"][s], options) for s in SIDES}
    faces = [f for e in data["log"] if e["t"] == "roll" for f in e["faces"]]
    dice = ScriptDice(faces, RngDice(7))
    setup = Setup(names=data["setup"]["names"], teams=teams)
    session = start(ruleset, setup, options, 7, dice)
    path = folder / "local.json"
    session.runner.run(on_turn_end=lambda _: games.save(session, path))
    games.save(session, path)
    assert len(session.runner.log) == len(data["log"]), "not the same game"
    return clock.gaps


def remote(ruleset_id: str, folder: Path) -> list[float]:
    from wargame_cli.cli import remote as cli_remote
    from wargame_cli.cli import remote_join

    clock = Clock()
    clock.install()
    attach = cli_remote.Play.attach

    def as_a_person(play: Any, session: Any, path: Path) -> None:
        """The joiner's bot saves as a person's machine does: while its question is read
        (after it is asked), not before it is asked as a bot's does."""
        attach(play, session, path)
        try:
            clock.reading, play.peer.asking = play.peer.asking, lambda: None
        except AttributeError:  # a baseline from before this hook: it saves in line
            clock.reading = None

    cli_remote.Play.attach = as_a_person  # type: ignore[method-assign]
    host = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "wargame_cli",
            "host",
            ruleset_id,
            "--seat",
            "A",
            "--port",
            "0",
            "--listen",
            "127.0.0.1",
            "--bot",
            "--json",
            "--save",
            str(folder / "h.json"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert host.stderr is not None
    line = ""
    while not (found := re.search(r"wargame(?:_cli)? join (\S+) --code (\S+)", line)):
        line = host.stderr.readline()
        if not line:
            raise SystemExit("the host did not start")
    local = cli_remote.Local(bot=True, json_out=True, save=folder / "j.json")
    sys.stdout = open(folder / "join.out", "w")  # noqa: SIM115 - the joiner's JSON
    try:
        remote_join.join(remote_join.JoinArgs(found.group(1), found.group(2), local))
    finally:
        sys.stdout.close()
        sys.stdout = sys.__stdout__
    host.wait(60)
    cli_remote.Play.attach = attach  # type: ignore[method-assign]
    return clock.gaps


class _Runner:
    log: list[Any] = []


def _pair() -> tuple[Link, Link]:
    identity = tls.new_identity()
    server = socket.create_server(("127.0.0.1", 0))
    port = server.getsockname()[1]
    accepted: list[Any] = []

    def accept() -> None:
        raw, _ = server.accept()
        quick(raw)
        accepted.append(tls.server_context(identity).wrap_socket(raw, server_side=True))

    thread = threading.Thread(target=accept)
    thread.start()
    raw = socket.create_connection(("127.0.0.1", port))
    quick(raw)
    client = tls.client_context().wrap_socket(raw)
    thread.join()
    links = Link(accepted[0]), Link(client)
    for link in links:
        link.rate = link.burst = 10**9  # a tight loop of rolls, as no game sends them
    return links


def rolls_against_round_trips(n: int) -> tuple[float, float]:
    """Seconds per shared roll and per ping-pong, on the same kind of link."""
    host_link, join_link = _pair()
    peers = []
    keys = [signing.Key.new(), signing.Key.new()]
    for link, role, mine, theirs in ((host_link, HOST, *keys), (join_link, JOIN, *keys[::-1])):
        peer = Peer(link, role, role, Tips({}), print)
        peer.runner = _Runner()
        peer.signer = signing.Pair(mine, theirs.public)
        peers.append(peer)
    roll = Roll((6, 6, 6), "a bench roll")

    def joiner() -> None:
        dice = SharedDice(peers[1])
        for _ in range(n):
            dice.throw(roll)
        peers[1].pause()  # the host's signatures, checked as in a game's pause
        for _ in range(n):
            join_link.post({"t": "pong", **join_link.recv()})

    thread = threading.Thread(target=joiner)
    thread.start()
    dice = SharedDice(peers[0])
    began = time.perf_counter()
    for _ in range(n):
        peers[0].pause()  # a pause before each roll, as a bot's question gives: signs ahead
        dice.throw(roll)
    rolled = time.perf_counter()
    for _ in range(n):
        host_link.post({"t": "ping"})
        host_link.recv()
    pinged = time.perf_counter()
    thread.join()
    return (rolled - began) / n, (pinged - rolled) / n


def own_turns(save: Path) -> list[bool]:
    """For each gap between two of `SIDE`'s decisions (in the order the clock took them):
    True when no decision of the other side came between (the time is this side's key's:
    its rules and dice), False when one did (the other player's time is in it)."""
    import json

    sides = [e["side"] for e in json.loads(save.read_text())["log"] if e["t"] == "choice"]
    out: list[bool] = []
    other_decided = False
    for index, side in enumerate(sides):
        if side != SIDE:
            other_decided = True
            continue
        if any(s == SIDE for s in sides[:index]):
            out.append(not other_decided)
        other_decided = False
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--ruleset", default="squad-alpha")
    parser.add_argument("--rolls", type=int, default=300)
    parser.add_argument("--games", type=int, default=3, help="games pooled, each both ways")
    args = parser.parse_args()
    far, local, own = [], [], []
    for _ in range(args.games):
        with tempfile.TemporaryDirectory() as folder:
            far += remote(args.ruleset, Path(folder))
            local += one_terminal(Path(folder) / "j.json", Path(folder))
            own += own_turns(Path(folder) / "j.json")
    if not far:  # Tug of WarGods: no question once the teams are in, only dice
        print(f"{args.ruleset}: no decision of side {SIDE} during play, so no key to time")
        roll, trip = rolls_against_round_trips(args.rolls)
        print(f"a shared roll {roll * 1e6:.0f} us, one round trip {trip * 1e6:.0f} us")
        return
    assert len(own) == len(far) == len(local), "the gaps do not match the decisions"
    mine = [i for i, alone in enumerate(own) if alone]
    print(
        f"{args.ruleset}: key to next question, median over side {SIDE}'s decisions "
        f"({args.games} games, load {os.getloadavg()[0]:.1f})"
    )
    from bench_screen import mid_game, redraw

    screen, choice = mid_game(args.ruleset)
    redraw(screen, choice, 80, 24)
    drawn = statistics.median(redraw(screen, choice, 80, 24)[0] for _ in range(9))
    for what, picked in (
        ("its own next question (the key's time)", mine),
        ("after the other side's decisions", [i for i, alone in enumerate(own) if not alone]),
        ("every decision", list(range(len(own)))),
    ):
        if not picked:
            continue
        one = statistics.median(local[i] for i in picked)
        two = statistics.median(far[i] for i in picked)
        print(
            f"  {what}, {len(picked)} gaps: one terminal {one * 1000:.2f} ms, remote "
            f"{two * 1000:.2f} ms (+{(two - one) * 1000:.2f} ms, {two / one:.1f}x); with the "
            f"80x24 redraw ({drawn * 1000:.1f} ms) both pay: {(two + drawn) / (one + drawn):.2f}x"
        )
    print("  (goal: at most 1.5x with the redraw, for the key's time)")
    roll, trip = rolls_against_round_trips(args.rolls)
    print(
        f"a shared roll {roll * 1e6:.0f} us, one round trip {trip * 1e6:.0f} us: "
        f"{roll / trip:.2f} round trips (goal: 1)"
    )


if __name__ == "__main__":
    main()
