"""The generic battle report: the same code writes up a game of any ruleset from its log, as a
story a writer can use: who charged whom, each blow and wound, who fell and when."""

from __future__ import annotations

import json
import re

import pytest

from wargame_cli import registry
from wargame_cli.engine.session import bot_game
from wargame_cli.report import LOSS_KINDS, QUIET_KINDS, STAND_KINDS, battle_report, md
from wargame_cli.report.facts import words
from wargame_cli.report.hooks import teller
from wargame_cli.report.reading import read_log
from wargame_cli.saves.games import to_save

IXU = "battle-of-ixu"
TUG = "tug-of-wargods"
RULESETS = (IXU, TUG, "squad-alpha", "seeds-of-wars", "mobs-and-morale")


def save_of(ruleset_id, seed, **kw):
    return to_save(bot_game(registry.get(ruleset_id), seed, **kw))


def events(save, kinds=None):
    return [e for e in save["log"] if e["t"] == "event" and (kinds is None or e["kind"] in kinds)]


def positions(report, texts):
    """Where each text first appears after the previous one (asserting it is there)."""
    found, start = [], 0
    for text in texts:
        at = report.find(text, start)
        assert at >= 0, f"{text!r} missing (or out of order) in the report"
        found.append(at)
        start = at + len(text)
    return found


def bullet_with(report, text):
    """The bullet (one line of the report) that tells `text`."""
    [line] = [line for line in report.splitlines() if line.startswith("- ") and text in line]
    return line


def aftermath(report):
    return report[report.index("## Aftermath") :]


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_every_ruleset_is_told_in_full_and_in_order(ruleset_id):
    """A seeded game of each ruleset: every beat the story tells is in the report, in the
    log's order; every turn is told; each loss is set in bold and listed at the end; the dice
    are nowhere in the story (they are workings)."""
    save = save_of(ruleset_id, 3)
    report = battle_report(save)
    names = save["setup"]["names"]
    assert report.startswith(f"# Battle report: {md(names['A'])} against {md(names['B'])}\n")
    story = report[: report.index("## Aftermath")]
    storyteller = teller(save)
    reading = read_log(save["log"], storyteller)
    scenes = storyteller.scenes(reading.sections, "full")  # a turn's blows told as scenes
    told = [line for section in scenes for line in section.lines]
    assert told and all(line.prose for line in told)
    positions(story, [md(words(line)) for line in told])
    for section in reading.sections:  # the workings are left out
        for line in section.workings:
            assert md(line.text) not in report
    word = "Round" if ruleset_id in ("seeds-of-wars", "mobs-and-morale") else "Turn"
    turns = set(re.findall(rf"^## {word}s? (\d+)", story, re.M))
    turns |= set(re.findall(rf"\*\*{word} (\d+)\.\*\*", story))
    assert turns == {str(n) for n in range(1, save["turns"] + 1)}
    bold = re.findall(r"\*\*[☠⚑] (.+?)\.\*\*", story)
    if ruleset_id != TUG:  # the Aftermath lists each loss, in order, by its subject
        listed = re.findall(rf"^\d+\. {word} \d+: (.+)$", aftermath(report), re.M)
        assert len(bold) == len(listed)
        for sentence, entry in zip(bold, listed, strict=True):
            assert entry.split(",")[0] in sentence  # the entry opens with whom it lost
    assert len(bold) == len([e for e in events(save, LOSS_KINDS)]) - sum(
        1 for e in events(save, {"casualty"}) if "moved" in e["data"]
    )
    assert "(dice:" not in report and "`[" not in report


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_death_is_told_in_order_and_titles_its_turn(seed):
    save = save_of(IXU, seed)
    deaths = events(save, {"death"})
    assert deaths, "a finished Ixu game has casualties"
    report = battle_report(save)
    bold = re.findall(r"\*\*☠ (.+?)\.\*\*", report)
    assert len(bold) == len(deaths)
    for death, sentence in zip(deaths, bold, strict=True):
        assert death["data"]["model"] in sentence
    listed = re.findall(r"^\d+\. Turn (\d+): (.+)$", aftermath(report), re.M)
    assert [(str(d["data"]["turn"]), d["data"]["model"]) for d in deaths] == [
        (turn, next(d["data"]["model"] for d in deaths if text.startswith(d["data"]["model"])))
        for turn, text in listed
    ]
    for d in deaths:  # the turn's title names who fell in it
        [title] = [
            line
            for line in report.splitlines()
            if line.startswith(f"## Turn {d['data']['turn']} · ☠ ")
        ]
        assert d["data"]["model"] in title


def test_deaths_are_told_in_varied_words_over_a_long_game():
    """Not "succumbs to the wounds" every time: over many deaths no phrasing dominates."""
    sentences = []
    for seed in range(1, 9):
        report = battle_report(save_of(IXU, seed))
        for sentence in re.findall(r"\*\*☠ (.+?)\.\*\*", report):
            name = next(n for n in IXU_NAMES if sentence.startswith(n) or n in sentence)
            sentences.append(sentence.replace(name, "X"))
    assert len(sentences) >= 20
    common = max(sentences.count(s) for s in set(sentences))
    assert len(set(sentences)) >= 6
    assert common / len(sentences) < 0.3, sentences


IXU_NAMES = ("Tutok", "Kuote", "Ijoi", "Eyox", "Tuze", "Keryx")


def test_ixu_report_tells_charges_blows_and_wounds_as_prose():
    save = save_of(IXU, 4)
    report = battle_report(save)
    assert "*The Battle of Ixu* (`battle-of-ixu`), played " in report
    assert " from the generator (seed 4)." in report
    assert "- **A: Axes** (decisions: " in report
    assert "by the computer): Tutok (regular), Kuote (elite), Ijoi (inexperienced)" in report
    turns = save["turns"]
    positions(report, [f"## Turn {n}" for n in range(1, turns + 1)] + ["## Aftermath"])
    # no dice ledger: the log's words for blows and dice are not the story's
    for e in events(save, {"attack", "wound", "attribute", "order", "health"}):
        assert md(e["text"]) not in report
    assert " rolls " not in report and "against defence" not in report
    for e in events(save, {"attack"}):  # each blow names both fighters in one bullet
        pair = (e["data"]["attacker"], e["data"]["target"])
        assert any(
            line.startswith("- ") and all(n in line for n in pair) for line in report.splitlines()
        )
    winner = save["setup"]["names"][save["result"]["winner"]]
    assert f"**{winner} won** after {turns} turns" in report
    assert "Still standing:" in report


def test_a_blow_its_wound_and_the_death_share_a_bullet():
    for seed in range(1, 9):
        save = save_of(IXU, seed)
        report = battle_report(save)
        bullets = [line for line in report.splitlines() if line.startswith("- ")]
        log = events(save)
        for i, e in enumerate(log):
            if e["kind"] == "wound":
                attack = log[i - 1]
                assert attack["kind"] == "attack"
                target = e["data"]["target"]
                # a joint attack tells its target's damage once, after its last blow there
                totals = [e["data"]["total"]]
                for later in log[i + 1 :]:
                    if later["kind"] == "order":
                        break
                    if later["kind"] == "wound" and later["data"]["target"] == target:
                        totals.append(later["data"]["total"])
                shown = [f"{t} of {e['data']['health']} damage" for t in totals]
                assert any(
                    any(w in b for w in shown) and attack["data"]["attacker"] in b and target in b
                    for b in bullets
                )


def test_standing_fast_is_told_when_it_keeps_a_figure_out_of_the_fight():
    """ "Ijoi stays back" is a beat; a fighter standing in its melee is not news."""
    kept = dropped = 0
    for seed in range(1, 6):
        save = save_of(IXU, seed)
        report = battle_report(save)
        sections = re.split(r"^## ", report, flags=re.M)
        turn = 0
        fighting: dict[int, set[str]] = {}
        for e in save["log"]:
            if e["t"] == "turn":
                turn = e["n"]
            elif e["t"] == "event" and e["kind"] in ("attack", "wound", "charge"):
                d = e["data"]
                fighting.setdefault(turn, set()).update(
                    [d.get("attacker", ""), d.get("target", ""), d.get("model", "")]
                    + d.get("charged", [])
                )
        turn = 0
        for e in save["log"]:
            if e["t"] == "turn":
                turn = e["n"]
            elif e["t"] == "event" and e["kind"] == "stand":
                who = e["data"]["model"]
                [section] = [s for s in sections if s.startswith(f"Turn {turn}")]
                stays = [
                    p.format(x=who)
                    for p in (
                        "{x} stays back",
                        "{x} holds position",
                        "{x} waits",
                        "{x} keeps out of the fight",
                    )
                ]
                if who in fighting.get(turn, set()):
                    dropped += 1
                    assert not any(s in section for s in stays)
                else:
                    kept += 1
                    assert any(s in section for s in stays), (who, section)
    assert kept and dropped


def test_repeated_one_line_beats_share_a_bullet():
    """Every warrior's first move makes one bullet, not six."""
    save = save_of(IXU, 3)
    report = battle_report(save)
    turn_one = report[report.index("## Turn 1") : report.index("## Turn 2")]
    [moves] = [line for line in turn_one.splitlines() if line.count('"') >= 3]
    assert all(name in moves for name in IXU_NAMES)


def test_rule_ids_and_dice_only_on_request_and_never_glued_to_a_beat():
    save = save_of(IXU, 2)
    plain, cited = battle_report(save), battle_report(save, with_rules=True)
    assert "`[c" not in plain and "(dice:" not in plain and "Workings" not in plain
    # each told blow and death carries the log's own numbers, then its rule ids
    assert re.search(r"\*\*☠ [^*]*\.\*\* \*\([^)]*\)\* `\[c[78]\]`", cited)
    for e in events(save, {"attack"}):
        assert f"*({md(e['text'])})* `[c6]`" in cited
    bullets = [line for line in cited.splitlines() if line.startswith("- ")]
    for e in events(save, {"attribute"}):  # every model's dice: in the workings, only there
        holding = [b for b in bullets if md(e["text"]) in b]
        assert holding and all(b.startswith("- *Workings:* ") for b in holding)
    for b in bullets:
        if b.startswith("- *Workings:* "):
            assert " charges " not in b and " advances " not in b
    assert "`[c1, c2, c4]`" in cited  # an attribution line cites its dice's rules, sorted
    story = [b for b in bullets if not b.startswith("- *Workings:*")]
    assert len(story) == plain.count("\n- ")


def test_tug_is_told_in_its_own_words():
    save = save_of(TUG, 2)
    turns = save["turns"]
    assert turns > 3
    report = battle_report(save)
    assert report.startswith("# Battle report: Greentoe against Clearsky\n")
    assert f"## Turns 1-{turns}\n" in report and "## Turn 1\n" not in report
    positions(report, [f"- **Turn {n}.** " for n in range(1, turns + 1)])
    assert "No one fell." not in report
    assert "Pulled across the centre line, in order:" in aftermath(report)
    crossings = events(save, {"cross"})
    listed = re.findall(r"^\d+\. Turn \d+: (.+)$", aftermath(report), re.M)
    assert len(listed) == len(crossings)
    for e, line in zip(crossings, listed, strict=True):
        team = save["setup"]["teams"][e["data"]["side"]]["models"]
        assert team[e["data"]["model"]] in line
    for e in events(save, {"pull"}):
        assert md(e["text"]) not in report  # not the log's ledger of totals
    assert "Sebeki (d10), Asar (d6), Asar (d6)" in report
    # a pull's dice, which its event does not state, are there on request
    cited = battle_report(save, with_rules=True)
    first_roll = next(e for e in save["log"] if e["t"] == "roll")
    faces = "+".join(map(str, first_roll["faces"]))
    assert f"*(dice: {md(first_roll['reason'])}: {faces}" in cited


def synthetic(log, **extra):
    return {
        "ruleset": {"id": "not-installed", "version": "1"},
        "setup": {"names": {"A": "Alpha", "B": "Bravo"}, "teams": {}},
        "turns": max(e["n"] for e in log if e["t"] == "turn"),
        "result": {"winner": "A", "reason": "Bravo is gone"},
        "log": log,
        **extra,
    }


def ev(kind, text, **data):
    return {"t": "event", "kind": kind, "text": text, "rules": ["z1"], "data": data}


CHOICE = {"t": "choice", "side": "A", "key": "x", "by": "bot"}
ROLL = {"t": "roll", "dice": [6], "faces": [4], "reason": "a test", "rules": ["z2"]}


def test_beats_follow_the_actor_and_what_follows_from_it():
    log = [
        {"t": "turn", "n": 1},
        ev("step", "Step 1 begins", step=1),
        CHOICE,
        ev("activate", "Ann activates", id="A1"),
        CHOICE,
        ROLL,
        ev("test", "Ann passes her test", id="A1"),
        ev("shot", "Ann shoots Bob", id="A1", target="B1"),
        ev("hit", "Bob is hit", id="B1"),
        ROLL,
        ev("save", "Bob fails his save", id="B1"),
        ev("kill", "Bob is killed", id="B1"),
        ev("rating", "Bravo's rating drops", side="B"),
        ev("activate", "Cid activates", id="B2"),
        ev("stand", "Cid stands still", id="B2"),
        ev("casualty", "Bob goes to the casualty pool", moved=["B1"]),
        ev("flee", "Cid flees from b2 to b3", unit="B2", to="b3"),
        ev("flee", "Dan flees the battle", creature="B3"),
        CHOICE,
        ev("shot", "Eve shoots at Ann", id="B4", target="A1"),
        ev("activate", "Ann activates again", id="A1"),  # named, but her own activation
        {"t": "end", "winner": "A", "reason": "Bravo is gone", "rules": []},
    ]
    report = battle_report(synthetic(log))
    story = report[report.index("## Turn 1") : report.index("## Aftermath")]
    assert story.splitlines() == [
        "## Turn 1 · ☠ Bob · ⚑ Dan",
        "",
        "- Step 1 begins.",
        "- Ann activates. Ann passes her test. Ann shoots Bob. Bob is hit. Bob fails his save. "
        "**☠ Bob is killed.** Bravo's rating drops.",
        "- Cid activates. Cid stands still. Bob goes to the casualty pool. "
        "Cid flees from b2 to b3.",
        "- **⚑ Dan flees the battle.**",
        "- Eve shoots at Ann.",
        "- Ann activates again.",
        "",
    ]
    assert "1. Turn 1: Bob is killed\n2. Turn 1: Dan flees the battle\n" in report
    assert {"casualty", "flee"} <= LOSS_KINDS and "stand" in STAND_KINDS
    log.insert(-1, ev("pass", "Bravo passes", side="B"))
    log.insert(-1, ev("stand", "Ann stands still", id="A1"))  # Ann is in the fight
    report = battle_report(synthetic(log))
    assert "Bravo passes" not in report and "Ann stands still" not in report
    assert "pass" in QUIET_KINDS


def test_runs_fold_and_turns_of_one_beat_group():
    log = [{"t": "turn", "n": 1}]
    for who in ("Ann", "Cid", "Eve"):
        log += [CHOICE, ev("move", f"{who} moves", id=who)]
    log += [{"t": "turn", "n": 2}, ev("pull", "Alpha pulls")]
    log += [{"t": "turn", "n": 3}, ev("pull", "Bravo pulls"), ev("cross", "Cid crosses")]
    log += [{"t": "turn", "n": 4}, CHOICE, ev("move", "Ann moves", id="Ann")]
    log += [CHOICE, ev("move", "Cid moves", id="Cid")]
    report = battle_report(synthetic(log))
    story = report[report.index("## Turn") : report.index("## Aftermath")]
    assert story.splitlines() == [
        "## Turns 1-3",
        "",
        "- **Turn 1.** Ann moves. Cid moves. Eve moves.",
        "- **Turn 2.** Alpha pulls.",
        "- **Turn 3.** Bravo pulls. Cid crosses.",
        "",
        "## Turn 4",
        "",
        "- Again, Ann moves.",  # a sentence already told says it is a repeat
        "- Again, Cid moves.",
        "",
    ]


def test_unfinished_game_and_unknown_kinds():
    save = to_save(bot_game(registry.get(IXU), 5, max_turns=1))
    report = battle_report(save)
    assert "The battle is not over: 1 turn played so far." in report
    assert "## Turn 2" not in report
    fake = {
        "ruleset": {"id": "not-installed", "version": "1"},
        "setup": {"names": {"A": "*Bold*", "B": "B"}, "teams": {"A": {"models": [{"name": "X"}]}}},
        "turns": 1,
        "created": "not a date",
        "result": {"winner": None, "reason": "nobody could win"},
        "log": [
            {"t": "turn", "n": 1},
            {"t": "event", "kind": "destroyed", "text": "The <tower> falls", "rules": ["z1"]},
            {"t": "end", "winner": None, "reason": "nobody could win", "rules": []},
        ],
    }
    report = battle_report(fake, with_rules=True)
    assert "# Battle report: \\*Bold\\* against B" in report
    assert "played not a date." in report
    assert "## Turn 1 · ☠ The \\<tower\\> falls\n" in report
    assert "- **☠ The \\<tower\\> falls.** `[z1]`" in report
    assert "**A draw** after 1 turn: nobody could win." in report
    assert "1. Turn 1: The \\<tower\\> falls" in report


def test_options_in_a_few_words():
    save = synthetic(
        [{"t": "turn", "n": 1}, ev("pull", "Alpha pulls")],
        options={"table": {"name": "Farmstead", "terrain": [{"x": 1}]}, "width": 24.0},
        created="2026-01-02T03:04:05.678+00:00",
    )
    report = battle_report(save)
    assert "Options: table=Farmstead, width=24.0." in report
    assert "played 2026-01-02 03:04 UTC." in report


def test_report_is_json_clean_input_only():
    """The report reads a save's JSON form: a save read back from disk gives the same text."""
    save = save_of(IXU, 6)
    assert battle_report(json.loads(json.dumps(save))) == battle_report(save)


def test_players_are_named_when_the_save_records_them():
    session = bot_game(registry.get(IXU), 7)
    report = battle_report(to_save(session, players={"A": "human", "B": "bot"}))
    assert "- **A: Axes** (played by a person; decisions: " in report
    assert "- **B: Swords** (played by the computer; decisions: " in report


def test_a_move_is_told_by_where_it_goes_and_phrases_take_turns():
    from wargame_cli.report.voice import MOVE_ACROSS, MOVE_BACK, MOVE_ON, Voice, heading

    assert heading("A", [5, 5], [5, 8]) is MOVE_ON  # side A's forward is north
    assert heading("B", [5, 5], [5, 8]) is MOVE_BACK
    assert heading("B", [5, 5], [9, 4.5]) is MOVE_ACROSS
    assert heading("A", 2, 3) is MOVE_ON  # rows of spaces count the same way
    voice = Voice(seed=7)
    said = [
        voice.say(("{x} falls", "{x} is slain", "that is the end of {x}"), x="Ann")
        for _ in range(6)
    ]
    assert said[:3] == said[3:] and len(set(said)) == 3  # every phrase, then round again
    assert all(s[0].isupper() for s in said)
    assert Voice().say(("the {x}'s blows",), x="Archers") == "The Archers' blows"
