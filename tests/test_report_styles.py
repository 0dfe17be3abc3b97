"""Every ruleset's battle report told as scenes (issue 24, items 2, 3, 4 and 7 in every
ruleset): joint attacks in one sentence, exchanges, quiet turns in a line, `--style brief`
shorter than `--style full`, deaths credited, pronouns used and used right, no decimals in
prose, headlines that name the fallen whole.

One brief report per ruleset is kept in tests/fixtures/reports/ (made by
`python -m tests.report_fixtures`, see tests/report_fixtures.py). Its properties are asserted
on the kept copy and on the report this build writes from the same command, so the bots and
the wording may change (regenerate the fixtures) while what a writer relies on stays."""

from __future__ import annotations

import json
import re

import pytest

from tests.report_fixtures import SPECS, Spec
from wargame_cli import registry
from wargame_cli.engine.session import bot_game
from wargame_cli.report import battle_report
from wargame_cli.report.reading import Beat, Line
from wargame_cli.report.scenes import Blow, scenes_of
from wargame_cli.saves.games import to_save

TABLETOP = [spec for spec in SPECS if spec.ruleset != "tug-of-wargods"]
WORDS = {  # the words of each common pronoun the story may use
    "she": ("she", "her"),
    "he": ("he", "him", "his"),
    "xe/xem/xyr": ("xe", "xem", "xyr"),
    "they": ("their", "them"),  # checked only where a figure given none is "it"
}
JOINT = re.compile(
    r"(?P<a>[A-Z][\w' ]*? and [A-Z][\w' ]*?) "
    r"(?:fall on|set upon|close on|all fire on|pour fire on|open up on) (?P<y>[A-Z][\w' ]*?)"
    r"(?: together| as one)?[:,;.]"
)


def story_of(report: str) -> str:
    """The turns' prose: from the first turn to the Aftermath."""
    start = re.search(r"^## (Turn|Round)s? \d", report, re.M)
    assert start, report[:400]
    return report[start.start() : report.index("## Aftermath")]


def bullets(story: str) -> list[str]:
    return [line for line in story.splitlines() if line.startswith("- ")]


def reads_right(report: str, spec: Spec) -> None:
    """What a writer relies on in any ruleset's report."""
    story = story_of(report)
    # no decimals in prose (the dice ledger, `--with-rules`, keeps the numbers)
    assert not re.search(r"\d\.\d", story), re.findall(r".{20}\d\.\d.{20}", story)
    assert "{" not in story and "None" not in story
    # never more damage than health ("takes 2 damage (2 of 1)")
    for done, health in re.findall(r"\((\d+) of (\d+) damage\)", story):
        assert int(done) <= int(health)
    # a headline names each of its fallen whole, as its bullets do
    for section in re.split(r"^## ", story, flags=re.M)[1:]:
        title, _, body = section.partition("\n")
        bold = " ".join(re.findall(r"\*\*[☠⚑] (.+?)\*\*", body))
        for marks in re.findall(r" · [☠⚑] ([^·]+)", title):
            for name in marks.strip().split(", "):
                assert name in bold, (title, name)
    # every death names who brought it about, and so does the Aftermath
    deaths = re.findall(r"\*\*☠ (.+?)\.\*\*", story)
    assert spec.ruleset == "tug-of-wargods" or deaths
    for death in deaths:
        assert re.search(r"at (.+'s?|.+s') hands|at the hands of ", death), death
    aftermath = report[report.index("## Aftermath") :]
    listed = re.findall(r"^\d+\. \w+ \d+: (.+)$", aftermath, re.M)
    assert sum("killed by " in entry for entry in listed) == len(deaths)
    # each pronoun the teams give is said of its own figure: a sentence with "her" names
    # a figure who is "she"
    for pronoun, words in WORDS.items():
        if pronoun == spec.default or (pronoun == "they" and spec.default != "it"):
            continue
        own = [name for name, said in spec.pronouns.items() if said == pronoun]
        for bullet in bullets(story):
            for sentence in re.split(r"(?<=\.) ", bullet):
                if re.search(rf"\b({'|'.join(words)})\b", sentence):
                    assert any(name in sentence for name in own), (pronoun, sentence)
    given = [WORDS[p] for p in spec.pronouns.values() if p in WORDS and p != spec.default]
    if given:
        assert any(re.search(rf"\b({'|'.join(w)})\b", story) for w in given)


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.ruleset)
def test_the_kept_brief_report_reads_as_a_writer_needs(spec):
    report = spec.path.read_text(encoding="utf-8")
    assert f"(`{spec.ruleset}`)" in report and f"seed {spec.seed})" in report
    reads_right(report, spec)
    if spec in TABLETOP:  # the seed was picked for a joint attack: one sentence names all
        assert [m for m in JOINT.finditer(story_of(report)) if " and " in m["a"]]


@pytest.mark.parametrize("spec", SPECS, ids=lambda s: s.ruleset)
def test_this_build_writes_every_ruleset_brief_and_full(spec, wargame, tmp_path):
    save, brief, full = tmp_path / "game.json", tmp_path / "brief.md", tmp_path / "full.md"
    assert wargame(*spec.play(save)).returncode == 0
    assert wargame(*spec.replay(save, brief)).returncode == 0
    assert wargame(*spec.replay(save, full, "full")).returncode == 0
    short, long = brief.read_text(encoding="utf-8"), full.read_text(encoding="utf-8")
    reads_right(short, spec)
    reads_right(long, spec)
    if spec in TABLETOP:
        assert len(short.split()) < len(long.split())
    else:  # a tug of war is a line a turn: brief only joins the stalemates
        assert len(short.split()) <= len(long.split())
    game = json.loads(save.read_text())
    for a, b, target in joint_attacks(game["log"], spec.ruleset, cast(game)):
        for report in (short, long):  # the joint attack told in one bullet
            assert any(
                all(_named(n, bullet) for n in (a, b, target)) for bullet in bullets(report)
            ), (a, b, target)


# -- joint attacks, found in the log itself ----------------------------------------------------
ATTACKS = {  # each ruleset's attack events: (kind, attacker's key, target's key)
    "battle-of-ixu": {"attack": ("attacker", "target")},
    "squad-alpha": {"shot": ("id", "target"), "melee": ("id", "target")},
    "mobs-and-morale": {"attack": ("attackers", "target")},
    "seeds-of-wars": {"hit": ("attacker", "target"), "miss": ("attacker", "target")},
}
LOSSES = {"death", "kill", "destroyed", "escape", "flee", "removed"}


def cast(save: dict) -> dict[str, str]:
    """Figures the log names by id, as the teams name them: Squad Alpha's "A1" is the first
    miniature's name, Seeds of Wars' "A1" its first unit ("A1 Knights")."""
    out = {}
    for side, team in save["setup"]["teams"].items():
        for i, figure in enumerate(team.get("miniatures", [])):
            out[f"{side}{i + 1}"] = figure["name"]
        for i, unit in enumerate(team.get("units", [])):
            out[f"{side}{i + 1}"] = f"{side}{i + 1} {unit['type']}"
    return out


def joint_attacks(log: list[dict], ruleset: str, named: dict[str, str]) -> list[tuple[str, ...]]:
    """Attacks on one target by two attackers in one turn with no loss and no move between
    them: (an attacker, another, the target)."""
    kinds = ATTACKS.get(ruleset, {})
    found = []
    since: list[tuple[str, str]] = []  # the attacks since the last turn, loss or move
    for entry in log:
        if entry.get("t") == "turn":
            since = []
        if entry.get("t") != "event":
            continue
        kind, data = entry["kind"], entry.get("data") or {}
        if kind in LOSSES or kind in ("move", "charge"):
            since = []
        if kind not in kinds:
            continue
        a_key, t_key = kinds[kind]
        attacker = data[a_key][0] if isinstance(data[a_key], list) else data[a_key]
        here = (named.get(attacker, str(attacker)), named.get(data[t_key], str(data[t_key])))
        for before in since:
            if before[1] == here[1] and _mob(before[0]) != _mob(here[0]):
                found.append((before[0], here[0], here[1]))
        since.append(here)
    return found


def _mob(name: str) -> str:
    """A mob's figure fights as its mob: "Red Spears 3" is of "Red Spears"."""
    return re.sub(r" \d+$", "", name)


def _named(name: str, bullet: str) -> bool:
    return name in bullet or _mob(name) in bullet


def test_a_headline_names_a_unit_as_its_bullets_do():
    """Seeds of Wars' log names a unit by id ("A4"): the headline says "A4 Archers"."""
    save = to_save(bot_game(registry.get("seeds-of-wars"), 4))
    report = battle_report(save, style="brief")
    titles = re.findall(r"^## Round \d+ · [☠⚑] (.+)$", report, re.M)
    names = [n for t in titles for part in t.split(" · ⚑ ") for n in part.split(", ")]
    assert names and all(re.fullmatch(r"[AB]\d [A-Z][\w ]+", n) for n in names), titles


# -- the scenes themselves ---------------------------------------------------------------------
def _blow(attacker: str, target: str, at: int, hits: int = 0, dies: bool = False) -> Blow:
    after = [Line(f"{target} dies", [], loss="☠", actor=target)] if dies else []
    return Blow(attacker, target, hits, [Line(f"{attacker} hits {target}", [])], after, at=at)


def test_blows_on_one_target_join_unless_a_death_comes_between():
    a, b = _blow("Moss", "Sparks", 0), _blow("Fang", "Sparks", 2)
    quiet = Beat([Line("Jinx waits", [], actor="Jinx")])
    [joint] = scenes_of([a, b], [a, quiet, b])
    assert joint.kind == "joint" and joint.target == "Sparks"
    death = Beat([Line("Kid falls", [], loss="☠", actor="Kid", names=frozenset({"Kid"}))])
    apart = scenes_of([a, b], [a, death, b])  # told together, Kid's death would move
    assert [s.kind for s in apart] == ["single", "single"]
    own_move = Beat([Line("Fang moves", [], actor="Fang")])
    assert [s.kind for s in scenes_of([a, b], [a, own_move, b])] == ["single", "single"]


def test_blows_both_ways_are_an_exchange_that_ends_at_a_death():
    there, back = _blow("Tuze", "Kuote", 0, 1), _blow("Kuote", "Tuze", 1, 2, dies=True)
    again = _blow("Tuze", "Kuote", 2)
    scenes = scenes_of([there, back, again], [there, back, again])
    assert [s.kind for s in scenes] == ["exchange", "single"]
    assert scenes[0].blows == [there, back]
