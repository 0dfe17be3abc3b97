"""`simulate --html` pages read whole in a real browser (headless Chromium): every table the
terminal shows is on the page, and no label is cut (a table cell's text fits its cell, a
chart's words lie inside its picture). Skipped, saying so, where no Chromium is installed."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.test_report_html import _browser

pytestmark = pytest.mark.skipif(
    _browser() is None,
    reason="no Chromium installed: `apt-get install -y chromium` to read the pages",
)

TUG, SEEDS = "tug-of-wargods", "seeds-of-wars"

# Run in the browser after each page has laid out: what it shows, and what it cuts.
PROBE = """
<script>
window.addEventListener('load', () => {
  const out = [];
  for (const frame of document.querySelectorAll('iframe')) {
    const doc = frame.contentDocument;
    const cut = [];
    for (const cell of doc.querySelectorAll('td, th')) {
      if (cell.scrollWidth > cell.clientWidth + 1) cut.push(cell.textContent);
    }
    for (const svg of doc.querySelectorAll('svg')) {
      const box = svg.viewBox.baseVal;
      for (const t of svg.querySelectorAll('text')) {
        const b = t.getBBox();
        if (b.x < -0.5 || b.x + b.width > box.width + 0.5) cut.push(t.textContent);
      }
    }
    out.push({
      page: frame.dataset.page,
      tables: [...doc.querySelectorAll('table')].map(t => t.className),
      text: doc.body.innerText,
      svgs: doc.querySelectorAll('svg').length,
      exactLine: doc.querySelectorAll('polyline.exact').length,
      shaded: doc.querySelectorAll('td.shade').length,
      cut: cut,
    });
  }
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>
"""


def read_pages(pages: dict[str, Path], folder: Path) -> dict[str, dict[str, Any]]:
    """Each page in an iframe of one wrapper, laid out by Chromium at 900 px, probed."""
    frames = "".join(
        f'<iframe data-page="{name}" src="{path.as_uri()}" width="900" height="900"></iframe>'
        for name, path in pages.items()
    )
    wrapper = folder / "wrapper.html"
    wrapper.write_text(f"<!DOCTYPE html><html><body>{frames}{PROBE}</body></html>")
    profile = tempfile.mkdtemp(prefix="wargame-chromium-")
    try:
        done = subprocess.run(
            [
                str(_browser()),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--allow-file-access-from-files",
                "--virtual-time-budget=5000",
                f"--user-data-dir={profile}",
                "--dump-dom",
                wrapper.as_uri(),
            ],
            capture_output=True,
            timeout=180,
            env={**os.environ, "HOME": profile},
        )
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    dom = done.stdout.decode()
    start = dom.find('<pre id="probe">')
    assert start >= 0, done.stderr.decode(errors="replace")[-2000:]
    body = dom[start + len('<pre id="probe">') : dom.index("</pre>", start)]
    import html

    return {found["page"]: found for found in json.loads(html.unescape(body))}


def _page(wargame: Any, folder: Path, name: str, *args: str) -> Path:
    path = folder / f"{name}.html"
    done = wargame("simulate", *args, "--html", str(path))
    assert done.returncode == 0, done.stderr
    return path


def test_a_match_and_exact_odds_read_whole(wargame, tmp_path):
    long_name = "Greentoe of the Long Name Once Cut Short"  # 40 characters, the most
    team = tmp_path / "long.toml"
    team.write_text(f'name = "{long_name}"\nmodels = ["Sebeki", "Asar", "Asar"]\n')
    pages = {
        "match": _page(wargame, tmp_path, "match", SEEDS, "--games", "6", "--seed", "2"),
        "exact": _page(
            wargame, tmp_path, "exact", TUG, "--team-a", str(team), "--exact", "--games", "30"
        ),
    }
    read = read_pages(pages, tmp_path)
    match = read["match"]
    assert {"wins", "endings", "figures", "units", "about"} <= set(match["tables"])
    assert "Knights: Mv 2" in match["text"] and "Bots: default level on both sides" in match["text"]
    exact = read["exact"]
    assert {"wins", "endings", "exact", "exact-endings", "about"} <= set(exact["tables"])
    assert f"{long_name} (A): two of" in exact["text"]  # the endings' labels, whole
    for found in read.values():
        assert found["cut"] == [], found["cut"]
        assert found["svgs"] >= 2


def test_studies_read_whole_with_their_charts(wargame, tmp_path):
    pages = {
        "sweep": _page(wargame, tmp_path, "sweep", TUG, "--games", "200", "--sweep", "start=2..5"),
        "compare": _page(
            wargame,
            tmp_path,
            "compare",
            TUG,
            "--games",
            "200",
            "--compare",
            "start=4",
            "--compare",
            "start=3,rounding=down",
        ),
        "teams": _page(wargame, tmp_path, "teams", SEEDS, "--matrix", "--games", "2"),
    }
    read = read_pages(pages, tmp_path)
    sweep = read["sweep"]
    assert {"settings", "endings", "about"} <= set(sweep["tables"])
    assert sweep["exactLine"] == 1  # the exact curve under the bot games' dots
    assert "dots: bot games with 95% intervals; line: exact odds" in sweep["text"]
    compare = read["compare"]
    assert "difference from start=4.0 (paired, 95% interval)" in compare["text"]
    assert "start=3.0, rounding=down" in compare["text"]
    teams = read["teams"]
    assert "matrix" in teams["tables"] and teams["shaded"] == 4 * 3
    for found in read.values():
        assert found["cut"] == [], found["cut"]


def test_the_exact_matrix_page_needs_no_games(wargame, tmp_path):
    pages = {"pools": _page(wargame, tmp_path, "pools", TUG, "--matrix")}
    pools = read_pages(pages, tmp_path)["pools"]
    assert pools["tables"][0] == "matrix" and pools["shaded"] == 29 * 29
    assert "Every legal dice pool against every other, exactly" in pools["text"]
    assert pools["cut"] == []
