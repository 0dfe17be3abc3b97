"""Hidden simultaneous deployment (e2, issue 22 item 6) at one real terminal: side B deploys
without side A's pieces on its screen (not on the map, not in the roster, not among what
happened), then both are revealed; `--option deployment=open` shows them as before."""

from __future__ import annotations

import pexpect
import pytest

from tests.pty_helpers import Terminal, settle, spawn

pytestmark = pytest.mark.pty

TEAMS = ["--team-a", "Brakka=Warrior", "--team-b", "Ugrak=Chieftain", "--name-a", "Party",
         "--name-b", "Tribe", "--no-save", "--seed", "3"]  # fmt: skip


def _at_b_deploys(tmp_path, *extra: str) -> tuple[pexpect.spawn, Terminal]:
    child = spawn(["play", "mobs-and-morale", *TEAMS, *extra], str(tmp_path),
                  str(tmp_path / "saves"), size=(45, 120))  # fmt: skip
    screen = Terminal(45, 120)
    child.logfile_read = screen
    child.expect("Deploy Brakka")
    settle(child)
    child.send("\r")  # Brakka at the centre of side A's strip, 18,3
    child.expect("Deploy Ugrak")
    settle(child)
    return child, screen


def test_side_b_deploys_without_side_as_pieces_then_both_are_revealed(tmp_path):
    child, screen = _at_b_deploys(tmp_path)
    shown = screen.text()
    assert "Deploy Ugrak" in shown
    # not among what happened, not on the map (BR), not on the roster (18,3)
    assert "Brakka" not in shown and "BR" not in shown and "18,3" not in shown
    assert "Ugrak: profile Chieftain" in shown  # its own card, as always
    child.send("\r")  # Ugrak deploys; the round begins with both on the board
    child.expect(r"move or act")
    settle(child)
    shown = screen.text()
    assert "Deployment revealed" in shown
    assert "BR" in shown and "ug" in shown  # both, on the map
    child.sendcontrol("c")
    child.expect(pexpect.EOF)


def test_open_deployment_shows_side_as_pieces_as_before(tmp_path):
    child, screen = _at_b_deploys(tmp_path, "--option", "deployment=open")
    assert "Brakka" in screen.text() and "18,3" in screen.text()  # on the roster
    child.sendcontrol("c")
    child.expect(pexpect.EOF)
