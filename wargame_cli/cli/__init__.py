"""The `wargame` command line: thin Typer commands delegating to plain functions."""
