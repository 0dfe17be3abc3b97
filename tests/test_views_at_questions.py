"""What the views show at a question: in a mirror match (both sides field the same squad or
warband, so each name stands twice) the card and the map's piece are the deciding side's own;
the map's key says how the sides deploy only while they deploy."""

from __future__ import annotations

from typing import Any

import pytest

from tests.view_helpers import text_of
from wargame_cli import registry
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.requests import Choice
from wargame_cli.engine.session import start
from wargame_cli.ruleset import Setup, resolve_options


def _mirror(ruleset_id: str, seed: int, limit: int = 60) -> list[tuple[Choice, Any, Any]]:
    """(question, card text, map facts) at the decisions of a bot game whose sides both
    field side B's ready team, each side's asking about one of its own pieces by name."""
    ruleset = registry.get(ruleset_id)
    opts = resolve_options(ruleset.options, {})
    team, name = ruleset.default_team("B", opts)
    view = ruleset.view()
    out: list[tuple[Choice, Any, Any]] = []

    class Watcher(BotController):
        def choose(self, choice: Choice, game: Any) -> str:
            if len(out) < limit:
                names = {"A": name, "B": f"{name} (B)"}
                shown = view.card(game.state, choice, names)
                said = " ".join(text_of(shown, 200)) if shown is not None else ""
                out.append((choice, said, view.map_facts(game.state, names, choice)))
            return choice.default

    setup = Setup({"A": name, "B": f"{name} (B)"}, {"A": team, "B": team})
    start(ruleset, setup, opts, seed, controllers={s: Watcher() for s in "AB"}).runner.run()
    return out


@pytest.mark.parametrize("ruleset_id", ["squad-alpha", "battle-of-ixu"])
def test_a_mirror_match_shows_the_deciding_sides_own_piece(ruleset_id):
    checked = 0
    for choice, said, facts in _mirror(ruleset_id, 3):
        if facts.origin is None or choice.kind in ("attribute", "target"):
            continue
        assert facts.origin.side == choice.side, (choice.prompt, facts.origin)
        assert f"[{choice.side}] " in said, (choice.prompt, said)
        checked += 1
    assert checked >= 5


@pytest.mark.parametrize("ruleset_id", ["battle-of-ixu", "mobs-and-morale", "squad-alpha"])
def test_the_maps_key_says_how_sides_deploy_only_while_deploying(ruleset_id):
    """Once the turns begin the key shows what applies now: no deployment words."""
    from tests.view_helpers import at_decisions
    from wargame_cli.tabletop.grid import cut
    from wargame_cli.ui.map import key_items

    def seen(state: Any, choice: Choice, names: Any) -> tuple[str, str]:
        view = registry.get(ruleset_id).view()
        facts = view.map_facts(state, names, choice)
        return getattr(state, "phase", ""), " ".join(key_items(cut(facts, 1, 1)))

    found = at_decisions(ruleset_id, seen, limit=40)
    later = [key for phase, key in found if phase not in ("setup", "deployment")]
    assert later
    assert not any("deploy" in key for key in later), later[0]


def test_the_who_legend_names_the_pieces_the_question_names_first_at_80x24():
    """The Battle of Ixu's map names a warrior with its side (`B1 Eyox (Swords)`); the
    question says `Attack Eyox`: a `who:` legend short of room names Eyox among the first,
    not in `+N more`."""
    from tests.view_helpers import watched_game

    screen, runner = watched_game("battle-of-ixu", 4)
    for _ in range(600):
        pending = runner.pending
        if isinstance(pending, Choice) and "fight whom?" in pending.prompt:
            break
        if isinstance(pending, Choice):
            screen.mark(pending.side)
        runner.step()
    else:
        raise AssertionError("no fight came")
    labels = " ".join(o.label for o in pending.options)
    targets = [
        f"{w.id} {w.name}" for w in runner.game.state.warriors if f"Attack {w.name} " in labels
    ]
    assert targets
    layout = screen.compose(80, 24, 1, 4, pending, pending.side)  # the list: 4 rows
    who = [line for line in layout.lines if "who:" in line]
    assert who and "more (Look…)" in who[0], "\n".join(layout.lines)  # short of room
    for target in targets:
        assert target in who[0], who[0]
