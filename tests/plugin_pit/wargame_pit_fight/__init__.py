"""Pit Fight, a third-party ruleset: listing imports only this module and its class."""

from wargame_pit_fight.ruleset import PitFight

INFO = PitFight.info("wargame_pit_fight.ruleset:RULESET")
