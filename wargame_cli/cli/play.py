"""`wargame play` and `wargame resume`: set up who answers what, then run the game, saving
after every turn and on Ctrl-C."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from wargame_cli import registry
from wargame_cli.bots import base as bot_levels
from wargame_cli.cli.output import console, emit_json, interactive
from wargame_cli.engine import edits
from wargame_cli.engine.bots import run_builder
from wargame_cli.engine.dice import (
    AUTO,
    TYPED,
    DiceSource,
    RngDice,
    dice_words,
    parse_dice,
    parse_rolls,
    table_dice,
)
from wargame_cli.engine.requests import TAKE_BACK, TurnStart
from wargame_cli.engine.session import Session, draw_seed, start
from wargame_cli.errors import BadInput, Interrupted, NoTerminal
from wargame_cli.invoked import command
from wargame_cli.kit import unitstats
from wargame_cli.kit.sides import other
from wargame_cli.ruleset import SIDES, Ruleset, Setup, resolve_options, safeguards_for
from wargame_cli.saves import games, store
from wargame_cli.text import name_problem, shown
from wargame_cli.ui.names import distinct_default, same_name

AVOID = "pass --no-input (bots, default teams), or --team-a/--team-b with --bot A --bot B"


FIRST = (
    "nothing to take back: this is the first question, so there is no earlier answer to "
    "change (Ctrl-C leaves; nothing is saved yet)"
)


class QuitRequested(Exception):
    """The player chose "Save and quit" between turns."""


@dataclass
class PlayArgs:
    ruleset_id: str | None = None
    team_a: str | None = None
    team_b: str | None = None
    name_a: str | None = None
    name_b: str | None = None
    seed: int | None = None
    bots: list[str] = field(default_factory=list)
    bot_level: str | None = None  # `--bot-level`: how the computer plays (bots/)
    no_input: bool = False
    dice: str | None = None  # None: asked at setup when setup asks who plays, else auto
    rolls: str | None = None
    choices: str | None = None
    turns: int | None = None
    options: list[str] = field(default_factory=list)
    units: list[str] = field(default_factory=list)  # `--unit UNIT.STAT=VALUE`, as simulate's
    save: Path | None = None
    no_save: bool = False
    force: bool = False
    json_out: bool = False
    saves_dir: Path | None = None
    # a campaign's battle (`cli/campaign.py`): each side's team as its roster musters it
    # (JSON form, with its name), in place of `--team-a/--team-b`; `emit`: False, the caller
    # tells the result (no JSON of the game's own)
    ready: dict[str, tuple[Any, str]] = field(default_factory=dict)
    emit: bool = True


@dataclass
class ResumeArgs:
    path: Path
    bots: list[str] = field(default_factory=list)
    bot_level: str | None = None  # None: as the save was played
    no_input: bool = False
    dice: str | None = None  # None: as the save was played
    rolls: str | None = None
    choices: str | None = None
    turns: int | None = None
    json_out: bool = False


def _sides(values: list[str]) -> set[str]:
    out = set()
    for value in values:
        side = value.strip().upper()
        if side not in SIDES:
            raise BadInput(f"--bot {value!r}: a side is A or B")
        out.add(side)
    return out


def _need_terminal(what: str) -> None:
    if not interactive():
        raise NoTerminal(f"{what} needs a terminal, and there is none; {AVOID}")


def _prompter() -> Any:
    from wargame_cli.ui.prompts import Prompter

    return Prompter(console())


def _dice(
    kind: str, rolls: str | None, rng: RngDice, prompter: Any, nobody: bool = False
) -> DiceSource:
    """The live dice (`engine/dice.table_dice`): real dice's faces typed at the `prompter`,
    or, `nobody` at the keyboard, given by `--rolls` alone."""
    if rolls is not None:
        parse_rolls(rolls)  # a bad face is told before a missing terminal
    return table_dice(kind, rolls, rng, None if nobody else _typist(kind, prompter))


def _typist(kind: str, prompter: Any) -> Any:
    """Who types the real dice `--dice KIND` has a side throw: the `prompter`'s `faces`, in
    a terminal (none: refused in one line); None when every die is the computer's."""
    if TYPED not in parse_dice(kind).values():
        return None
    _need_terminal(f"--dice {kind}")
    return (prompter or _prompter()).faces


def _no_one_types(kind: str | None, rolls: str | None) -> None:
    """`--no-input` with real dice: their faces must come from `--rolls`."""
    if _typed_anywhere(kind) and rolls is None:
        raise BadInput(
            f"--dice {kind} needs a person to type the faces; with --no-input, give them "
            "with --rolls"
        )


def _typed_anywhere(kind: str | None) -> bool:
    """Whether `--dice` has any side throw real dice."""
    return kind is not None and TYPED in parse_dice(kind).values()


def _controllers(
    players: dict[str, str],
    ruleset: Ruleset,
    names: dict[str, str],
    prompter: Any,
    choices: str | None = None,
    levels: dict[str, str] | None = None,
) -> dict[str, Any]:
    """Who answers each side's decisions; `--choices` keys go first, whoever is asked.
    `levels`: the bot level of a side the computer plays (none: the ruleset's default)."""
    out: dict[str, Any] = {}
    for side in SIDES:
        if players[side] == "bot":
            out[side] = bot_levels.controller(ruleset, (levels or {}).get(side))
        else:
            if ruleset.has_decisions:
                _need_terminal(f"side {side}'s decisions")
            from wargame_cli.ui.prompts import HumanController

            out[side] = HumanController(prompter or _prompter(), names)
    if choices is not None:
        from wargame_cli.engine.scripted import ChoiceScript, parse_choices

        return ChoiceScript(parse_choices(choices)).controllers(out)
    return out


def play(args: PlayArgs) -> tuple[Session, Path | None]:
    """Set up and play a game; returns its session and its save's path (None: not saved)."""
    can_ask = interactive() and not args.no_input
    prompter = _prompter() if can_ask else None
    ruleset_id = args.ruleset_id
    if ruleset_id is None:
        if args.no_input:
            raise BadInput(
                f"name a ruleset: {command('play ID --no-input')} (see {command('rulesets')})"
            )
        _need_terminal("choosing a ruleset")
    try:
        ruleset, options, seed, sides = _set_up(args, ruleset_id, can_ask, prompter)
    except KeyboardInterrupt:
        raise Interrupted(
            "interrupted during setup: no game had started, nothing was saved"
        ) from None
    teams, names, players = sides
    if args.dice is None:  # not asked at setup (a player given by the flags): the generator
        args.dice = AUTO
    options = safeguards_for(ruleset, options, args.options, players)
    setup = Setup(names=names, teams=teams)
    dice = _dice(args.dice, args.rolls, RngDice(seed), prompter, nobody=args.no_input)
    levels = bot_levels.levels_of(args.bot_level, ruleset, players)
    controllers = _controllers(players, ruleset, names, prompter, args.choices, levels)
    view = None if args.json_out else _live_view(ruleset, names, prompter, players)
    kept = not args.no_save or "human" in players.values()  # saved, or a take-back may come
    session = start(ruleset, setup, options, seed, dice, controllers, view, positions=kept)
    session.meta["players"] = players
    session.meta["bots"] = levels
    session.meta["dice"] = dice_words(parse_dice(args.dice))
    _offer_table(prompter, session)
    with _held(args, ruleset.id, names) as path:
        if args.save is not None and path is not None:
            _check_new_save(path, args.force)  # again, now that the save is ours
        _run(
            session,
            path,
            args.turns,
            args.json_out,
            prompter if can_ask else None,
            players,
            emit=args.emit,
            campaign=bool(args.ready),
        )
    return session, path


def _set_up(args: PlayArgs, ruleset_id: str | None, can_ask: bool, prompter: Any) -> Any:
    """The ruleset, options, seed and sides, asked or taken from the flags."""
    while True:  # taking back the first side question asks the ruleset again
        if args.ruleset_id is None:
            ruleset_id = _ask_ruleset(prompter)
        assert ruleset_id is not None  # `args.ruleset_id` (the caller's), or just asked
        try:
            return _prepare(args, ruleset_id, can_ask, prompter)
        except SetupBack:
            continue


def _ask_ruleset(prompter: Any) -> str:
    """Which ruleset; Take back at this first question is refused (nothing before it)."""
    while (answer := prompter.ruleset(registry.all_infos())) == TAKE_BACK:
        prompter.setup_refused(FIRST)
    return answer


def _prepare(args: PlayArgs, ruleset_id: str, can_ask: bool, prompter: Any) -> Any:
    """The ruleset, its options, the seed and each side's team, name and player."""
    ruleset = registry.get(ruleset_id)
    options = resolve_options(ruleset.options, args.options)
    chosen_bots = _sides(args.bots)  # checked even when --no-input makes both sides bots
    bots = SIDES if args.no_input else chosen_bots
    if args.save is not None and not args.no_save:
        _check_new_save(args.save, args.force)
    if args.dice is not None:
        parse_dice(args.dice)  # a bad form is refused before any question
    if args.no_input:
        _no_one_types(args.dice, args.rolls)
    seed = args.seed if args.seed is not None else draw_seed()
    changes = unitstats.parse(ruleset.unit_sheet(), args.units, ruleset.id, "--unit")
    sides = _sides_setup(
        args, ruleset, options, bots, can_ask, prompter, can_go_back=args.ruleset_id is None
    )
    if changes:  # both teams' units of a changed type, as `simulate --unit` plays them
        teams = {side: ruleset.restat(team, changes, options) for side, team in sides[0].items()}
        sides = (teams, sides[1], sides[2])
    return ruleset, options, seed, sides


def _check_new_save(path: Path, force: bool) -> None:
    """`--save` never replaces a game without `--force`, and never anything but a save file."""
    real, _ = store.target(path)  # refuses folders, devices, FIFOs
    if real.exists() and not force:
        raise BadInput(f"--save {shown(path)}: that file exists; pass --force to overwrite it")


def _held(args: PlayArgs, ruleset_id: str, names: dict[str, str]) -> Any:
    """The save's lock for the whole game, giving the save's path (None without a save): a
    new file in the saves folder gets a name no other game holds."""
    from contextlib import nullcontext

    if args.no_save:
        return nullcontext(None)
    if args.save is not None:
        return store.locked(args.save)
    return store.locked_new(store.saves_dir(args.saves_dir), ruleset_id, names)


class SetupBack(Exception):
    """A person took back a setting-up question: the one before it is asked again."""


def _ask_steps(steps: list[Any], prompter: Any, can_go_back: bool) -> None:
    """Ask setting-up questions in order; a take-back asks the one before again (before the
    first: SetupBack, when there is an earlier question, else a refusal)."""
    index = 0
    while index < len(steps):
        try:
            steps[index]()
        except SetupBack:
            if index > 0:
                index -= 1
            elif can_go_back:
                raise
            else:
                prompter.setup_refused(FIRST)
            continue
        index += 1


def _sides_setup(
    args: PlayArgs,
    ruleset: Ruleset,
    options: dict[str, Any],
    bots: tuple[str, ...] | set[str],
    can_ask: bool,
    prompter: Any,
    can_go_back: bool = False,
) -> tuple[dict[str, Any], dict[str, str], dict[str, str]]:
    """Each side's team, name and player, from the flags, else asked: who plays, then the
    team, then the name (defaulting to the team's, so a quick pick names the side). Every
    question asked offers Take back, which asks the question before it again."""
    teams: dict[str, Any] = {}
    names: dict[str, str] = {}
    players: dict[str, str] = {}
    ask_name: list[str] = []
    given = {"A": (args.team_a, args.name_a), "B": (args.team_b, args.name_b)}
    steps: list[Any] = []

    def ask_player(side: str) -> None:
        answer = prompter.player(side)
        if answer == TAKE_BACK:
            raise SetupBack
        players[side] = answer

    def ask_dice() -> None:
        """Who rolls: the computer, or real dice typed in, for both sides or for each."""
        answer = prompter.dice_setup({s: players.get(s, "human") for s in SIDES})
        if answer == TAKE_BACK:
            raise SetupBack
        args.dice = answer

    for side in SIDES:
        spec, name = given[side]
        if name is not None and (problem := name_problem(name)):
            raise BadInput(f"--name-{side.lower()} {name!r}: {problem}")
        if side in args.ready:  # a campaign's roster, checked as a saved team is
            ready, default_name = args.ready[side]
            teams[side] = ruleset.team_from_data(ready, options)
        elif spec is not None:
            teams[side], file_name = ruleset.load_team(spec, options)
            default_name = file_name or f"Side {side}"
        elif side in bots or not can_ask:
            if not can_ask and side not in bots and not args.no_input:
                _need_terminal(f"building side {side}'s team")
            teams[side], default_name = ruleset.default_team(side, options)
        else:
            teams[side], default_name = None, ruleset.default_team(side, options)[1]
        names[side] = name or default_name
        fixed = spec is not None or side in args.ready
        if name is None and can_ask and not fixed and side not in bots:
            ask_name.append(side)
        if side in bots:
            players[side] = "bot"
        elif can_ask and not args.bots and not fixed:
            steps.append(lambda side=side: ask_player(side))
        else:
            players[side] = "human"
    if steps and args.dice is None and args.rolls is None and not args.no_input:
        steps.append(ask_dice)  # setup asks who plays: it asks who rolls too
    built = [side for side in SIDES if teams[side] is None]
    answers: dict[str, list[str]] = {side: [] for side in built}
    asked: dict[str, str] = {}  # names typed so far: asked again, they are the default

    def build(side: str) -> None:
        from wargame_cli.ui.prompts import HumanController

        if answers[side]:
            answers[side].pop()  # back from a later question: the team's last one again
        prompter.setup_looks = _unit_looks(ruleset)
        try:
            teams[side] = run_builder(
                lambda: ruleset.build_team(side, options),
                HumanController(prompter, {s: f"Side {s}" for s in SIDES}),
                back=SetupBack,
                answers=answers[side],
            )
        finally:
            prompter.setup_looks = None
        # a quick pick carries its preset's name; a team built piece by piece does not
        # take the default preset's (the player names it, "Side A" until then)
        names[side] = given[side][1] or ruleset.team_name(teams[side]) or f"Side {side}"
        if side == built[-1]:
            settle_names()

    def settle_names() -> None:
        if args.name_a is None and args.name_b is None and "B" not in ask_name:
            names["B"] = distinct_default(names["B"], names["A"], "B")  # the same preset twice

    def ask_name_of(side: str) -> None:
        foe = other(side)
        later = foe in ask_name and ask_name.index(foe) > ask_name.index(side)
        default = asked.get(side, names[side])
        if not later and side not in asked:
            default = distinct_default(default, names[foe], side)
        answer = prompter.name(side, default, taken=None if later else names[foe])
        if answer == TAKE_BACK:
            asked.pop(side, None)
            raise SetupBack
        names[side] = asked[side] = answer

    steps.extend(lambda side=side: build(side) for side in built)
    if not built:
        settle_names()
    steps.extend(lambda side=side: ask_name_of(side) for side in ask_name)
    _ask_steps(steps, prompter, can_go_back)
    check_file_names(names)
    _check_names(names, given)
    return teams, names, players


def check_file_names(names: dict[str, str]) -> None:
    """A name a team file gave is refused as a typed one would be (play and simulate)."""
    for side in SIDES:
        if problem := name_problem(names[side]):
            raise BadInput(f"side {side}'s name from its team file: {problem}")


def _unit_looks(ruleset: Ruleset) -> Any:
    """While a team is built, "Look…" shows the ruleset's unit profiles."""
    rows = ruleset.units()
    if not rows:
        return None

    def lines(width: int) -> list[str]:
        import textwrap

        from wargame_cli.text import clean

        out = []
        for row in rows:
            text = ", ".join(f"{key}: {clean(str(value))}" for key, value in row.items())
            out.extend(textwrap.wrap(text, width - 1, subsequent_indent="    ") or [""])
        return out

    return lambda: [("Unit profiles", lines)]


def _check_names(names: dict[str, str], given: dict[str, tuple[Any, Any]]) -> None:
    """Two sides never share a name: a clash from the flags or team files exits 2."""
    if not same_name(names["A"], names["B"]):
        return
    flags = [f"--name-{s.lower()}" for s in SIDES if given[s][1] is not None]
    where = " and ".join(flags) if flags else "the team files"
    raise BadInput(f"both sides are named {names['A']!r} ({where}); two sides cannot share a name")


def _live_view(
    ruleset: Ruleset,
    names: dict[str, str],
    prompter: Any = None,
    players: dict[str, str] | None = None,
    game: Any = None,
    log: Sequence[Mapping[str, Any]] | None = None,
) -> Any:
    """The game as it goes. With a person deciding at a terminal, a decision screen that the
    prompts draw above each question (the log goes there, not scrolling by); else today's
    scrolling log."""
    from wargame_cli.ui.live import LiveView

    screen = None
    if prompter is not None and "human" in (players or {}).values():
        from wargame_cli.ui.screen import DecisionScreen

        screen = DecisionScreen(ruleset, names, console(), players or {})
        if game is not None:
            screen.follow(game, log or [])
        prompter.attach(screen)
    return LiveView(console(), ruleset, names, screen=screen, players=players or {})


def _offer_table(prompter: Any, session: Session) -> None:
    """ "Table…" at every question of a game a person plays: the ruleset's edits, the dice
    of the log as it stands, the sides' names."""
    if prompter is None:
        return
    from wargame_cli.ui.desk import Desk

    runner = session.runner
    prompter.desk = Desk(
        session.ruleset.edit_actions(), lambda: runner.log, session.setup.names, runner.edit_problem
    )


def _run(
    session: Session,
    path: Path | None,
    turns: int | None,
    json_out: bool,
    prompter: Any,
    players: dict[str, str],
    resumed: bool = False,
    emit: bool = True,
    campaign: bool = False,
) -> None:
    """Play on. A person at the table meets the between-turns question before the first
    turn too, the battle set up, so "Table…" edits it before the battle (old wounds): in a
    `campaign` battle of a ruleset with table edits of its own, and in any save stopped
    there (`--turns 0`) and `resumed`."""
    runner = session.runner
    stop_at = runner.turn + turns if turns is not None else None
    pause = prompter is not None and "human" in players.values()

    word = session.ruleset.turn_word

    def between_turns(_: Any) -> None:
        if path is not None:
            games.save(session, path, settle=pause)  # a person's turns reach the disk
        pending = runner.pending
        if pause and isinstance(pending, TurnStart):
            if stop_at is not None and pending.number > stop_at:
                return
            while True:
                answer = prompter.next_turn(pending.number, word, saving=path is not None)
                if answer == TAKE_BACK:
                    reason = runner.take_back()
                elif isinstance(answer, str) and edits.is_token(answer):
                    reason = _edit_between_turns(runner, answer)
                else:
                    break
                if reason is None and runner.pending is not pending:
                    return  # an earlier decision is asked again, or the battle ended
                if reason is not None:
                    prompter.refused(reason)
            if not answer:
                raise QuitRequested

    def before_battle(_: Any) -> None:
        screen = prompter.screen
        if screen is not None and screen.game is None:  # nothing told yet: the field as set up
            screen.follow(session.game, runner.log)
        between_turns(None)

    before = pause and (resumed or (campaign and session.ruleset.table_edits() is not None))
    try:
        runner.run(
            stop_after_turn=stop_at,
            on_turn_end=between_turns,
            on_first_turn=before_battle if before else None,
        )
    except QuitRequested:
        pass
    except (KeyboardInterrupt, EOFError) as stop:
        if path is not None:
            games.save(session, path)
            told = f"interrupted; game saved to {shown(path)} ({command('resume ' + shown(path))})"
        else:
            told = "interrupted; nothing was saved (--no-save)"
        if isinstance(stop, KeyboardInterrupt):
            raise Interrupted(told) from None
        _say(told)
        raise
    except BadInput:  # a bad scripted face or decision: keep what was valid
        if path is not None and runner.log:
            games.save(session, path)
        raise
    if path is not None:
        games.save(session, path)
    if emit:
        _finish(session, path, json_out)


def _edit_between_turns(runner: Any, answer: str) -> str | None:
    """A table edit made at the between-turns question: why it was refused, or None."""
    try:
        runner.edit(edits.from_token(answer))
    except edits.EditRefused as exc:
        return str(exc)
    return None


def _say(message: str) -> None:
    from wargame_cli.cli.boundary import say

    say(message)


def _finish(session: Session, path: Path | None, json_out: bool) -> None:
    if json_out:
        from wargame_cli.saves import provenance

        emit_json(
            {
                "ruleset": session.ruleset.id,
                "status": session.status,
                "winner": session.winner,
                "turns": session.runner.turn,
                "seed": session.seed,
                "provenance": provenance.of_session(session).as_json(),
                "save": str(path) if path is not None else None,
                "state": session.game.state_json(),
                "result": (
                    {
                        "winner": session.runner.outcome.winner,
                        "reason": session.runner.outcome.reason,
                    }
                    if session.runner.outcome
                    else None
                ),
            }
        )
        return
    out = console()
    if session.runner.outcome is None:
        out.print(f"Game in progress after {session.ruleset.turn_word} {session.runner.turn}.")
    if path is not None:  # whole paths, never wrapped, so they can be copied as they are
        verb = "resume" if session.runner.outcome is None else "replay"
        out.print(f"Saved to {shown(path)}", soft_wrap=True, markup=False)
        out.print(
            f"{verb.capitalize()} it with: {command(verb + ' ' + shown(path))}",
            soft_wrap=True,
            markup=False,
        )


def _resume_dice(args: ResumeArgs, recorded: str, can_ask: bool) -> str:
    """The dice a resumed game goes on with: `--dice`, else the save's own; says which."""
    if args.dice is not None:
        kind, why = args.dice, "as --dice says"
    elif _typed_anywhere(recorded) and not can_ask:
        kind, why = "auto", "the save's dice were typed in, but no one is here to type them"
    else:
        kind, why = recorded, "as the save was played"
    by_side = parse_dice(kind)
    if set(by_side.values()) == {TYPED}:
        how = "typed in by hand"
    elif TYPED in by_side.values():
        how = ", ".join(
            f"side {s}'s {'typed in by hand' if k == TYPED else 'rolled by the seeded generator'}"
            for s, k in by_side.items()
        )
    else:
        how = "rolled by the seeded generator"
    if kind != (args.dice or recorded):  # a fallback is a warning, on stderr
        _say(f"dice: {how} ({why})")
    elif not args.json_out:  # otherwise a note among the game's own lines
        console().print(f"Dice: {how} ({why}).")
    return kind


def resume(args: ResumeArgs) -> None:
    with store.locked(args.path, new=False):
        _resume(args)


def _resume(args: ResumeArgs) -> None:
    can_ask = interactive() and not args.no_input
    prompter = _prompter() if can_ask else None
    data = store.load(args.path)
    if data["status"] == "finished":
        shown_path = shown(args.path)
        raise BadInput(f"{shown_path}: that game is finished ({command('replay ' + shown_path)})")
    ruleset = registry.get(data["ruleset"]["id"])
    names = {s: data["setup"]["names"].get(s, f"Side {s}") for s in SIDES}
    recorded = data["setup"].get("players") or {}
    chosen = _sides(args.bots)  # checked even when --no-input makes both sides bots
    if args.no_input:
        players = {s: "bot" for s in SIDES}
    elif args.bots:
        players = {s: "bot" if s in chosen else "human" for s in SIDES}
    else:
        players = {s: recorded.get(s, "human") for s in SIDES}
    if args.no_input:
        _no_one_types(args.dice, args.rolls)
    recorded_dice = data["setup"].get("dice", "auto")
    kind = _resume_dice(args, recorded_dice, can_ask)
    rng = RngDice(data["seed"])  # fast-forwarded by the replay, then continues the game
    dice = _dice(kind, args.rolls, rng, prompter, nobody=args.no_input)
    recorded_levels = data["setup"].get("bots") or {}
    levels = bot_levels.levels_of(args.bot_level, ruleset, players, recorded_levels)
    controllers = _controllers(players, ruleset, names, prompter, args.choices, levels)
    session = games.open_save(args.path, dice=rng, controllers=controllers, nearest=True)
    parent = data.get("forked_from")  # in the sealed header: checked by open_save
    if isinstance(parent, dict) and not args.json_out:
        console().print(
            f"Resuming a fork of {shown(parent.get('save'))}, branched after "
            f"{ruleset.turn_word} {parent.get('turn')}.",
            markup=False,
        )
    session.runner.dice = dice
    _offer_table(prompter, session)
    session.meta["players"] = players
    session.meta["bots"] = levels
    # a fallback keeps the save's mode
    session.meta["dice"] = dice_words(parse_dice(args.dice or recorded_dice))
    if not args.json_out:
        view = _live_view(ruleset, names, prompter, players, session.game, session.runner.log)
        if view.screen is None:
            view.board(session.game)
        session.runner.observer = view
    _run(session, args.path, args.turns, args.json_out, prompter, players, resumed=True)
