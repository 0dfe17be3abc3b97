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


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_the_scripts_install_for_each_shell(wargame, shell):
    done = wargame("--show-completion", shell)
    assert done.returncode == 0 and "_WARGAME_COMPLETE" in done.stdout
    assert "--install-completion" in wargame("--help").stdout


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
