"""What `replay --verify` has proved of a save, and what it cannot prove, in one plain paragraph
for each kind of save, so that no reader takes more from a verified save than it shows. The
docs quote these words (docs/_notes/edge-sign.md)."""

from __future__ import annotations

RULES = (
    "What this proves: the game replays under its rules from its first entry to its last, "
    "every decision legal and every face one its die can show, with the result, status and "
    "turn count its log gives"
)
CHAIN = (
    "the hash chain, where the save has one, only shows that the file was not edited by hand "
    "since it was last written: anyone with the program can write it again after an edit"
)


def _keyboard(where: str) -> str:
    return (
        f"who sat at {where}, or whether a person or a program made a decision (the save says "
        "so only as the machine that wrote it was told)"
    )


SIGNED = (
    f"{RULES}. Each shared die was made from both machines' values, so neither machine chose "
    "its faces, and every shared die, every decision, every typed roll and every take-back "
    "the two machines sent each other is signed by the machine that sent it (a take-back by "
    "both: the request and the agreement), with the keys named above: neither player can have "
    "changed or added one afterwards without the other machine's key. What it cannot prove: "
    f"{_keyboard('either keyboard')}; that the keys are the two players' machines' (compare "
    "the fingerprints each machine showed when the game began); for the dice rolled after the "
    "other machine's last signed decision, which roll each one served; that dice typed in at "
    "a machine are the dice really thrown; anything played at one terminal after the last "
    "signed entry."
)
UNSIGNED_SHARED = (
    f"{RULES}, and each shared die's faces are the ones its commitment and its two values "
    "give. What it cannot prove: that two machines made those dice or sent those decisions, "
    "because the save carries no signatures (it was made before remote play signed them, or "
    "they were taken out), so anyone with the program could have written it; "
    f"{_keyboard('a keyboard')}; and {CHAIN}."
)
SEEDED = (
    f"{RULES}, and the dice it says came from the generator are the ones its seed gives. What "
    f"it cannot prove: {_keyboard('the keyboard')}; that the seed was chosen before play, not "
    "picked after trying others; that dice typed in, given by --rolls or corrected by hand are "
    f"the dice really thrown; and {CHAIN}."
)
LOCAL = (
    f"{RULES}. What it cannot prove: {_keyboard('the keyboard')}; that dice typed in, given by "
    f"--rolls or corrected by hand are the dice really thrown; and {CHAIN}."
)


def paragraph(signed: bool, shared: bool, seeded: bool) -> str:
    """The paragraph for a save signed by two machines, one with shared dice but no
    signatures, one with dice from the generator, or any other (no die from the generator:
    the seed is not named, as it made none of its faces)."""
    if signed:
        return SIGNED
    if shared:
        return UNSIGNED_SHARED
    return SEEDED if seeded else LOCAL
