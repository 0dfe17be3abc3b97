"""`wargame host` where the remote extra (`cryptography`) is not installed: it says so before
any question, naming the command that installs it here (for this editable checkout, the
venv's pip with `-e '.[remote]'`). A real process in a pseudo-terminal, with `cryptography`
hidden from its imports as if never installed."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pexpect
import pytest

from tests.pty_helpers import PROMPT

ROOT = Path(__file__).resolve().parent.parent
WITHOUT_CRYPTOGRAPHY = """
import sys

class NotInstalled:
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] == "cryptography":
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, NotInstalled())
sys.argv = ["wargame", *sys.argv[1:]]
from wargame_cli.cli.app import main
main()
"""


def host_without_cryptography(cwd: Path, *args: str) -> tuple[str, int]:
    """`wargame host ARGS` at a terminal: everything it wrote, and its exit code."""
    env = {**os.environ, "TERM": "xterm", "COLUMNS": "300", "PROMPT_TOOLKIT_NO_CPR": "1"}
    env["PYTHONPATH"] = str(ROOT)  # `python -c` from another folder finds the checkout
    child = pexpect.spawn(
        sys.executable,
        ["-c", WITHOUT_CRYPTOGRAPHY, "host", *args],
        cwd=cwd,
        env=env,
        encoding="utf-8",
        timeout=60,
        dimensions=(40, 300),
    )
    asked = child.expect([PROMPT, pexpect.EOF])
    text = child.before or ""
    child.close(force=True)
    assert asked == 1, f"it asked a question first:\n{text}"
    return text, child.exitstatus


def venv_pip(cwd: Path) -> str:
    pip = Path(sys.executable).parent / "pip"
    return os.path.relpath(pip, cwd) if pip.is_relative_to(cwd) else str(pip)


@pytest.mark.parametrize("args", [("squad-alpha",), ("mobs-and-morale", "--seat", "B")])
def test_host_says_what_to_install_before_asking_anything(args):
    text, code = host_without_cryptography(ROOT, *args)
    assert code == 2
    [line] = [line for line in text.splitlines() if line.strip()]
    assert line.startswith("wargame: hosting a game needs the 'cryptography' package")
    command = line.split("(the 'remote' extra): ")[1]
    assert command == f"{venv_pip(ROOT)} install -e '.[remote]'"
    assert Path(ROOT, command.split()[0]).is_file()  # the venv's own pip, as printed


def test_from_another_folder_the_checkout_is_named_whole(tmp_path):
    text, code = host_without_cryptography(tmp_path, "tug-of-wargods")
    assert code == 2
    command = text.strip().split("(the 'remote' extra): ")[1]
    assert command == f"{venv_pip(tmp_path)} install -e '{ROOT}[remote]'"
