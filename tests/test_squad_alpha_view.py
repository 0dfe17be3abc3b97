"""What a Squad Alpha player sees: the board (map, rosters, legend) drawn before a person's
decisions and once per step for onlookers, never a wall of maps; dice and decisions not echoed."""

from __future__ import annotations

from typing import Any

from rich.console import Console, Group
from wargame_cli.rulesets.squad_alpha import view
from wargame_cli.rulesets.squad_alpha.ruleset import RULESET

from tests.test_squad_alpha_rules import make_state
from tests.view_helpers import Watching
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.session import start
from wargame_cli.ruleset import Setup, resolve_options
from wargame_cli.tabletop.geometry import Point

NAMES = {"A": "Alpha Squad", "B": "Bravo Squad"}


class Person:
    """Answers like a person pressing Enter: the suggestion, recorded as a human's."""

    by = "human"

    def choose(self, choice: Any, game: Any) -> str:
        return choice.default

    def refused(self, choice: Any, key: str, reason: str) -> None:
        raise AssertionError(reason)


def boards_in(shown: Any) -> int:
    if isinstance(shown, view.Board):
        return 1
    if isinstance(shown, Group):
        return sum(boards_in(r) for r in shown.renderables)
    return 0


def standing(game: Any) -> dict[str, Any]:
    return {m.id: m.pos for m in game.state.all_minis() if m.alive and m.pos is not None}


def watch(seed: int, people: set[str], max_turns: int = 4) -> list[tuple[dict, Any, dict]]:
    """A game through the view: each log entry, what the view shows for it, and where the
    miniatures stood on the last board drawn (for a decision: also where they stand now,
    under "now"; a decision's entry is logged before it changes anything)."""
    options = resolve_options(RULESET.options, {"max_turns": max_turns})
    teams = {s: RULESET.default_team(s, options)[0] for s in ("A", "B")}
    seen: list[tuple[dict, Any, dict]] = []
    last: dict[str, Any] = {}

    players = {s: "human" if s in people else "bot" for s in ("A", "B")}
    watching = Watching(view.VIEW, players)

    def observe(entry: dict, game: Any) -> None:
        shown = watching(entry, game.state, NAMES)
        if boards_in(shown):
            last.clear()
            last.update(standing(game))
        seen.append((entry, shown, {"drawn": dict(last), "now": standing(game)}))

    controllers = {s: Person() if s in people else BotController() for s in ("A", "B")}
    session = start(
        RULESET, Setup(NAMES, teams), options, seed, controllers=controllers, observer=observe
    )
    session.runner.run()
    return seen


def per_turn(seen: list[tuple[dict, Any, dict]]) -> list[int]:
    counts = [0]
    for entry, shown, _ in seen:
        if entry["t"] == "turn":
            counts.append(0)
        counts[-1] += boards_in(shown)
    return counts


def test_dice_and_decisions_are_not_echoed():
    for entry, shown, _ in watch(5, {"A"}, max_turns=2):
        if entry["t"] in ("roll", "choice"):
            assert shown is False, entry


def test_a_person_always_decides_on_a_board_showing_where_the_enemies_stand():
    decisions = 0
    for entry, _, where in watch(11, {"A"}):
        if entry["t"] != "choice" or entry["kind"] not in ("action", "deploy"):
            continue
        if entry["by"] != "human":
            continue
        decisions += 1
        enemies = {k: v for k, v in where["now"].items() if k.startswith("B")}
        assert {k: where["drawn"].get(k) for k in enemies} == enemies, entry
    assert decisions > 10


def test_the_board_is_drawn_at_most_once_a_step_not_at_every_activation():
    for people in (set(), {"A"}, {"B"}):
        seen = watch(3, people)
        deployment, *turns = per_turn(seen)
        activations = sum(e["t"] == "event" and e["kind"] == "activate" for e, _, _ in seen)
        assert deployment <= 8  # the person's placements only, one a round
        assert all(n <= 7 for n in turns), turns  # start of turn + one a step at most
        assert sum(turns) < activations
    onlookers = per_turn(watch(3, set()))
    assert onlookers[0] <= 2  # the empty table, the deployed table


def render(renderable: Any, width: int) -> list[str]:
    console = Console(width=width, record=True, color_system=None)
    console.print(renderable)
    return console.export_text().splitlines()


def test_the_board_puts_the_rosters_beside_the_map_or_under_it_when_narrow():
    options = resolve_options(RULESET.options, {"max_turns": 1})
    teams = {s: RULESET.default_team(s, options)[0] for s in ("A", "B")}
    session = start(RULESET, Setup(NAMES, teams), options, 2)
    session.runner.run()
    board = view.board(session.game.state)
    wide = render(board, 130)
    row = next(line for line in wide if line.startswith("│  23"))
    assert "name" in row[60:]  # the rosters on the same lines as the map
    narrow = render(board, 80)
    rows = [line for line in narrow if line.startswith("│ ")]
    assert len({len(line.rstrip()) for line in rows[:24]}) == 1  # the map is not squeezed
    assert any(line.startswith("Alpha Squad") for line in narrow)
    text = "\n".join(wide)
    for needle in ("a Farmhouse", "h Crates", "cover from view (soft)", "die", "status"):
        assert needle in text, needle


def test_within_a_step_only_an_enemy_move_redraws_the_board():
    state = make_state(
        """
        ........
        .a...b..
        ........
        ........
        .1...2..
        ........
        """
    )
    state.step = 3

    watching = Watching(view.VIEW, {"A": "human", "B": "bot"})

    def show(kind: str, **data: Any) -> int:
        entry = {"t": "event", "text": kind, "kind": kind, "data": data}
        return boards_in(watching(entry, state, NAMES))

    assert show("step", step=3, order=[["A", ["A1", "A2"]], ["B", ["B1"]]]) == 1
    assert show("activate", id="A1") == 0  # nothing moved since
    state.mini("A1").pos = Point(1.5, 3.5)  # its own move
    state.mini("B2").alive = False  # a fall
    assert show("activate", id="A2") == 0
    state.mini("B1").pos = Point(2.5, 4.5)  # an enemy moved
    assert show("activate", id="A2") == 1
    state.step = 4
    state.mini("B1").pos = Point(3.5, 4.5)
    assert show("step", step=4, order=[["B", ["B1"]], ["A", ["A1"]]]) == 0  # the bot acts first
    assert show("activate", id="B1") == 0  # the bot's activation: a line
    assert show("activate", id="A1") == 1  # the person's first decision in the step


def test_a_card_names_the_asked_sides_miniature_when_both_squads_share_names():
    """Both sides field miniatures of the same names (the same ready squad twice): the card
    of side A's question is A's miniature, of side B's question B's."""
    from types import SimpleNamespace

    from rich.console import Console

    state = make_state("........\n........\n...b....\n........\n........\n........\n")
    assert state.mini("A2").name == state.mini("B2").name == "R2"
    state.mini("A2").pos = None  # A's R2 still to deploy; B's stands on the table
    for side, told in (("A", "not deployed yet"), ("B", "in the open")):
        choice = SimpleNamespace(
            prompt=f"{side}: where does R2 deploy?",
            side=side,
            kind="deploy",
            options=(),
            free_hint=None,
        )
        console = Console(width=200, record=True, color_system=None)
        console.print(view.card(state, choice))
        shown = console.export_text()
        assert f"{side}2 R2" in shown and told in shown, shown
