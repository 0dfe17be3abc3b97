"""The bounds on numbers, in one place: what a save may hold (`saves/untrusted.py` refuses a
file beyond them) is what a flag may take (`cli/app.py` refuses it at the flag), so no
command writes a file the program would refuse to open. Imported by `wargame --help`: no
imports here."""

from __future__ import annotations

# seeds, faces, counts: nothing a game stores comes near. 2**63 - 1 (it was 10**18, so every
# number taken before is taken still): `simulate`'s games each play on a 63-bit seed of their
# own (`engine/fast.stream_seed`), which `wargame play --seed` takes to play that game again
MAX_INT = 2**63 - 1
MAX_GAMES = 10_000_000  # bot games in one run (`simulate --games`, `replay --odds`)
