"""The optional extras (`remote`: the host's certificate; `cluster`: Dask): whether one is
installed here, and the one command that installs it into the Python running this program,
as it was installed: `.venv/bin/pip install -e '.[remote]'` for an editable checkout (README's
install line), the same path without `-e` for a copy installed from a folder, or
`wargame-cli[remote]` from the package index. Standard library only."""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from urllib.parse import unquote, urlparse

from wargame_cli.text import shown

DISTRIBUTION = "wargame-cli"
MODULES = {"remote": "cryptography", "cluster": "distributed"}


def available(extra: str) -> bool:
    """Whether the extra's package can be imported here (without importing it)."""
    try:
        return importlib.util.find_spec(MODULES[extra]) is not None
    except (ImportError, ValueError):  # a finder refusing it, or a module set to None
        return False


def needs(extra: str, what: str) -> str:
    """The one line telling that `what` needs the extra, and how to install it here."""
    return f"{what} needs the '{MODULES[extra]}' package (the '{extra}' extra): {install(extra)}"


def install(extra: str) -> str:
    """The command that installs the extra into this Python, as this program was installed."""
    where = _installed_from()
    if where is None:
        return f"{_pip()} install {shown(f'{DISTRIBUTION}[{extra}]')}"
    folder, editable = where
    return f"{_pip()} install {'-e ' if editable else ''}{shown(f'{_near(folder)}[{extra}]')}"


def _installed_from() -> tuple[Path, bool] | None:
    """The folder this distribution was installed from and whether editable (PEP 610), or
    None when it came from an index (or is not installed: run from its source tree)."""
    from importlib import metadata

    record = None
    for found in metadata.distributions(name=DISTRIBUTION):  # a source tree's egg-info too
        try:
            record = json.loads(found.read_text("direct_url.json") or "null")
        except (ValueError, OSError):
            continue
        if isinstance(record, dict) and isinstance(record.get("dir_info"), dict):
            break
    else:
        return None
    assert isinstance(record, dict)
    url = urlparse(str(record.get("url", "")))
    if url.scheme != "file":
        return None
    return Path(unquote(url.path)), bool(record["dir_info"].get("editable"))


def _pip() -> str:
    """This Python's pip: the venv's own `pip` where there is one, else `python -m pip`."""
    pip = Path(sys.executable).parent / "pip"
    if sys.prefix != sys.base_prefix and pip.exists():
        return shown(_near(pip))
    return f"{shown(sys.executable)} -m pip"


def _near(path: Path) -> str:
    """`path` as the player may type it from here: relative inside this folder, else whole."""
    here = Path.cwd()
    if path == here:
        return "."
    if path.is_relative_to(here):
        return os.path.relpath(path, here)
    return str(path)
