"""README.md is the front door and docs/ the rooms behind it: every scripted example in them
runs as written."""

from __future__ import annotations

import shlex

import pytest

from tests.docs_pages import examples, name, pages

EXAMPLES = [(name(page), command) for page in pages() for command in examples(page)]


def test_the_readme_has_scripted_examples():
    readme, *docs = pages()
    assert len(examples(readme)) >= 4
    assert sum(len(examples(page)) for page in docs) >= 20


SAVED = ("replay", "fork", "edit", "resume", "host")


@pytest.mark.parametrize(("page", "command"), EXAMPLES)
def test_documented_example_runs(page, command, wargame):
    words = shlex.split(command)[1:]
    if words[0] in SAVED or "--last" in words or "--from" in words:
        # saves to name, as `wargame saves` lists them: 2, a game in progress; 1, a finished one
        # (seeded: about one unseeded Tug game in 20 is over within its first turn)
        for more in (("--turns", "1"), ()):
            done = wargame("play", "tug-of-wargods", "--no-input", "--seed", "1", *more)
            assert done.returncode == 0, done.stderr
    if words[0] == "campaign" and words[1] != "new":  # a campaign of that name to go on with
        done = wargame("campaign", "new", words[2], "battle-of-ixu")
        assert done.returncode == 0, done.stderr
    if "--games" in words:  # the figure is illustrative: a smaller run checks the command
        i = words.index("--games")
        words[i + 1] = str(min(int(words[i + 1]), 500))
    done = wargame(*words)
    assert done.returncode == 0, (page, command, done.stderr)
