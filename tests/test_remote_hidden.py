"""Hidden placements on the wire (issue 32 item 5): in Mobs and Morale's hidden deployment a
side's placements cross the wire as commitments only, and are revealed when both sides have
deployed; both machines check every reveal against its commitment and end with the same log,
which verifies on both. Two real processes on loopback, the joiner a modified client
(tests/remote_hidden.py) that reads the wire, or reveals a placement it did not commit to."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from tests.remote_helpers import Host, join, reap, same_saves, start_join
from wargame_cli.remote.hidden import BROKEN

CLIENT = Path(__file__).with_name("remote_hidden.py")


def _host(tmp_path: Path) -> Host:
    short = ("--option", "max_rounds=1")  # the deployment, then one round
    return Host(
        tmp_path,
        "mobs-and-morale",
        "--seat",
        "A",
        "--port",
        "0",
        "--bot",
        *short,
        "--save",
        "h.json",
    )


def _verified(wargame: Any, save: Path) -> str:
    done = wargame("replay", "--verify", str(save))
    assert done.returncode == 0, done.stderr
    said = " ".join(done.stdout.split())
    assert "the record is as written" in said, said
    return said


def _strings(value: Any) -> list[str]:
    """Every string a message holds, at any depth."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for v in value.values() for s in _strings(v)]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return []


def test_the_other_sides_placements_cross_the_wire_only_at_the_reveal(tmp_path, wargame):
    record = tmp_path / "wire.jsonl"
    host = _host(tmp_path)
    program = (str(CLIENT), "read", str(record))
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json", program=program)
    try:
        out, _ = joiner.communicate(timeout=120)
        assert joiner.returncode == 0, out
        assert host.wait() == 0, host.text()
    finally:
        reap(joiner)
        host.stop()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["options"]["deployment"] == "hidden"
    log = data["log"]
    placed = [e for e in log if e["t"] == "choice" and e.get("kind") == "deploy"]
    theirs = [e["key"] for e in placed if e["side"] == "A"]  # the host's, the joiner's other
    assert theirs and any(e["side"] == "B" for e in placed)
    assert all(isinstance(e.get("sig"), str) for e in placed)  # each signed by its machine

    wire = [json.loads(line) for line in record.read_text().splitlines()]
    kinds = [m["t"] for m in wire]
    reveal = kinds.index("unseal")
    before = wire[:reveal]
    assert kinds[:reveal].count("sealed") == len(theirs)  # one commitment a placement
    assert not [m for m in before if m["t"] == "decide" and m.get("side") == "A"]
    for message in before:  # not one of the host's spots, anywhere in what came
        assert not set(_strings(message)) & set(theirs), message
    assert [p["key"] for p in wire[reveal]["placed"]] == theirs  # then all of them, at once
    assert "revealed" in out or "Deployment revealed" in out
    for save in ("h.json", "j.json"):
        assert "Signed by both machines" in _verified(wargame, tmp_path / save)


def test_a_placement_revealed_otherwise_than_committed_is_refused(tmp_path, wargame):
    record = tmp_path / "lie.json"
    host = _host(tmp_path)
    program = (str(CLIENT), "lie", str(record))
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json", program=program)
    try:
        joiner.communicate(timeout=120)
        assert host.wait() == 2, host.text()
    finally:
        reap(joiner)
        host.stop()
    lie = json.loads(record.read_text())
    assert lie["told"] != lie["committed"]
    said = host.text()
    assert "Traceback" not in said
    refusal = [line for line in said.splitlines() if line.startswith("wargame: ")]
    assert len(refusal) == 1 and refusal[0].startswith(f"wargame: {BROKEN}: "), said
    assert refusal[0].endswith(f"'s placement at log entry {lie['at']}")
    # the host's save goes back to where the sides began to deploy: no placement in it
    log = json.loads((tmp_path / "h.json").read_text())["log"]
    assert not [e for e in log if e["t"] == "choice" and e.get("kind") == "deploy"]
    _verified(wargame, tmp_path / "h.json")


def test_a_drop_in_the_hidden_deployment_goes_back_to_its_start(tmp_path, wargame):
    """The joiner dies as it is about to place its first piece (the host's are committed):
    the host goes back to where the deployment began, saves that, and waits; the joiner
    comes back with its save, both sides place again, and the game ends the same on both."""
    record = tmp_path / "held.json"
    host = _host(tmp_path)
    held = (str(Path(__file__).with_name("remote_peek.py")), "hold", str(record))
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json", program=held)
    again = None
    try:
        end = time.monotonic() + 60
        while not record.exists() and time.monotonic() < end:
            time.sleep(0.02)
        assert record.exists(), host.text()
        joiner.kill()
        joiner.wait()
        host.wait_for("dropped")
        log = json.loads((tmp_path / "h.json").read_text())["log"]
        assert not [e for e in log if e["t"] == "choice" and e.get("kind") == "deploy"]
        again = start_join(tmp_path, host, "--bot", "--save", "j.json")
        out, _ = again.communicate(timeout=120)
        assert again.returncode == 0, out
        assert host.wait() == 0, host.text()
    finally:
        reap(joiner)
        if again is not None:
            reap(again)
        host.stop()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert any(e.get("kind") == "revealed" for e in data["log"])
    _verified(wargame, tmp_path / "j.json")


def test_no_take_back_is_asked_while_the_sides_deploy_unseen(tmp_path):
    """A joiner whose script takes back at its first (hidden) placement is refused at its own
    machine: the other holds only a commitment to each placement until both have deployed."""
    from wargame_cli.remote.hidden import NO_TAKEBACK

    host = _host(tmp_path)
    try:
        done = join(tmp_path, host, "--no-input", "--choices", "undo", "--save", "j.json")
    finally:
        host.stop()
    assert done.returncode == 2
    assert done.stderr.startswith("wargame: --choices value #1 ('undo') is refused at")
    assert " ".join(done.stderr.split()).endswith(f"{NO_TAKEBACK}")
    assert "Traceback" not in done.stderr
