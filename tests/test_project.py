"""The project's promises about itself: README's test line is CI's, the schema is current,
startup imports stay light."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_exactly_the_readme_test_line():
    readme = (ROOT / "README.md").read_text()
    ci_lines = [
        line
        for line in (ROOT / ".ci/run").read_text().splitlines()
        if "pytest" in line and not line.startswith("#")
    ]
    assert len(ci_lines) == 1
    assert f"```sh\n{ci_lines[0]}\n```" in readme


def test_save_schema_file_is_generated_from_the_models():
    from wargame_cli.saves.model import SCHEMA_PATH, schema

    assert json.loads(SCHEMA_PATH.read_text()) == json.loads(json.dumps(schema()))


def test_help_imports_no_questionary_or_ruleset_code():
    code = (
        "import sys\nfrom wargame_cli.cli.boundary import run\n"
        "from wargame_cli.cli.app import app\n"
        "run(app, ['--help'])\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in "
        "('questionary', 'prompt_toolkit') or m.startswith('wargame_cli.rulesets')]\n"
        "print('BAD:' + ','.join(bad))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip().splitlines()[-1] == "BAD:"


def test_rulesets_json_imports_no_rules_code():
    """Only each ruleset's package and the module declaring its class (`INFO` is made from
    the class; the rules load inside its methods)."""
    code = (
        "import sys\nfrom wargame_cli.cli.boundary import run\n"
        "from wargame_cli.cli.app import app\n"
        "run(app, ['rulesets', '--json'])\n"
        "bad = [m for m in sys.modules if m.startswith('wargame_cli.rulesets.')"
        " and m.count('.') > 2 and not m.endswith('.ruleset')"
        " or m.split('.')[0] in ('questionary', 'prompt_toolkit')]\n"
        "print('BAD:' + ','.join(bad))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.stdout.strip().splitlines()[-1] == "BAD:"


def test_the_distribution_installs_no_top_level_name_but_ours(tmp_path):
    """`rulesets/` installs as `wargame_cli.rulesets` (package-dir): the installed
    distribution's top_level.txt names wargame_cli alone, every package folder is in
    pyproject's list, and outside the project's folder `rulesets` is no module at all."""
    import tomllib
    from importlib.metadata import distribution

    setup = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    folders = {
        ".".join(p.parent.relative_to(ROOT).parts) for p in ROOT.glob("wargame_cli/**/__init__.py")
    } | {
        "wargame_cli." + ".".join(p.parent.relative_to(ROOT).parts)
        for p in ROOT.glob("rulesets/**/__init__.py")
    }
    assert set(setup["packages"]) == folders
    assert setup["package-dir"] == {"wargame_cli.rulesets": "rulesets"}
    assert (distribution("wargame-cli").read_text("top_level.txt") or "").split() == ["wargame_cli"]
    code = (
        "import importlib.util as u\n"
        "print(u.find_spec('rulesets'))\n"
        "print(u.find_spec('wargame_cli.rulesets.squad_alpha.rules').origin)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True, timeout=60
    )
    none, origin = done.stdout.split()
    assert none == "None", done.stdout
    assert Path(origin) == ROOT / "rulesets" / "squad_alpha" / "rules.py"
