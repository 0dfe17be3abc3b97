"""Questions for a person at the terminal (questionary). The same `Choice` a bot answers by
taking its default is shown here as a list with the suggestion marked and illegal options
disabled with their reason."""

from __future__ import annotations

from typing import Any

import questionary
from questionary.styles import merge_styles_default
from rich.console import Console

from wargame_cli.engine.dice import AUTO, TYPED, check_faces, describe
from wargame_cli.engine.requests import TAKE_BACK, Choice, Roll, unsided
from wargame_cli.text import clean, name_problem, safe
from wargame_cli.ui.app import LOOK, Fit
from wargame_cli.ui.cursor import POINT_KEY, POINT_LABEL, point_on_map
from wargame_cli.ui.desk import TABLE, TABLE_LABEL, Desk
from wargame_cli.ui.names import same_name
from wargame_cli.ui.pointing import can_point, spot_in, takes_spot, without_spot, without_spots
from wargame_cli.ui.screen import DecisionScreen

TYPE_OWN = "\x00type"
POINT = "\x00point"  # "Point on the map…": the cursor (`ui/cursor.py`)
LOOK_LABEL = "Look…"
TAKE_BACK_LABEL = "Take back"
FOOTER = frozenset({POINT, TYPE_OWN, LOOK, TABLE, TAKE_BACK})  # short items sharing a row
OTHER_WAYS = (TYPE_OWN, POINT)  # list items that lead to another way of answering
STYLE = questionary.Style([("highlighted", "bold"), ("pointer", "bold fg:ansicyan")])


class Prompter:
    """Every question the CLI asks a person, through one prompt application for the whole run.
    `io` may carry prompt_toolkit `input`/`output` for driving the prompts in-process (tests).
    Once a game is under way, `attach` a decision screen: each question then shows it above
    (in a real terminal, the screen is cleared and drawn afresh instead of scrolling)."""

    def __init__(self, console: Console, **io: Any) -> None:
        self.console = console
        self.io = io
        self.screen: DecisionScreen | None = None
        self._app: Any = None
        self._notice: str | None = None
        self.setup_looks: Any = None  # while building a team: what can be looked at
        self.desk: Desk | None = None  # once a game is under way: "Table…" edits it

    @property
    def app(self) -> Any:
        if self._app is None:
            from wargame_cli.ui.app import PromptApp

            self._app = PromptApp(merge_styles_default([STYLE]), manage_gc=not self.io, **self.io)
        return self._app

    def attach(self, screen: DecisionScreen | None) -> None:
        self.screen = screen

    def close(self) -> None:
        if self._app is not None:
            self._app.close()
            self._app = None

    # -- plain questions ------------------------------------------------------------------
    def select(self, message: str, choices: list[Any], default: Any = None, **kw: Any) -> Any:
        return self.app.select(clean(message), choices, default, **kw)

    def text(self, message: str, default: str = "", validate: Any = None, **kw: Any) -> str:
        return self.app.text(clean(message), default, validate, **kw)

    # -- the decision screen --------------------------------------------------------------
    def _screen_kw(self, side: str | None, choice: Any = None) -> dict[str, Any]:
        """The screen above a question asked of `side`: drawn afresh in a real terminal."""
        notice, self._notice = self._notice, None
        screen = self.screen
        if screen is None or screen.state is None:
            return {"notice": notice, "footer": FOOTER, "looks": self.setup_looks}

        def top(width: int, height: int, fixed: int, wanted: int, folded: int | None) -> Fit:
            layout = screen.compose(width, height, fixed, wanted, choice, side, folded)
            return Fit(layout.lines, layout.list_rows, layout.fold)

        def looks() -> list[tuple[str, Any]]:
            return [
                (look.title, lambda width, look=look: screen.look_lines(look, width))
                for look in screen.looks(choice)
            ]

        return {
            "top": top,
            "looks": looks,
            "notice": notice,
            "clear": not self.io,
            "footer": FOOTER,
        }

    def wait(self, side: str, message: str, until: int) -> None:
        """While the other machine decides (remote play): the decision screen as `side` sees
        it, `message` and Look… under it, until the file `until` has input (its move)."""
        kw = self._screen_kw(side)
        kw.pop("footer", None)
        items = [questionary.Choice(title=LOOK_LABEL, value=LOOK)]
        self.app.wait(message, items, until, **kw)

    def _decided(self, side: str | None) -> None:
        if self.screen is not None:
            self.screen.mark(side)

    def _extras(self, kw: dict[str, Any]) -> list[Any]:
        extras = []
        if kw.get("looks") is not None:
            extras.append(questionary.Choice(title=LOOK_LABEL, value=LOOK))
        extras.append(questionary.Choice(title=TAKE_BACK_LABEL, value=TAKE_BACK))
        return extras

    def _table_item(self) -> list[Any]:
        """ "Table…" once a game is under way: first of the short items, so the keys that
        reach the others from the list's first option (up: Take back, Look…, Type it) stay."""
        if self.desk is None:
            return []
        return [questionary.Choice(title=TABLE_LABEL, value=TABLE)]

    # -- decisions ------------------------------------------------------------------------
    def choose(self, choice: Choice, who: str) -> str:
        """The key chosen, TAKE_BACK, or an edit token made at "Table…" (`ui/desk.py`)."""
        while (answer := self._choose(choice, who)) == TABLE:
            edit = self._table(choice.side, choice)
            if edit is not None:
                return edit
        return answer

    def _table(self, side: str | None, choice: Any = None) -> str | None:
        """ "Table…": an edit token, or None when the person went back to the question."""
        from wargame_cli.ui import desk

        assert self.desk is not None  # offered only with one

        def select(message: str, items: list[Any], default: Any = None) -> Any:
            kw = self._screen_kw(side, choice)
            kw.pop("footer", None)
            return self.select(message, items, default, **kw)

        def text(message: str, validate: Any = None) -> str:
            kw = self._screen_kw(side, choice)
            kw.pop("footer", None)
            return self.text(message, validate=validate, **kw)

        return desk.ask(self.desk, select, text)

    def _choose(self, choice: Choice, who: str) -> str:
        items = []
        default_item = None
        given = [clean(option.label) for option in choice.options]
        labels = given
        if takes_spot(choice):  # its labels' spots go to the hint of the option pointed at
            labels = without_spots(given)
        for option, label, full in zip(choice.options, labels, given, strict=True):
            suggested = option.key == choice.default
            item = questionary.Choice(
                title=("(suggested) " if suggested else "") + label,
                value=option.key,
                disabled=clean(option.disabled) if option.disabled else None,
                description=spot_in(full) if label != full else None,
            )
            if suggested:
                default_item = item
            items.append(item)
        if default_item is None:  # the suggestion is a typed answer: offer it first
            full = suggested_label = clean(choice.label_of(choice.default))
            if takes_spot(choice) and without_spot(suggested_label) not in labels:
                suggested_label = without_spot(suggested_label)
            default_item = questionary.Choice(
                title=f"(suggested) {suggested_label}",
                value=choice.default,
                description=spot_in(full) if suggested_label != full else None,
            )
            items.insert(0, default_item)
        pointing = self._can_point(choice)
        if pointing:
            items.append(questionary.Choice(title=f"{POINT_LABEL} ({POINT_KEY})", value=POINT))
        items.extend(self._table_item())
        if choice.free_hint is not None:
            items.append(
                questionary.Choice(title=f"Type it ({clean(choice.free_hint)})", value=TYPE_OWN)
            )
        prompt = unsided(choice.prompt, choice.side)
        prompt = prompt if prompt.startswith(who) else f"{who}: {prompt}"
        kw = self._screen_kw(choice.side, choice)
        items.extend(self._extras(kw))
        typed = TYPE_OWN if choice.free_hint is not None else None
        keys = {POINT_KEY: POINT} if pointing else None
        while (
            answer := self.select(prompt, items, default_item, typed=typed, keys=keys, **kw)
        ) in (OTHER_WAYS):
            if answer == POINT:
                spot = point_on_map(self.app, self.screen, choice)
                if spot is not None:
                    answer = spot
                    break
                kw = self._screen_kw(choice.side, choice)  # Esc: the list again
                continue
            started = self.app.pending  # typing at the list starts the typed answer
            kw = self._screen_kw(choice.side, choice)
            kw.pop("footer", None)
            answer = self.text(
                f"{prompt} ({choice.free_hint}; empty: back to the list)",
                default=started,
                validate=lambda s: not s.strip() or choice.legal(s.strip()) or True,
                **kw,
            ).strip()
            if answer:
                break
            kw = self._screen_kw(choice.side, choice)  # nothing typed: the list again
        if answer != TABLE:
            self._decided(choice.side)
        return answer

    def _can_point(self, choice: Choice) -> bool:
        """A spot or target question, with a map to point at (the cursor, `ui/cursor.py`)."""
        screen = self.screen
        if screen is None or screen.state is None:
            return False
        return can_point(screen.view.map_facts(screen.state, screen.names, choice), choice)

    def refused(self, reason: str) -> None:
        if self.screen is not None:
            self.screen.unmark()
        if self.screen is not None and self.screen.state is not None and not self.io:
            self._notice = f"Refused: {clean(reason)}"  # shown above the question asked again
            return
        self.console.print(f"[bold red]Refused:[/] {safe(reason)}")

    # -- dice -----------------------------------------------------------------------------
    def faces(self, roll: Roll) -> list[int]:
        labels = (
            ", ".join(
                f"{clean(label)} d{d}" for label, d in zip(roll.labels, roll.dice, strict=False)
            )
            if roll.labels
            else describe(roll)
        )

        def check(text: str) -> bool | str:
            if not text.strip():
                return True  # empty: the computer rolls this one
            try:
                faces = [int(p) for p in text.replace(",", " ").split()]
            except ValueError:
                return "type whole numbers separated by spaces"
            return check_faces(roll, faces) or True

        kw = self._screen_kw(roll.side)
        kw.pop("footer", None)
        text = self.text(
            f"{roll.reason}: roll {describe(roll)} and type the faces ({labels}), "
            "or nothing: the computer rolls it",
            validate=check,
            **kw,
        )
        self._decided(roll.side)
        return [int(p) for p in text.replace(",", " ").split()]

    # -- setting up -----------------------------------------------------------------------
    # Every setting-up question offers Take back: it answers TAKE_BACK, and the caller asks
    # the question before it again.
    def ruleset(self, infos: list[Any]) -> str:
        items = [questionary.Choice(title=f"{clean(i.name)}  ({i.id})", value=i.id) for i in infos]
        items.append(questionary.Choice(title=TAKE_BACK_LABEL, value=TAKE_BACK))
        return self.select("Which ruleset?", items, items[0])

    def name(self, side: str, default: str, taken: str | None = None) -> str:
        """A side's name; never the other side's (`taken`), whatever the case or spaces.
        Esc takes it back (TAKE_BACK)."""

        def check(text: str) -> bool | str:
            if problem := name_problem(text):
                return problem
            if taken is not None and same_name(text, taken):
                return f"the other side is already called {clean(taken)}"
            return True

        answer = self.text(f"Name for side {side}", default=default, validate=check, back=TAKE_BACK)
        return answer if answer == TAKE_BACK else answer.strip()

    def player(self, side: str) -> str:
        items = [
            questionary.Choice("A person at this terminal", "human"),
            questionary.Choice("The computer", "bot"),
            questionary.Choice(TAKE_BACK_LABEL, TAKE_BACK),
        ]
        return self.select(f"Who plays side {side}?", items, items[0])

    def dice_setup(self, players: dict[str, str]) -> str:
        """Who rolls the dice (`--dice`): the computer, or real dice whose faces are typed in,
        for both sides or each its own (a side the computer plays is offered the computer)."""
        items = [questionary.Choice("The computer rolls for both sides", AUTO)]
        if "human" in players.values():
            items.append(questionary.Choice("Real dice for both sides, faces typed in", TYPED))
            for side, other_side in (("A", "B"), ("B", "A")):
                if players[side] == "human":
                    items.append(
                        questionary.Choice(
                            f"Real dice for side {side}, the computer rolls for side {other_side}",
                            f"{side}={TYPED},{other_side}={AUTO}",
                        )
                    )
        items.append(questionary.Choice(TAKE_BACK_LABEL, TAKE_BACK))
        return self.select("Who rolls the dice?", items, items[0])

    def setup_refused(self, reason: str) -> None:
        """A setting-up answer refused (no decision screen yet: a line above the question)."""
        self.console.print(f"[bold red]Refused:[/] {safe(reason)}")

    def next_turn(self, number: int, word: str = "turn", saving: bool = True) -> bool | str:
        """Between turns: True to play on, False to save and quit (or, with no save, quit),
        TAKE_BACK to take back the latest decision, or an edit token made at "Table…"."""
        items = [
            questionary.Choice(f"Play {word} {number}", True),
            questionary.Choice(
                "Save and quit" if saving else "Quit (--no-save: nothing will be saved)", False
            ),
        ]
        kw = self._screen_kw(None)
        items.extend([*self._table_item(), *self._extras(kw)])
        said = (
            f"{word.capitalize()} {number - 1} is over."
            if number > 1
            else f"Before {word} 1: the battle is set up (Table… edits it first)."
        )
        while (answer := self.select(said, items, items[0], **kw)) == TABLE:
            edit = self._table(None)
            if edit is not None:
                answer = edit
                break
            kw = self._screen_kw(None)
        self._decided(None)
        return answer

    def step(self, message: str) -> bool:
        items = [questionary.Choice(message, True), questionary.Choice("Stop", False)]
        return self.select("Replay", items, items[0])


class HumanController:
    """A person choosing through the Prompter; refused answers are explained and asked again."""

    by = "human"

    def __init__(self, prompter: Prompter, names: dict[str, str]) -> None:
        self.prompter = prompter
        self.names = names

    def choose(self, choice: Choice, game: Any) -> str:
        return self.prompter.choose(choice, self.names.get(choice.side, f"Side {choice.side}"))

    def refused(self, choice: Choice, key: str, reason: str) -> None:
        self.prompter.refused(reason)
