"""Signed remote play: each machine signs what it sends with its own key for the game, and
`replay --verify` checks the signatures with the save alone, on either machine or a third.
A forger who writes the hash chain again still cannot write the other machine's signature."""

from __future__ import annotations

import json
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.remote_helpers import (
    Host,
    env,
    join,
    log_length,
    played_out,
    reap,
    same_saves,
    start_join,
)
from wargame_cli.saves import seal

FIXTURES = Path(__file__).parent / "fixtures" / "remote_unsigned"
TOLD = re.compile(r"signing the game with key ([0-9a-f ]{19}); .* signs with key ([0-9a-f ]{19})")


def verified(where: Path, save: Path) -> subprocess.CompletedProcess[str]:
    """`wargame replay --verify SAVE`, run in `where` (its own saves folder)."""
    return subprocess.run(
        [sys.executable, "-m", "wargame_cli", "replay", "--verify", str(save)],
        capture_output=True,
        text=True,
        env=env(where),
        cwd=where,
        timeout=120,
    )


def flat(text: str) -> str:
    return " ".join(text.split())


@pytest.fixture(scope="module")
def game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """One signed game of Squad Alpha (host side A, joiner side B, bots): its folder, and
    what the host and the joiner printed."""
    tmp = tmp_path_factory.mktemp("signed")
    host = Host(tmp, "squad-alpha", "--seat", "A", "--port", "0", "--bot", "--save", "h.json")
    done = played_out(tmp, host)
    return tmp, host.text(), done.stdout


def forged(tmp: Path, name: str, change: Any) -> Path:
    """A copy of the host's save with `change(log)` made, and its hash chain written again,
    as a forger with the program would: only the signatures can tell."""
    data = json.loads((tmp / "h.json").read_text())
    log = [seal.unchained(e) for e in data["log"]]
    change(log)
    plain = {k: v for k, v in data.items() if k != "seal"} | {"log": log}
    out = tmp / name
    out.write_text(json.dumps(seal.sealed(plain)))
    return out


def first(log: list[dict[str, Any]], kind: str, side: str | None = None) -> int:
    return next(
        i
        for i, e in enumerate(log)
        if e["t"] == kind and (side is None or e.get("side") == side) and (i > 3)
    )


def test_both_saves_and_a_copy_elsewhere_verify_as_signed_by_both_machines(game):
    tmp, host_out, join_out = game
    data = same_saves(tmp / "h.json", tmp / "j.json")
    assert set(data["signing"]["keys"]) == {"A", "B"} and data["signing"]["host"] == "A"
    # each machine told its own key and the other's, the same two
    host_keys, join_keys = TOLD.search(host_out), TOLD.search(join_out)
    assert host_keys and join_keys, (host_out[:2000], join_out[:2000])
    a_key, b_key = host_keys.group(1), host_keys.group(2)
    assert (join_keys.group(1), join_keys.group(2)) == (b_key, a_key)
    elsewhere = tmp / "third-machine"
    elsewhere.mkdir()
    copy = elsewhere / "copy.json"
    shutil.copyfile(tmp / "h.json", copy)
    for where, save in ((tmp, tmp / "h.json"), (tmp, tmp / "j.json"), (elsewhere, copy)):
        done = verified(where, save)
        assert done.returncode == 0, done.stderr
        told = flat(done.stdout)
        assert f"Signed by both machines (A: key {a_key}, B: key {b_key})" in told, told
        assert "What it cannot prove: who sat at either keyboard" in told
    assert not (tmp / "j.json.sign").exists()  # the joiner's key ends with the game
    rolls = [e for e in data["log"] if e["t"] == "roll"]
    assert rolls and all({"host_sig", "join_sig"} <= set(e["shared"]) for e in rolls)
    assert all("sig" in e for e in data["log"] if e["t"] == "choice")


@pytest.mark.parametrize(
    "what",
    ["the joiner's decision", "the host's decision", "a roll's joiner value", "a roll's reveal"],
)
def test_one_altered_signature_is_an_edited_record(game, what):
    tmp = game[0]
    at: list[int] = []

    def change(log: list[dict[str, Any]]) -> None:
        if what.endswith("decision"):
            i = first(log, "choice", "B" if "joiner" in what else "A")
            holder, field = log[i], "sig"
        else:
            i = first(log, "roll")
            holder, field = log[i]["shared"], "join_sig" if "joiner" in what else "host_sig"
        sig = holder[field]
        holder[field] = sig[:-1] + ("0" if sig[-1] != "0" else "1")
        at.append(i)

    done = verified(tmp, forged(tmp, f"altered-{len(what)}-{what[-6:]}.json", change))
    assert done.returncode == 2, done.stdout
    assert f"log entry {at[0]}:" in done.stderr
    assert "the record was edited" in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("field", ["join_sig", "host_sig"])
def test_a_shared_die_without_its_signature_is_an_edited_record(game, field):
    tmp = game[0]
    at: list[int] = []

    def change(log: list[dict[str, Any]]) -> None:
        i = first(log, "roll")
        del log[i]["shared"][field]
        at.append(i)

    done = verified(tmp, forged(tmp, f"unsigned-{field}.json", change))
    assert done.returncode == 2, done.stdout
    assert f"log entry {at[0]}: a shared roll is not signed by side" in done.stderr
    assert "the record was edited" in done.stderr


def test_a_decision_between_signed_ones_without_its_signature_is_an_edited_record(game):
    tmp = game[0]
    at: list[int] = []

    def change(log: list[dict[str, Any]]) -> None:
        i = first(log, "choice", "B")
        del log[i]["sig"]
        at.append(i)

    done = verified(tmp, forged(tmp, "unsigned-decision.json", change))
    assert done.returncode == 2, done.stdout
    assert f"log entry {at[0]}: a decision between" in done.stderr


def test_a_decision_relabelled_as_a_persons_is_an_edited_record(game):
    """The joiner's bot's decision relabelled as made by a person, the chain written again:
    the joiner's signature says who its machine said made it."""
    tmp = game[0]
    at: list[int] = []

    def change(log: list[dict[str, Any]]) -> None:
        i = first(log, "choice", "B")
        log[i]["by"] = "human"
        at.append(i)

    done = verified(tmp, forged(tmp, "relabelled.json", change))
    assert done.returncode == 2, done.stdout
    assert f"log entry {at[0]}: a decision has a signature that is not side B's" in done.stderr


@pytest.mark.parametrize("name", ["squad-alpha-host.json", "squad-alpha-join.json"])
def test_an_old_unsigned_remote_save_verifies_labelled_as_unsigned(tmp_path, name):
    save = tmp_path / name
    shutil.copyfile(FIXTURES / name, save)
    done = verified(tmp_path, save)
    assert done.returncode == 0, done.stderr
    told = flat(done.stdout)
    assert "shared by commit and reveal between the two players' machines" in told
    assert "Not signed: no machine's signature vouches for its shared dice." in told
    assert "the save carries no signatures" in told
    assert "What it cannot prove: that two machines made those dice" in told
    assert "Signed by both machines" not in told
    assert save.read_bytes() == (FIXTURES / name).read_bytes()


def test_a_signed_save_stripped_of_its_keys_reads_as_unsigned(game):
    """Taking the keys and every signature out leaves a save that verifies only as what it
    then is: unsigned, its shared dice the file's own word."""
    tmp = game[0]
    data = json.loads((tmp / "h.json").read_text())
    log = [seal.unchained(e) for e in data["log"]]
    for e in log:
        e.pop("sig", None)
        if "shared" in e:
            e["shared"] = {k: v for k, v in e["shared"].items() if not k.endswith("_sig")}
    plain = {k: v for k, v in data.items() if k not in ("seal", "signing")} | {"log": log}
    out = tmp / "stripped.json"
    out.write_text(json.dumps(seal.sealed(plain)))
    done = verified(tmp, out)
    assert done.returncode == 0, done.stderr
    assert "Not signed" in done.stdout and "Signed by both" not in flat(done.stdout)


def test_a_joiner_back_with_another_key_is_refused_and_its_own_plays_on(tmp_path):
    """Killed mid-game, the joiner comes back: without the key it kept beside its save the
    host refuses it (the game's side B signed with that key), and with it the game plays
    to its end, signed throughout by the same two keys."""
    host = Host(tmp_path, "battle-of-ixu", "--port", "0", "--bot", "--save", "h.json")
    try:
        first = start_join(tmp_path, host, "--bot", "--save", "j.json")
        try:
            end = time.monotonic() + 60
            while log_length(tmp_path / "j.json") < 60 and time.monotonic() < end:
                time.sleep(0.02)
            first.send_signal(signal.SIGKILL)
            first.wait()
        finally:
            reap(first)
        host.wait_for("dropped .*; waiting for them to join again")
        kept = tmp_path / "j.json.sign"
        own = kept.read_bytes()
        kept.unlink()
        refused = join(tmp_path, host, "--bot", "--save", "j.json")
        assert refused.returncode == 2
        assert "this game's other side signed with another key" in refused.stderr
        assert "Traceback" not in refused.stderr
        kept.write_bytes(own)
        played_out(tmp_path, host)
    finally:
        host.stop()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["status"] == "finished"
    told = flat(verified(tmp_path, tmp_path / "j.json").stdout)
    assert "Signed by both machines (A: key" in told
