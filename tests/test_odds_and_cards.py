"""Issue 21, items 4 and 5: every choice with a chance states it, in one percent format, and
a card states the piece's own facts. Chances are checked against a count of every face (or a
simulation) made here, not against the code that states them."""

from __future__ import annotations

import itertools
import json
from typing import Any

import pytest
from rich.console import Console
from wargame_cli.rulesets.squad_alpha import view as squad_view
from wargame_cli.rulesets.squad_alpha.movement import destinations, move_option
from wargame_cli.rulesets.squad_alpha.ruleset import RULESET
from wargame_cli.rulesets.squad_alpha.turn import attribute

from tests.helpers import Script
from tests.test_squad_alpha_rules import SPOTS, Sub, make_state
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.session import start
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.simulate.chances import line
from wargame_cli.wording import percent


def text_of(renderable: Any, width: int = 100) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def squad_test_by_count(dice: int, step: int, modifier: int) -> float:
    """b12, b13, b24, b25 read afresh: a die passes at or under step + modifier, a 6 never,
    a 1 always; the test passes when any die does. Every combination of faces counted."""
    need = step + min(0, modifier)

    def passes(face: int) -> bool:
        return face == 1 or (face != 6 and face <= need)

    rolls = list(itertools.product(range(1, 7), repeat=dice))
    return sum(any(passes(f) for f in roll) for roll in rolls) / len(rolls)


# -- one percent format --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("p", "shown"),
    [
        (1.0, "100%"),
        (0.0, "0%"),
        (0.995, "99.5%"),
        (0.9999, ">99.9%"),
        (0.004, "0.4%"),
        (0.0004, "<0.1%"),
        (0.5, "50%"),
        (0.875, "88%"),
    ],
)
def test_one_percent_format_only_a_sure_thing_reads_100(p, shown):
    assert percent(p) == shown


def test_the_sides_chances_use_the_same_format():
    assert line({"A": 0.9999, "B": 0.0001}, {"A": "Reds", "B": "Blues"}) == (
        "Reds >99.9% · Blues <0.1%"
    )


# -- Squad Alpha: die picks, moves into contact, the card ----------------------------------


def test_squad_alpha_die_picks_state_the_step_and_its_chance():
    state = make_state(SPOTS, a="e4 r1 c0", b="e4 r1 c0")
    state.initiative = "B"
    script = Script(choices=["by_hand", "6", "1"])
    script.run(Sub(attribute(state, "A", [1, 3, 6])))
    picks = [r for r in script.requests if isinstance(r, Choice) and r.prompt.startswith("Which")]
    first = picks[0]  # the elite's die: 3 dice
    labels = {o.key: o.label for o in first.options}
    assert labels["3"] == f"3: acts at step 3, needs 3 or less: {percent(1 - (1 / 2) ** 3)}"
    assert labels["3"].endswith("88%")
    for face in (1, 3, 6):
        chance = squad_test_by_count(3, face, 0)
        assert labels[str(face)].endswith(f": {percent(chance)}")
    assert labels["6"] == "6: acts at step 6, needs 5 or less: 99.5%"  # 6-6-6 fails (b13)


def test_squad_alpha_die_picks_count_a_negative_rating():
    state = make_state(SPOTS.replace(".3.", ".34"), a="r1 c0 c0 c0", b="e4 r1 c0")
    state.mini("A3").alive = state.mini("A4").alive = False  # rating 1 - 2 = -1 (b23, b24)
    assert state.modifier("A") == -1
    script = Script(choices=["by_hand", "3"])
    script.run(Sub(attribute(state, "A", [3, 5])))
    pick = next(r for r in script.requests if isinstance(r, Choice) and r.prompt.startswith("Wh"))
    labels = {o.key: o.label for o in pick.options}
    assert (
        labels["3"]
        == f"3: acts at step 3, needs 2 or less: {percent(squad_test_by_count(2, 3, -1))}"
    )
    assert labels["5"].endswith(f"needs 4 or less: {percent(squad_test_by_count(2, 5, -1))}")


def test_squad_alpha_a_move_into_contact_states_the_free_melee_chance():
    state = make_state(
        """
        ........
        .1......
        ........
        ...a....
        ........
        ........
        """,
        a="r4 r1",
        b="e4 r1",
    )
    state.step = 4
    mini = state.mini("A1")
    contact = next(d for d in destinations(state, mini) if d.tag.startswith("contact:"))
    label = move_option(state, mini, contact.label, contact.point).label
    assert label.endswith(f"free melee on E1 (b17): kills {percent(squad_test_by_count(2, 4, 0))}")
    far = next(d for d in destinations(state, mini) if d.tag == "stay")
    assert "free melee" not in move_option(state, mini, far.label, far.point).label


def test_squad_alpha_card_shows_the_miniatures_own_die_and_test():
    state = make_state(SPOTS, a="e4 r1 c0", b="e4 r1 c0")
    state.step = 5
    state.mini("A1").die, state.mini("A2").die = 6, 2
    state.mini("A2").acted = True
    shown = text_of(squad_view.mini_card(state, state.mini("A1")))
    chance = percent(squad_test_by_count(3, 6, 0))
    assert f"acts at step 6: 5 or less on a die ({chance})" in shown and chance == "99.5%"
    assert "step 5" not in shown
    assert "acted at step 2 this turn" in text_of(squad_view.mini_card(state, state.mini("A2")))


def test_squad_alpha_card_in_melee_says_it_may_only_fight():
    state = make_state(
        """
        ........
        ........
        ...1....
        ...a....
        ........
        ........
        """
    )
    state.mini("A1").pos = state.mini("B1").pos.offset(0, 1.0)
    assert state.contacts(state.mini("A1"))
    shown = text_of(squad_view.mini_card(state, state.mini("A1")))
    assert "must fight, no move or shot (b18)" in shown
    assert "moves up to" not in shown and "shoots" not in shown
    free = make_state(SPOTS, a="e4 r1 c0", b="e4 r1 c0")
    assert 'moves up to 4" (b14)' in text_of(squad_view.mini_card(free, free.mini("A1")))


def play_squad_alpha(seeds: Any, controller: Any, observe: Any = None) -> None:
    """Seeded two-turn games of the default squads, each side played by `controller()`."""
    from tests.test_cards_truthful import play

    play(RULESET, seeds, observe, controller, max_turns=2)


def test_squad_alpha_to_act_list_drops_who_acted_as_the_game_goes():
    """The screen draws a board again only when the game's state JSON changes: over seeded
    games, a squad's `to act:` line drawn for one state JSON is the line every state with
    that JSON shows, and it lists exactly the miniatures still to act."""
    drawn: dict[str, list[str]] = {}
    checked = 0

    def observe(entry: dict, game: Any) -> None:
        nonlocal checked
        state = game.state
        if state.phase == "deployment":
            return
        lines = [text_of(squad_view._squad_line(state, state.squads[s])) for s in ("A", "B")]
        key = json.dumps(game.state_json(), sort_keys=True)
        assert drawn.setdefault(key, lines) == lines
        for side, shown in zip(("A", "B"), lines, strict=True):
            waiting = shown.split("to act:")[1].split() if "to act:" in shown else []
            expected = [m.label for m in state.squads[side].living if m.die and not m.acted]
            assert waiting == expected
        checked += 1

    play_squad_alpha(range(3), BotController, observe)
    assert checked > 100


# -- Mobs and Morale: attack odds, one option per mob, the character's card -----------------


def mobs_damage_by_count(dice: int, die: int, success_on: int, defence: int) -> list[float]:
    """e12-e14 read afresh: every face of the Fierce dice, then every face of the defence
    dice for the successes rolled, counted; the chance of each amount of damage."""
    chances = [0.0] * (dice + 1)
    for attack in itertools.product(range(1, die + 1), repeat=dice):
        pool = sum(f >= success_on for f in attack)
        blocks = list(itertools.product(range(1, die + 1), repeat=pool))
        for block in blocks:
            damage = pool - sum(f >= defence for f in block)
            chances[damage] += 1 / die**dice / len(blocks)
    return chances


def at_least(chances: list[float], points: int) -> float:
    return sum(chances[points:])


@pytest.mark.parametrize(("dice", "defence"), [(1, 8), (2, 5), (3, 8)])
def test_mobs_attack_odds_match_a_count_of_every_face(dice, defence):
    from wargame_cli.rulesets.mobs_and_morale import odds as mobs_odds

    counted = mobs_damage_by_count(dice, 10, 6, defence)
    for points in range(dice + 2):
        exact = mobs_odds.damage_at_least(dice, 10, 6, defence, points)
        assert exact == pytest.approx(at_least(counted + [0.0], points), abs=1e-12)


def mobs_battle(a: str, b: str):
    from tests.test_mobs_and_morale_rules import battle

    return battle(a=a, b=b)


def turn_menu(b, unit: str) -> Choice:
    from wargame_cli.rulesets.mobs_and_morale.turns import take_turn

    from tests.test_mobs_and_morale_rules import run

    script = run(take_turn(b, unit), faces=[1] * 40, choices=["end"])
    return next(r for r in script.requests if isinstance(r, Choice) and r.kind == "turn")


def red_spears():
    from tests.test_mobs_and_morale_rules import place

    b = mobs_battle("Brakka=Warrior", "Ugrak=Chieftain, Red=3 Tribal Warrior under Ugrak")
    place(b, Brakka=(10, 10), Ugrak=(30, 20))
    place(b, Red_1=(10, 11.05), Red_2=(11.2, 11.05), Red_3=(12.4, 11.05))
    return b


def test_mobs_a_character_attacks_a_mob_as_one_option_with_its_odds():
    b = red_spears()
    menu = turn_menu(b, "Brakka")
    attacks = [o for o in menu.options if o.key.startswith("attack:")]
    assert [o.key for o in attacks] == ["attack:mob:Red"]  # not Red 1 and Red 2 apart
    red = b.creatures["Red 1"]
    kill = at_least(mobs_damage_by_count(4, 10, 6, red.defence), red.health)
    assert attacks[0].label == (
        f"Attack Red (4 dice; 2 figures in reach, health {red.health}, defence {red.defence}; "
        f"kills {percent(kill)})"
    )


def test_mobs_version_2_still_lists_each_figure_in_reach():
    b = red_spears()
    b.rules_version = 2
    keys = [o.key for o in turn_menu(b, "Brakka").options if o.key.startswith("attack:")]
    assert keys == ["attack:Red 1", "attack:Red 2"]


def test_mobs_the_owner_picks_the_figure_of_a_mob_attacked_as_one():
    from wargame_cli.rulesets.mobs_and_morale import combat

    from tests.test_mobs_and_morale_rules import run

    b = red_spears()
    brakka = b.creatures["Brakka"]
    script = run(
        combat.attack(b, [brakka], "mob:Red", "Brakka"), faces=[9] * 4 + [1] * 4, choices=["Red 2"]
    )
    [pick] = [r for r in script.requests if isinstance(r, Choice)]
    assert pick.side == "B" and [o.key for o in pick.options] == ["Red 1", "Red 2"]
    assert [b.creatures[f"Red {i}"].status for i in (1, 2, 3)] == ["standing", "dead", "standing"]


def test_mobs_a_wound_short_of_a_kill_states_both():
    from tests.test_mobs_and_morale_rules import place

    b = mobs_battle("Brakka=Warrior", "Ugrak=Chieftain")
    place(b, Brakka=(10, 10), Ugrak=(10, 11.05))
    [attack] = [o for o in turn_menu(b, "Brakka").options if o.key == "attack:Ugrak"]
    ugrak = b.creatures["Ugrak"]
    counted = mobs_damage_by_count(4, 10, 6, ugrak.defence)
    assert attack.label.endswith(
        f"; wounds {percent(at_least(counted, 1))}, kills {percent(at_least(counted, 8))})"
    )
    assert ugrak.health == 8 and at_least(counted, 8) == 0.0
    assert attack.label.endswith("kills 0%)")  # 4 dice cannot deal 8


def test_mobs_a_characters_card_has_no_morale_a_minions_has_its_mobs():
    from wargame_cli.rulesets.mobs_and_morale import view as mobs_view

    b = red_spears()
    brakka = text_of(mobs_view.creature_card(b, b.creatures["Brakka"]))
    assert "morale" not in brakka
    minion = text_of(mobs_view.creature_card(b, b.creatures["Red 1"]))
    assert f"morale   {b.mobs['Red'].morale}, its mob's (e24)" in minion


def test_mobs_a_move_into_terrain_claims_no_cover():
    from wargame_cli.rulesets.mobs_and_morale import moves

    from tests.test_mobs_and_morale_rules import CLEARING, battle, place

    b = battle(a="Brakka=Warrior", b="Ugrak=Chieftain", table=CLEARING)
    assert b.table.pieces
    for piece in b.table.pieces:
        spot = piece.rect.centre
        place(b, Brakka=(spot.x, max(1.0, spot.y - 4)), Ugrak=(1, 23))
        labels = [d.label for d in moves.destinations(b, b.creatures["Brakka"])]
        assert not any("cover" in label for label in labels), labels


# -- move lists without noise --------------------------------------------------------------


PLAIN = ("toward", "away", "north", "east", "south", "west")


def assert_tidy(start: Any, menu: list[Any]) -> None:
    """No plain move (toward, away, compass) under 0.5" or within 1" of an earlier contact
    or plain move, but for the first toward spot (a bot's pick, always listed)."""
    from wargame_cli.tabletop.destinations import NEAR, NEGLIGIBLE

    listed: list[Any] = []
    first_toward = True
    for d in menu:
        kind = d.tag.split(":")[0]
        if kind == "contact":
            listed.append(d.point)
        elif kind in PLAIN:
            if not (kind == "toward" and first_toward):
                assert start.distance(d.point) >= NEGLIGIBLE, d
                assert all(d.point.distance(q) >= NEAR for q in listed), (d, menu)
            first_toward = first_toward and kind != "toward"
            listed.append(d.point)


def test_squad_alpha_move_menu_has_no_negligible_or_near_duplicate_moves():
    """Over seeded bot games, every move menu a person would read is tidy."""
    menus = 0

    class Reader(BotController):
        def choose(self, choice: Any, game: Any) -> str:
            nonlocal menus
            if choice.kind == "move":
                mini = game.state.mini(game.state.acting)
                assert_tidy(mini.pos, destinations(game.state, mini))
                menus += 1
            return super().choose(choice, game)

    play_squad_alpha(range(2), Reader)
    assert menus > 5


def test_mobs_character_move_menu_is_tidy():
    """Over seeded bot games of Mobs and Morale, every character's move menu is tidy (no four
    `Toward Bone Shields 1..4` a step apart)."""
    from wargame_cli.rulesets.mobs_and_morale import moves
    from wargame_cli.rulesets.mobs_and_morale.ruleset import RULESET as MOBS

    menus = 0

    class Reader(BotController):
        def choose(self, choice: Any, game: Any) -> str:
            nonlocal menus
            name = choice.prompt.split(":")[0]
            if choice.kind == "move" and name in game.state.creatures:
                c = game.state.creatures[name]
                assert_tidy(c.pos, moves.destinations(game.state, c))
                menus += 1
            return super().choose(choice, game)

    options = resolve_options(MOBS.options, {"max_rounds": 3})
    teams = {s: MOBS.default_team(s, options)[0] for s in ("A", "B")}
    for seed in range(2):
        controllers = {s: Reader() for s in ("A", "B")}
        start(
            MOBS, Setup({"A": "Party", "B": "GM"}, teams), options, seed, controllers=controllers
        ).runner.run()
    assert menus > 5


# -- The Battle of Ixu: attributions and attacks state their chances -----------------------


def ixu_hits_by_count(dice: int, die: int, defence: int) -> list[float]:
    """c6 read afresh: every face of the combat dice counted; a die beats a defence when it
    shows more (strictly)."""
    chances = [0.0] * (dice + 1)
    rolls = list(itertools.product(range(1, die + 1), repeat=dice))
    for roll in rolls:
        chances[sum(f > defence for f in roll)] += 1 / len(rolls)
    return chances


def test_ixu_attribution_states_the_hit_and_defence_chances():
    from tests.test_battle_of_ixu_rules import Kinds, face_off, game

    g = game("Ajax:3", "Bron:4")
    face_off(g)
    # order: Bron first (9 against 5), then Ajax
    faces = [5, 9, 6, 5, 2, 1, 6, 4, 1]
    script = Kinds(faces, attribute=["2,6,5"])
    choice = script.run(
        g,
        until=lambda r: isinstance(r, Choice) and r.kind == "attribute" and "Ajax" in r.prompt,
    )
    bron = g.state.get("B1")
    assert bron.dice is not None and bron.dice.defence == 5
    labels = {o.key: o.label for o in choice.options}
    hit = 1 - ixu_hits_by_count(4, 6, 5)[0]
    beaten = sum(f > 1 for f in range(1, 7)) / 6
    assert labels["1,4,6"] == (
        f'move 1", combat 4 dice (hit Bron {percent(hit)}), defence 6 (beaten 0% a die)'
    )
    assert labels["6,4,1"] == (
        f'move 6", combat 4 dice (hit Bron {percent(hit)}), '
        f"defence 1 (beaten {percent(beaten)} a die)"
    )


def test_ixu_attack_odds_match_a_count_of_every_face():
    from wargame_cli.rulesets.battle_of_ixu import odds as ixu_odds

    for dice, defence in ((1, 3), (3, 4), (4, 2)):
        counted = ixu_hits_by_count(dice, 6, defence)
        for hits in range(dice + 1):
            exact = ixu_odds.hits_at_least(dice, 6, defence, hits)
            assert exact == pytest.approx(sum(counted[hits:]), abs=1e-12)


# -- Squad Alpha's builder: any miniature changed or removed; counts typed -----------------


class Picks:
    """Answers a team builder from a list of keys (each checked as the runner checks it)."""

    by = "script"

    def __init__(self, keys: list[str]) -> None:
        self.keys = list(keys)
        self.asked: list[Choice] = []

    def choose(self, choice: Choice, game: Any) -> str:
        self.asked.append(choice)
        key = self.keys.pop(0)
        assert choice.legal(key) is None, (key, choice.legal(key))
        return key

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        raise AssertionError(f"{key!r} refused: {reason}")


def build(keys: list[str]) -> tuple[list[Any], Picks]:
    from wargame_cli.engine.bots import run_builder

    options = resolve_options(RULESET.options, None)
    picks = Picks(keys)
    return run_builder(RULESET.build_team("A", options), picks), picks


def test_squad_alpha_builder_changes_and_removes_any_miniature():
    typed = ["build", "Rook elite 4", "2x Grunt c 0", "Hawk regular 2", "Kid c 1"]
    team, picks = build(
        [*typed, "edit", "edit:1", "Bruno regular 1", "edit", "edit:2", "remove", "Tiny c 0"]
        + ["done"]
    )
    names = [m["name"] for m in team["miniatures"]]
    assert names == ["Rook", "Bruno", "Hawk", "Kid", "Tiny"]  # Grunt 1 changed, Grunt 2 gone
    assert team["miniatures"][1] == {"name": "Bruno", "training": "regular", "rating": 1}
    which = next(c for c in picks.asked if c.prompt.startswith("change or remove which"))
    assert [o.key for o in which.options][:5] == [f"edit:{i}" for i in range(5)]


def test_squad_alpha_builder_refuses_a_change_that_breaks_a_rule():
    options = resolve_options(RULESET.options, None)
    from wargame_cli.rulesets.squad_alpha.teams import Soldier, _edit

    soldiers = [Soldier("Rook", "elite", 4), Soldier("Hawk", "regular", 2)]
    gen = _edit("A", soldiers, options)
    gen.send(None)
    change = gen.send("edit:1")
    assert "two miniatures are named Rook" in (change.legal("Rook elite 3") or "")
    assert change.legal("Hawk elite 3") is None  # it may keep its own name
    assert change.legal("2x Grunt c 0") is None  # counts read as everywhere
    try:
        gen.send("2x Grunt c 0")
    except StopIteration as done:
        assert [s.name for s in done.value] == ["Rook", "Grunt 1", "Grunt 2"]
    else:
        raise AssertionError("the edit did not end")


def test_squad_alpha_melee_target_and_miss_victim_options_state_their_chances():
    from tests.test_squad_alpha_rules import MELEE, act, asked
    from wargame_cli.tabletop.geometry import Point

    state = make_state(MELEE, a="e4 r1 r1", b="e4 r1")
    state.mini("B1").pos = Point(6.5, 3.5)
    state.mini("A2").pos, state.mini("A3").pos = Point(5.5, 3.5), Point(7.5, 3.5)
    script = act(state, "A1", 2, faces=[5, 5, 5], choices=["shoot:B1", "A3"])
    miss = asked(script)[-1]
    assert [o.label for o in miss.options] == ["R2 (regular; dies 100%)", "R3 (regular; dies 100%)"]
    # B1, in contact with R2 and R3, must fight one (b18): each kill is its test at step 3
    state = make_state(MELEE, a="e4 r1 r1", b="e4 r1")
    state.mini("B1").pos = Point(6.5, 3.5)
    state.mini("A2").pos, state.mini("A3").pos = Point(5.5, 3.5), Point(7.5, 3.5)
    script = act(state, "B1", 3, faces=[6, 6, 6], choices=["A2"])
    pick = next(c for c in asked(script) if c.kind == "melee")
    kills = percent(squad_test_by_count(3, 3, 0))
    assert [o.label for o in pick.options] == [
        f"R2 (regular; kills {kills})",
        f"R3 (regular; kills {kills})",
    ]


def test_the_cards_odds_line_keeps_words_whole_and_reads_as_the_menu():
    """The card's `odds:` line names each option by its label cut at a word, and gives its
    chances as the menu writes them (`>99.9%`, never a bare `99.9%` for it)."""
    from wargame_cli.engine.requests import Option, choice
    from wargame_cli.ui.facts import odds

    asked = choice(
        "A",
        "how?",
        [
            Option("a", 'move 4", combat 3 dice, defence 2 (beaten 67% a die)'),
            Option("b", 'move 5", combat 5 dice (hit Tuze >99.9%)'),
        ],
        default="a",
    )
    line = odds(asked)
    assert line is not None
    text = line.plain
    assert 'move 4": defence 2 (beaten 67% a die)' in text and "…" not in text
    assert 'move 5": combat 5 dice (hit Tuze >99.9%)' in text


@pytest.mark.parametrize(
    ("label", "shown"),
    [
        # a chance never reads as another part's: the defence's is the defence's
        (
            'move 6", combat 2 dice (hit Eyox 75%), defence 1 (beaten 83% a die); ignore 1',
            'move 6": combat 2 dice (hit Eyox 75%), defence 1 (beaten 83% a die)',
        ),
        ('Move (up to 4" if the test passes: 58%)', 'Move: up to 4" if the test passes: 58%'),
        (
            "Attack Tuze (defence 2: 3-6 hit; 10 health left; a hit 89%, kills 0.1%)",
            "Attack Tuze: a hit 89%, kills 0.1%",
        ),
        ("3: acts at step 3, needs 3 or less: 88%", "3: needs 3 or less: 88%"),
        (
            "Toward Hudson (12,3): in the open, seen by Bo; free melee on Hudson (b17): kills 58%",
            "Toward Hudson: free melee on Hudson: kills 58%",
        ),
        (
            'Shoot Bo (12.3", Hedge: save 5+; kills 40%; in melee, a miss hits Al)',
            "Shoot Bo: kills 40%",
        ),
        (
            "Bolt: attack Red 2 (4 dice; health 1, defence 8; kills >99.9%)",
            "Bolt: attack Red 2 (kills >99.9%)",
        ),
        (  # a name cut at a word leaves no word hanging (`tries to`)
            "A2 Swordsmen tries to retreat to a2: 1d20 + Mv 1 must beat 1d20 + Mv 1 (48%)",
            "A2 Swordsmen: 1d20 + Mv 1 must beat 1d20 + Mv 1 (48%)",
        ),
    ],
)
def test_the_cards_odds_line_says_what_each_chance_is_of(label, shown):
    """Each chance keeps the words of its label that say what it is the chance of: `67%`
    beside `combat 3 dice` would read as the attack's when it is the defence's."""
    from wargame_cli.engine.requests import Option, choice
    from wargame_cli.ui.facts import odds

    line = odds(choice("A", "how?", [Option("a", label)], default="a"))
    assert line is not None and line.plain == f"odds: {shown}"
