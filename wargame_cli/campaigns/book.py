"""The campaign file: `saves/campaigns/NAME.json`, JSON like a save, versioned, sealed by the
saves' hash chain (`saves/seal.py`: each battle entry hashes the one before it, the seal the
rosters and everything else) and written whole or not at all (`store.write_atomic`), so a
`kill -9` while it is written leaves the previous file."""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli import __version__
from wargame_cli.campaigns.model import FORMAT, VERSION
from wargame_cli.errors import BadInput, SaveError
from wargame_cli.ruleset import SIDES, Roster
from wargame_cli.saves import seal, store, untrusted
from wargame_cli.text import shown

FOLDER = "campaigns"
MAX_BYTES = 16 * 2**20
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,63}")


class NoCampaign(BadInput):
    """No campaign of that name in the saves folder."""


def path_of(name: str, saves_dir: Path | None) -> Path:
    """Where campaign `name` is kept: a plain name (letters, digits, - and _), one file."""
    if not _NAME.fullmatch(name):
        raise BadInput(
            f"campaign name {name!r}: use 1-64 letters, digits, - or _ (starting with a "
            "letter or digit)"
        )
    return store.saves_dir(saves_dir) / FOLDER / f"{name}.json"


@dataclass
class Campaign:
    """A campaign file in memory: the file's fields, with the rosters as `Roster`s."""

    path: Path
    ruleset: dict[str, str]
    options: dict[str, Any]
    setup: dict[str, Any]
    rosters: dict[str, Roster]
    battles: list[dict[str, Any]] = field(default_factory=list)
    created: str = ""

    @property
    def name(self) -> str:
        return str(self.setup["name"])

    @property
    def names(self) -> dict[str, str]:
        return dict(self.setup["names"])

    def save_path(self, battle: dict[str, Any]) -> Path:
        """A battle's save, whose path the file keeps relative to its own folder."""
        return Path(os.path.normpath(self.path.parent / battle["save"]))

    def relative(self, save: Path) -> str:
        return os.path.relpath(os.path.abspath(save), os.path.abspath(self.path.parent))

    def restored(self, data: dict[str, Any]) -> Campaign:
        """This campaign as `as_json()` gave it earlier: a battle that never began undone."""
        self.rosters = {s: Roster.from_json(data["rosters"][s]) for s in SIDES}
        self.battles = [dict(b) for b in data["log"]]
        return self

    def as_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": VERSION,
            "program": f"wargame_cli {__version__}",
            "ruleset": dict(self.ruleset),
            "created": self.created,
            "updated": store.now(),
            "options": self.options,
            "setup": self.setup,
            "rosters": {s: self.rosters[s].as_json() for s in SIDES},
            "log": [{k: v for k, v in b.items() if k != "h"} for b in self.battles],
        }


def write(campaign: Campaign) -> None:
    """The whole file, sealed, written atomically."""
    if not campaign.created:
        campaign.created = store.now()
    data = seal.sealed(campaign.as_json())
    store.write_atomic(campaign.path, data)


def load(path: Path, name: str | None = None) -> Campaign:
    """A campaign file checked as a save is: its size, JSON, format and version first, then
    its structure, then its seal. One line naming the problem (SaveError) otherwise."""
    where = shown(path)
    try:
        raw = untrusted.read_bytes(path, MAX_BYTES)
    except FileNotFoundError:
        told = f"no campaign is called {name!r}" if name else f"campaign {where} not found"
        raise NoCampaign(f"{told} (start one with `wargame campaign new`)") from None
    except (OSError, untrusted.Untrusted) as exc:
        raise SaveError(f"campaign {where} cannot be read: {exc}") from None
    try:
        data = untrusted.parse_json(raw.decode("utf-8"))
    except (UnicodeDecodeError, untrusted.Untrusted) as exc:
        raise SaveError(f"campaign {where} is corrupt or truncated ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise SaveError(f'{where} is not a wargame campaign (no "format": "{FORMAT}")')
    version = data.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < 1:
        raise SaveError(f"campaign {where} has no valid version number")
    if version > VERSION:
        raise SaveError(
            f"campaign {where} is format version {version}, newer than this wargame "
            f"{__version__} reads (up to {VERSION}); upgrade wargame_cli to open it"
        )
    _validate(where, data)
    problem = seal.first_break(data)
    if problem is not None:
        problem = problem.replace("log entry", "battle entry").replace("game's", "campaign's")
        raise SaveError(f"campaign {where}: the record was edited ({problem})")
    try:
        rosters = {s: Roster.from_json(data["rosters"][s]) for s in SIDES}
    except (KeyError, ValueError) as exc:
        raise SaveError(f"campaign {where}: a roster is invalid ({exc})") from None
    return Campaign(
        path=path,
        ruleset=dict(data["ruleset"]),
        options=dict(data["options"]),
        setup=dict(data["setup"]),
        rosters=rosters,
        battles=[dict(b) for b in data["log"]],
        created=data["created"],
    )


def _validate(where: str, data: dict[str, Any]) -> None:
    from pydantic import ValidationError

    from wargame_cli.campaigns.model import CampaignFile

    try:
        CampaignFile.model_validate(data)
    except ValidationError as exc:
        first = exc.errors()[0]
        at = ".".join(str(p) for p in first["loc"])
        raise SaveError(f"campaign {where} is invalid at {at}: {first['msg']}") from None
