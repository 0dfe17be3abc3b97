"""The save format, defined once. Its JSON Schema is generated from these models into
`save.schema.json` (`python -m wargame_cli.saves.model` rewrites it)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

FORMAT = "wargame-save"
VERSION = 3
SCHEMA_PATH = Path(__file__).with_name("save.schema.json")

Side = Literal["A", "B"]
Source = Literal["rng", "manual", "script", "shared", "typed-A", "typed-B", "mixed"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", allow_inf_nan=False)


Hash = Annotated[str, Field(pattern=r"^[0-9a-f]{20}$")]
Signature = Annotated[str, Field(pattern=r"^[0-9a-f]{128}$")]  # Ed25519, `remote/signing.py`
PublicKey = Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]


class Chained(Strict):
    """A log entry; `h` (version 2) is the hash of the entry before it (see `seal.py`)."""

    h: Hash | None = None


class TurnEntry(Chained):
    """The start of a turn; `position` (version 3): the game's position then, as its ruleset
    writes it (`Ruleset.snapshot`, `engine/position.py`), kept every few turns so that a game
    is rebuilt from the nearest one; `replay --verify` checks each against the replay."""

    t: Literal["turn"]
    n: int = Field(ge=1)
    rules: list[str] = Field(default_factory=list)
    position: dict[str, Any] | None = None


class SharedProof(Strict):
    """Dice settled by commit and reveal between two machines (`wargame host`/`join`): the
    host's commitment (SHA-256 of its value), both values, and the derivation of the faces
    from them (`wargame_cli/remote/fair.py`); `replay --verify` derives the faces again."""

    commit: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    host: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    join: Annotated[str, Field(pattern=r"^[0-9a-f]{64}$")]
    derivation: Literal["sha256-v1"]
    # signed remote play: the joiner's signature of its value, the host's of its reveal
    join_sig: Signature | None = None
    host_sig: Signature | None = None


class RollEntry(Chained):
    t: Literal["roll"]
    side: Side | None
    reason: str
    dice: list[Annotated[int, Field(ge=2)]] = Field(min_length=1)
    faces: list[int] = Field(min_length=1)
    source: Source
    sources: list[Literal["rng", "manual", "script", "shared", "typed-A", "typed-B"]] | None = None
    labels: list[str] | None = None
    rules: list[str]
    shared: SharedProof | None = None
    sig: Signature | None = None  # typed faces in remote play: the typing machine's signature

    @model_validator(mode="after")
    def _sources_per_die(self) -> RollEntry:
        """A mixed roll names the source of each face, and only a mixed one does: every face
        of a save has a known origin (see `provenance.py`)."""
        if (self.source == "mixed") != (self.sources is not None):
            raise ValueError('"sources" (one per face) goes with "source": "mixed", and only then')
        if self.sources is not None and len(self.sources) != len(self.faces):
            raise ValueError(f"{len(self.sources)} sources for {len(self.faces)} faces")
        return self


class ChoiceEntry(Chained):
    t: Literal["choice"]
    side: Side
    kind: str
    prompt: str
    key: str
    label: str
    by: Literal["human", "bot", "script"]
    rules: list[str]
    sig: Signature | None = None  # signed remote play: its side's machine's signature


class EventEntry(Chained):
    t: Literal["event"]
    kind: str
    text: str
    rules: list[str]
    data: dict[str, Any] | None = None


class EndEntry(Chained):
    t: Literal["end"]
    winner: Side | None
    reason: str
    rules: list[str]
    data: dict[str, Any] | None = None


class EditEntry(Chained):
    """A table edit (`engine/edits.py`): by the GM or a side's owner, with why."""

    t: Literal["edit"]
    action: Literal["damage", "heal", "move", "remove", "add", "status", "end", "die"]
    args: list[str]
    by: Literal["GM", "A", "B"]
    why: str
    text: str
    data: dict[str, Any] | None = None


LogEntry = Annotated[
    TurnEntry | RollEntry | ChoiceEntry | EventEntry | EndEntry | EditEntry,
    Field(discriminator="t"),
]


class TakenDecision(Strict):
    key: str
    label: str
    prompt: str
    by: Literal["human", "script"]


class NewDecision(Strict):
    key: str
    label: str
    by: Literal["human", "bot", "script"]


class TakeBackSigned(Strict):
    """Remote play: where the decision stood when it was taken back (its place and the chain's
    tip there), the asking machine's signature of the request and the other's agreement."""

    at: int = Field(ge=0)
    tip: Hash
    ask: Signature
    agree: Signature


class TakeBack(Strict):
    """A decision taken back: `at` is where it stood in the log (and its replacement stands);
    `new` is None while the question is open again, or when it was taken back further."""

    side: Side
    turn: int = Field(ge=0)
    at: int = Field(ge=0)
    taken: TakenDecision
    new: NewDecision | None
    signed: TakeBackSigned | None = None


class RulesetRef(Strict):
    id: str
    version: str


class SetupModel(Strict):
    names: dict[Side, str]
    teams: dict[Side, Any]
    players: dict[Side, Literal["human", "bot"]] = Field(default_factory=dict)
    # the level each computer side plays (`--bot-level`); a side left out plays the default
    bots: dict[Side, str] = Field(default_factory=dict)
    # how live faces are made, for both sides or each (`A=manual,B=auto`), or "shared" (by two
    # machines, `wargame host`); resume keeps it
    dice: str = Field(
        "auto",
        pattern=r"^(auto|manual|shared(,A=manual)?(,B=manual)?|A=(auto|manual),B=(auto|manual))$",
    )


class Result(Strict):
    winner: Side | None
    reason: str


class ForkedFrom(Strict):
    """The save a fork was cut from (its file name) and the turn it was cut at."""

    save: str
    turn: int = Field(ge=0)


class Signing(Strict):
    """A signed remote game's two machines' public keys, by side, and the host's side: every
    shared roll and every decision between them is signed (`remote/signing.py`). `signs`:
    what else its machines signed (`typed` faces, `takebacks`); absent in games of builds
    that signed rolls and decisions only, whose typed faces and take-backs carry none."""

    host: Side
    keys: dict[Side, PublicKey]
    signs: list[Literal["typed", "takebacks"]] | None = None


class SaveFile(Strict):
    """A whole game: who, with what, under which options, and every roll and decision."""

    format: Literal["wargame-save"]
    version: Literal[1, 2, 3]
    program: str
    ruleset: RulesetRef
    created: str
    updated: str
    seed: int
    options: dict[str, Any]
    setup: SetupModel
    status: Literal["in_progress", "finished"]
    turns: int = Field(ge=0)
    result: Result | None = None
    forked_from: ForkedFrom | None = None
    # written from a save with no hash chain (version 1, or its chain stripped): the chain
    # since then vouches for nothing before it; every save written from this one keeps it
    unsealed: Literal[True] | None = None
    signing: Signing | None = None
    log: list[LogEntry]
    takebacks: list[TakeBack] = Field(default_factory=list)
    seal: Hash | None = None  # version 2: the hash chain's tip over the whole file


def schema() -> dict[str, Any]:
    return SaveFile.model_json_schema()


def write_schema(path: Path = SCHEMA_PATH) -> None:
    path.write_text(json.dumps(schema(), indent=2, sort_keys=True) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_schema()
