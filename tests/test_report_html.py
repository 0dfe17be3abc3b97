"""`wargame replay SAVE --html FILE`: one self-contained page per game, with the story and an SVG
picture of the table after every turn, for every ruleset; names from a save never become
markup; reports never replace a save, and replace another file only with --force. The page is
rendered by a real browser (headless Chromium) where one is installed."""

from __future__ import annotations

import json
import os
import re
import shutil
import struct
import subprocess
import tempfile
import zlib
from html import escape
from html.parser import HTMLParser
from pathlib import Path

import pytest

from tests.cli_helpers import one_error_line

RULESETS = ("tug-of-wargods", "squad-alpha", "battle-of-ixu", "seeds-of-wars", "mobs-and-morale")
VOID = frozenset({"meta", "br", "img", "link", "input", "hr"})
HOSTILE_A = '<script>alert("a")</script>&amp;'
HOSTILE_B = '"><img src=x onerror=alert(1)>'


class Page(HTMLParser):
    """The page's structure: every tag must close in order; the SVGs by the turn section
    holding them; any script, external reference or event handler noted."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.stack: list[str] = []
        self.svgs_by_turn: dict[str, int] = {}
        self.svgs = 0
        self.section = ""
        self.problems: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        if tag == "script":
            self.problems.append("script")
        for name, value in attrs:
            if name.startswith("on") or name in ("src", "href"):
                self.problems.append(f"{tag} {name}={value}")
        if tag == "section":
            self.section = str(attributes.get("id", ""))
        if tag == "svg" and "svg" not in self.stack:
            self.svgs += 1
            if self.section:
                self.svgs_by_turn[self.section] = self.svgs_by_turn.get(self.section, 0) + 1
        if tag not in VOID:
            self.stack.append(tag)

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.stack.append(tag)
        self.handle_endtag(tag)

    def handle_endtag(self, tag: str) -> None:
        assert self.stack and self.stack[-1] == tag, f"</{tag}> closes {self.stack[-3:]}"
        self.stack.pop()
        if tag == "section":
            self.section = ""

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def parse(html: str) -> Page:
    page = Page()
    page.feed(html)
    page.close()
    assert page.stack == [], page.stack
    return page


def played(wargame, tmp_path: Path, ruleset_id: str, *args: str, seed: str = "5") -> Path:
    save = tmp_path / f"{ruleset_id}.json"
    done = wargame("play", ruleset_id, "--no-input", "--seed", seed, "--save", str(save), *args)
    assert done.returncode == 0, done.stderr
    return save


@pytest.mark.parametrize("ruleset_id", RULESETS)
def test_html_report_of_every_ruleset_has_a_picture_per_turn(wargame, tmp_path, ruleset_id):
    save = played(wargame, tmp_path, ruleset_id)
    out = tmp_path / "report.html"
    done = wargame("replay", str(save), "--html", str(out))
    assert done.returncode == 0, done.stderr
    assert f"Battle report written to {out}" in done.stderr
    html = out.read_text(encoding="utf-8")
    assert html.startswith("<!DOCTYPE html>") and "<style>" in html
    page = parse(html)
    assert page.problems == []  # no script, nothing fetched: the page stands alone
    turns = json.loads(save.read_text())["turns"]
    assert turns >= 2
    for n in range(0, turns + 1):  # after deployment, then the end of every turn
        assert page.svgs_by_turn.get(f"turn-{n}") == 1, (n, page.svgs_by_turn)
    text = " ".join(page.text)
    names = json.loads(save.read_text())["setup"]["names"]
    assert f"Battle report: {names['A']} against {names['B']}" in text
    assert "The sides" in text and "Aftermath" in text
    if ruleset_id == "tug-of-wargods":  # the win-chance line: one point per turn and the start
        chart = html[html.index("chance of winning</h2>") :]
        chart = chart[: chart.index("</svg>")]
        assert chart.count("<circle") == turns + 1 and "<polyline" in chart
        assert page.svgs == turns + 2
    else:
        assert page.svgs == turns + 1


def test_the_tug_chance_line_follows_the_exact_odds(wargame, tmp_path):
    """Each point is side A's exact chance at that position; the last is the result."""
    save = played(wargame, tmp_path, "tug-of-wargods", seed="11")
    out = tmp_path / "tug.html"
    assert wargame("replay", str(save), "--html", str(out)).returncode == 0
    html = out.read_text(encoding="utf-8")
    points = [float(p) / 100 for p in _chances(html)]
    data = json.loads(save.read_text())
    assert len(points) == data["turns"] + 1
    assert points[-1] == (1.0 if data["result"]["winner"] == "A" else 0.0)
    assert 0.0 < points[0] < 1.0


def _chances(html: str) -> list[str]:
    return re.findall(r"<title>after turn \d+: [^<]* (\d+)%</title>", html)


@pytest.mark.parametrize("ruleset_id", ["battle-of-ixu", "tug-of-wargods"])
def test_names_from_a_save_are_escaped_everywhere(wargame, tmp_path, ruleset_id):
    """Side names in the title, the sides, the story's prose and the pictures' labels."""
    save = played(wargame, tmp_path, "battle-of-ixu", "--name-a", HOSTILE_A, "--name-b", HOSTILE_B)
    out, md = tmp_path / "r.html", tmp_path / "r.md"
    done = wargame("replay", str(save), "--html", str(out), "--report", str(md))
    assert done.returncode == 0, done.stderr
    html = out.read_text(encoding="utf-8")
    assert "<script" not in html and "<img" not in html
    page = parse(html)
    assert page.problems == []
    text = "".join(page.text)
    assert HOSTILE_A in text and HOSTILE_B in text  # shown as typed, not run
    if ruleset_id == "tug-of-wargods":  # in the prose and on the picture of the rope too
        assert text.count(HOSTILE_A) > 4 and html.count(escape(HOSTILE_A)) > 4
    report = md.read_text(encoding="utf-8")
    assert re.search(r"(?<!\\)[<>]", report) is None  # every bracket escaped in Markdown
    assert "\\<script\\>alert" in report


def test_an_existing_file_is_kept_unless_forced(wargame, tmp_path):
    save = played(wargame, tmp_path, "tug-of-wargods")
    for option, name in (("--html", "r.html"), ("--report", "r.md")):
        target = tmp_path / name
        target.write_text("mine", encoding="utf-8")
        line = one_error_line(wargame("replay", str(save), option, str(target)))
        assert "exists" in line and "--force" in line
        assert target.read_text(encoding="utf-8") == "mine"
        done = wargame("replay", str(save), option, str(target), "--force")
        assert done.returncode == 0, done.stderr
        assert target.read_text(encoding="utf-8").startswith(("<!DOCTYPE", "# Battle report"))


def test_a_report_never_replaces_a_save_even_forced(wargame, tmp_path):
    save = played(wargame, tmp_path, "tug-of-wargods")
    other = played(wargame, tmp_path, "battle-of-ixu")
    link = tmp_path / "link.md"
    link.symlink_to(save)
    before = {p: p.read_bytes() for p in (save, other)}
    for option in ("--report", "--html"):
        for target in (save, other, link):
            for force in ((), ("--force",)):
                line = one_error_line(wargame("replay", str(save), option, str(target), *force))
                assert "wargame save" in line
    assert {p: p.read_bytes() for p in (save, other)} == before
    assert link.is_symlink()


def test_a_refusal_comes_before_any_file_is_written(wargame, tmp_path):
    save = played(wargame, tmp_path, "tug-of-wargods")
    (tmp_path / "taken.md").write_text("mine", encoding="utf-8")
    fresh = tmp_path / "fresh.html"
    one_error_line(
        wargame("replay", str(save), "--html", str(fresh), "--report", str(tmp_path / "taken.md"))
    )
    assert not fresh.exists()


# -- a real browser ---------------------------------------------------------------------------
def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


def _pixels(png: bytes) -> tuple[int, int, list[bytes]]:
    """Width, height and the unfiltered rows of an 8-bit, non-interlaced PNG."""
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    pos, chunks, header = 8, b"", b""
    while pos < len(png):
        (length,) = struct.unpack(">I", png[pos : pos + 4])
        kind, body = png[pos + 4 : pos + 8], png[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            chunks += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    assert depth == 8 and interlace == 0
    channels = {0: 1, 2: 3, 4: 2, 6: 4}[colour]
    raw, stride = zlib.decompress(chunks), width * channels
    rows, previous = [], bytearray(stride)
    for y in range(height):
        kind = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1 : (y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - channels] if i >= channels else 0
            b = previous[i]
            c = previous[i - channels] if i >= channels else 0
            if kind == 1:
                line[i] = (line[i] + a) & 0xFF
            elif kind == 2:
                line[i] = (line[i] + b) & 0xFF
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 0xFF
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 0xFF
        rows.append(bytes(line))
        previous = line
    return width, height, rows


@pytest.mark.skipif(
    _browser() is None,
    reason="no Chromium installed: `apt-get install -y chromium` to render the HTML report",
)
def test_a_real_browser_renders_the_report_with_its_pictures(wargame, tmp_path):
    save = played(wargame, tmp_path, "squad-alpha")
    out = tmp_path / "report.html"
    assert wargame("replay", str(save), "--html", str(out)).returncode == 0
    shot = tmp_path / "shot.png"
    profile = tempfile.mkdtemp(prefix="wargame-chromium-")
    try:
        done = subprocess.run(
            [
                str(_browser()),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                f"--user-data-dir={profile}",
                "--window-size=900,1600",
                f"--screenshot={shot}",
                out.as_uri(),
            ],
            capture_output=True,
            timeout=180,
            env={**os.environ, "HOME": profile},
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    assert shot.exists(), done.stderr.decode(errors="replace")[-2000:]
    width, height, rows = _pixels(shot.read_bytes())
    assert (width, height) == (900, 1600)
    colours = {row[i : i + 3] for row in rows[::4] for i in range(0, len(row), 12)}
    assert len(colours) > 20  # not blank: text, terrain, both sides' colours
    blues = sum(1 for c in colours if c[2] > 150 and c[0] < 80)  # side A's bases
    reds = sum(1 for c in colours if c[0] > 150 and c[2] < 80)  # side B's
    assert blues and reds


def test_pictures_escape_what_a_save_names():
    """A table option's terrain names reach the SVG as text, never as markup."""
    from wargame_cli.tabletop.geometry import Point, Rect
    from wargame_cli.tabletop.picture import Base, tabletop
    from wargame_cli.tabletop.table import Piece, Table, TerrainKind

    table = Table(8, 6, (Piece('<rect onload="x">', TerrainKind.SOFT, Rect(1, 1, 3, 3)),), "t")
    drawn = tabletop(table, [Base("<b", "</svg><script>", Point(4, 4), 0.5, "A", True)], "&x")
    page = parse(f"<section id='turn-0'>{drawn}</section>")
    assert page.problems == [] and page.svgs == 1
    assert "<script" not in drawn and "&lt;/svg&gt;&lt;script&gt; (down)" in drawn
    assert "&lt;rect onload=&quot;x&quot;&gt;" in drawn
