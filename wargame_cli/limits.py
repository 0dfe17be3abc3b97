"""The bounds on numbers, in one place: what a save may hold (`saves/untrusted.py` refuses a
file beyond them) is what a flag may take (`cli/app.py` refuses it at the flag), so no
command writes a file the program would refuse to open. Imported by `wargame --help`: no
imports here."""

from __future__ import annotations

MAX_INT = 10**18  # seeds, faces, counts: nothing a game stores comes near
MAX_GAMES = 10_000_000  # bot games in one run (`simulate --games`, `replay --odds`)
