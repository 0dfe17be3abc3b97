"""Every count in every output reads right: a game of each ruleset played to one turn or
round, then replayed and reported, never says "1 turns", "1 rounds", "1 dice" and the like
(counts go through `wording.plural`)."""

from __future__ import annotations

import re

import pytest

# A count of one followed by a plural noun: the nouns the games count.
ONE_PLURAL = re.compile(
    r"(?<![\d.,/+-])\b1 (turns|rounds|dice|games|units|models|hits|wounds|kills|survivors|"
    r"faces|rolls|points|inches|steps|pieces|actions|minions|attacks|shots|blows|casualties|"
    r"successes|figures|creatures|moves|decisions|sides|men|troopers|lines|saves|pulls)\b"
)

# Each ruleset at one turn or round: its own turn cap where it has one, else `--turns 1`.
ONE_TURN = {
    "squad-alpha": ("--option", "max_turns=1"),
    "battle-of-ixu": ("--option", "max_turns=1"),
    "mobs-and-morale": ("--option", "max_rounds=1"),
    "seeds-of-wars": ("--option", "max_rounds=1"),
    "tug-of-wargods": ("--turns", "1"),
}


def _wrong(text: str) -> list[str]:
    flat = " ".join(text.split())
    return [m.group(0) for m in ONE_PLURAL.finditer(flat)]


@pytest.mark.parametrize("ruleset_id", sorted(ONE_TURN))
@pytest.mark.parametrize("seed", ["2", "5"])
def test_a_one_turn_game_never_says_one_turns(wargame, tmp_path, ruleset_id, seed):
    save = tmp_path / "g.json"
    played = wargame("play", ruleset_id, "--no-input", "--seed", seed, *ONE_TURN[ruleset_id],
                     "--save", str(save))  # fmt: skip
    assert played.returncode == 0, played.stderr
    replayed = wargame("replay", str(save), "--no-input")
    assert replayed.returncode == 0, replayed.stderr
    report = wargame("replay", str(save), "--report", "-")
    assert report.returncode == 0, report.stderr
    brief = wargame("replay", str(save), "--report", "-", "--style", "brief")
    for name, done in (("play", played), ("replay", replayed), ("report", report),
                       ("brief", brief)):  # fmt: skip
        wrong = _wrong(done.stdout + done.stderr)
        assert not wrong, (ruleset_id, name, wrong)
