"""The campaign file's format, defined once (as `saves/model.py` defines a save's)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import Field

from wargame_cli.saves.model import Hash, RulesetRef, Side, Source, Strict

FORMAT = "wargame-campaign"
VERSION = 1


class CampaignSetup(Strict):
    """What the campaign was begun with: its name, each side's name and the game options
    every battle starts from (`KEY=VALUE`, as `--option` takes them)."""

    name: str
    names: dict[Side, str]
    game_options: list[str] = Field(default_factory=list)


class AfterRoll(Strict):
    """An after-battle die roll, recorded as a game's are: what for, the dice, the faces and
    where they came from (`rng`: the after-battle seed's generator; `script`: `--after-rolls`;
    `manual`: typed at the prompt, `--dice manual`). `in_battle`: a roll of the battle itself
    that decides what carries (Mobs and Morale's survival rolls), its save's log has it too."""

    reason: str
    dice: list[int]
    faces: list[int]
    source: Source | list[Source]
    rules: list[str] = Field(default_factory=list)
    side: Side | None = None
    labels: list[str] = Field(default_factory=list)
    in_battle: bool = False


class After(Strict):
    """What followed a battle: the dice's seed and rolls, what befell whom, the rosters then."""

    seed: int
    rolls: list[AfterRoll] = Field(default_factory=list)
    told: list[str] = Field(default_factory=list)
    rosters: dict[Side, Any]


class Battle(Strict):
    """One battle of the campaign: its save (relative to the campaign file's folder), its
    name and place for the chronicle, who joined before it, and, once finished, its after."""

    t: Literal["battle"] = "battle"
    h: Hash | None = None
    n: int = Field(ge=1)
    save: str
    status: Literal["playing", "finished"]
    adopted: bool = False
    battle_name: str | None = None
    place: str | None = None
    recruits: dict[Side, list[str]] = Field(default_factory=dict)
    winner: Side | None = None
    after: After | None = None


class CampaignFile(Strict):
    format: Literal["wargame-campaign"]
    version: Literal[1]
    program: str
    ruleset: RulesetRef
    created: str
    updated: str
    options: dict[str, Any]
    setup: CampaignSetup
    rosters: dict[Side, Any]
    log: list[Battle]
    seal: Hash | None = None
