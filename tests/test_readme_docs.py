"""README.md stays a front door: short, every link into docs/ opens a page, the docs never
point outside the repository, and every command and ruleset has its guide."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.docs_pages import DOCS, ROOT, anchors, links, name, pages
from wargame_cli.cli.app import app
from wargame_cli.registry import all_infos

README = ROOT / "README.md"


def test_the_readme_is_a_front_door():
    assert len(README.read_text().splitlines()) <= 160


def test_every_docs_link_in_the_readme_opens_a_file():
    targets = [t for t in links(README) if t.startswith("docs/")]
    assert len(targets) >= 15
    for target in targets:
        assert (ROOT / target.split("#")[0]).is_file(), target


@pytest.mark.parametrize("page", pages(), ids=name)
def test_links_resolve_inside_the_repository(page: Path):
    for target in links(page):
        assert "://" not in target and not target.startswith(("/", "mailto:")), (
            f"{name(page)} points outside the repository: {target}"
        )
        path, _, anchor = target.partition("#")
        file = (page.parent / path).resolve() if path else page
        assert file.is_relative_to(ROOT), f"{name(page)}: {target} leaves the repository"
        assert file.exists(), f"{name(page)}: {target} is missing"
        if anchor:
            assert anchor in anchors(file), f"{name(page)}: no heading for {target}"


def test_every_docs_page_is_reached_from_the_readme():
    """Following links from README.md reaches every page in docs/."""
    seen: set[Path] = set()
    todo = [README]
    while todo:
        page = todo.pop()
        if page in seen or page.suffix != ".md":
            continue
        seen.add(page)
        for target in links(page):
            path = target.partition("#")[0]
            if path:
                todo.append((page.parent / path).resolve())
    missing = [name(p) for p in pages() if p.resolve() not in seen]
    assert not missing


def test_every_command_has_a_guide_the_readme_names():
    readme = README.read_text()
    for command in app.registered_commands:
        assert command.name is not None
        assert f"wargame {command.name} " in readme, command.name
        guide = DOCS / "commands" / f"{command.name}.md"
        assert guide.is_file(), guide
        assert f"`wargame {command.name}" in guide.read_text()


def test_every_ruleset_has_a_guide_the_readme_links():
    readme = README.read_text()
    for info in [i for i in all_infos() if i.builtin]:  # a plugin documents itself
        assert (DOCS / "rulesets" / f"{info.id}.md").is_file(), info.id
        assert f"(docs/rulesets/{info.id}.md)" in readme, info.id
