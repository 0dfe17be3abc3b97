"""The game engine shared by every ruleset: requests, dice, the runner, replay."""
