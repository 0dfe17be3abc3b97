"""`wargame simulate` Monte Carlo: the lean driver plays the Runner's games, seeded runs are
reproducible with any number of workers, and the command's JSON and errors are clean."""

from __future__ import annotations

import json

import pytest
from wargame_cli.rulesets.tug_of_wargods import rules as tug_rules

from wargame_cli import registry
from wargame_cli.engine.fast import face_source, play_fast, stream_seed
from wargame_cli.engine.session import bot_game
from wargame_cli.ruleset import SIDES, Ruleset, Setup, resolve_options
from wargame_cli.simulate import batch
from wargame_cli.simulate.summary import summarise

TUG = "tug-of-wargods"
IDS = [info.id for info in registry.all_infos()]


def default_job(ruleset_id: str, games: int, seed: int, options=None) -> batch.Job:
    ruleset = registry.get(ruleset_id)
    opts = resolve_options(ruleset.options, options)
    teams, names = {}, {}
    for side in SIDES:
        teams[side], names[side] = ruleset.default_team(side, opts)
    return batch.Job(ruleset_id, Setup(names=names, teams=teams), opts, seed, games)


@pytest.mark.parametrize("ruleset_id", IDS)
def test_lean_driver_plays_the_runners_game(ruleset_id):
    """Fed `face_source(S)`, the driver with seeded dice and the bots plays the game
    `wargame play ID --no-input --seed S` plays."""
    ruleset = registry.get(ruleset_id)
    job = default_job(ruleset_id, 1, 0)
    for index in range(3 if ruleset_id == TUG else 1):  # some skirmish games take a second
        seed = stream_seed(99, index)
        played = play_fast(ruleset.new_game(job.setup, job.options), face_source(seed))
        session = bot_game(ruleset, seed)
        assert played.outcome == session.runner.outcome
        assert played.turns == session.runner.turn


def test_tug_fast_play_is_the_same_game_as_play_for_many_seeds():
    ruleset = registry.get(TUG)
    for options in (None, {"rounding": "down"}, {"spacing": 0.0}, {"tie_penalty_stacks": True}):
        job = default_job(TUG, 1, 0, options)
        for seed in range(200):
            fast_game = ruleset.new_game(job.setup, job.options)
            win, turns = tug_rules.fast_play(fast_game.state, face_source(seed))
            slow_game = ruleset.new_game(job.setup, job.options)
            slow = play_fast(slow_game, face_source(seed))
            assert (tug_rules.outcome_of(win), turns) == slow
            assert fast_game.state_json() == slow_game.state_json()


def test_stream_seeds_depend_on_seed_and_index_only():
    seeds = [stream_seed(7, i) for i in range(10_000)]
    assert seeds == [stream_seed(7, i) for i in range(10_000)]
    assert len(set(seeds)) == len(seeds)
    assert all(0 < s < 2**63 for s in seeds)
    assert stream_seed(8, 0) != stream_seed(7, 0)


@pytest.mark.parametrize("games", [1, 7, 100, 101, 99_999, 250_000])
def test_chunks_cover_every_game_once_in_order(games):
    parts = list(batch.chunks(games))
    assert parts[0][0] == 0 and parts[-1][1] == games
    assert all(a[1] == b[0] for a, b in zip(parts, parts[1:], strict=False))
    assert len(parts) <= max(100, games // 1000 + 1)


def test_same_seed_same_result_and_other_seed_differs():
    ruleset = registry.get(TUG)
    first = batch.run(default_job(TUG, 600, 5), ruleset)
    again = batch.run(default_job(TUG, 600, 5), ruleset)
    other = batch.run(default_job(TUG, 600, 6), ruleset)
    assert first.results == again.results
    assert first.results != other.results
    assert first.games == 600


@pytest.mark.parametrize("ruleset_id", IDS)
def test_workers_give_the_one_worker_result(ruleset_id):
    ruleset = registry.get(ruleset_id)
    games = 2000 if ruleset_id == TUG else 2 * batch.MIN_CHUNK  # two chunks at least
    one = batch.run(default_job(ruleset_id, games, 3), ruleset, workers=1)
    heard: list[int] = []
    two = batch.run(default_job(ruleset_id, games, 3), ruleset, workers=2, progress=heard.append)
    assert summarise(one) == summarise(two)
    assert one.figures == two.figures
    assert sum(heard) == games


def test_figures_come_from_the_hook_or_outcome_data():
    class Hooked(Ruleset):
        def sim_figures(self, game, outcome):
            return {"survivors": {"A": 2, "B": 0}, "note": "text", "flag": True}

    class Plain(Ruleset):  # the hook's default: the numbers in the outcome's data
        pass

    class Out:
        data = {"rounds": 7, "by": {"A": 1.5}, "standing": {"A": ["x", "y"], "B": []}, "w": "A"}

    assert batch.game_figures(Hooked(), None, Out()) == {"survivors.A": 2.0, "survivors.B": 0.0}
    assert batch.game_figures(Plain(), None, Out()) == {
        "rounds": 7.0,
        "by.A": 1.5,
        "standing.A": 2.0,
        "standing.B": 0.0,
    }

    class Nothing:
        data = None

    assert batch.game_figures(Plain(), None, Nothing()) == {}


# -- through the real command ---------------------------------------------------------------
def run_json(wargame, *args):
    done = wargame("simulate", *args, "--json")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    return json.loads(done.stdout)


def test_cli_json_shape_and_reproducibility_with_workers(wargame):
    one = run_json(wargame, TUG, "--games", "3000", "--seed", "21")
    again = run_json(wargame, TUG, "--games", "3000", "--seed", "21", "--workers", "2")
    assert one == again
    assert one["games"] == 3000
    assert set(one["wins"]) == {"A", "B", "draw"}
    assert sum(one["wins"].values()) == 3000
    assert one["win_rate"]["A"] == one["wins"]["A"] / 3000
    for side in SIDES:
        lo, hi = one["ci95"][side]
        assert lo < one["win_rate"][side] < hi
    assert {"mean", "sd", "min", "median", "p90", "max"} <= set(one["turns"])
    # by cause, then rule point (issue 12, item 15)
    assert set(one["endings"]["A"]) <= {
        "two of the loser's models across (a17)",
        "a loser's model pulled across twice (a18)",
    }
    assert one["seed"] == 21
    assert one["teams"]["A"]["team"] == {"models": ["Sebeki", "Asar", "Asar"]}


def test_cli_teams_and_options_are_used(wargame):
    out = run_json(
        wargame,
        TUG,
        "--games",
        "400",
        "--seed",
        "2",
        "--team-a",
        "Beloved of Sobek, Sebeki, Sebeki",
        "--team-b",
        "Satyr x3",
        "--option",
        "rounding=down",
    )
    assert out["options"]["rounding"] == "down"
    assert out["wins"]["A"] > 390


def test_cli_without_seed_reports_the_drawn_one(wargame):
    out = run_json(wargame, TUG, "--games", "50")
    again = run_json(wargame, TUG, "--games", "50", "--seed", str(out["seed"]))
    assert again["wins"] == out["wins"]


@pytest.mark.parametrize("ruleset_id", [i for i in IDS if i != TUG])
def test_cli_skirmish_rulesets_simulate(wargame, ruleset_id):
    out = run_json(wargame, ruleset_id, "--games", "1", "--seed", "4")
    assert out["games"] == 1
    assert sum(out["wins"].values()) == 1


def test_cli_human_report(wargame):
    done = wargame("simulate", TUG, "--games", "300", "--seed", "1", "--exact")
    assert done.returncode == 0, done.stderr
    for needle in (
        "300 bot-vs-bot games",
        "95% interval",
        "Greentoe",
        "Game length",
        "How the games ended",
        "a17",
        "Exact odds",
        "0.902523",
    ):
        assert needle in done.stdout
    assert done.stderr == ""  # no progress bar without a terminal


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (("nope", "--games", "5"), "unknown ruleset 'nope'"),
        ((TUG, "--games", "5", "--team-a", "Sebeki,Sebeki,Sebeki"), "at most 2 d10"),
        ((TUG, "--games", "5", "--team-b", "Gandalf,Asar,Asar"), "unknown unit"),
        ((TUG, "--games", "0"), "--games 0"),
        ((TUG, "--games", "-3"), "--games -3"),
        ((TUG, "--games", "5", "--workers", "0"), "--workers 0"),
        ((TUG,), "--games N"),
        ((TUG, "--games", "5", "--option", "rounding=up"), "rounding"),
        ((TUG, "--matrix", "--team-a", "Sebeki,Asar,Asar"), "--matrix"),
        ((TUG, "--games", "many"), "--games"),
    ],
)
def test_cli_bad_input_is_one_line_and_exit_2(wargame, args, needle):
    done = wargame("simulate", *args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1, done.stderr
    assert "Traceback" not in done.stderr
    assert needle in lines[0]
    assert done.stdout == ""


def test_cli_exact_needs_a_ruleset_that_has_it(wargame):
    without = [i for i in IDS if not hasattr(registry.get(i), "odds")]
    if not without:
        pytest.skip("every registered ruleset computes exact odds")
    done = wargame("simulate", without[0], "--exact")
    assert done.returncode == 2
    assert "no exact odds" in done.stderr


@pytest.mark.pty
def test_progress_bar_on_a_terminal(tmp_path):
    import pexpect

    from tests.pty_helpers import spawn

    child = spawn(
        ["simulate", TUG, "--games", "3000", "--seed", "1", "--workers", "2"],
        str(tmp_path),
        str(tmp_path / "saves"),
        timeout=60,
    )
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "/3000" in child.before  # the bar's "done/total" column
    assert "95% interval" in child.before


def test_tug_fast_games_are_the_games_play_gives_one_after_another():
    """`fast_games` redeploys one state game after game; fed one face stream, it gives what
    fresh `play()` games fed the same stream give, in order."""
    ruleset = registry.get(TUG)
    for options in (None, {"rounding": "down", "start": 2.0}, {"tie_penalty_stacks": True}):
        job = default_job(TUG, 1, 0, options)
        many = ruleset.fast_games(job.setup, job.options, face_source(5))
        fast = [next(many) for _ in range(300)]
        below = face_source(5)
        slow = [play_fast(ruleset.new_game(job.setup, job.options), below) for _ in range(300)]
        assert [(o.winner, o.reason, o.rules, t) for o, t in fast] == [
            (p.outcome.winner, p.outcome.reason, p.outcome.rules, p.turns) for p in slow
        ]
