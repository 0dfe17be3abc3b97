"""`wargame campaign`: three battles a ruleset through the real entry, each battle starting
with exactly what the one before left (its replayed end state), and bad input refused in
one line."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from tests.cli_helpers import one_error_line


def _json(done: Any) -> dict[str, Any]:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def _next(wargame: Any, name: str, *args: str) -> dict[str, Any]:
    return _json(wargame("campaign", "next", name, "--no-input", "--json", *args))


def _replayed(wargame: Any, save: str, *args: str) -> dict[str, Any]:
    return _json(wargame("replay", save, "--json", *args))["state"]


def _by_name(state: dict[str, Any], side: str) -> dict[str, dict[str, Any]]:
    return {m["name"]: m for m in state["sides"][side]["models"]}


def _ixu_recruits(shown: dict[str, Any], number: int) -> list[str]:
    """`--team-a/--team-b` for each side with no one left standing, named for the battle."""
    flags = []
    for side in ("A", "B"):
        if not any(f["state"] == "ready" for f in shown["sides"][side]["figures"]):
            flags += [f"--team-{side.lower()}", f"Hero{side}{number}:4, Squire{side}{number}:3"]
    return flags


def test_ixu_three_battles_carry_damage_kills_and_death(wargame, tmp_path):
    begun = _json(
        wargame(
            "campaign",
            "new",
            "gods",
            "battle-of-ixu",
            "--json",
            "--team-a",
            "Tutok:4, Kuote:5",
            "--team-b",
            "Tuze:4, Keryx:4",
            "--option",
            "health=5",
            "--option",
            "heal=1",
        )
    )
    assert begun["options"] == {"heal": 1, "promote_after": 0}
    assert begun["game_options"] == ["health=5"]
    shown = begun
    saves: list[str] = []
    carried = 0  # wounds carried into a battle: the test means something only if some were
    for number in (1, 2, 3):
        before = {s: {f["name"]: f for f in shown["sides"][s]["figures"]} for s in "AB"}
        recruits = _ixu_recruits(shown, number)
        shown = _next(wargame, "gods", "--seed", str(number + 40), *recruits)
        battle = shown["battle"]
        assert battle["n"] == number and battle["status"] == "finished"
        saves.append(battle["save"])
        start = _replayed(wargame, battle["save"], "--turn", "0")
        end = _replayed(wargame, battle["save"])
        for side in "AB":
            at_start = _by_name(start, side)
            # who fights: the side's ready figures, each with the damage it carried
            ready = [n for n, f in before[side].items() if f["state"] == "ready"]
            assert set(ready) <= set(at_start)
            for name in ready:
                assert at_start[name]["damage"] == before[side][name]["wounds"]
                carried += at_start[name]["damage"]
            roster = {f["name"]: f for f in shown["sides"][side]["figures"]}
            for name, model in _by_name(end, side).items():
                figure = roster[name]
                if model["status"] == "dead":
                    assert figure["state"] == "dead"
                else:  # c8 next time compares with the campaign's damage, 1 healed
                    assert figure["state"] == "ready"
                    assert figure["wounds"] == max(0, model["damage"] - 1)
                assert figure["battles"] == before[side].get(name, {"battles": 0})["battles"] + 1
        if number > 1:  # what battle n-1 left is what battle n began with
            left = _replayed(wargame, saves[-2])
            for side in "AB":
                survivors = {n: m for n, m in _by_name(left, side).items() if m["status"] != "dead"}
                began = _by_name(start, side)
                for name, model in survivors.items():
                    assert began[name]["damage"] == max(0, model["damage"] - 1)
                    assert began[name]["experience"] == model["experience"]
                for name in began:
                    assert name in survivors or name.startswith(("Hero", "Squire"))
    assert carried > 0
    kills = sum(f["kills"] for s in "AB" for f in shown["sides"][s]["figures"])
    deaths = sum(f["state"] == "dead" for s in "AB" for f in shown["sides"][s]["figures"])
    assert kills >= 1 and deaths >= 3  # every battle ends with a side fallen
    # the battles stay normal saves: each replays and verifies
    for save in saves:
        assert _json(wargame("replay", save, "--verify", "--json"))["verified"] is True
    told = wargame("campaign", "show", "gods")
    assert told.returncode == 0 and "Tutok" in told.stdout and "3 battles fought" in told.stdout


def test_ixu_promotion_after_kills_option(wargame):
    _json(
        wargame(
            "campaign",
            "new",
            "p",
            "battle-of-ixu",
            "--json",
            "--option",
            "promote_after=1",
            "--team-a",
            "Tutok:3, Kuote:3",
            "--team-b",
            "Tuze:3",
            "--option",
            "health=4",
        )
    )
    shown = _next(wargame, "p", "--seed", "5")
    figures = [f for s in "AB" for f in shown["sides"][s]["figures"]]
    killers = [f for f in figures if f["kills"] and f["state"] == "ready"]
    assert killers, figures
    for f in killers:
        assert f["entry"]["experience"] == min(5, 3 + f["kills"])
        assert any(d.startswith("became") for d in f["deeds"])


def test_a_bad_campaign_is_refused_in_one_line(wargame, tmp_path):
    assert "no campaign is called 'nope'" in one_error_line(wargame("campaign", "show", "nope"))
    one_error_line(wargame("campaign", "next", "nope", "--no-input"))
    one_error_line(wargame("campaign", "new", "x", "no-such-ruleset"))
    one_error_line(wargame("campaign", "new", "../x", "battle-of-ixu"))
    one_error_line(wargame("campaign", "new", "x", "battle-of-ixu", "--option", "heal=lots"))
    _json(wargame("campaign", "new", "x", "battle-of-ixu", "--json"))
    assert "exists already" in one_error_line(wargame("campaign", "new", "x", "battle-of-ixu"))
    # a battle refused as it is set up leaves the campaign as it was, recruits and all
    refused = wargame(
        "campaign", "next", "x", "--no-input", "--team-a", "Zed:4", "--dice", "manual"
    )
    assert "--rolls" in one_error_line(refused)
    unchanged = _json(wargame("campaign", "show", "x", "--json"))
    assert unchanged["battles"] == [] and len(unchanged["sides"]["A"]["figures"]) == 3
    path = tmp_path / "saves" / "campaigns" / "x.json"
    good = path.read_text()
    data = json.loads(good)
    for broken, words in (
        (good[: len(good) // 2], "corrupt or truncated"),
        (json.dumps({**data, "version": 99}), "newer than this wargame"),
        (json.dumps({**data, "options": {"heal": 5, "promote_after": 0}}), "edited"),
        (json.dumps({**data, "format": "wargame-save"}), "not a wargame campaign"),
    ):
        path.write_text(broken)
        assert words in one_error_line(wargame("campaign", "show", "x")), broken[:80]
        one_error_line(wargame("campaign", "next", "x", "--no-input"))
    path.write_text(good)


def test_add_adopts_a_matching_save_and_refuses_others(wargame, tmp_path):
    _json(wargame("campaign", "new", "a", "battle-of-ixu", "--json", "--option", "health=4"))
    other = tmp_path / "squad.json"
    _json(
        wargame("play", "squad-alpha", "--no-input", "--json", "--seed", "1", "--save", str(other))
    )
    assert "is a squad-alpha game" in one_error_line(wargame("campaign", "add", "a", str(other)))
    wrong = tmp_path / "wrong.json"
    _json(
        wargame(
            "play",
            "battle-of-ixu",
            "--no-input",
            "--json",
            "--seed",
            "1",
            "--save",
            str(wrong),
            "--team-a",
            "Somebody:4",
            "--option",
            "health=4",
        )
    )
    assert "side A's team is not Axes's roster" in one_error_line(
        wargame("campaign", "add", "a", str(wrong))
    )
    right = tmp_path / "right.json"
    _json(
        wargame(
            "play",
            "battle-of-ixu",
            "--no-input",
            "--json",
            "--seed",
            "2",
            "--save",
            str(right),
            "--option",
            "health=4",
        )
    )
    shown = _json(wargame("campaign", "add", "a", str(right), "--json"))
    assert shown["battle"]["adopted"] is True and shown["battle"]["status"] == "finished"
    assert Path(shown["battle"]["save"]).resolve() == right.resolve()
    assert "already a battle" in one_error_line(wargame("campaign", "add", "a", str(right)))
    assert all(f["battles"] == 1 for s in "AB" for f in shown["sides"][s]["figures"])


KILLED_WHILE_WRITING = """
import sys
from pathlib import Path
from wargame_cli.campaigns import book
from wargame_cli.ruleset import Figure, Roster

path = Path(sys.argv[1])
campaign = book.load(path)
n = 0
while True:
    n += 1
    figures = [Figure(f"Figure {i}", {"name": f"Figure {i}", "experience": 4}, kills=n)
               for i in range(400)]
    campaign.rosters = {"A": Roster(figures), "B": Roster(figures)}
    book.write(campaign)
    if n == 3:
        print("writing", flush=True)
"""


def test_a_campaign_file_survives_kill_9_while_written(wargame, tmp_path):
    """A real process rewriting a campaign file in a loop, killed mid-write: the file left
    is a whole campaign (the one before or after), never a torn one, and loads."""
    import signal
    import subprocess
    import sys
    import time

    from wargame_cli.campaigns import book

    _json(wargame("campaign", "new", "k", "battle-of-ixu", "--json"))
    path = tmp_path / "saves" / "campaigns" / "k.json"
    for pause in (0.05, 0.2, 0.4):
        proc = subprocess.Popen(
            [sys.executable, "-c", KILLED_WHILE_WRITING, str(path)], stdout=subprocess.PIPE
        )
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"writing"
        time.sleep(pause)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        loaded = book.load(path)
        assert len(loaded.rosters["A"].figures) == 400
        assert loaded.rosters["A"].figures[0].kills >= 3
    assert _json(wargame("campaign", "show", "k", "--json"))["campaign"] == "k"


def _squad_recruits(shown: dict[str, Any], number: int) -> list[str]:
    """Recruits for each side with fewer than five ready (b1): a sergeant and troopers."""
    flags = []
    for side in ("A", "B"):
        ready = sum(
            f["state"] == "ready" or (f.get("back") or 99) <= number
            for f in shown["sides"][side]["figures"]
        )
        if ready < 5:
            squad = f"Sgt {side}{number} elite 9"
            if ready < 4:
                squad += f", {4 - ready} Trooper{side}{number} conscript 0"
            flags += [f"--team-{side.lower()}", squad]
    return flags


def test_squad_alpha_three_battles_casualties_roll_and_leaders_carry(wargame):
    _json(wargame("campaign", "new", "sq", "squad-alpha", "--json"))
    shown = _json(wargame("campaign", "show", "sq", "--json"))
    assert shown["options"] == {"wounded_on": 4, "wounded_miss": 1}
    left: dict[str, Any] = {}
    for number in (1, 2, 3):
        before = {s: {f["name"]: f for f in shown["sides"][s]["figures"]} for s in "AB"}
        args = ["--seed", str(number), *_squad_recruits(shown, number)]
        if number == 1:
            args += ["--after-rolls", "6,1"]  # the first two casualties: wounded, then gone
        shown = _next(wargame, "sq", *args)
        battle = shown["battle"]
        start = _replayed(wargame, battle["save"], "--turn", "0")
        end = _replayed(wargame, battle["save"])
        for side in "AB":
            began = {m["name"]: m for m in start["sides"][side]["miniatures"]}
            was_ready = {
                n
                for n, f in before[side].items()
                if f["state"] == "ready" or (f.get("back") or 99) <= number
            }
            assert was_ready <= set(began)  # the ready fight; the wounded and gone do not
            for name in set(before[side]) - was_ready:
                assert name not in began
            for name in was_ready:  # ratings carry (a new leader may have risen by one)
                rating = before[side][name]["entry"]["rating"]
                assert began[name]["command"] in (rating, rating + 1)
            tops = sorted((m["command"] for m in began.values()), reverse=True)
            assert tops[0] > tops[1]  # b3: one leader, above the rest
        if number > 1:  # checked against the battle before, replayed: who stood fights on
            for side in "AB":
                began = {m["name"] for m in start["sides"][side]["miniatures"]}
                for mini in left["sides"][side]["miniatures"]:  # wounded_miss=1: not back yet
                    assert (mini["name"] in began) == (mini["status"] != "casualty"), mini
        left = end
        rolls = battle["after"]["rolls"]
        casualties = [
            (side, m["name"])
            for side in "AB"
            for m in end["sides"][side]["miniatures"]
            if m["status"] == "casualty"
        ]
        assert [r["reason"].split(",")[0] for r in rolls] == [n for _, n in casualties]
        assert all(r["dice"] == [6] and r["rules"] == ["b22"] for r in rolls)
        if number == 1:
            assert [r["source"] for r in rolls[:2]] == ["script", "script"]
            assert [r["faces"] for r in rolls[:2]] == [[6], [1]]
            assert all(r["source"] == "rng" for r in rolls[2:])
            assert battle["after"]["seed"] == 1
        for (side, name), roll in zip(casualties, rolls, strict=True):
            figure = next(f for f in shown["sides"][side]["figures"] if f["name"] == name)
            if roll["faces"][0] >= 4:
                assert figure["state"] == "wounded" and figure["back"] == number + 2
            else:
                assert figure["state"] == "gone"
    assert len(shown["battles"]) == 3


def test_squad_alpha_names_a_leader_when_none_stands_above_the_rest():
    from wargame_cli.rulesets.squad_alpha.campaign import name_leader

    from wargame_cli.ruleset import Figure

    def mini(name: str, training: str, rating: int) -> Figure:
        return Figure(name, {"name": name, "training": training, "rating": rating})

    ready = [mini("Ann", "regular", 2), mini("Bo", "elite", 2), mini("Cy", "elite", 2)]
    name_leader(ready, 4)
    assert [f.entry["rating"] for f in ready] == [2, 3, 2]
    assert ready[1].deeds == ["named leader before battle 4 (rating 3)"]
    name_leader(ready, 5)  # one above the rest: nothing changes
    assert [f.entry["rating"] for f in ready] == [2, 3, 2]


def test_tug_league_standings_head_to_head_and_exact_odds(wargame):
    _json(
        wargame(
            "campaign",
            "new",
            "lg",
            "tug-of-wargods",
            "--json",
            "--name-a",
            "Ann",
            "--name-b",
            "Bob",
        )
    )
    winners: list[tuple[str, str | None]] = []  # (side A's club, the winner's side)
    pairings = []
    for number, recruit in ((1, []), (2, ["--team-a", "Sebeki, Asar, Asar"]), (3, [])):
        shown = _next(wargame, "lg", "--seed", str(number), *recruit)
        save = json.loads(Path(shown["battle"]["save"]).read_text())
        names = save["setup"]["names"]
        pairings.append((names["A"], names["B"]))
        winner = _json(wargame("replay", shown["battle"]["save"], "--json"))["winner"]
        winners.append((names["A"], winner))
        assert shown["battle"]["winner"] == winner
        # each club pulls with its own column, the team it entered with
        for side in "AB":
            club = next(f for f in shown["sides"][side]["figures"] if f["name"] == names[side])
            assert save["setup"]["teams"][side] == club["entry"]
    assert pairings == [
        ("Greentoe", "Clearsky"),
        ("Sebeki, Asar, Asar", "Clearsky"),  # a club entered plays at once
        ("Greentoe", "Clearsky"),  # then the one that has pulled least
    ]
    table = shown["standings"]
    won = {club: sum(1 for c, w in winners if c == club and w == "A") for club, _ in pairings}
    for club, count in won.items():
        line = next(line for line in table if f". {club} (side A):" in line)
        played = sum(1 for c, _ in winners if c == club)
        lost = played - count - sum(1 for c, w in winners if c == club and w is None)
        assert line.split(": ")[1].split()[:4] == [str(played), str(count), "0", str(lost)]
    assert any(line.startswith("  Head to head: Greentoe against Clearsky") for line in table)
    odds = table[-1]
    assert odds.startswith("Next pairing (battle 4): Sebeki, Asar, Asar against Clearsky")
    exact = _json(
        wargame(
            "simulate",
            "tug-of-wargods",
            "--exact",
            "--json",
            "--team-a",
            "Sebeki, Asar, Asar",
            "--team-b",
            "Clearsky",
        )
    )["exact"]
    assert f"wins {exact['A']:.1%}, Clearsky {exact['B']:.1%}" in odds


def test_mobs_and_morale_three_battles_casualty_pool_decides_who_returns(wargame):
    _json(wargame("campaign", "new", "mm", "mobs-and-morale", "--json"))
    saves: list[str] = []
    shown = _json(wargame("campaign", "show", "mm", "--json"))
    for number in (1, 2, 3):
        recruits = []
        if "refused" in shown["next"]["teams"]:  # a side with no one left: new blood
            for side in "AB":
                if not any(f["state"] == "ready" for f in shown["sides"][side]["figures"]):
                    squad = f"Gorm{number}=Chieftain, Pack{number}=3 Wolf under Gorm{number}"
                    recruits += [f"--team-{side.lower()}", squad]
        shown = _next(wargame, "mm", "--seed", str(number), *recruits)
        saves.append(shown["battle"]["save"])
    ends = [_replayed(wargame, save) for save in saves]
    starts = [_replayed(wargame, save, "--turn", "0") for save in saves]
    fates = {
        row["creature"]: (number, row["fate"])
        for number, end in enumerate(ends, 1)
        for rows in end["after_battle"].values()
        for row in rows
    }
    assert any(fate in ("wounded", "missing") for _, fate in fates.values())
    for number in (2, 3):
        left, began = ends[number - 2], starts[number - 1]
        at_start = {c["id"]: c for c in began["creatures"]}
        for creature in left["creatures"]:
            if creature["mob"] is not None:
                continue
            name, fate = creature["id"], fates.get(creature["id"], (0, "standing"))[1]
            if creature["status"] in ("standing", "escaped"):
                # a character who fought on starts with the health the battle left it
                assert at_start[name]["health"] == creature["health"], name
            else:  # the casualty pool: away for the next battle, or lost for good
                assert name not in at_start, (name, fate)
        for mob in left["mobs"]:  # a mob comes back with the members on their feet
            if mob["standing"]:
                again = next(m for m in began["mobs"] if m["name"] == mob["name"])
                assert len(again["members"]) == len(mob["standing"])
                assert again["controller"] in (mob["controller"], None)
    # a figure wounded or missing after battle 1 is back for battle 3, healed
    back = [n for n, (battle, fate) in fates.items() if battle == 1 and fate != "lost"]
    back = [n for n in back if "not rolled" not in fates[n][1]]
    third = {c["id"]: c for c in starts[2]["creatures"]}
    for name in back:
        if name in third:
            assert third[name]["health"] == third[name]["max_health"]
    assert back and any(name in third for name in back)
    roster = {f["name"]: f for s in "AB" for f in shown["sides"][s]["figures"]}
    assert all(roster[n]["state"] in ("ready", "dead", "wounded", "missing") for n in roster)
    assert sum(f["kills"] for f in roster.values()) >= 1


def test_seeds_of_wars_three_battles_prisoners_ht_and_morale_carry(wargame):
    _json(wargame("campaign", "new", "sw", "seeds-of-wars", "--json", "--option", "recover=none"))
    first = _next(wargame, "sw", "--seed", "2", "--turns", "1")["battle"]
    assert first["status"] == "playing"
    save = first["save"]
    assert "battle 1 is not finished" in one_error_line(
        wargame("campaign", "next", "sw", "--no-input")
    )
    for words in (("remove", "A2", "captured"), ("status", "A3", "Shaken")):
        done = wargame("edit", save, *words, "--why", "the GM's call")
        assert done.returncode == 0, done.stderr
    assert _json(wargame("resume", save, "--no-input", "--json"))["status"] == "finished"
    saves = [save]
    for number in (2, 3):
        recruits = []
        left = _replayed(wargame, saves[-1])  # a side left with no unit recruits
        for side in "AB":
            units = left["sides"][side]["units"]
            if all(u["fate"] in ("destroyed", "captured") for u in units):
                recruits += [f"--team-{side.lower()}", "Knights, Archers"]
        shown = _next(wargame, "sw", "--seed", str(number), *recruits)
        saves.append(shown["battle"]["save"])
        if number == 2:  # battle 1 was taken up when battle 2 began
            held = [f for f in shown["sides"]["B"]["figures"] if f["state"] == "prisoner"]
            assert [f["entry"]["figure"] for f in held] == ["Swordsmen"]
            swordsmen = next(f for f in shown["sides"]["A"]["figures"] if f["name"] == "Swordsmen")
            assert swordsmen["state"] == "captured"
    for number in (2, 3):
        left = _replayed(wargame, saves[number - 2])
        began = _replayed(wargame, saves[number - 1], "--turn", "0")
        for side in "AB":
            kept = [
                u
                for u in left["sides"][side]["units"]
                if u["fate"] not in ("destroyed", "captured")
            ]
            again = began["sides"][side]["units"][: len(kept)]
            assert [u["type"] for u in again] == [u["type"] for u in kept]
            assert [u["ht_taken"] for u in again] == [u["ht_taken"] for u in kept]
            assert [u["state"] for u in again] == [u["state"] for u in kept]  # recover=none
            if number == 2 and side == "A":
                assert "Swordsmen" not in [u["type"] for u in began["sides"]["A"]["units"]]
    assert (
        sum(
            u["ht_taken"]
            for s in "AB"
            for u in _replayed(wargame, saves[1], "--turn", "0")["sides"][s]["units"]
        )
        > 0
    )


def test_mobs_and_morale_wounded_fight_hurt_and_downtime_heals(wargame):
    options = ["--option", "wounded=hurt", "--option", "downtime_heal=true"]
    _json(wargame("campaign", "new", "hurt", "mobs-and-morale", "--json", *options))
    first = _next(wargame, "hurt", "--seed", "1")
    end = _replayed(wargame, first["battle"]["save"])
    wounded = [r["creature"] for r in end["after_battle"]["A"] if r["fate"] == "wounded"]
    standing = [c for c in end["creatures"] if c["side"] == "A" and c["status"] == "standing"]
    assert wounded and any(c["health"] < c["max_health"] for c in standing)
    recruits = ["--team-b", "Gorm=Chieftain, Pack=3 Wolf under Gorm"]
    began = _replayed(
        wargame, _next(wargame, "hurt", "--seed", "2", *recruits)["battle"]["save"], "--turn", "0"
    )
    at_start = {c["id"]: c for c in began["creatures"]}
    for name in wounded:  # back at once, with 1 health left
        assert at_start[name]["health"] == 1
    for creature in standing:  # the downtime healed those who fought on
        assert at_start[creature["id"]]["health"] == creature["max_health"]


def test_a_ruleset_that_says_nothing_plays_campaigns_its_teams_as_given(wargame):
    """The third-party Pit Fight declares no `carrying()`: nothing carries, each side keeps
    the team it was first given, and a `--team-a` replaces it."""
    _json(wargame("campaign", "new", "pit", "pit-fight", "--json"))
    teams = []
    for number in (1, 2, 3):
        more = ["--team-a", "Giant"] if number == 3 else []
        shown = _next(wargame, "pit", "--seed", str(number), *more)
        assert shown["battle"]["status"] == "finished"
        teams.append(json.loads(Path(shown["battle"]["save"]).read_text())["setup"]["teams"])
        assert shown["sides"]["A"]["figures"] == []
    assert teams[0] == teams[1] and teams[2]["B"] == teams[0]["B"]
    assert teams[2]["A"] != teams[0]["A"]


def test_every_ruleset_writes_its_campaign_reading_with_its_own_option_names():
    from wargame_cli import registry

    for info in registry.all_infos():
        ruleset = registry.get(info.id)
        own = {spec.name for spec in ruleset.carrying().options}
        assert not own & {spec.name for spec in ruleset.options}, info.id
        if info.id == "pit-fight":
            continue
        notes = [n for n in ruleset.reference().notes if n.startswith("Campaigns")]
        assert len(notes) == 1, info.id
        for name in own:
            assert f"`{name}" in notes[0], (info.id, name)


def test_a_table_file_option_is_kept_by_its_whole_path(wargame, tmp_path):
    import shutil

    import wargame_cli.rulesets.mobs_and_morale as mobs

    shutil.copy(Path(mobs.__file__).parent / "tables" / "ford.toml", tmp_path / "ford.toml")
    begun = _json(
        wargame(
            "campaign", "new", "ford", "mobs-and-morale", "--json", "--option", "table=ford.toml"
        )
    )
    assert begun["game_options"] == [f"table={(tmp_path / 'ford.toml').resolve()}"]


def test_an_ixu_team_file_may_give_old_damage_within_health(wargame, tmp_path):
    team = tmp_path / "hurt.json"
    team.write_text(json.dumps({"models": [{"name": "Tutok", "experience": 4, "damage": 10}]}))
    assert "damage must be 0-9" in one_error_line(
        wargame("play", "battle-of-ixu", "--no-input", "--team-a", str(team), "--no-save")
    )
    team.write_text(json.dumps({"models": [{"name": "Tutok", "experience": 4, "damage": 3}]}))
    save = tmp_path / "hurt-game.json"
    _json(
        wargame(
            "play",
            "battle-of-ixu",
            "--no-input",
            "--json",
            "--turns",
            "1",
            "--team-a",
            str(team),
            "--save",
            str(save),
        )
    )
    assert _by_name(_replayed(wargame, str(save), "--turn", "0"), "A")["Tutok"]["damage"] == 3


def test_a_bad_after_battle_face_keeps_the_battle_for_the_next_try(wargame):
    _json(wargame("campaign", "new", "face", "squad-alpha", "--json"))
    done = wargame("campaign", "next", "face", "--no-input", "--seed", "1", "--after-rolls", "9")
    assert "--after-rolls value #1 (9) does not fit the d6" in one_error_line(done)
    shown = _json(wargame("campaign", "show", "face", "--json"))
    assert [b["status"] for b in shown["battles"]] == ["playing"]
    # taken up at the next `campaign next`, its dice recorded then (the battle played no more)
    done = wargame("campaign", "next", "face", "--no-input", "--after-rolls", "6,6,6,6,6,6,6,6,6")
    assert "recruit" in one_error_line(done)  # every casualty wounded: too few to fight
    shown = _json(wargame("campaign", "show", "face", "--json"))
    first = shown["battles"][0]
    assert first["status"] == "finished"
    assert all(r["faces"] == [6] and r["source"] == "script" for r in first["after"]["rolls"])
    assert all(f["state"] != "gone" for s in "AB" for f in shown["sides"][s]["figures"])


def test_campaign_report_tells_every_battle_and_every_figures_fate(wargame, tmp_path):
    """`campaign report`: the finished battles as one story, each under the name and place
    `campaign next` gave it; every figure of the rosters named with its fate, which is the
    campaign's own (`campaign show`); Markdown on stdout, an HTML page with `--html`."""
    begun = wargame("campaign", "new", "tale", "battle-of-ixu", "--team-a", "Tutok:4, Kuote:5")
    assert begun.returncode == 0, begun.stderr
    assert "no finished battle" in one_error_line(wargame("campaign", "report", "tale"))
    shown = _next(wargame, "tale", "--seed", "5", "--battle-name", "The Ford", "--place", "Ixu")
    shown = _next(wargame, "tale", "--seed", "6", *_ixu_recruits(shown, 2))
    told = wargame("campaign", "report", "tale")
    assert told.returncode == 0, told.stderr
    text = told.stdout
    assert "## 1. The Ford, at Ixu" in text and "## 2." in text
    roster = text[text.index("## Roster") :]
    for side in "AB":
        for figure in shown["sides"][side]["figures"]:
            row = next(r for r in roster.splitlines() if r.startswith(f"| {figure['name']} ("))
            fell = "fell in turn" in row.rsplit("|", 2)[-2]
            assert fell == (figure["state"] == "dead"), (row, figure)
            assert row.split("|")[3].strip() == str(figure["kills"]), (row, figure)
    page = tmp_path / "tale.html"
    done = wargame("campaign", "report", "tale", "--html", str(page))
    assert done.returncode == 0, done.stderr
    assert page.read_text().count("<svg") >= 2 and "The Ford" in page.read_text()
    assert "--force" in one_error_line(wargame("campaign", "report", "tale", "--html", str(page)))


def test_a_carrying_reads_its_campaign_options_from_the_folder_it_is_built_with(tmp_path):
    """The base class reads `campaign.toml` once: a third-party `Carrying` subclass built with
    its folder has its options, one built with none has none, and no ruleset reads its own."""
    from wargame_cli import registry
    from wargame_cli.ruleset import Carrying

    (tmp_path / "campaign.toml").write_text(
        '[grudge]\ndefault = 1\ndoc = "grudges carried"\nminimum = 0\nmaximum = 9\n'
    )

    class Grudges(Carrying):
        pass

    assert [(s.name, s.default) for s in Grudges(tmp_path).options] == [("grudge", 1)]
    assert Grudges().options == ()

    class Renamed(Carrying):
        options_file = "league.toml"

    (tmp_path / "league.toml").write_text('[points]\ndefault = 3\ndoc = "a win"\n')
    assert [s.name for s in Renamed(tmp_path).options] == ["points"]
    for info in registry.all_infos():  # each ruleset's options are its folder's file
        carrying = registry.get(info.id).carrying()
        if carrying.options:
            source = Path(sys.modules[type(carrying).__module__].__file__ or "")
            assert "campaign.toml" not in source.read_text(), info.id


def test_after_battle_dice_of_real_dice_with_no_one_to_type_them_come_from_after_rolls(
    wargame,
):
    """`--dice manual --no-input`: the battle's faces come from `--rolls`, its after-battle
    dice from `--after-rolls` alone; past them, the dice are refused, the battle kept."""
    _json(wargame("campaign", "new", "probe", "squad-alpha", "--json"))
    save = _next(wargame, "probe", "--seed", "3")["battle"]["save"]
    log = json.loads(Path(save).read_text())["log"]
    faces = ",".join(str(f) for e in log if e["t"] == "roll" for f in e["faces"])
    _json(wargame("campaign", "new", "real", "squad-alpha", "--json"))
    manual = ["--no-input", "--seed", "3", "--dice", "manual", "--rolls", faces]
    done = wargame("campaign", "next", "real", *manual, "--after-rolls", "6")
    line = one_error_line(done)
    assert "--after-rolls ran out at" in line and "battle 1 is saved" in line, line
    shown = _json(wargame("campaign", "show", "real", "--json"))
    assert [b["status"] for b in shown["battles"]] == ["playing"]
    more = "6,1,6,1,6,1,6,1,6,1"
    done = wargame("campaign", "next", "real", "--no-input", "--dice", "manual", "--rolls", "1")
    assert "--after-rolls ran out" in one_error_line(done)  # taken up again, same refusal
    done = wargame("campaign", "next", "real", "--no-input", "--after-rolls", more)
    assert "recruit" in one_error_line(done) or done.returncode == 0, done.stderr
    first = _json(wargame("campaign", "show", "real", "--json"))["battles"][0]
    assert first["status"] == "finished"
    assert all(r["source"] == "script" for r in first["after"]["rolls"])
    refused = wargame("campaign", "add", "real", save, "--dice", "manual")
    assert "needs a terminal" in one_error_line(refused)


def test_an_old_wound_edited_into_a_battle_stopped_before_turn_1_carries(wargame):
    """`campaign next --turns 0` stops the battle set up; `wargame edit` deals an old wound
    there, `resume` plays it out, and the next `campaign next` carries what it left."""
    _json(wargame("campaign", "new", "old", "mobs-and-morale", "--json"))
    save = _next(wargame, "old", "--seed", "1", "--turns", "0")["battle"]["save"]
    done = wargame("edit", save, "damage", "Brakka", "2", "--why", "an old wound")
    assert done.returncode == 0, done.stderr
    assert _json(wargame("resume", save, "--no-input", "--json"))["status"] == "finished"
    log = json.loads(Path(save).read_text())["log"]
    edit = next(i for i, e in enumerate(log) if e["t"] == "edit")
    assert edit < next(i for i, e in enumerate(log) if e["t"] == "turn")
    wargame("campaign", "next", "old", "--no-input", "--turns", "0")
    shown = _json(wargame("campaign", "show", "old", "--json"))
    assert shown["battles"][0]["status"] == "finished"
    end = {c["id"]: c for c in _replayed(wargame, save)["creatures"]}
    brakka = next(f for f in shown["sides"]["A"]["figures"] if f["name"] == "Brakka")
    if end["Brakka"]["status"] == "standing":
        assert brakka["wounds"] == end["Brakka"]["max_health"] - end["Brakka"]["health"] >= 2
    else:
        assert brakka["state"] != "ready"


def test_seeds_of_wars_prisoners_exchanged_and_morale_one_step_better(wargame):
    """`exchange=even`: a prisoner each way goes home after the battle and fights the next;
    `recover=step`: each unit begins the next battle one morale step better than the first
    left it (its replayed end state)."""
    options = ["--option", "exchange=even", "--option", "recover=step"]
    _json(wargame("campaign", "new", "ex", "seeds-of-wars", "--json", *options))
    save = _next(wargame, "ex", "--seed", "2", "--turns", "1")["battle"]["save"]
    for words in (
        ("remove", "A2", "captured"),
        ("remove", "B2", "captured"),
        ("status", "A3", "Routed"),
        ("status", "B3", "Shaken"),
        ("end", "draw", "both", "sides", "withdraw"),  # as they stand: none rallies first
    ):
        done = wargame("edit", save, *words, "--why", "the GM's call")
        assert done.returncode == 0, done.stderr
    left = _replayed(wargame, save)
    recruits = []
    for side in "AB":  # a side with no unit but its exchanged prisoner recruits
        if all(u["fate"] in ("destroyed", "captured") for u in left["sides"][side]["units"]):
            recruits += [f"--team-{side.lower()}", "Knights, Archers"]
    shown = _next(wargame, "ex", "--seed", "3", "--turns", "0", *recruits)
    assert not [f for s in "AB" for f in shown["sides"][s]["figures"] if f["state"] == "prisoner"]
    told = shown["battles"][0]["after"]["told"]
    assert any("exchange prisoners" in line for line in told), told
    began = _replayed(wargame, shown["battle"]["save"], "--turn", "0")
    better = {"Routed": "Shaken", "Shaken": "Steady", "Steady": "Steady"}
    states = [u["state"] for s in "AB" for u in left["sides"][s]["units"] if u["fate"] is None]
    assert set(states) - {"Steady"}, states  # a unit left shaken or routed: the step shows
    for side in "AB":
        units = left["sides"][side]["units"]
        captured = [u["type"] for u in units if u["fate"] == "captured"]
        kept = [u for u in units if u["fate"] not in ("destroyed", "captured")]
        again = began["sides"][side]["units"]
        assert captured and all(t in [u["type"] for u in again] for t in captured)  # home
        by_type = {u["type"]: u for u in again}
        for unit in kept:
            assert by_type[unit["type"]]["state"] == better[unit["state"]], unit
            assert by_type[unit["type"]]["ht_taken"] == unit["ht_taken"]


def test_a_campaign_next_killed_at_any_moment_leaves_a_campaign_that_goes_on(wargame, tmp_path):
    """`campaign next` itself killed (-9) while it plays and writes: the campaign file loads,
    and the next `campaign next` goes on (the battle dropped if it never saved, taken up if
    it finished, else `resume` named for it)."""
    import os
    import signal
    import subprocess
    import time

    env = {**os.environ, "WARGAME_SAVES_DIR": str(tmp_path / "saves")}
    for number, pause in enumerate((0.3, 0.6, 0.9), 1):
        name = f"k{number}"
        _json(wargame("campaign", "new", name, "mobs-and-morale", "--json"))
        proc = subprocess.Popen(
            [sys.executable, "-m", "wargame_cli", "campaign", "next", name, "--no-input"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, cwd=tmp_path, env=env,
        )  # fmt: skip
        time.sleep(pause)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        shown = _json(wargame("campaign", "show", name, "--json"))
        assert [b["status"] for b in shown["battles"]] in ([], ["playing"], ["finished"])
        done = wargame("campaign", "next", name, "--no-input", "--turns", "1")
        if done.returncode != 0 and "is not finished: `wargame resume" in done.stderr:
            save = shown["battles"][0]["save"]
            assert _json(wargame("resume", save, "--no-input", "--json"))["status"] == "finished"
            done = wargame("campaign", "next", name, "--no-input", "--turns", "1")
        if done.returncode != 0:  # battle 1 taken up, a side left with no one: recruit
            assert "recruit with --team-a/--team-b" in one_error_line(done)
        battles = _json(wargame("campaign", "show", name, "--json"))["battles"]
        assert battles and battles[0]["status"] == "finished" or len(battles) == 1
