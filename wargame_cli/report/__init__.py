"""Battle reports: a save's replayed game written up as a story, in Markdown (`markdown.py`)
or as one HTML page with pictures of the table (`html.py`). `reading.py` turns the log into
turns of beats; each ruleset's `story.py` and `picture.py` hooks (`hooks.py`) give the words
and the pictures."""

from wargame_cli.report.markdown import battle_report, md
from wargame_cli.report.reading import LOSS_KINDS, QUIET_KINDS, STAND_KINDS

__all__ = ["LOSS_KINDS", "QUIET_KINDS", "STAND_KINDS", "battle_report", "md"]
