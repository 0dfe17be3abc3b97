"""What `replay --verify` has proved of a save, and what it cannot prove, in one plain paragraph
for each kind of save, so that no reader takes more from a verified save than it shows. The
docs quote these words (docs/_notes/edge-sign.md)."""

from __future__ import annotations

RULES = (
    "Proved: the game replays under its rules from its start, every decision legal, every "
    "face one its die can show, and the result, status and turn count are what the log gives"
)
CHAIN = (
    "the hash chain shows the file was not edited by hand since it was written, but anyone "
    "can write the chain again after an edit: it is evidence against slips, not a signature"
)
KEYBOARD = (
    "who sat at a keyboard, or whether a person or a program chose (the save says who, as the "
    "machine that wrote it was told)"
)

SIGNED = (
    f"{RULES}; each shared die came from both machines' values, so neither chose its faces, "
    "and every shared die and every decision sent between the two machines carries the "
    "signature of the machine that sent it, with the keys named above, so neither player can "
    "have written or changed them afterwards without the other machine's key. Not proved: "
    f"{KEYBOARD}; that the keys are the players' own machines' (compare the fingerprints each "
    "machine showed when the game began); which roll a shared die served after the last "
    "decision the other machine signed; dice typed in at a machine, which are as its player "
    "typed them; anything made at one terminal after the two machines' last signed entry."
)
UNSIGNED_SHARED = (
    f"{RULES}, and each shared die's faces are what its commitment and the two values give. "
    "Not proved: that two machines made those dice or sent those decisions: the save carries "
    "no signatures (it was made before remote play signed them, or they were taken out), so "
    f"anyone with the file could have written it; nor {KEYBOARD}; and {CHAIN}."
)
LOCAL = (
    f"{RULES}, and the dice it says came from the generator are the ones its seed gives. Not "
    f"proved: {KEYBOARD}; that the seed was chosen before play rather than picked after trying "
    "others; that faces typed in, given by --rolls or corrected by hand are the dice really "
    f"thrown; and {CHAIN}."
)


def paragraph(signed: bool, shared: bool) -> str:
    """The paragraph for a save signed by two machines, one with shared dice but no
    signatures, or any other."""
    if signed:
        return SIGNED
    return UNSIGNED_SHARED if shared else LOCAL
