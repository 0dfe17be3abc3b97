"""What a remote save's signatures prove (`remote/signing.py`), checked with the save alone:
on either player's machine or on a third. A save that names the two machines' keys must show,
for every shared roll, the joiner's signature of its value and the host's of its reveal, and
for every decision made between them, its side's machine's signature of it at its place in
the log (which vouches for every entry before it). One signature that does not hold, or one
missing where it is due, and the record was edited: no one without the other machine's key
can write it. Decisions after the last signed entry were made at one terminal afterwards
(the game resumed there): they are counted, never taken for the two machines'."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wargame_cli.errors import ReplayDivergence
from wargame_cli.saves import seal

EDITED = "the record was edited"


@dataclass(frozen=True)
class Signed:
    """A signed save's keys (side: public key) and what they signed."""

    keys: dict[str, str]
    host: str
    dice: int  # shared rolls signed by both machines
    decisions: int  # decisions signed by their side's machine
    after: int  # decisions made after the last signed entry, at one terminal

    def fingerprints(self) -> dict[str, str]:
        from wargame_cli.remote import signing

        return {side: signing.fingerprint(key) for side, key in sorted(self.keys.items())}

    def line(self) -> str:
        keys = ", ".join(f"{side}: key {told}" for side, told in self.fingerprints().items())
        out = f"signed by both machines ({keys}): {self.dice} shared "
        out += f"{'roll' if self.dice == 1 else 'rolls'} and {self.decisions} "
        out += f"{'decision' if self.decisions == 1 else 'decisions'}"
        if self.after:
            n = self.after
            out += f"; {n} {'decision' if n == 1 else 'decisions'} after them made at one terminal"
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "keys": dict(self.keys),
            "fingerprints": self.fingerprints(),
            "host": self.host,
            "dice": self.dice,
            "decisions": self.decisions,
            "after": self.after,
        }


def check(data: dict[str, Any]) -> Signed | None:
    """The signatures of a save that names its two machines' keys (None for one that does
    not); refused, as an edited record, at the first that does not hold or is missing."""
    from wargame_cli.remote import signing
    from wargame_cli.ruleset import SIDES

    block = data.get(signing.BLOCK)
    if block is None:
        return None
    told = block.get("keys") if isinstance(block, dict) else None
    keys = {s: signing.public_key(told.get(s)) for s in SIDES} if isinstance(told, dict) else {}
    host = block.get("host") if isinstance(block, dict) else None
    if host not in SIDES or not all(isinstance(k, str) for k in keys.values()) or not keys:
        raise ReplayDivergence(0, f"the save's keys for signing are malformed: {EDITED}")
    checked = {s: str(k) for s, k in keys.items()}
    join = next(s for s in SIDES if s != host)
    log = data.get("log") or []
    chain = seal.Chain({k: data.get(k) for k in seal.HEADER})
    root = chain.tip
    dice = decisions = 0
    signed_to = -1
    unsigned: list[int] = []  # decisions without a signature, by index
    for index, raw in enumerate(log):
        entry = seal.unchained(raw) if isinstance(raw, dict) else {}
        tip = chain.tip
        chain.link(entry)
        kind = entry.get("t")
        if kind == "roll" and isinstance(entry.get("shared"), dict):
            proof = entry["shared"]
            said_join = signing.pledge(
                root, entry.get("dice") or [], proof.get("commit"), proof.get("join")
            )
            said_host = signing.reveal(
                root,
                entry.get("dice") or [],
                proof.get("commit"),
                proof.get("host"),
                proof.get("join"),
            )
            for side, said, field in (
                (join, said_join, signing.JOIN_SIG),
                (host, said_host, signing.HOST_SIG),
            ):
                if not signing.valid(checked[side], said, proof.get(field)):
                    how = "is not signed" if field not in proof else "has a signature that is not"
                    raise ReplayDivergence(
                        index, f"a shared roll {how} side {side}'s machine's: {EDITED}"
                    )
            dice += 1
            signed_to = index
        elif kind == "choice":
            side = entry.get("side")
            if signing.SIG not in entry:
                unsigned.append(index)
                continue
            said = signing.decision(index, tip, side, entry.get("key"), entry.get("by"))
            if side not in checked or not signing.valid(
                checked[str(side)], said, entry[signing.SIG]
            ):
                raise ReplayDivergence(
                    index,
                    f"a decision has a signature that is not side {side}'s machine's: {EDITED}",
                )
            decisions += 1
            signed_to = index
    inside = [i for i in unsigned if i < signed_to]
    if inside:
        raise ReplayDivergence(
            inside[0],
            f"a decision between the two machines' signed entries is not signed: {EDITED}",
        )
    return Signed(checked, str(host), dice, decisions, len(unsigned))
