"""wargame_cli: a command-line runner for tabletop miniature wargames."""

__version__ = "0.1.0"
