"""The Battle of Ixu's "kills" chance says what will happen this turn: hits short of the
target's health still kill when they leave it to fail the phase-4 health check (c8), so an
attack that can hit never reads "kills 0%" on the fight question."""

from __future__ import annotations

import re

import pexpect
import pytest

from tests.pty_helpers import ANSWERED, DRAWN, PROMPT, spawn

pytestmark = pytest.mark.pty

ODDS = re.compile(r"(\d+) health left; a hit ([\d.<>]+)%, kills ([\d.<>]+)%")


def test_a_hit_that_makes_the_health_check_lethal_is_a_kill_chance(tmp_path):
    child = spawn(["play", "battle-of-ixu", "--seed", "3", "--bot", "B", "--no-save",
                   "--team-a", "Axes", "--team-b", "Swords"], str(tmp_path),
                  str(tmp_path / "saves"), timeout=60, size=(50, 200))  # fmt: skip
    seen: list[tuple[str, str, str]] = []
    for _ in range(300):
        if child.expect([PROMPT, pexpect.EOF]) == 1:
            break
        child.expect_exact(DRAWN)
        if "fight whom?" in child.before:
            seen = ODDS.findall(child.before)
            break
        child.send("\r")
        child.expect_exact([ANSWERED, pexpect.EOF])
    child.terminate(force=True)
    assert seen, "no fight question came"
    for left, hit, kill in seen:
        if hit != "0":
            assert kill != "0", (left, hit, kill)  # one hit or more, then the d10 check
