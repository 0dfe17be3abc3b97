"""Every command line the program prints for the player (`Resume it with: …`, `play on with:
…`, `(… replay SAVE)`) runs as printed, from where the player stands, however they started
it: by the venv's path (README's install line puts nothing on PATH), as `python -m
wargame_cli`, or as `wargame` on PATH. Real processes through a shell, as a player types."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

BIN = Path(sys.executable).parent
BARE_PATH = "/usr/bin:/bin"  # a shell where the venv is not on PATH


def shell(line: str, cwd: Path, path: str = BARE_PATH) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith(("WARGAME_", "VIRTUAL_ENV"))}
    env.update(PATH=path, NO_COLOR="1", COLUMNS="300")
    return subprocess.run(
        ["/bin/bash", "-c", line], cwd=cwd, env=env, capture_output=True, text=True, timeout=300
    )


def hint(text: str, before: str) -> str:
    """The command printed after `before`, to the end of its line."""
    found = re.search(rf"{re.escape(before)}(.+)$", text, flags=re.M)
    assert found, text
    return found.group(1)


def started(cwd: Path) -> dict[str, tuple[str, str]]:
    """How a player may start it, from `cwd`: (the words typed, PATH)."""
    venv_wargame = os.path.relpath(BIN / "wargame", cwd)
    venv_python = os.path.relpath(sys.executable, cwd)
    return {
        "by-path": (venv_wargame, BARE_PATH),
        "absolute": (str(BIN / "wargame"), BARE_PATH),
        "module": (f"{venv_python} -m wargame_cli", BARE_PATH),
        "on-path": ("wargame", f"{BIN}:{BARE_PATH}"),
    }


@pytest.mark.parametrize("how", ["by-path", "absolute", "module", "on-path"])
def test_the_printed_hints_run_as_printed(tmp_path, how):
    typed, path = started(tmp_path)[how]
    game = shell(f"{typed} play tug-of-wargods --no-input --seed 1 --turns 1", tmp_path, path)
    assert game.returncode == 0, game.stderr
    resume = hint(game.stdout, "Resume it with: ")
    assert resume.split(" resume ")[0] == typed  # named the way it was started

    forked = shell(f"{typed} fork --last --turn 1 --save what-if.json", tmp_path, path)
    assert forked.returncode == 0, forked.stderr
    play_on = hint(" ".join(forked.stdout.split()), "play on with: ")
    assert shell(play_on + " --turns 1", tmp_path, path).returncode == 0

    ended = shell(resume, tmp_path, path)  # the bots finish the game
    assert ended.returncode == 0, ended.stderr
    replay = hint(ended.stdout, "Replay it with: ")
    assert shell(replay + " --verify", tmp_path, path).returncode == 0

    refused = shell(resume, tmp_path, path)  # finished now: it says how to replay it
    assert refused.returncode == 2
    told = re.search(r"that game is finished \((.+)\)$", refused.stderr.strip())
    assert told, refused.stderr
    assert shell(told.group(1) + " --verify", tmp_path, path).returncode == 0


def test_a_refused_number_names_the_listing_to_look_at(tmp_path):
    typed, path = started(tmp_path)["by-path"]
    refused = shell(f"{typed} replay 4 --saves-dir elsewhere", tmp_path, path)
    assert refused.returncode == 2
    listing = hint(refused.stderr, "no save numbered 4 in elsewhere (numbers: none; see ")
    shown = shell(listing.removesuffix(")"), tmp_path, path)
    assert shown.returncode == 0 and "No saves in elsewhere" in shown.stdout
