"""Shell completion through the real entry point, as bash, zsh and fish ask for it."""

from __future__ import annotations

import pytest


def _complete(wargame, shell: str, words: str) -> list[str]:
    env = {"_WARGAME_COMPLETE": f"complete_{shell}"}
    if shell == "bash":
        env.update(COMP_WORDS=words, COMP_CWORD=str(len(words.split()) - (not words.endswith(" "))))
    else:
        env["_TYPER_COMPLETE_ARGS"] = words
        if shell == "fish":
            env["_TYPER_COMPLETE_FISH_ACTION"] = "get-args"
    done = wargame(env=env)
    assert done.returncode == 0, done.stderr
    return done.stdout


MARK = {
    "bash": "complete -o default -F",
    "zsh": "#compdef wargame",
    "fish": "complete --command wargame",
}


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_script_shown_is_the_named_shells(wargame, shell):
    done = wargame("--show-completion", shell)
    assert done.returncode == 0 and "_WARGAME_COMPLETE" in done.stdout
    assert MARK[shell] in done.stdout
    assert not any(MARK[other] in done.stdout for other in MARK if other != shell)
    assert "--install-completion" in wargame("--help").stdout


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_install_completion_writes_the_named_shells_script(wargame, tmp_path, shell):
    done = wargame("--install-completion", shell, env={"HOME": str(tmp_path)})
    assert done.returncode == 0, done.stderr
    written = [p for p in tmp_path.rglob("*") if p.is_file() and "wargame" in p.read_text()]
    assert written and shell in done.stdout


def test_an_unknown_shell_is_one_line_and_exit_2(wargame):
    done = wargame("--show-completion", "tcsh")
    assert done.returncode == 2 and "tcsh" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1 and "Traceback" not in done.stderr


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_ruleset_ids_complete(wargame, shell):
    out = _complete(wargame, shell, "wargame play ")
    assert all(i in out for i in ("tug-of-wargods", "squad-alpha", "mobs-and-morale"))
    assert "squad-alpha" in _complete(wargame, shell, "wargame simulate sq")
    assert "tug-of-wargods" not in _complete(wargame, shell, "wargame simulate sq")


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_option_keys_then_their_choices_complete(wargame, shell):
    keys = _complete(wargame, shell, "wargame play tug-of-wargods --option ")
    assert "rounding=" in keys and "start=" in keys
    values = _complete(wargame, shell, "wargame simulate tug-of-wargods --option rounding=")
    assert "rounding=exact" in values and "rounding=down" in values


def test_preset_team_names_and_save_paths_complete(wargame, tmp_path):
    assert "Commandos" in _complete(wargame, "bash", "wargame play squad-alpha --team-a C")
    levy = _complete(wargame, "fish", "wargame play battle-of-ixu --team-b ")
    assert "Swords" in levy and "Levy" in levy
    (tmp_path / "games").mkdir()
    (tmp_path / "games" / "one.json").write_text("{}")
    (tmp_path / "games" / "notes.txt").write_text("")
    out = _complete(wargame, "bash", "wargame replay games/")
    assert "games/one.json" in out and "notes.txt" not in out
