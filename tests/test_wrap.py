"""Option labels wrap at words, never cut: every word of a long label is on screen whole."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from wargame_cli.ui.wrap import rows, wrap_tokens

WORD = st.text(alphabet="abcdefghij,.()'\"0123456789", min_size=1, max_size=12)


@given(st.lists(WORD, min_size=1, max_size=40), st.integers(min_value=30, max_value=120))
def test_long_labels_wrap_between_words(words, width):
    label = " ".join(words)
    tokens = [("class:pointer", " » "), ("[SetCursorPosition]", ""), ("class:text", label)]
    wrapped = wrap_tokens(tokens, width, 5)
    text = "".join(t for _, t in wrapped)
    lines = text.split("\n")
    assert all(len(line) <= width for line in lines)
    assert all(line.startswith("     ") for line in lines[1:])  # under the text
    assert text.replace("\n     ", " ") == " » " + label  # nothing lost, no word cut
    assert rows(wrapped) == len(lines)
    assert ("[SetCursorPosition]", "") in wrapped  # the list still scrolls to the pointer


def test_a_refusal_and_a_notice_wrap_at_words_in_the_prompt():
    """The notice above a question and a refusal under it wrap at words: a window left to
    wrap them breaks at the edge, "(b5" on one row and ")" alone on the next."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput

    from wargame_cli.ui.app import PromptApp

    text = "Refused: 18.5,4.5 overlaps Moss (B5): a base may not stand on another's (b5)"
    with create_pipe_input() as pipe:
        app = PromptApp(style=None, input=pipe, output=DummyOutput())  # 80 columns
        for kind in ("notice", "error"):
            shown = "".join(t for _, t in app._worded(kind, text + " " + text))
            rows = shown.split("\n")
            assert len(rows) > 1 and all(len(row) <= 80 for row in rows)
            assert [w for row in rows for w in row.split()] == (text + " " + text).split()
