"""Kingdoms of Blood map readability (issue 18: "the map centre is a tangle of dashed lines and
overlapping labels"). The house graph's centre is not planar (three isles and two maelstroms each
reach all four inner seas), so some links must be drawn as lines; the drawing gives the centre
room (areas that are adjacent share borders wherever a plane drawing allows) and the renderer draws
the rest as short border-to-border connectors and keeps names apart (label collision avoidance).
Checked at 1280x800 and 390x844 on the page itself: no two area names overlap, the centre draws a
bounded number of short links, and few of them cross. Screenshots: artifacts/screenshots/
kingdoms-map-<width>.png."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.server.support import ServerThread

from .clicks import create, open_page

CENTRE = {"verdant_deep", "pale_deep", "iron_deep", "black_deep", "maelstrom_north", "maelstrom_south",
          "crown_isle", "sunspire", "moonspire"}

# Every name's box on screen, and every link's polyline in board units, with the board's width.
MEASURE = """() => {
  const labels = [...document.querySelectorAll('text.cell-label')].map((t) => {
    const r = t.getBoundingClientRect();
    return { id: t.dataset.label, text: t.textContent, x0: r.left, y0: r.top, x1: r.right, y1: r.bottom };
  });
  const svg = document.querySelector('svg.map');
  const vb = svg.viewBox.baseVal;
  const links = [...document.querySelectorAll('.lines .line.link')].map((p) => {
    const n = 24, len = p.getTotalLength(), pts = [];
    for (let i = 0; i <= n; i++) { const q = p.getPointAtLength((len * i) / n); pts.push([q.x, q.y]); }
    return { a: p.dataset.a, b: p.dataset.b, len, pts };
  });
  return { labels, links, width: vb.width };
}"""


def _crosses(p: list[list[float]], q: list[list[float]]) -> bool:
    def ccw(a: list[float], b: list[float], c: list[float]) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])

    for i in range(len(p) - 1):
        for j in range(len(q) - 1):
            a, b, c, d = p[i], p[i + 1], q[j], q[j + 1]
            if ccw(a, b, c) * ccw(a, b, d) < 0 and ccw(c, d, a) * ccw(c, d, b) < 0:
                return True
    return False


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_map_names_never_overlap_and_the_centre_links_are_few_short_and_rarely_cross(
        browser: Browser, server: ServerThread, shots: Path, size: tuple[int, int]) -> None:
    created = create(server, game="kingdoms", params={"players": 2}, seed=1,
                     seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    errors: list[str] = []
    page = open_page(browser, server, created["links"][0], errors, size=size)
    page.screenshot(path=str(shots / f"kingdoms-map-{size[0]}.png"))
    m = page.evaluate(MEASURE)
    labels = m["labels"]
    assert len(labels) == 65
    overlaps = [(a["text"], b["text"]) for i, a in enumerate(labels) for b in labels[i + 1:]
                if a["x0"] < b["x1"] - 0.5 and b["x0"] < a["x1"] - 0.5
                and a["y0"] < b["y1"] - 0.5 and b["y0"] < a["y1"] - 0.5]
    assert not overlaps, overlaps
    centre = [x for x in m["links"] if {x["a"], x["b"]} <= CENTRE]
    # the centre is K5 joined to a 4-cycle: 34 adjacencies, at most 20 can be shared borders
    assert len(centre) <= 14, [(x["a"], x["b"]) for x in centre]
    longest = max(x["len"] for x in centre)
    assert longest <= 0.21 * m["width"], (longest, m["width"])  # centre-to-centre lines ran to 0.32
    total = sum(x["len"] for x in centre)
    assert total <= 2.4 * m["width"], (total, m["width"])  # they added up to 3.7 board widths
    crossings = sum(_crosses(p["pts"], q["pts"]) for i, p in enumerate(centre) for q in centre[i + 1:])
    assert crossings <= 36, crossings  # of 91 pairs
    assert not errors, errors
