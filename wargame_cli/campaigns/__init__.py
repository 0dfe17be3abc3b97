"""Campaigns: the same sides from battle to battle (`wargame campaign`). `book.py` is the
campaign file; `season.py` plays and adopts its battles; what carries is each ruleset's
`Carrying` (`wargame_cli/ruleset.py`)."""
