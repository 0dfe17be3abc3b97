"""The balance lab's plans: which jobs a study plays (both seats, settings side by side, every
team against every other) and what their tallies come to. Pure: no terminal, no processes
(`batch.run_all` plays the jobs; the CLI shows the results)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from wargame_cli.ruleset import Setup
from wargame_cli.simulate import seats
from wargame_cli.simulate.batch import Job, Tally
from wargame_cli.simulate.settings import Setting
from wargame_cli.simulate.stats import holm, paired_difference
from wargame_cli.simulate.summary import summarise


def exchanged(setup: Setup) -> Setup:
    """The same match-up with the teams in each other's seats."""
    return Setup(
        names={"A": setup.names["B"], "B": setup.names["A"]},
        teams={"A": setup.teams["B"], "B": setup.teams["A"]},
    )


def is_mirror(setup: Setup, levels: dict[str, str] | None = None) -> bool:
    """The same team on both sides, played by the same bots: only the seat differs."""
    same_bots = not levels or levels.get("A") == levels.get("B")
    return bool(setup.teams["A"] == setup.teams["B"]) and same_bots


def seat_family(seats_found: list[dict[str, Any]], level: float = 0.95) -> dict[str, Any]:
    """Several seat tests in one run: at 95% each, about one in twenty flags a seat by chance
    alone, so the run also says which flag at a family-wise 95% (Holm's correction: the
    chance that any fair seat is flagged stays under 5%; Bonferroni's level is each test at
    1 - 0.05 / k, which Holm never does worse than)."""
    alpha = 1 - level
    count = len(seats_found)
    return {
        "tests": count,
        "level": level,
        "flagged": sum(1 for s in seats_found if not s["fair"]),
        "expected_by_chance": alpha * count,
        "bonferroni_level": 1 - alpha / count,
        "holm_flagged": holm([s["p"] for s in seats_found], alpha),
    }


# -- both seats -------------------------------------------------------------------------
def swap_jobs(job: Job) -> list[Job]:
    """Half the games as given, half with the teams exchanged (the first half's odd game
    too); the second half draws the dice streams after the first's, so a mirror's two halves
    are different games."""
    first = (job.games + 1) // 2
    second = job.games - first
    jobs = [replace(job, games=first)]
    if second:
        jobs.append(replace(job, setup=exchanged(job.setup), games=second, offset=first))
    return jobs


def swap_result(tallies: list[Tally]) -> dict[str, Any]:
    """The teams' results over both seats (A is the team given for side A), and the seat's
    own advantage."""
    merged = Tally()
    merged.merge(tallies[0])
    for tally in tallies[1:]:
        merged.merge(seats.by_team(tally))
    return {
        **summarise(merged),
        "seat_advantage": seats.seat_advantage(tallies).as_json(),
        "seats": [summarise(t) for t in tallies if t.games],
    }


def mirror_result(tally: Tally) -> dict[str, Any]:
    """A mirror match tells the seat's advantage by itself."""
    return {**summarise(tally), "seat_advantage": seats.seat_advantage([tally]).as_json()}


# -- settings side by side ----------------------------------------------------------------
@dataclass(frozen=True)
class Planned:
    """A setting with the setup its options allow (a team is checked against them)."""

    setting: Setting
    setup: Setup


def setting_jobs(
    ruleset_id: str,
    planned: list[Planned],
    seed: int,
    games: int,
    levels: dict[str, str] | None = None,
) -> list[Job]:
    """Every setting on the same seeds, a dice stream per game: common random numbers."""
    return [
        Job(ruleset_id, p.setup, p.setting.options, seed, games, paired=True, levels=levels)
        for p in planned
    ]


def settings_result(
    planned: list[Planned], tallies: list[Tally], levels: dict[str, str] | None = None
) -> list[dict[str, Any]]:
    """Per setting its summary and, after the first, its difference from the first in side
    A's win rate and in game length, paired game by game (95% intervals); a mirror's
    setting its seat advantage too."""
    rows = []
    first = tallies[0]
    for p, tally in zip(planned, tallies, strict=True):
        row: dict[str, Any] = {
            "setting": p.setting.changed,
            "label": p.setting.label,
            "options": p.setting.options,
            **summarise(tally),
        }
        if p.setting.teams:  # the teams it plays: a team's text, as read
            row["teams"] = {side: p.setup.teams[side] for side in sorted(p.setting.teams)}
        if is_mirror(p.setup, levels):
            row["seat_advantage"] = seats.seat_advantage([tally]).as_json()
        if tally is not first:
            row["difference"] = difference(first, tally)
        rows.append(row)
    return rows


def difference(first: Tally, then: Tally) -> dict[str, Any]:
    """`then - first` in side A's win rate and in game length, over the games both played
    (a run Ctrl-C stopped may have played fewer of one)."""
    n = min(len(first.sequence), len(then.sequence))
    if n < 2:
        return {}
    a0 = [1.0 if w == "A" else 0.0 for w, _ in first.sequence[:n]]
    a1 = [1.0 if w == "A" else 0.0 for w, _ in then.sequence[:n]]
    t0 = [float(t) for _, t in first.sequence[:n]]
    t1 = [float(t) for _, t in then.sequence[:n]]
    return {
        "games": n,
        "win_rate_a": paired_difference(a0, a1).as_json(),
        "turns": paired_difference(t0, t1).as_json(),
    }


# -- every team against every other -------------------------------------------------------
def matrix_jobs(
    ruleset_id: str,
    entries: list[tuple[str, Any]],
    options: dict[str, Any],
    seed: int,
    games: int,
    levels: dict[str, str] | None = None,
) -> list[Job]:
    """Each pair of teams (i before j) `games` times, half with each in seat A: jobs come in
    pairs per match-up, each pair on its own dice streams."""
    jobs: list[Job] = []
    for i, (name_i, team_i) in enumerate(entries):
        for name_j, team_j in entries[i + 1 :]:
            setup = Setup(names={"A": name_i, "B": name_j}, teams={"A": team_i, "B": team_j})
            offset = len(jobs) // 2 * games
            job = Job(ruleset_id, setup, options, seed, games, offset=offset, levels=levels)
            jobs.extend(_both(job))
    return jobs


def _both(job: Job) -> list[Job]:
    pair = swap_jobs(job)
    return pair if len(pair) == 2 else [*pair, replace(job, games=0)]


def matrix_result(names: list[str], tallies: list[Tally]) -> dict[str, Any]:
    """`score[i][j]`: team i's share against team j over both seats (a draw counts half);
    ranked by the mean share against every other team."""
    count = len(names)
    score: list[list[float | None]] = [[None] * count for _ in range(count)]
    pairs = iter(zip(tallies[::2], tallies[1::2], strict=True))
    for i in range(count):
        for j in range(i + 1, count):
            as_a, as_b = next(pairs)
            merged = Tally()
            merged.merge(as_a)
            merged.merge(seats.by_team(as_b))
            share = _share(merged)
            score[i][j], score[j][i] = share, None if share is None else 1 - share
    strength = [_mean([s for s in row if s is not None]) if count > 1 else 0.5 for row in score]
    order = sorted(range(count), key=lambda i: (-strength[i], i))
    return {
        "teams": names,
        "score": score,
        "strength": strength,
        "ranking": [names[i] for i in order],
        "seat_advantage": seats.seat_advantage(tallies).as_json(),
    }


def _share(tally: Tally) -> float | None:
    games = tally.games
    if not games:
        return None
    a = sum(c for (w, _, _), c in tally.results.items() if w == "A")
    draws = sum(c for (w, _, _), c in tally.results.items() if w is None)
    return (a + draws / 2) / games


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else 0.5


# -- every ready team against itself --------------------------------------------------------
def mirror_jobs(
    ruleset_id: str,
    entries: list[tuple[str, Any]],
    options: dict[str, Any],
    seed: int,
    games: int,
    levels: list[str],
    default: str,
) -> list[Job]:
    """Each ready team against itself at each level; every level plays the same seeds (game
    i of a team draws the same dice at every level), each team its own."""
    jobs = []
    for level in levels:
        bots = None if level == default else {"A": level, "B": level}
        for n, (name, team) in enumerate(entries):
            setup = Setup(names={"A": name, "B": name}, teams={"A": team, "B": team})
            jobs.append(Job(ruleset_id, setup, options, seed, games, offset=n * games, levels=bots))
    return jobs


def mirrors_result(
    entries: list[tuple[str, Any]], levels: list[str], tallies: list[Tally]
) -> dict[str, Any]:
    """Each mirror's seat test, and the family of them (`seat_family`)."""
    rows = []
    found = iter(tallies)
    for level in levels:
        for name, _ in entries:
            tally = next(found)
            if not tally.games:
                continue
            seat = seats.seat_advantage([tally]).as_json()
            rows.append({"team": name, "level": level, "games": tally.games, **seat})
    out: dict[str, Any] = {"mirrors": rows}
    if len(rows) > 1:
        out["seat_tests"] = seat_family(rows)
    return out
