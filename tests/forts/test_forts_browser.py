"""Five Forts in the browser: the planning clock counts down, runs out, and the AIs bribe.

The real server on a free port and Debian's Chromium (as tests/e2e does). The table is the
packaged `bribery.yaml` scenario with a 3-second planning minute: Blue (the human seat here)
lets it run out, the server records `timeout 1`, and the greedy AIs of Green and Red bribe.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import yaml
from playwright.sync_api import Browser, Page, expect, sync_playwright
from tests.server.support import ServerThread

from bloodforge.server.config import Settings

CHROMIUM = Path("/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
SCENARIO = Path(__file__).resolve().parents[2] / "src/bloodforge/games/forts/scenarios/bribery.yaml"
SHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        raise RuntimeError("Debian's chromium is missing: `bash .ci/run` installs it (apt-get install chromium)")
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'forts.sqlite3'}", ai_delay=0.02, ai_time_budget=5.0)
    with ServerThread(settings) as s:
        yield s


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def test_the_planning_clock_counts_down_then_a_timeout_opens_bribery(page: Page, server: ServerThread) -> None:
    scenario = yaml.safe_load(SCENARIO.read_text())
    scenario["params"]["planning_seconds"] = 3
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
    deadline = time.monotonic() + 15
    log = ""
    while time.monotonic() < deadline:
        log = page.locator("#log").inner_text()
        if "bribes" in log or "does not bribe" in log:
            break
        page.wait_for_timeout(200)
    assert "planning minute ran out" in log, log
    assert "Green bribes Blue's" in log or "Red bribes Blue's" in log, log
    assert clock.count() == 0 or clock.inner_text() != first
    page.screenshot(path=str(SHOTS / "forts-02-bribery.png"))
    # the late player plans on, with no second clock this turn
    expect(page.locator("#extra .planning-clock")).to_have_count(0, timeout=5000)
