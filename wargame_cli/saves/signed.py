"""What a remote save's signatures prove (`remote/signing.py`), checked with the save alone:
on either player's machine or on a third. A save that names the two machines' keys must show,
for every shared roll, the joiner's signature of its value and the host's of its reveal, and
for every decision made between them, its side's machine's signature of it at its place in
the log (which vouches for every entry before it). One signature that does not hold, or one
missing where it is due, and the record was edited: no one without the other machine's key
can write it. Faces a player typed at their machine (typed dice, agreed at setup) carry that
machine's signature of them at their place; and each take-back, the asking machine's signature
of the request and the other's of its agreement. Decisions after the last signed entry were
made at one terminal afterwards (the game resumed there): they are counted, never taken for
the two machines'."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from wargame_cli.errors import ReplayDivergence
from wargame_cli.saves import seal

EDITED = "the record was edited"
TYPED = "typed-"  # a roll typed at one machine of two: its `source` names the side


@dataclass(frozen=True)
class Signed:
    """A signed save's keys (side: public key) and what they signed."""

    keys: dict[str, str]
    host: str
    dice: int  # shared rolls signed by both machines
    decisions: int  # decisions signed by their side's machine
    after: int  # decisions made after the last signed entry, at one terminal
    unsigned: tuple[str, ...] = ()  # what its build left unsigned ("typed faces", "take-backs")

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
        if self.unsigned:
            out += f"; {' and '.join(self.unsigned)} not signed (a build that did not sign them)"
        return out

    def as_json(self) -> dict[str, Any]:
        return {
            "keys": dict(self.keys),
            "fingerprints": self.fingerprints(),
            "host": self.host,
            "dice": self.dice,
            "decisions": self.decisions,
            "after": self.after,
            "unsigned": list(self.unsigned),
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
    if host not in SIDES or not keys or not all(isinstance(k, str) for k in keys.values()):
        raise ReplayDivergence(0, f"the save's keys for signing are malformed: {EDITED}")
    checked = {s: str(k) for s, k in keys.items()}
    # what its build signed besides rolls and decisions (none before typed faces and
    # take-backs were signed: their absence there is no edit)
    signs = block.get("signs") or ()
    log = [seal.unchained(e) if isinstance(e, dict) else {} for e in data.get("log") or []]
    # the two machines' part of the game: up to the last entry that carries a signature
    signed_to = max((i for i, e in enumerate(log) if signing.carries(e)), default=-1)
    # the last decision signed: its signature vouches for every entry before it
    vouched_to = max(
        (i for i, e in enumerate(log) if e.get("t") == "choice" and signing.SIG in e), default=-1
    )
    # where the first signed take-back cut the log: typed faces after it may be its kept dice,
    # which come out again unsigned at their new place (vouched for by the take-back's record)
    kept_from = min(
        (
            t["at"]
            for t in data.get("takebacks") or []
            if isinstance(t, dict) and isinstance(t.get("at"), int) and t.get(signing.TAKEBACK)
        ),
        default=len(log),
    )
    chain = seal.Chain({k: data.get(k) for k in seal.HEADER})
    root = chain.tip
    dice = decisions = after = 0
    for index, entry in enumerate(log):
        tip = chain.tip
        chain.link(entry)
        if entry.get("t") == "roll" and isinstance(entry.get("shared"), dict):
            why = _roll_problem(entry["shared"], entry.get("dice"), root, checked, str(host))
            dice += 1
        elif entry.get("t") == "roll" and str(entry.get("source")).startswith(TYPED):
            side = str(entry.get("source"))[len(TYPED) :]
            if signing.SIG in entry:
                said = signing.typed(root, index, tip, side, entry.get("dice"), entry.get("faces"))
                good = side in checked and signing.valid(checked[side], said, entry[signing.SIG])
                why = None if good else f"typed faces have a signature not side {side}'s machine's"
            elif "typed" in signs and vouched_to < index < kept_from:  # no signature covers it
                why = f"faces typed at side {side}'s machine are not signed"
            else:
                continue
        elif entry.get("t") == "choice" and signing.SIG in entry:
            side = str(entry.get("side"))
            said = signing.decision(index, tip, side, entry.get("key"), entry.get("by"))
            good = side in checked and signing.valid(checked[side], said, entry[signing.SIG])
            why = (
                None if good else f"a decision has a signature that is not side {side}'s machine's"
            )
            decisions += 1
        elif entry.get("t") == "choice" and index < signed_to:
            why = "a decision between the two machines' signed entries is not signed"
        else:
            after += entry.get("t") == "choice"
            continue
        if why is not None:
            raise ReplayDivergence(index, f"{why}: {EDITED}")
    for number, done in enumerate(data.get("takebacks") or [], 1):
        why = _takeback_problem(done, root, checked, signed_to if "takebacks" in signs else -1)
        if why is not None:
            at = done.get("at") if isinstance(done, dict) else None
            raise ReplayDivergence(
                at if isinstance(at, int) else 0, f"take-back {number}: {why}: {EDITED}"
            )
    held = {
        "typed": any(e.get("t") == "roll" and str(e.get("source")).startswith(TYPED) for e in log),
        "takebacks": bool(data.get("takebacks")),
    }
    words = {"typed": "typed faces", "takebacks": "take-backs"}
    unsigned = tuple(words[mark] for mark in words if held[mark] and mark not in signs)
    return Signed(checked, str(host), dice, decisions, after, unsigned)


def _takeback_problem(done: object, root: str, keys: dict[str, str], signed_to: int) -> str | None:
    """Why a take-back's signatures do not hold (the asking side's machine's of the request,
    the other's of its agreement), or None. One made between the two machines' signed
    entries must carry them; one after them was made at one terminal."""
    from wargame_cli.remote import signing

    if not isinstance(done, dict):
        return "it is not a take-back"
    told = done.get(signing.TAKEBACK)
    if told is None:
        at = done.get("at")
        if isinstance(at, int) and at <= signed_to:
            return "it was made between the two machines' signed entries, but it is not signed"
        return None
    side, taken = done.get("side"), done.get("taken")
    if not isinstance(told, dict) or side not in keys or not isinstance(taken, dict):
        return "its signatures are malformed"
    fields = (root, told.get("at"), told.get("tip"), side, taken.get("key"), taken.get("by"))
    other = next(s for s in keys if s != side)
    if not signing.valid(keys[str(side)], signing.takeback(*fields), told.get(signing.ASK)):
        return f"its request is not signed by side {side}'s machine"
    if not signing.valid(keys[other], signing.agreed(*fields), told.get(signing.AGREE)):
        return f"its agreement is not signed by side {other}'s machine"
    return None


def _roll_problem(
    proof: dict[str, Any], dice: Any, root: str, keys: dict[str, str], host: str
) -> str | None:
    """Why a shared roll's signatures do not hold (the joiner's of its value, the host's of
    its reveal), or None."""
    from wargame_cli.remote import signing

    join = next(side for side in keys if side != host)
    sides = list(dice) if isinstance(dice, list) else []
    commit, host_value, join_value = proof.get("commit"), proof.get("host"), proof.get("join")
    said = {
        signing.JOIN_SIG: (join, signing.pledge(root, sides, commit, join_value)),
        signing.HOST_SIG: (host, signing.reveal(root, commit, host_value)),
    }
    for field, (side, statement) in said.items():
        if field not in proof:
            return f"a shared roll is not signed by side {side}'s machine"
        if not signing.valid(keys[side], statement, proof[field]):
            return f"a shared roll has a signature that is not side {side}'s machine's"
    return None
