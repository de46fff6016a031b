"""Five Forts in the browser: the planning clock counts down, runs out, and the AIs bribe.

The real server on a free port and Debian's Chromium (as tests/e2e does). The table is the
packaged `bribery.yaml` scenario with an 8-second planning minute: Blue (the human seat here)
lets it run out, the server records `timeout 1`, and the greedy AIs of Green and Red bribe.
(3 seconds raced the page's first load: on a loaded CI machine the clock ran out before the
page showed it, and the test failed for want of a clock, not for a wrong one.)
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import httpx
import yaml
from playwright.sync_api import Page, expect
from tests.e2e.browser import SCREENSHOTS
from tests.server.support import ServerThread

SCENARIO = Path(__file__).resolve().parents[2] / "src/bloodforge/games/forts/scenarios/bribery.yaml"
SHOTS = SCREENSHOTS


def test_the_planning_clock_counts_down_then_a_timeout_opens_bribery(page: Page, server: ServerThread) -> None:
    scenario = yaml.safe_load(SCENARIO.read_text())
    scenario["params"]["planning_seconds"] = 8
    body = {
        "scenario": json.dumps(scenario),
        "seats": [{"name": "Red AI", "kind": "agent", "agent": "greedy"}, {"name": "Ann"},
                  {"name": "Green AI", "kind": "agent", "agent": "greedy"}],
    }
    r = httpx.post(server.url + "/api/tables", json=body, timeout=20)
    assert r.status_code == 201, r.text
    link = next(x for x in r.json()["links"] if x["seat"] == 1)
    url = link["url"] if link["url"].startswith("http") else server.url + link["url"]
    page.goto(url)
    page.wait_for_selector("polygon.cell")
    clock = page.locator("#extra .planning-clock")
    expect(clock).to_be_visible(timeout=5000)
    expect(clock).to_contain_text("s left")
    first = clock.inner_text()
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / "forts-01-planning-clock.png"))
    deadline = time.monotonic() + 25
    log = ""
    while time.monotonic() < deadline:
        log = page.locator("#log").inner_text()
        if "bribes" in log or "does not bribe" in log:
            break
        page.wait_for_timeout(200)
    assert "planning minute ran out" in log, log
    # the page names players as their panels do: "Green AI (Green) bribes Ann (Blue)'s ..."
    assert "Green AI (Green) bribes Ann (Blue)'s" in log or "Red AI (Red) bribes Ann (Blue)'s" in log, log
    assert clock.count() == 0 or clock.inner_text() != first
    page.screenshot(path=str(SHOTS / "forts-02-bribery.png"))
    # the late player plans on, with no second clock this turn
    expect(page.locator("#extra .planning-clock")).to_have_count(0, timeout=5000)
