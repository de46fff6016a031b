"""Pinch zoom on the three board renderers (issue 18: "board zoom and pan (wheel, pinch,
buttons) on all three renderers"; the pinch was untested). Two fingers are put on the board and
spread apart through Chromium's DevTools protocol (Input.dispatchTouchEvent: real touch input,
turned into pointer events by the browser), then pinched back in: the board's zoom (its viewBox
through the shared zoomable() in boards/board.js) grows, then shrinks; no cell is clicked."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.browser import new_context
from tests.server.support import ServerThread

from .clicks import create, version


def zoom(page: Page) -> float:
    return float(page.get_attribute("svg.map", "data-zoom") or "nan")


def pinch(page: Page, cx: float, cy: float, start: float, end: float, steps: int = 8) -> None:
    """Two fingers `start` px apart around (cx, cy), moved to `end` px apart, lifted."""
    cdp = page.context.new_cdp_session(page)

    def points(d: float) -> list[dict[str, float]]:
        return [{"x": cx - d / 2, "y": cy, "id": 0}, {"x": cx + d / 2, "y": cy, "id": 1}]

    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": points(start)})
    for i in range(1, steps + 1):
        d = start + (end - start) * i / steps
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": points(d)})
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    cdp.detach()


@pytest.mark.parametrize("geometry", ["hexes", "areas", "squares"])
def test_two_finger_pinch_zooms_every_renderer(
        browser: Browser, server: ServerThread, contract: None, geometry: str) -> None:
    if geometry == "squares":
        made = create(server, game="witch",
                      seats=[{"name": "Ann"}, {"name": "Bot", "kind": "agent", "agent": "random"}])
    else:
        made = create(server, game="toy_contract", name="Walk", seed=1, params={"plies": 12, "geometry": geometry},
                      seats=[{"name": "Walker", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "random"}])
    context = new_context(browser, viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True)
    try:
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.goto(server.url + made["links"][0]["url"])
        page.wait_for_function("() => document.body.dataset.version !== undefined")
        page.wait_for_selector("svg.map")
        page.locator("svg.map").scroll_into_view_if_needed()
        box = page.locator("svg.map").bounding_box()
        assert box is not None
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        assert zoom(page) == 1.0
        v = version(page)
        pinch(page, cx, cy, 60, 220)
        spread = zoom(page)
        assert spread > 2.0, spread  # fingers 3.7 times farther apart
        pinch(page, cx, cy, 200, 100)
        assert 1.0 <= zoom(page) < spread * 0.7, (zoom(page), spread)
        assert version(page) == v  # a pinch is no click on a cell
        assert not errors, errors
    finally:
        context.close()
