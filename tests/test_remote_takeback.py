"""Take-backs by agreement in remote play: one side asks, the other's player agrees (a bot
always does), both machines take the same decision back and the dice tape stays as it was,
every reused roll still carrying its commitment and values."""

from __future__ import annotations

import json
from typing import Any

from tests.remote_helpers import Host, same_saves, verify
from tests.test_remote_hostile import _seated
from wargame_cli.engine.requests import TAKE_BACK, Choice
from wargame_cli.remote.peer import JOIN, Announcing, Peer, RemoteController, SharedDice, Tips
from wargame_cli.saves import games, seal


class TakesBackOnce:
    """Side B by script: its suggestion each time, but a take-back at its third question."""

    by = "script"

    def __init__(self) -> None:
        self.asked = 0
        self.refusals: list[str] = []

    def choose(self, choice: Choice, game: Any) -> str:
        self.asked += 1
        return TAKE_BACK if self.asked == 3 else choice.default

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        self.refusals.append(reason)


def test_a_take_back_agreed_by_the_other_side(tmp_path, wargame):
    host = Host(tmp_path, "squad-alpha", "--seat", "A", "--port", "0", "--bot", "--save", "h.json")
    try:
        link, data, keys = _seated(host)
        path = tmp_path / "j.json"
        path.write_text(json.dumps(data))
        peer = Peer(link, JOIN, "the host", None, print)  # type: ignore[arg-type]
        peer.signer = keys
        mine = TakesBackOnce()
        controllers = {"B": Announcing(mine, peer), "A": RemoteController(peer, lambda _: None)}
        session = games.open_save(path, dice=SharedDice(peer), controllers=controllers)
        peer.runner = session.runner
        peer.tips = Tips({k: data.get(k) for k in seal.HEADER})
        session.runner.run()
        at, tip = peer.at
        peer.post({"t": "bye", "at": at, "tip": tip})
        peer.check_tip(peer.expect("bye"), "end")
        games.save(session, path)
        assert host.wait() == 0, host.text()
    finally:
        host.stop()
    assert mine.refusals == []
    saved = same_saves(tmp_path / "h.json", path)
    assert len(saved["takebacks"]) == 1 and saved["takebacks"][0]["side"] == "B"
    assert all("shared" in e for e in saved["log"] if e["t"] == "roll")
    verify(tmp_path, tmp_path / "h.json")
    verify(tmp_path, path)
    # signed by both machines: B's asked, A's agreed; kept in the record, checked by verify
    signed = saved["takebacks"][0]["signed"]
    assert set(signed) == {"at", "tip", "ask", "agree"}
    _forged_takebacks_fail_verify(tmp_path, wargame, saved)


def _forged_takebacks_fail_verify(tmp_path, wargame, saved: dict[str, Any]) -> None:
    """The take-back's record with a signature forged or left out, the save sealed again (as
    anyone can): the record was edited."""
    record = saved["takebacks"][0]
    flipped = ("0" if record["signed"]["agree"][0] != "0" else "1") + record["signed"]["agree"][1:]
    forged = {
        "agreement forged": {**record, "signed": {**record["signed"], "agree": flipped}},
        "request by another": {
            **record,
            "signed": {**record["signed"], "ask": record["signed"]["agree"]},
        },
        "signatures left out": {k: v for k, v in record.items() if k != "signed"},
    }
    plain = {k: v for k, v in saved.items() if k != "seal"}
    plain["log"] = [seal.unchained(e) for e in saved["log"]]
    for what, edited in forged.items():
        path = tmp_path / "forged.json"
        path.write_text(json.dumps(seal.sealed({**plain, "takebacks": [edited]})))
        done = wargame("replay", "--verify", str(path))
        said = " ".join(done.stderr.split())
        assert done.returncode == 2, (what, done.stdout)
        assert "take-back 1:" in said and "the record was edited" in said, (what, said)
    # a save of a build that signed rolls and decisions only (its signing block names nothing
    # else signed): its unsigned take-back is no edit, and verify says it is not signed
    older = {k: v for k, v in record.items() if k != "signed"}
    block = {k: v for k, v in plain["signing"].items() if k != "signs"}
    path = tmp_path / "older.json"
    path.write_text(json.dumps(seal.sealed({**plain, "signing": block, "takebacks": [older]})))
    done = wargame("replay", "--verify", str(path))
    said = " ".join(done.stdout.split())
    assert done.returncode == 0, done.stderr
    assert "take-backs not signed (a build that did not sign them)" in said, said
