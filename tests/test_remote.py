"""Remote play end to end: `wargame host` and `wargame join` as real processes on loopback,
each running the rules, ending with the same save that verifies."""

from __future__ import annotations

import json
import signal
import sys
import time

import pytest

from tests.remote_helpers import (
    Host,
    carry_on,
    join,
    log_length,
    played_out,
    same_saves,
    start_join,
    verify,
)
from wargame_cli.saves import seal

RULESETS = ["tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale"]


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_whole_game_host_against_joiner(tmp_path, ruleset):
    seat = "B" if ruleset in ("squad-alpha", "seeds-of-wars") else "A"
    host = Host(tmp_path, ruleset, "--seat", seat, "--port", "0", "--bot", "--save", "h.json")
    done = played_out(tmp_path, host)
    assert f"{sys.executable} -m wargame_cli join 127.0.0.1:" in host.text()  # as it was run
    assert "host key fingerprint SHA256:" in done.stdout
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["status"] == "finished"
    assert data["setup"]["dice"] == "shared"
    rolls = [e for e in data["log"] if e["t"] == "roll"]
    assert rolls and all(e["source"] == "shared" and "shared" in e for e in rolls)
    for save in ("h.json", "j.json"):
        told = verify(tmp_path, tmp_path / save)
        faces = sum(len(e["faces"]) for e in rolls)
        assert f"{faces} shared by commit and reveal" in " ".join(told.split())
    assert not (tmp_path / "h.json.host").exists()  # the codes end with the game


def test_scripted_sides_and_json(tmp_path):
    """--choices on each machine answers that machine's side only; --json prints one object
    on stdout (the join line goes to stderr)."""
    host = Host(
        tmp_path,
        "squad-alpha",
        "--seat",
        "A",
        "--port",
        "0",
        "--no-input",
        "--json",
        "--save",
        "h.json",
    )
    try:
        done = join(tmp_path, host, "--no-input", "--json", "--save", "j.json")
        assert done.returncode == 0, done.stderr
        assert host.wait() == 0
    finally:
        host.stop()
    result = json.loads(done.stdout)
    assert result["status"] == "finished"
    assert result["provenance"]["dice"]["shared"] > 0
    same_saves(tmp_path / "h.json", tmp_path / "j.json")


def test_an_edited_shared_roll_fails_verify(tmp_path, wargame):
    host = Host(tmp_path, "tug-of-wargods", "--port", "0", "--no-input", "--save", "h.json")
    try:
        assert join(tmp_path, host, "--no-input", "--save", "j.json").returncode == 0
        host.wait()
    finally:
        host.stop()
    data = json.loads((tmp_path / "h.json").read_text())
    log = [seal.unchained(e) for e in data["log"]]
    roll = next(i for i, e in enumerate(log) if e["t"] == "roll")
    for field, value in (("join", "0" * 64), ("host", "1" * 64)):
        edited = [dict(e) for e in log]
        edited[roll]["shared"] = dict(edited[roll]["shared"], **{field: value})
        plain = {k: v for k, v in data.items() if k not in ("seal",)} | {"log": edited}
        (tmp_path / "edited.json").write_text(json.dumps(seal.sealed(plain)))
        result = wargame("replay", "--verify", str(tmp_path / "edited.json"))
        assert result.returncode == 2
        assert f"log entry {roll}: shared dice" in result.stderr


def test_wrong_codes_close_the_seat(tmp_path):
    host = Host(tmp_path, "squad-alpha", "--port", "0", "--no-input", "--save", "h.json")
    try:
        for _ in range(3):
            done = join(tmp_path, host, "--no-input", code="aaaa-bbbb-cccc")
            assert done.returncode == 2
            assert "the host refused: wrong code" in done.stderr
            assert "Traceback" not in done.stderr
        assert host.wait() == 2
    finally:
        host.stop()
    assert "3 wrong codes" in host.text()
    assert "Traceback" not in host.text()


def test_a_different_ruleset_version_is_refused_naming_both(tmp_path):
    from wargame_cli.remote.gate import knock
    from wargame_cli.remote.wire import Refused

    host = Host(tmp_path, "squad-alpha", "--port", "0", "--no-input", "--save", "h.json")
    try:
        with pytest.raises(Refused) as refused:
            knock(host.address, host.code, {"squad-alpha": "999"}, 0)
        told = str(refused.value)
        assert "squad-alpha version" in told and "version 999" in told
        host.wait_for("both sides need the same version")
    finally:
        host.stop()


def test_the_joiner_killed_mid_game_rejoins_with_the_same_code(tmp_path):
    host = Host(tmp_path, "battle-of-ixu", "--port", "0", "--bot", "--save", "h.json")
    try:
        first = start_join(tmp_path, host, "--bot", "--save", "j.json")
        end = time.monotonic() + 60
        while log_length(tmp_path / "j.json") < 60 and time.monotonic() < end:
            time.sleep(0.02)
        first.send_signal(signal.SIGKILL)
        first.wait()
        host.wait_for("dropped .*; waiting for them to join again")
        played_out(tmp_path, host)
    finally:
        host.stop()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    assert data["status"] == "finished"
    verify(tmp_path, tmp_path / "j.json")


def test_the_host_restarted_from_its_save(tmp_path):
    host = Host(tmp_path, "battle-of-ixu", "--port", "0", "--bot", "--save", "h.json")
    joiner = start_join(tmp_path, host, "--bot", "--save", "j.json")
    try:
        end = time.monotonic() + 60
        while log_length(tmp_path / "h.json") < 60 and time.monotonic() < end:
            time.sleep(0.02)
        host.proc.send_signal(signal.SIGKILL)
        host.stop()
        again, _ = carry_on(tmp_path, joiner)
        assert again.address == host.address and again.code == host.code
    finally:
        if joiner.poll() is None:
            joiner.kill()
    same_saves(tmp_path / "h.json", tmp_path / "j.json")
    verify(tmp_path, tmp_path / "h.json")


def test_ctrl_c_while_waiting_saves_and_exits_130(tmp_path):
    host = Host(tmp_path, "squad-alpha", "--port", "0", "--no-input", "--save", "h.json")
    try:
        host.proc.send_signal(signal.SIGINT)
        assert host.wait() == 130
    finally:
        host.stop()
    assert "interrupted" in host.text() and "Traceback" not in host.text()


def test_a_spectator_follows_the_game_read_only(tmp_path):
    import subprocess
    import sys

    from tests.remote_helpers import env

    host = Host(tmp_path, "squad-alpha", "--port", "0", "--bot", "--save", "h.json")
    try:
        watcher = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "wargame_cli",
                "watch",
                host.address,
                "--code",
                host.watch_code,
                "--json",
            ],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=env(tmp_path),
        )
        host.wait_for("a spectator joined")
        wrong = join(tmp_path, host, "--bot", code=host.watch_code)  # a spectator's code
        assert wrong.returncode == 2 and "watch" not in wrong.stdout
        done = join(tmp_path, host, "--bot", "--save", "j.json")
        assert done.returncode == 0, done.stderr
        out, err = watcher.communicate(timeout=60)
        assert watcher.returncode == 0, err
        assert host.wait() == 0
    finally:
        host.stop()
    data = same_saves(tmp_path / "h.json", tmp_path / "j.json")
    seen = json.loads(out)
    assert seen["status"] == "finished" and seen["entries"] == len(data["log"])
    assert seen["provenance"]["dice"]["shared"] > 0


def test_a_second_player_is_told_the_seat_is_taken(tmp_path):
    host = Host(tmp_path, "battle-of-ixu", "--port", "0", "--bot", "--save", "h.json")
    try:
        first = start_join(tmp_path, host, "--bot", "--save", "j.json")
        host.wait_for("the other player joined")
        second = join(tmp_path, host, "--bot", "--save", "k.json")
        assert second.returncode == 2
        assert "the seat is taken" in second.stderr
        first.communicate(timeout=60)
        assert first.returncode == 0 and host.wait() == 0
    finally:
        host.stop()
    same_saves(tmp_path / "h.json", tmp_path / "j.json")
