"""README.md and the docs/ pages it opens onto: which files they are, their runnable examples
and their links (shared by the tests that keep them true)."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
NOTES = DOCS / "_notes"  # engineers' notes for the lead, not pages
SCRIPTED = ("--no-input", "--json", "--exact", "--matrix", "--games", "--verify")
LINK = re.compile(r"(?<!!)\[[^\]]*\]\(([^)\s]+)\)")


def pages() -> list[Path]:
    """README.md, then every docs/ page (not the notes folder)."""
    docs = sorted(p for p in DOCS.rglob("*.md") if NOTES not in p.parents)
    return [ROOT / "README.md", *docs]


def name(page: Path) -> str:
    return page.relative_to(ROOT).as_posix()


def examples(page: Path) -> list[str]:
    """The page's `wargame` lines in ```sh blocks that run unattended and need no file."""
    lines = []
    for block in re.findall(r"```sh\n(.*?)```", page.read_text(), flags=re.S):
        for line in block.splitlines():
            command = line.split("  #")[0].strip()
            if not command.startswith("wargame "):
                continue
            words = shlex.split(command)
            needs_file = any(w.endswith((".json", ".toml", ".md", "/")) for w in words)
            read_only = words[1] in ("rules", "rulesets", "saves", "dice")
            if (read_only or any(flag in words for flag in SCRIPTED)) and not needs_file:
                lines.append(command)
    return lines


def links(page: Path) -> list[str]:
    """Every Markdown link target on the page, outside code blocks."""
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return LINK.findall(text)


def slug(heading: str) -> str:
    """The anchor a Markdown renderer gives a heading (GitHub's rule)."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(page: Path) -> set[str]:
    text = re.sub(r"```.*?```", "", page.read_text(), flags=re.S)
    return {slug(h) for h in re.findall(r"^#+ (.*)$", text, flags=re.M)}
