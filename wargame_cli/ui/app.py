"""One prompt application for a whole run: the decision screen above, the question below.

Building a prompt_toolkit Application (and loading its key bindings) for every question cost
more than everything else a prompt does, so this one is built once and its content swapped per
question. The question keeps questionary's look and controls: its select control
(`InquirerControl`: pointer, highlighted item, disabled items with their reason) and style."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, cast

import questionary
from prompt_toolkit.application import Application
from prompt_toolkit.buffer import Buffer
from prompt_toolkit.filters import Condition, IsDone
from prompt_toolkit.formatted_text import StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, merge_key_bindings
from prompt_toolkit.key_binding.defaults import load_key_bindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.layout import ConditionalContainer, HSplit, Layout, Window
from prompt_toolkit.layout.controls import BufferControl, FormattedTextControl
from prompt_toolkit.layout.dimension import Dimension
from prompt_toolkit.layout.processors import BeforeInput
from prompt_toolkit.styles import merge_styles
from questionary.prompts.common import InquirerControl

from wargame_cli.cpython import collect_and_freeze, pause_collector, resume_collector
from wargame_cli.ui.wrap import rows as _rows
from wargame_cli.ui.wrap import wrap_tokens

POINTER = "»"
INDENT = 5  # continuation lines of a wrapped option start under its text
LOOK = "\x00look"
BACK = "\x00back"
ARRIVED = "\x00arrived"  # `wait`: what was waited for came
SELECT_HINT = "(Use arrow keys)"
SCROLL_HINT = "(Use arrow keys; the list scrolls)"
SHORT_SCROLL_HINT = "(the list scrolls)"  # when the long one does not fit beside the question
SCROLL_HINTS = (SCROLL_HINT, SHORT_SCROLL_HINT)
READING = 0.05  # seconds after a question is shown that `while_reading` runs
LOOK_KEY = "(Esc: look) "
BACK_KEY = "(Esc: take back) "
LOOK_HINT = "(Enter shows it above; Esc goes back; PgUp/PgDn scroll)"
# How long a lone Esc waits for the rest of a key's escape sequence (prompt_toolkit's
# `ttimeoutlen`, 0.5 s by default, made every Esc lag): a terminal writes a key's sequence at
# once, so a few milliseconds tell Esc from an arrow key
ESCAPE_TIMEOUT = 0.01


def folded_line(count: int) -> str:
    """The line a list's disabled options fold into when room is short."""
    return f"{count} option{'s' if count != 1 else ''} not possible: Look… for why"


@dataclass(frozen=True)
class Fit:
    """What the screen above a question gave it: the ANSI lines above, the rows of the list,
    and whether its disabled options fold into one line."""

    lines: list[str]
    list_rows: int
    fold: bool = False


# The top of the screen for a question: given the width, the height, the rows the question's
# fixed part takes, the rows its list would like and those it would take with its disabled
# options folded (None: none to fold), what goes above and how the list fits.
Top = Callable[[int, int, int, int, int | None], Fit]
Looks = Callable[[], list[tuple[str, Callable[[int], list[str]]]]]


def _as_formatted(tokens: Callable[[], list[tuple[str, str]]]) -> Callable[[], StyleAndTextTuples]:
    """The same function, typed as prompt_toolkit takes it: its list of (style, text) tuples
    (which may also carry a mouse handler) is invariant, yet it only reads what it is given."""
    return cast(Callable[[], StyleAndTextTuples], tokens)


@dataclass
class _Question:
    message: str
    mode: str  # "select", "text" or "look"
    control: Any = None
    validate: Callable[[str], Any] | None = None
    notice: str | None = None
    answer: str = ""
    error: str | None = None
    can_look: bool = False
    back: Any = None  # what Esc answers at a typed question with nothing to look at
    typed: Any = None  # the value of a list's "Type it" item, which typing at the list picks
    keys: dict[str, Any] | None = None  # a printable key that picks a list's item at once
    pager: Callable[[int], None] | None = None  # PgUp/PgDn page what is above (-1, +1)


@dataclass(frozen=True)
class _Switch:
    """Not an answer: the question leaves its run to redraw the screen (look, scroll, back)."""

    to: str
    value: int = 0


class WrappingControl(InquirerControl):
    """questionary's select control, its long labels wrapped at words to the terminal. The
    short items every question ends with ("Type it", "Look…", "Take back": `footer` values)
    share one row, so the options proper get the rows."""

    width = 80
    footer: frozenset[Any] = frozenset()
    fold = False  # disabled options fold into one line (`folded_line`)
    first_shown = 0  # the first item the list window shows (`window_tokens`)

    def disabled_count(self) -> int:
        return sum(1 for choice in self.choices if choice.disabled)

    def _get_choice_tokens(self) -> list[tuple[str, str]]:
        tokens: list[tuple[str, str]] = []
        for row in self._rows_of_items():
            if tokens:
                tokens.append(("", "\n"))
            tokens.extend(row)
        return wrap_tokens(tokens, self.width, INDENT)

    def _rows_of_items(self) -> list[list[tuple[str, str]]]:
        """The list's items as rows before wrapping: one an option, the short items joined
        into the last one, the disabled options folded into one when `fold`."""
        tokens = super()._get_choice_tokens()
        rows: list[list[tuple[str, str]]] = [[]]
        for style, text in tokens:
            if text == "\n" and not style.startswith("["):
                rows.append([])
            else:
                rows[-1].append((style, text))
        tail = 0
        for choice in reversed(self.choices):
            if choice.value not in self.footer:
                break
            tail += 1
        if self.fold and self.disabled_count() > 1:
            rows = self._folded(rows)
        if tail > 1:
            joined: list[tuple[str, str]] = []
            for row in rows[-tail:]:
                if joined:
                    joined.append(("class:text", "  "))
                joined.extend(row)
            rows = [*rows[:-tail], joined]
        return rows

    def window_tokens(self, height: int) -> list[tuple[str, str]]:
        """The wrapped list as shown in `height` rows: whole items only (an option's label is
        never shown cut at the window's edge), the pointed one among them. The window moves
        only when the pointer leaves it, and fills its rows from above at the list's end."""
        items = [wrap_tokens(row, self.width, INDENT) for row in self._rows_of_items()]
        sizes = [_rows(item) for item in items]
        if sum(sizes) <= height:
            first, end = 0, len(items)
        else:
            pointed = next(
                (
                    i
                    for i, item in enumerate(items)
                    if any(s == "[SetCursorPosition]" for s, _ in item)
                ),
                0,
            )
            first = min(self.first_shown, pointed)
            while first < pointed and sum(sizes[first : pointed + 1]) > height:
                first += 1
            end = pointed + 1
            while end < len(items) and sum(sizes[first : end + 1]) <= height:
                end += 1
            while first > 0 and sum(sizes[first - 1 : end]) <= height:
                first -= 1
        self.first_shown = first
        tokens: list[tuple[str, str]] = []
        for item in items[first:end]:
            if tokens:
                tokens.append(("", "\n"))
            tokens.extend(item)
        return tokens

    def _folded(self, rows: list[list[tuple[str, str]]]) -> list[list[tuple[str, str]]]:
        """The rows (one a choice) with the disabled ones folded into one, where the first
        of them stood."""
        out: list[list[tuple[str, str]]] = []
        folded = False
        for choice, row in zip(self.choices, rows, strict=True):
            if not choice.disabled:
                out.append(row)
            elif not folded:
                line = f"- {folded_line(self.disabled_count())}"
                out.append([("class:text", " " * (len(POINTER) + 2)), ("class:disabled", line)])
                folded = True
        return out


class PromptApp:
    """The single prompt_toolkit application of a run. `select` and `text` swap the question
    in and run it. The screen above (the `top` callback's ANSI lines, rendered by rich) is
    written once per question, straight to the terminal, so the application only redraws the
    question itself as keys are pressed; "Look…" swaps what is written above."""

    def __init__(
        self, style: Any, manage_gc: bool = False, input: Any = None, output: Any = None
    ) -> None:
        self._q = _Question("", "select")
        self._list_rows = 1
        self._wanted = 1
        self.buffer = Buffer(multiline=False)
        self.pending = ""  # typed at a list before its "Type it" item took over
        self.buffer.on_text_changed += self._typing  # a refusal goes once the answer changes
        # One control for every list (its tokens come from the question's control), so the
        # application's key bindings, cached per set of controls, are merged only once
        self.list_window = Window(
            FormattedTextControl(_as_formatted(self._list_tokens)),
            wrap_lines=True,
            height=lambda: Dimension.exact(max(1, self._list_rows)),
            always_hide_cursor=True,
        )
        self.text_window = Window(
            BufferControl(
                self.buffer, input_processors=[BeforeInput(_as_formatted(self._padded_header))]
            ),
            wrap_lines=True,
            dont_extend_height=True,
        )
        header = Window(
            FormattedTextControl(_as_formatted(self._wrapped_header)),
            wrap_lines=True,
            dont_extend_height=True,
            always_hide_cursor=True,
        )
        selecting = Condition(lambda: self._q.mode != "text")
        typing = Condition(lambda: self._q.mode == "text")
        layout = Layout(
            HSplit(
                [
                    ConditionalContainer(
                        Window(
                            FormattedTextControl(
                                _as_formatted(lambda: self._worded("notice", self._q.notice))
                            ),
                            wrap_lines=True,
                            dont_extend_height=True,
                        ),
                        filter=Condition(lambda: bool(self._q.notice)) & ~IsDone(),
                    ),
                    ConditionalContainer(header, filter=selecting),
                    ConditionalContainer(self.list_window, filter=selecting & ~IsDone()),
                    ConditionalContainer(self.text_window, filter=typing),
                    ConditionalContainer(
                        Window(
                            FormattedTextControl(
                                _as_formatted(lambda: self._worded("error", self._q.error))
                            ),
                            wrap_lines=True,
                            dont_extend_height=True,
                        ),
                        filter=Condition(lambda: bool(self._q.error)) & ~IsDone(),
                    ),
                ]
            ),
            focused_element=self.text_window,
        )
        self.app: Application[Any] = Application(
            layout=layout,
            key_bindings=merge_key_bindings([load_key_bindings(), self._bindings()]),
            style=merge_styles([questionary.Style([("error", "fg:ansired bold")]), style]),
            full_screen=False,
            mouse_support=False,
            input=input,
            output=output,
        )
        self.app.ttimeoutlen = ESCAPE_TIMEOUT
        self._loop = asyncio.new_event_loop()
        self._idle: Any = None
        self._until: int | None = None  # `wait`: the file whose input ends the question
        self._arrived = False
        self._late_interrupt = False  # a Ctrl-C not raised yet (pressed as a question ended)
        # run once while a person reads a question (a remote game's save, so that writing it
        # never delays the next question): a short moment after it is shown
        self.while_reading: Callable[[], None] | None = None
        self.manage_gc = manage_gc
        if manage_gc:  # collections happen while a person reads (see _tidy), not on a key
            pause_collector()

    def _typing(self, _: Any) -> None:
        self._q.error = None

    # -- what is drawn --------------------------------------------------------------------
    def _header_tokens(self) -> list[tuple[str, str]]:
        q = self._q
        tokens = [("class:qmark", "?"), ("class:question", f" {q.message} ")]
        if q.mode == "text" and not self.app.is_done:
            if q.can_look:
                tokens.append(("class:instruction", LOOK_KEY))
            elif q.back is not None:
                tokens.append(("class:instruction", BACK_KEY))
        if self.app.is_done:
            if q.mode != "text" or not self.buffer.text:  # a typed answer shows as typed
                tokens.append(("class:answer", q.answer))
        elif q.mode == "select":
            width = self._size()[0]
            last = len(wrap_tokens([("", f"? {q.message} ")], width, 2)[-1][1].rsplit("\n")[-1])
            where = self._pointed_spot()
            if self._list_rows < self._wanted:  # always said, on a row of its own if need be
                fits = last + len(SCROLL_HINT) <= width
                hint = SCROLL_HINT if fits else SHORT_SCROLL_HINT
                tokens.append(
                    ("class:instruction", hint + self._at(where, width - last - len(hint)))
                )
            elif last + len(SELECT_HINT) <= width:  # never a row of its own
                at = self._at(where, width - last - len(SELECT_HINT))
                tokens.append(("class:instruction", SELECT_HINT + at))
        elif q.mode == "look":
            tokens.append(("class:instruction", LOOK_HINT))
        return tokens

    @staticmethod
    def _at(where: str | None, room: int) -> str:
        """` at x,y`: the spot of the option pointed at, whose label says only the words,
        said after the hint where the row has room for it (else nothing: `p` shows it)."""
        said = f" at {where}" if where else ""
        return said if len(said) <= room else ""

    def _pointed_spot(self) -> str | None:
        """The spot of the option under the pointer, where its label gave it up for words
        (its `description`), or None."""
        control = self._q.control
        if control is None or not control.choices:
            return None
        try:
            pointed = control.get_pointed_at()
        except IndexError:
            return None
        return pointed.description if isinstance(pointed.description, str) else None

    def _list_tokens(self) -> list[tuple[str, str]]:
        control = self._q.control
        if control is None:
            return []
        return control.window_tokens(max(1, self._list_rows))

    def _worded(self, kind: str, text: str | None) -> list[tuple[str, str]]:
        """A notice or a refusal wrapped at words (a window wraps at the edge, whatever
        character stands there: "(b5" on one row, ")" on the next)."""
        return wrap_tokens([(f"class:{kind}", text or "")], self._size()[0], 2)

    def _wrapped_header(self) -> list[tuple[str, str]]:
        return wrap_tokens(self._header_tokens(), self._size()[0], 2)

    def _padded_header(self) -> list[tuple[str, str]]:
        """The header wrapped at words for the typing line, which wraps at the terminal's
        edge whatever it holds (a newline shows as ^J there): each wrapped row is filled with
        spaces to the edge instead, so the next row starts where a word would."""
        width = self._size()[0]
        out: list[tuple[str, str]] = []
        column = 0
        for style, text in self._wrapped_header():
            rows = text.split("\n")
            for i, row in enumerate(rows):
                if i:
                    out.append(("", " " * (width - column)))
                    column = 0
                out.append((style, row))
                column += len(row)
        return out

    def _size(self) -> tuple[int, int]:
        size = self.app.output.get_size()
        return max(20, size.columns), max(6, size.rows)

    def _question_rows(self, width: int) -> tuple[int, int, int | None]:
        """The rows of the question's fixed part (message, notice, room for an error), those
        its list would like, and those with its disabled options folded (None: no fold). The
        header is measured as if the whole list fits (`_fit` adds a row if it then scrolls),
        never with the last question's rows: that made a screen one row too tall."""
        q = self._q
        wanted = 0
        folded = None
        control = q.control
        if q.mode != "text" and control is not None:
            control.width = width
            control.fold = False
            wanted = _rows(control._get_choice_tokens())
            if q.mode == "select" and control.disabled_count() > 1:
                control.fold = True
                folded = _rows(control._get_choice_tokens())
                control.fold = False
        self._wanted = self._list_rows = wanted
        if q.mode == "text":  # the message wrapped at words, then what is typed after it
            header = self._wrapped_header()
            last = "".join(text for _, text in header).rsplit("\n", 1)[-1]
            line = len(last) + len(self.buffer.text) + 12
            fixed = _rows(header) + max(0, line - 1) // width + 1  # and a row for a refusal
        else:
            fixed = _rows(self._wrapped_header())
        if q.notice:
            fixed += _rows(wrap_tokens([("", q.notice)], width, 2))
        return fixed, wanted, folded

    def _draw_top(self, top: Top | None, looking: list[str] | None, scroll: int) -> int:
        """Clear the terminal and write the screen above the question; returns the scroll
        offset used (looked-at content taller than the room scrolls)."""
        width, height = self._size()
        fixed, wanted, folded = self._question_rows(width)
        if looking is not None:
            self._list_rows = min(wanted, max(3, height // 3))
            room = max(0, height - fixed - self._list_rows)
            if len(looking) > room > 1:  # a last line says where this is and what is left
                room -= 1
            scroll = max(0, min(scroll, len(looking) - room))
            lines = looking[scroll : scroll + room]
            if len(looking) > len(lines) and lines:
                lines.append(page_position(scroll, len(lines), len(looking)))
        else:
            fit, fixed = self._fit(top, width, height, fixed, wanted, folded)
            lines, self._list_rows = fit.lines, fit.list_rows
            lines = lines[: max(0, height - fixed - self._list_rows)]  # never past the rows
            if top is None:
                return scroll
        output = self.app.output
        output.erase_screen()
        output.cursor_goto(0, 0)
        if lines:
            output.write_raw("\r\n".join(lines) + "\x1b[0m\r\n")
        output.flush()
        return scroll

    def _fit(
        self, top: Top | None, width: int, height: int, fixed: int, wanted: int, folded: int | None
    ) -> tuple[Fit, int]:
        """How the question fits under the screen, and the rows its fixed part then takes.
        The header says whether the list scrolls, which is known only now: when saying so
        changes its rows, the fit is made again."""
        control = self._q.control
        fit = Fit([], 0)
        for _ in range(2):
            before = _rows(self._wrapped_header())
            if top is not None:
                fit = top(width, height, fixed, wanted, folded)
            else:
                fold = folded is not None and wanted > height - fixed
                rows = folded if fold and folded is not None else wanted
                fit = Fit([], min(rows, max(3, height - fixed)), fold)
            if control is not None:
                control.fold = fit.fold
            self._wanted = folded if fit.fold and folded is not None else wanted
            self._list_rows = fit.list_rows
            extra = _rows(self._wrapped_header()) - before
            fixed += extra
            if extra == 0:
                break
        return fit, fixed

    # -- keys -----------------------------------------------------------------------------
    def _bindings(self) -> KeyBindings:
        kb = KeyBindings()
        selecting = Condition(lambda: self._q.mode != "text")
        typing = Condition(lambda: self._q.mode == "text")
        looking = Condition(lambda: self._q.mode == "look")

        @kb.add(Keys.ControlC, eager=True)
        @kb.add(Keys.ControlQ, eager=True)
        def _(event: Any) -> None:
            self._interrupt()

        def move(step: int) -> Callable[[Any], None]:
            def handler(event: Any) -> None:
                control = self._q.control
                count = len(control.choices)
                for _ in range(count):
                    control.pointed_at = (control.pointed_at + step) % count
                    if control.is_selection_valid():
                        break

            return handler

        for key in (Keys.Down, Keys.ControlN, "j"):
            kb.add(key, filter=selecting, eager=True)(move(1))
        for key in (Keys.Up, Keys.ControlP, "k"):
            kb.add(key, filter=selecting, eager=True)(move(-1))

        on_row = Condition(lambda: self._q.mode == "select" and self._on_short_row())

        def along(step: int) -> Callable[[Any], None]:
            """Left/Right along the row the short items share ("Table… Look… Take back"),
            which reads as a row: never off its ends, never onto an option proper."""

            def handler(event: Any) -> None:
                control = self._q.control
                row = self._short_row()
                at = row.index(control.pointed_at)
                for index in row[at + step :: step] if step > 0 else row[:at][::-1]:
                    if not control.choices[index].disabled:
                        control.pointed_at = index
                        return

            return handler

        kb.add(Keys.Right, filter=on_row, eager=True)(along(1))
        kb.add(Keys.Left, filter=on_row, eager=True)(along(-1))

        paging = Condition(lambda: self._q.mode == "select" and self._q.pager is not None)

        def page(step: int) -> Callable[[Any], None]:
            """PgUp/PgDn: scroll what is looked at, or page a list's screen (a replay)."""

            def handler(event: Any) -> None:
                to = "scroll" if self._q.mode == "look" else "page"
                event.app.exit(result=_Switch(to, step))

            return handler

        for key, step in ((Keys.PageDown, 1), (Keys.PageUp, -1)):
            kb.add(key, filter=looking | paging, eager=True)(page(step))

        @kb.add(Keys.Escape, filter=looking, eager=True)
        def _(event: Any) -> None:
            event.app.exit(result=_Switch("back"))

        @kb.add(Keys.Escape, filter=typing & Condition(lambda: self._q.can_look), eager=True)
        def _(event: Any) -> None:
            event.app.exit(result=_Switch("look"))

        can_back = Condition(lambda: not self._q.can_look and self._q.back is not None)

        @kb.add(Keys.Escape, filter=typing & can_back, eager=True)
        def _(event: Any) -> None:
            self._q.answer = "(taken back)"
            self.buffer.reset()
            event.app.exit(result=self._q.back)

        @kb.add(Keys.ControlM, filter=selecting, eager=True)
        def _(event: Any) -> None:
            q = self._q
            choice = q.control.get_pointed_at()
            if q.mode == "look":
                switch = _Switch("back") if choice.value == BACK else _Switch("show", choice.value)
                event.app.exit(result=switch)
                return
            if choice.value == LOOK:
                event.app.exit(result=_Switch("look"))
                return
            q.control.is_answered = True
            q.answer = choice.title if isinstance(choice.title, str) else ""
            event.app.exit(result=choice.value)

        @kb.add(Keys.ControlM, filter=typing, eager=True)
        def _(event: Any) -> None:
            q = self._q
            text = self.buffer.text
            verdict = q.validate(text) if q.validate is not None else True
            if verdict is True:
                q.error = None
                q.answer = text
                event.app.exit(result=text)
            else:
                q.error = str(verdict) if verdict else "not accepted"

        @kb.add(Keys.Any, filter=selecting)
        def _(event: Any) -> None:
            """Typing at a list with a "Type it" item starts typing there (what was typed is
            kept); at any other list it does nothing (questionary's select alike)."""
            q = self._q
            typed = q.typed
            if q.mode == "select" and q.keys and event.data in q.keys:  # e.g. p: point
                event.app.exit(result=q.keys[event.data])
                return
            if q.mode != "select" or not event.data.isprintable():
                return
            if event.data.isdigit():  # a digit picks the option it is (a die's face)
                for index, choice in enumerate(q.control.choices):
                    if choice.value == event.data and not choice.disabled:
                        q.control.pointed_at = index
                        q.control.is_answered = True
                        q.answer = choice.title if isinstance(choice.title, str) else ""
                        event.app.exit(result=choice.value)
                        return
            if typed is None:
                return
            if any(choice.value == typed for choice in q.control.choices):
                self.pending = event.data
                q.control.is_answered = True
                q.answer = "Type it"
                event.app.exit(result=typed)

        return kb

    def _short_row(self) -> list[int]:
        """The indexes of the short items sharing the list's last row (`footer` values at its
        end), when two or more share it."""
        control = self._q.control
        row: list[int] = []
        for index in range(len(control.choices) - 1, -1, -1):
            if control.choices[index].value not in control.footer:
                break
            row.insert(0, index)
        return row if len(row) > 1 else []

    def _on_short_row(self) -> bool:
        control = self._q.control
        return control is not None and control.pointed_at in self._short_row()

    # -- asking ---------------------------------------------------------------------------
    def select(
        self,
        message: str,
        choices: list[Any],
        default: Any = None,
        top: Top | None = None,
        looks: Looks | None = None,
        notice: str | None = None,
        clear: bool = False,
        footer: frozenset[Any] = frozenset(),
        typed: Any = None,
        keys: dict[str, Any] | None = None,
        pager: Callable[[int], None] | None = None,
    ) -> Any:
        """A list; with `pager`, PgUp/PgDn page the screen above (`top` draws it again)."""
        control = WrappingControl(
            choices,
            default=default,
            pointer=POINTER,
            use_indicator=False,
            show_description=False,
            initial_choice=default,
        )
        control.footer = footer
        question = _Question(
            message, "select", control, notice=notice, can_look=bool(looks), typed=typed, keys=keys
        )
        question.pager = pager
        self.pending = ""
        while True:
            self._q = question
            self._draw_top(top if clear else None, None, 0)
            answer = self._run()
            if not isinstance(answer, _Switch):
                return answer
            if answer.to == "page" and pager is not None:
                pager(answer.value)
                question.control.is_answered = False
                continue
            self._look(top, looks)
            if self._arrived:
                return ARRIVED
            question.control.is_answered = False  # the pointer still on Look…: no move

    def wait(self, message: str, choices: list[Any], until: int, **kw: Any) -> None:
        """`message` over `choices` (Look…) until the file `until` has input (the other
        machine's move came): Look… opens as at a question, and either ends when it comes."""
        self._until, self._arrived = until, False
        try:
            self.select(message, choices, **kw)
        finally:
            self._until = None

    def _interrupt(self) -> None:
        """Ctrl-C: the question ends with KeyboardInterrupt; when it has just ended anyway
        (`wait`'s move came that instant), `_run` raises it once it returns: never lost."""
        self._late_interrupt = True
        self._deliver()

    def _deliver(self) -> None:
        future = self.app.future
        if self._late_interrupt and future is not None and not future.done():
            self._late_interrupt = False
            self.app.exit(exception=KeyboardInterrupt, style="class:aborting")

    def _signalled(self, signum: int, frame: Any) -> None:
        """A Ctrl-C that comes as a signal while a question runs (the terminal not raw yet or
        any more, as a wait for the other side's move ends): as the key."""
        self._late_interrupt = True  # heard even if the loop stops before `_deliver` runs
        self._loop.call_soon_threadsafe(self._deliver)

    def _arrive(self) -> None:
        self._arrived = True
        with contextlib.suppress(Exception):  # already leaving: a key came at the same time
            self.app.exit(result=ARRIVED)

    def _look(self, top: Top | None, looks: Looks | None) -> None:
        """The "Look…" menu, above it the screen or what is looked at, until "Back"."""
        items = looks() if looks is not None else []
        menu = [questionary.Choice("Back to the question", BACK)] + [
            questionary.Choice(title, index) for index, (title, _) in enumerate(items)
        ]
        control = WrappingControl(menu, pointer=POINTER, use_indicator=False)
        control.pointed_at = 1 if len(menu) > 1 else 0
        looking: list[str] | None = None
        scroll = 0
        while True:
            self._q = _Question("Look at what?", "look", control)
            scroll = self._draw_top(top, looking, scroll)
            answer = self._run()
            if not isinstance(answer, _Switch) or answer.to == "back" or self._arrived:
                return
            if answer.to == "show":
                looking = items[answer.value][1](self._size()[0])
                scroll = 0
            elif answer.to == "scroll" and looking is not None:
                scroll += answer.value * max(1, self._size()[1] // 2)

    def text(
        self,
        message: str,
        default: str = "",
        validate: Callable[[str], Any] | None = None,
        top: Top | None = None,
        looks: Looks | None = None,
        notice: str | None = None,
        clear: bool = False,
        back: Any = None,
    ) -> str:
        """A typed answer; with `back` and nothing to look at, Esc answers `back` instead."""
        typed = default
        while True:
            self._q = _Question(
                message, "text", validate=validate, notice=notice, can_look=bool(looks), back=back
            )
            self.buffer.reset()
            self.buffer.insert_text(typed)
            if clear:
                self._draw_top(top, None, 0)
            answer = self._run()
            if not isinstance(answer, _Switch):
                return answer
            typed = self.buffer.text  # kept while looking
            self._look(top, looks)

    def run_other(self, application: Any) -> Any:
        """Run another application (the map cursor, `ui/cursor.py`) on this one's loop."""
        return self._loop.run_until_complete(application.run_async())

    def _run(self) -> Any:
        self.app.layout.focus(self.text_window)
        if self.manage_gc:
            self._idle = self._loop.call_later(0.2, _tidy)
        reading = None
        if self.while_reading is not None:
            reading = self._loop.call_later(READING, self.while_reading)
        until = self._until
        if until is not None:
            if self._arrived:
                return ARRIVED
            self._loop.add_reader(until, self._arrive)
        # prompt_toolkit's own handling of the signal would make it a key of a question
        # already over (lost): ours raises it once the question ends (`_signalled`)
        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, self._signalled) if main else None
        previous = previous if previous is not None or not main else signal.default_int_handler
        try:
            answer = self._loop.run_until_complete(self.app.run_async(handle_sigint=False))
            if self._late_interrupt:
                self._late_interrupt = False
                raise KeyboardInterrupt
            return answer
        finally:
            if previous is not None:
                signal.signal(signal.SIGINT, previous)
            if until is not None:
                self._loop.remove_reader(until)
            if reading is not None:
                reading.cancel()
            if self._idle is not None:
                self._idle.cancel()

    def close(self) -> None:
        self._loop.close()
        if self.manage_gc:
            resume_collector()


def page_position(first: int, shown: int, total: int) -> str:
    """The line under a looked-at text taller than the room: which lines, and the keys."""
    keys = [key for key, more in (("PgUp", first > 0), ("PgDn", first + shown < total)) if more]
    return f"\x1b[2m-- lines {first + 1}-{first + shown} of {total}; {'/'.join(keys)} --\x1b[0m"


def _tidy() -> None:
    """While a person reads the question: collect what the last turn left and freeze the rest,
    so no collection lands between a key press and the next question."""
    collect_and_freeze()
