"""Issue 21, item 5: a piece's card states its own state after it acted (no reach after a
move, no fight it cannot have), checked against the log of seeded games, not against the
fields the card is drawn from."""

from __future__ import annotations

import re
from typing import Any

from rich.console import Console

from wargame_cli.engine.bots import BotController
from wargame_cli.engine.session import start
from wargame_cli.ruleset import Ruleset, Setup, resolve_options
from wargame_cli.tabletop.geometry import Point
from wargame_cli.wording import percent


def text_of(renderable: Any, width: int = 200) -> str:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text()


def play(
    ruleset: Ruleset,
    seeds: Any,
    observe: Any = None,
    controller: Any = BotController,
    team_a: str | None = None,
    **options: Any,
) -> None:
    """Seeded games of the default teams (side A's `team_a` preset if given), each side played
    by `controller()`, `observe(entry, game)` after every entry."""
    opts = resolve_options(ruleset.options, options)
    teams = {s: ruleset.default_team(s, opts)[0] for s in ("A", "B")}
    if team_a is not None:
        found = ruleset.preset_named(team_a, opts)
        assert found is not None
        teams["A"] = found[0]
    for seed in seeds:
        start(
            ruleset,
            Setup({"A": "Reds", "B": "Blues"}, teams),
            opts,
            seed,
            controllers={s: controller() for s in ("A", "B")},
            observer=observe,
        ).runner.run()


# -- The Battle of Ixu ----------------------------------------------------------------------


def test_ixu_card_shows_how_far_a_model_moved_never_its_reach_after_it():
    """c5: once a model has moved (or stood fast) its card says so, and from then on no card
    offers a move; before, it gives the movement die. c6: whom it attacked, or that it held
    back, once it has; c8: a damaged model's card gives the health check's chance."""
    from wargame_cli.rulesets.battle_of_ixu import view
    from wargame_cli.rulesets.battle_of_ixu.ruleset import RULESET

    moved: dict[str, float] = {}
    attacked: dict[str, str] = {}
    seen = {"moved": 0, "to move": 0, "attacked": 0, "check": 0}

    def observe(entry: dict[str, Any], game: Any) -> None:
        state = game.state
        data = entry.get("data") or {}
        kind = entry.get("kind") if entry.get("t") == "event" else None
        if kind == "order":
            moved.clear()
            attacked.clear()
        if kind in ("move", "charge", "stand"):
            moved[data["model"]] = data["inches"]
        if kind == "attack":
            attacked[data["attacker"]] = data["target"]
        for w in state.standing():
            shown = text_of(view.warrior_card(state, w))
            if w.dice is None:
                continue
            if state.phase == "movement":  # a later mover may still charge it (c5, c6)
                assert "no fight this turn" not in shown, shown
            if w.name in moved:
                assert "up to" not in shown, shown
                inches = min(moved[w.name], float(w.dice.movement))
                said = f'{inches:g}" this turn' if inches else "no, it stood fast"
                assert re.search(rf"moved +{re.escape(said)}", shown), shown
                seen["moved"] += 1
            elif state.phase in ("attribution", "movement"):
                assert f'moves up to {w.dice.movement}" this turn (c5)' in shown, shown
                seen["to move"] += 1
            else:
                assert "up to" not in shown, shown
            if w.name in attacked:
                assert f"attacked {attacked[w.name]} this turn (c6)" in shown, shown
                seen["attacked"] += 1
            if kind == "wound" and data["target"] == w.name:
                falls = percent(min(1.0, w.damage / 10))
                assert f"falls on a d10 of {w.damage} or less ({falls}) (c8)" in shown
                seen["check"] += 1

    play(RULESET, range(1), observe)
    assert all(count > 0 for count in seen.values()), seen


# -- Squad Alpha ----------------------------------------------------------------------------


def test_squad_alpha_card_of_a_miniature_that_acted_offers_no_move_or_shot():
    """b10, b11: a miniature activates once a turn; once it has (the log says it activated),
    its card offers no move or shot until the next turn; one still to act gives its reach."""
    from wargame_cli.rulesets.squad_alpha import view
    from wargame_cli.rulesets.squad_alpha.ruleset import RULESET

    activated: set[str] = set()
    seen = {"acted": 0, "to act": 0}

    def observe(entry: dict[str, Any], game: Any) -> None:
        state = game.state
        kind = entry.get("kind") if entry.get("t") == "event" else None
        if kind == "initiative":
            activated.clear()
        if kind == "activate":
            activated.add(entry["data"]["id"])
        for m in state.all_minis():
            if not m.alive or m.pos is None or state.contacts(m) or m.id == state.acting:
                continue
            shown = text_of(view.mini_card(state, m, state.acting))
            if m.die is None:  # between turns: the next turn's dice are not attributed yet
                continue
            if m.id in activated:
                assert "acted this turn: no move or shot until the next (b10, b11)" in shown
                assert "moves up to" not in shown, shown
                seen["acted"] += 1
            else:
                assert 'moves up to 4" (b14) or shoots' in shown, shown
                seen["to act"] += 1

    play(RULESET, range(1), observe, max_turns=2)
    assert all(count > 0 for count in seen.values()), seen


# -- Mobs and Morale ------------------------------------------------------------------------


def test_mobs_card_after_a_move_or_an_act_offers_only_what_is_left():
    """e8: a creature or mob moves and acts once each in its turn; once the log shows it
    moved, its card offers no move, once it attacked (or took another action) no act, and
    once it ended its turn, that it is over (e10). Checked at every turn question (the one
    before it is done with by then)."""
    from wargame_cli.rulesets.mobs_and_morale import view
    from wargame_cli.rulesets.mobs_and_morale.ruleset import RULESET

    did: dict[str, set[str]] = {}
    pending: list[tuple[str, str]] = []  # the last turn decision, carried out by now
    seen = {"moved": 0, "acted": 0, "over": 0, "fresh": 0}

    def observe(entry: dict[str, Any], game: Any) -> None:
        b = game.state
        if entry["t"] == "turn" or b.round == 0:  # a new round, or a new game
            did.clear()
            pending.clear()
        if entry["t"] == "choice" and entry.get("kind") == "move":  # not moved before it has
            name = entry["prompt"].split(": ")[0]
            figure = b.creatures[name] if name in b.creatures else b.figures(b.mobs[name])[0]
            assert "moved" not in text_of(view.creature_card(b, figure))
        if entry["t"] != "choice" or entry.get("kind") != "turn":
            return
        for unit, done in pending:
            did.setdefault(unit, set()).add(done)
        pending.clear()
        for c in b.creatures.values():
            if not c.standing or c.pos is None:
                continue
            shown = text_of(view.creature_card(b, c))
            done = did.get(b.unit_of(c), set())
            if "over" in done or {"moved", "acted"} <= done:
                assert "its turn is over (e10)" in shown, shown
                seen["over"] += 1
            elif "moved" in done:
                assert "moved; may still act" in shown and f'moves {c.move:g}"' not in shown
                seen["moved"] += 1
            elif "acted" in done:
                assert f'acted; may still move up to {c.move:g}"' in shown, shown
                seen["acted"] += 1
            else:
                assert f'moves {c.move:g}", attacks within' in shown, shown
                seen["fresh"] += 1
        name = entry["prompt"].split(": ")[0]
        unit = f"mob:{name}" if name in b.mobs else name
        key = entry["key"]
        words = {"move": "moved", "other": "acted", "end": "over"}
        done = "acted" if key.startswith("attack:") else words.get(key)
        if done:
            pending.append((unit, done))

    play(RULESET, range(2), observe, max_rounds=3)
    assert all(count > 0 for count in seen.values()), seen


def test_ixu_move_menu_is_tidy():
    """Over seeded games, every Battle of Ixu move menu a person would read has no plain move
    under 0.5" or within 1" of one listed before it, and no way round a hair from a listed
    move (`Toward Eyox, 6.0"` beside `Round the way to Eyox, 6.0"` 0.05" off)."""
    from wargame_cli.rulesets.battle_of_ixu.movement import describe, destinations
    from wargame_cli.rulesets.battle_of_ixu.ruleset import RULESET

    from tests.test_odds_and_cards import assert_tidy

    menus = 0

    def observe(entry: dict[str, Any], game: Any) -> None:
        nonlocal menus
        state = game.state
        if entry["t"] != "event" or entry.get("kind") not in ("move", "stand", "charge"):
            return
        for w in state.in_order():
            menu = [d for d in destinations(state, w) if d.tag != "stay"]
            assert_tidy(w.pos, [d for d in menu if not d.tag.startswith("approach")])
            for d in menu:
                if d.tag.startswith("approach"):
                    assert all(d.point.distance(e.point) >= 1.0 for e in menu if e != d), menu
                assert describe(state, w, d.point.key()) == d.option().label
            menus += 1

    play(RULESET, range(3), observe)
    assert menus > 5


def test_mobs_mob_move_menu_has_no_negligible_or_near_duplicate_shifts():
    """A mob's move menu, as a person reads it, has no shift of the lead under 0.5" nor within
    1" of a shift listed before it (`East, 0.12"`, `South, 0.05"`); the bot's pick is listed
    and every plan left out still answers (a save that chose one replays)."""
    from wargame_cli.rulesets.mobs_and_morale import moves
    from wargame_cli.rulesets.mobs_and_morale.ruleset import RULESET as MOBS

    menus = 0

    class Reader(BotController):
        def choose(self, choice: Any, game: Any) -> str:
            nonlocal menus
            b = game.state
            name = choice.prompt.split(": ")[0]
            if choice.kind == "move" and name in b.mobs:
                start = moves.lead(b, b.mobs[name]).at
                shifts: list[Any] = []
                for option in choice.options:
                    if option.key.startswith("shift:"):
                        spot = Point.parse(option.key.removeprefix("shift:"))
                        assert start.distance(spot) >= 0.5, option
                        assert all(spot.distance(q) >= 1.0 for q in shifts), option
                        shifts.append(spot)
                for plan in moves.mob_plans(b, b.mobs[name]):
                    assert choice.legal(plan.key) is None, plan
                menus += 1
            key = super().choose(choice, game)
            if choice.kind == "move" and name in b.mobs:
                assert key in {o.key for o in choice.options}
            return key

    for team in ("The Hound Pack", "The Lantern Company"):
        play(MOBS, range(2), controller=Reader, team_a=team, max_rounds=3)
    assert menus > 5


# -- Seeds of Wars --------------------------------------------------------------------------


def test_seeds_card_offers_no_move_or_shot_it_cannot_make():
    """d8-d13: once the log shows a unit moved this round (or the movement step is over), its
    card offers no move; a unit sharing a space with an enemy (engaged) is offered no move
    (it leaves only by retreating, d13) and no shot; a shooter that shot offers no second."""
    from wargame_cli.rulesets.seeds_of_wars import view
    from wargame_cli.rulesets.seeds_of_wars.ruleset import RULESET

    moved: set[str] = set()
    shot: set[str] = set()
    hurt: set[str] = set()
    seen = {"moved": 0, "engaged": 0, "shot": 0, "free": 0, "morale": 0}

    def observe(entry: dict[str, Any], game: Any) -> None:
        battle = game.state
        kind = entry.get("kind") if entry["t"] == "event" else None
        data = entry.get("data") or {}
        if entry["t"] == "turn" or battle.round == 0:  # a new round, or a new game
            moved.clear()
            shot.clear()
            hurt.clear()
        if kind == "move":
            moved.add(data["unit"])
        if kind in ("hit", "miss") and battle.step == "ranged":
            shot.add(data["attacker"])
        if kind == "hit":
            hurt.add(data["target"])
        for u in battle.fighting():
            if u.space is None:
                continue
            shown = text_of(view.unit_card(battle, u))
            if battle.step == "over":
                assert "moves" not in shown and "none: the battle is over (d16)" in shown
                continue
            engaged = any(e.side != u.side for e in battle.at(u.space))
            if u.uid in moved or engaged or battle.step in ("ranged", "melee", "morale"):
                assert "no move: " in " ".join(shown.split()), shown
                seen["moved" if u.uid in moved else "engaged" if engaged else "free"] += 1
            if u.uid in hurt and battle.step in ("ranged", "melee"):  # d14: checked at step 6
                mo, taken = u.kind.mo, u.taken
                held = sum(face + mo - taken >= 10 for face in range(1, 21)) / 20
                assert f"Ht taken, 10 or more ({percent(held)}) (d14)" in shown, shown
                seen["morale"] += 1
            if u.kind.ra is not None and (engaged or u.uid in shot):
                assert "no shot: " in " ".join(shown.split()), shown
                seen["shot"] += u.uid in shot

    play(RULESET, range(2), observe)
    assert all(count > 0 for count in seen.values()), seen


def test_seeds_attack_and_retreat_options_state_their_chances():
    """d10, d12: an attack's label gives the chance its 1d20 need has; d13: the retreat's
    label the chance that 1d20 + Mv beats the attacker's outright (a tie fails), counted."""
    from wargame_cli.rulesets.seeds_of_wars.combat import beats, needs

    assert needs(4, 9) == "needs 6+ on 1d20 (75%)"  # 1d20 + 4 over 9: 6-20
    assert needs(0, 30) == "cannot hit" and needs(20, 5) == "hits on any roll"
    counted = sum(a + 1 > b + 3 for a in range(1, 21) for b in range(1, 21)) / 400
    assert beats(1, 3) == counted and percent(counted) == "38%"


def test_squad_alpha_card_at_where_to_offers_the_move_not_a_shot():
    """b11, b14: asked where to, the miniature has chosen to move and passed its test: the
    card above the question offers that move, not a shot."""
    from wargame_cli.rulesets.squad_alpha import view
    from wargame_cli.rulesets.squad_alpha.ruleset import RULESET

    asked = 0

    class Reader(BotController):
        def choose(self, choice: Any, game: Any) -> str:
            nonlocal asked
            if choice.kind == "move":
                shown = " ".join(text_of(view.card(game.state, choice)).split())
                assert 'moves up to 4" now: its move test passed (b14)' in shown, shown
                assert "shoots" not in shown, shown
                asked += 1
            return super().choose(choice, game)

    play(RULESET, range(2), controller=Reader, max_turns=2)
    assert asked > 3


def test_squad_alpha_card_in_melee_after_acting_says_when_it_fights():
    """b10, b18: a miniature in base contact that has acted this turn fights at its next
    activation, not now."""
    from wargame_cli.rulesets.squad_alpha import view

    from tests.test_squad_alpha_rules import make_state

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
    a1 = state.mini("A1")
    a1.pos = state.mini("B1").pos.offset(0, 1.0)
    a1.die, a1.acted = 3, True
    shown = " ".join(text_of(view.mini_card(state, a1)).split())
    assert "acted this turn; at its next activation it must fight, no move or shot (b18)" in shown
    a1.acted = False
    shown = " ".join(text_of(view.mini_card(state, a1)).split())
    assert "in base contact with B1" in shown and "acted this turn" not in shown
