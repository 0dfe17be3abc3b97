"""What every ruleset needs the same way, written once: the two sides and their opposite
(`sides`), reading team text with its counts (`teamtext`). The shared roll-off is
`wargame_cli.engine.rolloffs`; standing and moving on a tabletop, `wargame_cli.tabletop`."""
