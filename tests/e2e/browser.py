"""End-to-end fixtures: the real server on a free port and Debian's Chromium driven by Playwright.

Chromium is Debian's package (`.ci/run` installs it); Playwright never downloads a browser.
Screenshots go to artifacts/screenshots/ (git-ignored) for people to look at.

The fixtures are registered once, in tests/conftest.py, for every folder with browser tests:
one Chromium per pytest worker for the whole session. A browser per module cost a Playwright
driver and a Chromium start for every module each of four workers touched; and Playwright's
sync API refuses a second instance in one process, so the fixture must have one definition.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

from bloodforge.server.config import Settings
from tests.server.support import ServerThread

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def new_context(browser: Browser, **options: Any) -> BrowserContext:
    """A browser context that asks for reduced motion unless the test says otherwise.

    Pieces glide for 380 ms after each move and dice tumble; rendered in software, those frames
    were 30 % of the browser tests' CPU (five heavy modules: 198 -> 138 CPU-s, docs/testing.md).
    The animations keep tests of their own that ask for motion (test_table_ui's glide and
    tumble, the tutorial's pulse on a phone)."""
    options.setdefault("reduced_motion", "reduce")
    return browser.new_context(**options)


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        raise RuntimeError("Debian's chromium is missing: `bash .ci/run` installs it (apt-get install chromium)")
    # Playwright's launch() gives Chromium a fresh, empty profile directory of its own.
    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        try:
            yield b
        finally:
            b.close()


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'e2e.sqlite3'}", ai_delay=0.02, ai_time_budget=5.0,
                        min_turn_clock=1.0)  # the take-over test runs on a 4 s clock
    with ServerThread(settings) as s:
        yield s


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    context = new_context(browser, viewport={"width": 1440, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.on("dialog", lambda d: errors.append(f"unexpected dialog: {d.message}"))
    yield pg
    context.close()
    assert not errors, errors


@pytest.fixture(scope="session")
def shots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS
