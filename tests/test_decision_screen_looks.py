"""At a decision, "Look…": the cards say what is true now. In Squad Alpha the miniature
activating now is "acting now" on its card, never "acted" (its `acted` flag is already set
while it acts), and no miniature that has yet to act is marked "acted"."""

from __future__ import annotations

import re

from rich.console import Console

from wargame_cli import registry
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.dice import RngDice
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.session import start
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.ui.screen import DecisionScreen

PLAIN = re.compile(r"\x1b\[[0-9;]*m")


def status_of(screen: DecisionScreen, look) -> str:
    lines = [PLAIN.sub("", line) for line in screen.look_lines(look, 80)]
    [status] = [line for line in lines if line.strip().startswith("status")]
    return status


def test_squad_alpha_look_cards_show_the_acting_miniature_acting_not_acted():
    ruleset = registry.get("squad-alpha")
    options = resolve_options(ruleset.options, None)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, options)
    screen = DecisionScreen(ruleset, names, Console(force_terminal=True))
    bots = {side: BotController() for side in SIDES}
    session = start(ruleset, Setup(names=names, teams=teams), options, 3, RngDice(3), bots, None)
    runner = session.runner
    runner.observer = screen.observe
    checked = 0
    while runner.outcome is None and checked < 5:
        state = screen.state
        if isinstance(runner.pending, Choice) and state is not None and state.acting:
            acting = state.mini(state.acting)
            assert acting.acted  # the rules have already marked it: the card must not say so
            looks = {look.title: look for look in screen.looks(runner.pending)}
            [title] = [t for t in looks if t.startswith(f"{acting.label} ")]
            assert "acting now" in status_of(screen, looks[title])
            for m in state.all_minis():
                [other] = [t for t in looks if t.startswith(f"{m.label} ")]
                if m.id != acting.id and not m.acted:
                    assert "acted" not in status_of(screen, looks[other])
            checked += 1
        runner.step()
    assert checked == 5


def test_squad_alpha_attributing_dice_shows_the_deciding_squad_not_the_enemy_leader():
    from wargame_cli.rulesets.squad_alpha import view

    from tests.view_helpers import at_decisions, text_of

    def attribution_card(state, choice, names):
        if choice.kind != "attribute":
            return None
        other = "B" if choice.side == "A" else "A"
        ours = [m.name for m in state.squads[choice.side].living]
        theirs = [m.name for m in state.squads[other].living]
        # one miniature's die asked by hand: that miniature's card alone
        one = state.squads[choice.side].living[1]
        by_hand = Choice(
            choice.side, f"Which die for {one.name}? Left: 1 2", (), "1", kind="attribute"
        )
        single = "\n".join(text_of(view.card(state, by_hand, names), 100))
        assert one.name in single and not any(n in single for n in ours if n != one.name)
        return ours, theirs, "\n".join(text_of(view.card(state, choice, names), 100))

    seen = [x for x in at_decisions("squad-alpha", attribution_card, seed=3) if x is not None]
    assert seen, "no attribution question in the game"
    for ours, theirs, card in seen:
        assert all(name in card for name in ours)
        assert not any(name in card for name in theirs)
