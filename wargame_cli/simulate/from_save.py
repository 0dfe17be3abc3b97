"""Odds from a saved position: the saved log replayed, then the game finished by bots with
fresh seeded dice, many times (`simulate ID --from SAVE`, `replay --odds N`, reports).

Every game is the saved game up to the position: the rules are fed the log's own answers
(faces and decisions) and only then draw new dice and take the bots' suggestions, so the
position is the rules' own, whatever the ruleset keeps in its state.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from wargame_cli import history
from wargame_cli.engine.fast import stream_seed
from wargame_cli.simulate import batch

DRAW = "draw"


def job_from(h: history.History, turn: int | None, seed: int, games: int) -> batch.Job:
    """The simulation job that finishes the saved game from the end of `turn` (None: from
    the end of the log)."""
    session = h.session
    start = history.resumed(session, h.log if turn is None else h.cut(turn))
    return batch.Job(
        session.ruleset.id,
        session.setup,
        session.options,
        seed,
        games,
        answers=start.answers,
        at=start.at,
    )


def chances(tally: batch.Tally) -> dict[str, float]:
    games = tally.games
    wins = {"A": 0, "B": 0, DRAW: 0}
    for (winner, _, _), count in tally.results.items():
        wins[winner if winner is not None else DRAW] += count
    return {side: wins[side] / games for side in wins}


def odds_by_turn(
    save_path: Path | str,
    games: int = 8,
    seed: int = 1,
    workers: int = 1,
    progress: Callable[[int], None] | None = None,
) -> list[dict[str, Any]]:
    """Each side's chance at the end of every turn of a save (turn 0: the deployment).

    Rulesets with exact odds from a position (Tug of WarGods) give them exactly
    (`"method": "exact"`); the others from `games` bot completions per turn, each turn's
    dice from its own stream of `seed` (`"method": "bots"`). A finished game's last turn
    is certain. Rows: `{"turn", "A", "B", "draw", "method", "games"}`.
    """
    exact: dict[int, dict[str, float]] = {}
    odds = exact_odds(Path(save_path))

    def at_turn_end(turn: int, game: Any) -> None:
        if odds is not None:
            exact[turn] = odds.chance_from_state(game.state)

    h = history.load(Path(save_path), on_turn_end=at_turn_end)
    rows: list[dict[str, Any]] = []
    for mark in h.turns:
        rows.append(odds_at(h, mark.turn, games, seed, workers, exact.get(mark.turn)))
        if progress is not None:
            progress(mark.turn)
    return rows


def odds_at(
    h: history.History,
    turn: int,
    games: int,
    seed: int,
    workers: int = 1,
    exact: dict[str, float] | None = None,
) -> dict[str, Any]:
    """One row of `odds_by_turn`: the chance at the end of `turn`, from the `exact` chance
    when given, else from `games` bot completions (the same dice as `odds_by_turn`'s)."""
    row: dict[str, Any] = {"turn": turn}
    runner = h.session.runner
    if turn == h.last and runner.finished:
        winner = runner.outcome.winner if runner.outcome else None
        row.update({"A": 0.0, "B": 0.0, DRAW: 0.0, "method": "result", "games": 0})
        row[winner if winner is not None else DRAW] = 1.0
    elif exact is not None:
        row.update(exact, method="exact", games=0)
    else:
        job = job_from(h, turn, stream_seed(seed, turn), games)
        tally = batch.run(job, h.session.ruleset, workers)
        row.update(chances(tally), method="bots", games=games)
    return row


def exact_odds(save_path: Path) -> Any:
    """The save's ruleset's exact odds (its `odds()` hook, with `chance_from_state(state,
    options)`), or None when it has none."""
    from wargame_cli import registry
    from wargame_cli.saves import store

    ruleset_id = (store.read_raw(save_path).get("ruleset") or {}).get("id")
    if not isinstance(ruleset_id, str):
        return None  # the replay says what is wrong with the save
    return registry.get(ruleset_id).odds()
