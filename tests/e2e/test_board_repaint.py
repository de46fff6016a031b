"""The board repaints only what changed (every game's board, Chromium's own trace as the witness).

Two faults made every update of a table repaint its whole map, measured in docs/testing.md:

- *The row sized by its content.* The table page's grid row was sized from its content, so any
  change in the board column (a token moved) made the grid measure that column again at its
  content's height and then lay it out at the row's: Chromium laid out the map afresh, shaped
  every name again and invalidated every cell, line and label. Now a new token invalidates
  nothing else of the map.
- *Boards drawn in a unit square.* Chromium keeps the area a drawn shape dirties in whole units
  of the SVG's coordinates; on the Kingdoms map (0..1) one unit was the whole board, so a single
  new token re-rastered all of it. Boards are now drawn in BOARD_UNITS (geometry.js), and a new
  token re-rasters the tile or two under it.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.browser import new_context
from tests.server.support import ServerThread

GAMES = ["bloodstones", "witch", "forts", "kingdoms", "arena"]
#: Every game at 1280x800, and the worst board (Kingdoms) on a phone, whose page is laid out apart.
TABLES = [(game, (1280, 800)) for game in GAMES] + [("kingdoms", (390, 844))]
CATEGORIES = ["cc", "disabled-by-default-devtools.timeline", "disabled-by-default-blink.invalidation"]

#: A token added at the centre of the first cell, as drawPieces adds one.
ADD_TOKEN = """() => {
  const cell = document.querySelector('svg.map polygon.cell');
  const box = cell.getBBox();
  const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
  c.setAttribute('cx', box.x + box.width / 2);
  c.setAttribute('cy', box.y + box.height / 2);
  c.setAttribute('r', Math.min(box.width, box.height) / 6);
  c.setAttribute('class', 'token probe-token');
  document.querySelector('svg.map g.pieces').append(c);
}"""
#: Resolves once the fonts are in and two more frames were drawn: the first paint is over.
SETTLED = ("() => document.fonts.ready.then(() => new Promise((r) => "
           "requestAnimationFrame(() => requestAnimationFrame(r))))")


@pytest.fixture
def table_page(browser: Browser, server: ServerThread, request: pytest.FixtureRequest) -> Iterator[Page]:
    game, (width, height) = request.param
    params: dict[str, Any] = {} if game == "witch" else {"players": 2}
    if game == "forts":
        params["planning_seconds"] = 0  # no countdown ticking in the side column during the trace
    body = {"game": game, "params": params, "seed": 3,
            "seats": [{"name": "Ann", "kind": "human"}, {"name": "Bea", "kind": "human"}]}  # no AI: nothing moves
    created = httpx.post(server.url + "/api/tables", json=body, timeout=30).json()
    phone = width < 600
    context = new_context(browser, viewport={"width": width, "height": height}, is_mobile=phone, has_touch=phone)
    page = context.new_page()
    page.goto(server.url + created["links"][0]["url"])
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    page.wait_for_selector("svg.map polygon.cell")
    yield page
    context.close()


def traced(browser: Browser, page: Page, change: str) -> list[dict[str, Any]]:
    """Chromium's trace events while `change` runs in the page and the next frames are drawn.
    A trace covers the whole browser: the raster work of other pages (another test's, closing)
    is left out by the page's renderer process, which the trace names at its start."""
    page.evaluate(SETTLED)
    browser.start_tracing(page=page, categories=CATEGORIES)
    page.wait_for_timeout(100)
    page.evaluate(change)
    page.wait_for_timeout(400)
    data = json.loads(browser.stop_tracing())
    events: list[dict[str, Any]] = data["traceEvents"] if isinstance(data, dict) else data
    here = page.url.split("#")[0]
    renderer = {frame.get("processId") for e in events if e.get("name") == "TracingStartedInBrowser"
                for frame in e.get("args", {}).get("data", {}).get("frames", [])
                if str(frame.get("url", "")).split("#")[0] == here}
    assert len(renderer) == 1, f"the trace names {len(renderer)} processes for the page"
    # the invalidations are logged without a process: those of other pages hold no SVG map
    return [e for e in events if e.get("name") != "RasterTask" or e.get("pid") in renderer]


def map_clients_invalidated(events: list[dict[str, Any]]) -> list[str]:
    """The map's drawn objects Chromium invalidated (SVG layout objects, the probe token aside)."""
    out = []
    for e in events:
        if e.get("name") != "InvalidateDisplayItemClient":
            continue
        client = str(e.get("args", {}).get("client", ""))
        if client.startswith("LayoutSVG") and "probe-token" not in client:
            out.append(client)
    return out


def tiles_by_layer(events: list[dict[str, Any]]) -> Counter[int]:
    """The tiles Chromium rastered, by layer (the map's is one; another layer, such as a side
    panel's scroller, may raster a tile of its own in the same frames)."""
    return Counter(e["args"]["tileData"]["layerId"] for e in events if e.get("name") == "RasterTask")


@pytest.mark.parametrize("table_page", TABLES, indirect=True, ids=[f"{g}-{w}x{h}" for g, (w, h) in TABLES])
def test_a_new_token_repaints_only_the_tiles_under_it(browser: Browser, table_page: Page) -> None:
    view_box = table_page.evaluate("() => { const b = document.querySelector('svg.map').viewBox.baseVal; "
                                   "return [b.width, b.height]; }")
    assert max(view_box) >= 999, f"the board is drawn in {view_box}: not in board units (geometry.js BOARD_UNITS)"
    events = traced(browser, table_page, ADD_TOKEN)
    assert table_page.locator("svg.map circle.probe-token").count() == 1
    invalidated = map_clients_invalidated(events)
    assert not invalidated, f"{len(invalidated)} other objects of the map repainted, e.g. {invalidated[:5]}"
    tiles = tiles_by_layer(events)
    # a token near a tile's corner touches four; the whole Kingdoms map is twelve at 1280x800
    assert 1 <= max(tiles.values(), default=0) <= 4, f"tiles rastered for one token, by layer: {dict(tiles)}"
