"""A replay runs no bot: `replay --verify` (and `resume`, which replays first) enters a
ruleset's bot module only where the rules themselves need the bot's judgement, and a choice
judged without its menu gets the label the menu gives."""

from __future__ import annotations

import json
import sys
from collections import Counter
from typing import Any

import pytest

from wargame_cli import registry
from wargame_cli.engine.bots import BotController
from wargame_cli.engine.fast import face_source, play_fast
from wargame_cli.engine.session import bot_game, start
from wargame_cli.ruleset import SIDES, Setup, resolve_options
from wargame_cli.saves import games, seal
from wargame_cli.tabletop.geometry import Point

BOTS = {
    "seeds-of-wars": "rulesets/seeds_of_wars/bot.py",
    "battle-of-ixu": "rulesets/battle_of_ixu/bot.py",
    "mobs-and-morale": "rulesets/mobs_and_morale/bot.py",
    "squad-alpha": "rulesets/squad_alpha/bot.py",
}
# Where the rules need the bot: Seeds of Wars' `auto_attack` makes a side's one possible
# attack unasked only if the bot would make it; Squad Alpha's "suggested" attribution is the
# bot's plan, which the choice applies and its label spells out.
NEEDED = {
    "seeds-of-wars": {("best_melee", "<lambda>"), ("best_shot", "<lambda>")},
    "squad-alpha": {("attribution", "<lambda>")},
}


def _bot_entries(ruleset_id: str, run) -> Counter:
    """(bot function, caller) for each call into the bot module from outside it."""
    bot_file = BOTS[ruleset_id]
    entered: Counter = Counter()

    def watch(frame, event, arg):
        if event == "call" and frame.f_code.co_filename.endswith(bot_file):
            caller = frame.f_back
            if caller is not None and not caller.f_code.co_filename.endswith(bot_file):
                entered[(frame.f_code.co_name, caller.f_code.co_name)] += 1

    sys.setprofile(watch)
    try:
        run()
    finally:
        sys.setprofile(None)
    return entered


@pytest.mark.parametrize("ruleset_id", sorted(BOTS))
def test_verify_enters_the_bot_only_where_the_rules_need_it(tmp_path, ruleset_id):
    session = bot_game(registry.get(ruleset_id), seed=7)
    path = tmp_path / "game.json"
    games.save(session, path)
    played = _bot_entries(ruleset_id, lambda: bot_game(registry.get(ruleset_id), seed=7))
    assert sum(played.values()) > 20  # the watch sees the bot when it does run
    replayed = _bot_entries(ruleset_id, lambda: games.verify(path))
    assert set(replayed) <= NEEDED.get(ruleset_id, set()), replayed
    if ruleset_id == "squad-alpha":  # the plan is worked out once per "suggested" answer
        kept = [e for e in session.runner.log if e["t"] == "choice" and e["key"] == "suggested"]
        assert replayed[("attribution", "<lambda>")] == len(kept) > 0


def _choices(ruleset_id: str, seed: int, visit) -> None:
    """`visit` each question of a seeded bot game as the rules ask it, before it is answered."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, None)
    teams = {s: ruleset.default_team(s, options)[0] for s in SIDES}
    game = ruleset.new_game(Setup({"A": "A", "B": "B"}, teams), options)
    play_fast(game, face_source(seed), on_choice=visit)


@pytest.mark.parametrize("seed", [2, 5])
@pytest.mark.parametrize("ruleset_id", sorted(BOTS))
def test_keys_judged_without_the_menu_read_as_the_menu_reads(ruleset_id, seed):
    """Wherever a choice can label a key without its menu (`describe`), every key the menu
    lists is labelled exactly as in the menu, and a key the menu refuses is refused by
    `legal` with the same reason: a replay that skips the menu accepts nothing it refuses."""
    seen = Counter()

    def look(req) -> None:
        if req.describe is None:
            return
        for option in req.options:
            assert req.describe(option.key) == option.label, req.prompt
            assert req.legal(option.key) == option.disabled, req.prompt
        assert req.label_of(req.default) == next(
            o.label for o in req.options if o.key == req.default
        )
        seen[req.kind] += 1

    _choices(ruleset_id, seed, look)
    assert seen["move"] > 10 or ruleset_id == "seeds-of-wars"


class _Typist(BotController):
    """The bot, but the first move and the first deployment spot are typed: a legal spot
    near the suggestion that the menu does not list."""

    by = "human"

    def __init__(self) -> None:
        self.typed: dict[str, tuple[str, str]] = {}  # kind -> (key, label)

    def choose(self, choice, game):
        if choice.free_hint != "x,y" or choice.kind in self.typed:
            return choice.default
        listed = {o.key for o in choice.options}
        best = Point.parse(choice.default)
        for dx, dy in ((0.3, 0.1), (-0.3, 0.1), (0.1, -0.3), (-0.1, 0.3), (0.6, 0), (0, -0.6)):
            key = Point(round(best.x + dx, 1), round(best.y + dy, 1)).key()
            if key not in listed and choice.legal(key) is None:
                self.typed[choice.kind] = (key, choice.label_of(key))
                return key
        return choice.default


def _typed_game() -> tuple[Any, _Typist]:
    """A Squad Alpha turn whose side A typed its first deployment spot and first move."""
    ruleset = registry.get("squad-alpha")
    options = resolve_options(ruleset.options, None)
    teams = {s: ruleset.default_team(s, options)[0] for s in SIDES}
    typist = _Typist()
    session = start(
        ruleset,
        Setup({"A": "Reds", "B": "Blues"}, teams),
        options,
        seed=4,
        controllers={"A": typist, "B": BotController()},
    )
    session.runner.run(stop_after_turn=1)
    return session, typist


def test_typed_squad_alpha_spots_are_labelled_like_listed_ones_and_verify(tmp_path, wargame):
    """A spot typed in is labelled with what standing there means (as the menu labels the
    spots it lists), so `replay --verify` labels it again without the bot or the menu."""
    session, typist = _typed_game()
    assert set(typist.typed) == {"move", "deploy"}
    key, label = typist.typed["move"]
    assert f'" away ({key}): ' in label
    key, label = typist.typed["deploy"]
    assert label.startswith(f"{key}: ") and "from your edge" in label
    path = tmp_path / "typed.json"
    games.save(session, path)
    recorded = [e["label"] for e in session.runner.log if e["t"] == "choice" and e["by"] == "human"]
    assert {label for _, label in typist.typed.values()} <= set(recorded)
    result = wargame("replay", str(path), "--verify")
    assert result.returncode == 0, result.stderr
    assert "verified" in result.stdout.lower()


def test_an_older_versions_wording_is_named_as_such_not_as_an_edit(tmp_path, wargame):
    """Version 3 of Squad Alpha labelled a typed spot with the spot alone: its saves still
    replay and verify, with a note of the lines this build words otherwise, not "edited"."""
    session, typist = _typed_game()
    path = tmp_path / "typed.json"
    games.save(session, path)
    data = json.loads(path.read_text())
    data["ruleset"]["version"] = "3"
    typed = {key for key, _ in typist.typed.values()}
    for entry in data["log"]:
        if entry["t"] == "choice" and entry["key"] in typed:
            entry["label"] = entry["key"]
    older = tmp_path / "older.json"
    older.write_text(json.dumps(seal.sealed(data)))
    assert wargame("replay", str(older), "--no-input").returncode == 0
    result = wargame("replay", str(older), "--verify")
    assert result.returncode == 0, result.stderr
    assert f"{len(typed)} line" in result.stdout and "worded differently" in result.stdout
    assert "the record was edited" not in result.stdout and "edited:" not in result.stdout
