"""Mobs and Morale's figures per unit type and per contest (`simfacts.Watcher`): checked
against the finished games' own state (who lies dead, the damage each creature took), and
through `wargame simulate` in every form it prints."""

from __future__ import annotations

import pytest
from wargame_cli.rulesets.mobs_and_morale.simfacts import DEPLOYMENT, INITIATIVE, blow_shares
from wargame_cli.rulesets.mobs_and_morale.state import DEAD

from tests.test_mobs_and_morale_gm import FORD
from tests.test_simulate_runs import run_json
from wargame_cli import registry
from wargame_cli.engine.fast import face_source, play_fast, stream_seed
from wargame_cli.kit.sides import other
from wargame_cli.ruleset import Setup, resolve_options

MOBS = "mobs-and-morale"
LANTERN = {"Warrior", "Ranger", "Mystic", "Spearwarden"}  # the default teams' unit types
TRIBE = {"Chieftain", "Tribal Warrior (mob)"}


def _games(options: list[str], teams: tuple[str, str] | None, seed: int, games: int):
    """Finished games with their watchers' facts, played as `simulate` plays them."""
    ruleset = registry.get(MOBS)
    opts = resolve_options(ruleset.options, options)
    if teams is None:
        (a, name_a), (b, name_b) = (ruleset.default_team(s, opts) for s in ("A", "B"))
    else:
        (a, name_a), (b, name_b) = (ruleset.preset_named(t, opts) for t in teams)  # type: ignore[misc]
    setup = Setup(names={"A": name_a, "B": name_b}, teams={"A": a, "B": b})
    below = face_source(stream_seed(seed, 0))
    events = []
    for _ in range(games):
        game = ruleset.new_game(setup, opts)
        watcher = ruleset.sim_watcher()
        assert watcher is not None

        def seen(event, watcher=watcher):
            events.append(event)
            watcher.event(event)

        played = play_fast(game, below, on_event=seen)
        yield game, watcher.facts(game, played.outcome), events
        events.clear()


CASES = [
    ([], None),
    (["deploy_order=initiative"], None),
    (["table=ford"], ("The Caravan Guard", "The Thornwood Ambush")),
]


@pytest.mark.parametrize(("options", "teams"), CASES)
def test_each_sides_kills_and_damage_are_the_other_sides_dead_and_wounds(options, teams):
    for game, facts, events in _games(options, teams, seed=4, games=6):
        creatures = game.state.creatures.values()
        assert len(facts.units) == len(creatures)
        for side in ("A", "B"):
            mine = [u for u in facts.units if u.side == side]
            theirs = [c for c in creatures if c.side == other(side)]
            dead = sum(c.status == DEAD for c in theirs)
            assert sum(u.kills for u in mine) == pytest.approx(dead)
            assert sum(u.died for u in mine) == sum(
                c.status == DEAD for c in creatures if c.side == side
            )
            taken = sum(
                e.data["damage"] for e in events if e.kind == "damage" and _side(game, e) != side
            )
            assert sum(u.damage or 0 for u in mine) == pytest.approx(taken)
            healed = sum(
                e.data["healed"] for e in events if e.kind == "heal" and _side(game, e) != side
            )
            # what the other side still shows is what it took less what it healed
            assert taken - healed == sum(c.damage for c in theirs)
        kinds = {u.kind for u in facts.units}
        assert kinds == {c.profile + (" (mob)" if c.mob else "") for c in creatures}
        assert INITIATIVE in facts.firsts
        rolled = "deploy_order=initiative" in options
        assert (DEPLOYMENT in facts.firsts) == rolled
        if rolled:  # the winner deploys last (e3)
            last = [e for e in events if e.kind == "deploy"][-1]
            placed = next(iter(last.data["at"]))
            assert facts.firsts[DEPLOYMENT] == game.state.creatures[placed].side
        first = next(e for e in events if e.kind == "initiative")
        lead = first.data["order"][0]
        assert facts.firsts[INITIATIVE] == game.state.creatures[_unit_creature(game, lead)].side


def _unit_creature(game, unit: str) -> str:
    """A creature of an initiative slot's unit (a character's id, or `mob:NAME`'s first)."""
    if unit.startswith("mob:"):
        return game.state.mobs[unit[4:]].members[0]
    return unit


def _side(game, event) -> str:
    return game.state.creatures[event.data["creature"]].side


def _by_side(units: dict, kinds: set[str]) -> tuple[float, int]:
    """Kills (in all) and deaths of the unit types in `kinds`."""
    mine = [units[k] for k in kinds if k in units]
    return sum(u["kills"] * u["fielded"] for u in mine), sum(u["deaths"] for u in mine)


def test_simulate_tells_every_unit_type_and_contest(wargame):
    args = (MOBS, "--games", "16", "--seed", "3", "--option", "deploy_order=initiative")
    out = run_json(wargame, *args, "--workers", "1")
    assert run_json(wargame, *args, "--workers", "2") == out
    units = out["units"]
    assert set(units) == LANTERN | TRIBE
    assert all(u["games"] == 16 for u in units.values())
    assert units["Tribal Warrior (mob)"]["fielded"] == 8 * 16
    kills_a, deaths_a = _by_side(units, LANTERN)
    kills_b, deaths_b = _by_side(units, TRIBE)
    assert round(kills_a, 6) == deaths_b > 0 and round(kills_b, 6) == deaths_a > 0
    for u in units.values():
        assert u["survival"] == pytest.approx(1 - u["deaths"] / u["fielded"])
        assert u["damage"] >= u["kills"]  # a kill takes at least a point of damage
    assert set(out["firsts"]) == {DEPLOYMENT, INITIATIVE}
    assert all(f["games"] == 16 for f in out["firsts"].values())


def test_the_ford_scenario_tells_its_own_teams_units(wargame, tmp_path):
    page = tmp_path / "ford.html"
    out = run_json(wargame, MOBS, "--games", "8", "--seed", "2", *FORD, "--html", str(page))
    assert set(out["units"]) == {
        "Warrior",
        "Ranger",
        "Mystic",
        "Spearwarden",
        "Shaman",
        "Wolf (mob)",
        "Tribal Warrior (mob)",
    }
    assert set(out["firsts"]) == {INITIATIVE}
    html = page.read_text(encoding="utf-8")
    assert "Wolf (mob)" in html and "first initiative won" in html
    shown = wargame("simulate", MOBS, "--games", "8", "--seed", "2", *FORD)
    assert shown.returncode == 0, shown.stderr
    assert "Per unit type" in shown.stdout and "Wolf (mob)" in shown.stdout
    assert "The side that won the first initiative won" in shown.stdout


def test_a_mobs_pooled_blow_is_shared_by_the_successes_each_figure_rolled():
    pooled = 0
    for game, _, events in _games([], None, seed=8, games=3):
        b = game.state
        for e in events:
            if e.kind != "attack" or len(e.data["attackers"]) < 2 or not e.data["pool"]:
                continue
            pooled += 1
            attackers, faces = e.data["attackers"], e.data["faces"]
            got = blow_shares(b, (tuple(attackers), tuple(faces)), {})
            assert sum(got.values()) == pytest.approx(1)
            at = 0
            for who in attackers:  # each figure's Fierce dice, in the attack's order
                dice = faces[at : at + b.creatures[who].fierce]
                at += len(dice)
                wins = sum(f >= b.options["success_on"] for f in dice)
                assert got.get(who, 0) == pytest.approx(wins / e.data["pool"])
            assert at == len(faces)
    assert pooled > 0
