"""End-to-end fixtures: the real server on a free port and Debian's Chromium driven by Playwright.

Chromium is Debian's package, in its headless build (`.ci/run` installs it); Playwright never
downloads a browser.
Screenshots go to artifacts/screenshots/ (git-ignored) for people to look at.

The fixtures are registered once, in tests/conftest.py, for every folder with browser tests:
one Chromium per pytest worker for the whole session. A browser per module cost a Playwright
driver and a Chromium start for every module each of four workers touched; and Playwright's
sync API refuses a second instance in one process, so the fixture must have one definition.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Request, sync_playwright

from bloodforge.server.config import Settings
from tests.server.support import ServerThread

#: Debian's Chromium in its headless build (package `chromium-headless-shell`, the same
#: Chromium release and the same Blink and V8 as the `chromium` package): Chromium's headless
#: mode without the desktop browser's compositor and UI stack around the page, the build
#: Playwright itself runs for headless tests. *Why:* the browser tests cost Chromium about 30 %
#: less CPU in it (all 136 browser tests on four workers: 292 -> 203 CPU-s, docs/testing.md),
#: and the suite is CPU-bound on CI's two cores. `BLOODFORGE_TEST_CHROMIUM=/usr/bin/chromium`
#: runs them in the full browser (all pass there too).
CHROMIUM = Path(os.environ.get("BLOODFORGE_TEST_CHROMIUM", "/usr/bin/chromium-headless-shell"))
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "artifacts" / "screenshots"


def new_context(browser: Browser, **options: Any) -> BrowserContext:
    """A browser context that asks for reduced motion unless the test says otherwise, taken from
    this worker's pool of contexts: `close()` gives it back, as good as new.

    Pieces glide for 380 ms after each move and dice tumble; rendered in software, those frames
    were 30 % of the browser tests' CPU (five heavy modules: 198 -> 138 CPU-s, docs/testing.md).
    The animations keep tests of their own that ask for motion (test_table_ui's glide and
    tumble, the tutorial's pulse on a phone).

    *Why a pool:* opening a page in a new context cost Chromium 2.0-2.4 CPU-s (a Kingdoms
    table), and 1.2 in a context that keeps a page of the same site open, because that page
    keeps Chromium's renderer process for 127.0.0.1 alive and the new page joins it instead of
    starting one (docs/testing.md). Each pooled context keeps such a page (`_keeper_url`).
    Nothing of one test reaches the next: its pages are closed (and with them their session
    storage and sockets), cookies and permissions cleared, and the storage of every origin its
    requests went to deleted; each test's server has a port, so an origin, of its own anyway.
    Two contexts asked for at once (two players) are two contexts, as before."""
    options.setdefault("reduced_motion", "reduce")
    key = json.dumps(options, sort_keys=True, default=str)
    idle = _IDLE.setdefault((id(browser), key), [])
    if idle:
        context = idle.pop()
        _LRU.remove(context)
    else:
        context = browser.new_context(**options)
        keeper = context.new_page()
        keeper.goto(_keeper_url())
        _KEEPERS[id(context)] = keeper
    origins: set[str] = set()

    def visited(request: Request) -> None:
        origins.add(_origin(request.url))

    context.on("request", visited)
    released = False

    def close(**_: Any) -> None:
        nonlocal released
        if released:
            return
        released = True
        context.remove_listener("request", visited)
        try:
            _reset(context, origins)
        except Exception:  # a context a test broke is not given to the next one
            _really_close(context)
            return
        if idle:  # one idle context of a kind is enough; the second player's goes
            _really_close(context)
            return
        idle.append(context)
        _LRU.append(context)
        while len(_LRU) > MAX_IDLE:  # each keeps a renderer process: a few tens of MB
            oldest = _LRU.pop(0)
            for kind in _IDLE.values():
                if oldest in kind:
                    kind.remove(oldest)
            _really_close(oldest)

    context.close = close  # type: ignore[method-assign]
    return context


#: Idle pooled contexts by (browser, options), and each pooled context's keeper page.
_IDLE: dict[tuple[int, str], list[BrowserContext]] = {}
#: The idle contexts, least recently given back first; at most MAX_IDLE are kept.
_LRU: list[BrowserContext] = []
MAX_IDLE = 8
_KEEPERS: dict[int, Page] = {}
_KEEPER: list[ThreadingHTTPServer] = []


class _KeeperPage(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        body = b"<!doctype html><title>keeper</title>"
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *_: Any) -> None:
        pass


def _keeper_url() -> str:
    """An empty page on 127.0.0.1, the tests' servers' site, served for the whole worker."""
    if not _KEEPER:
        httpd = ThreadingHTTPServer(("127.0.0.1", 0), _KeeperPage)
        threading.Thread(target=httpd.serve_forever, daemon=True, name="keeper-page").start()
        _KEEPER.append(httpd)
    return f"http://127.0.0.1:{_KEEPER[0].server_address[1]}/"


def _really_close(context: BrowserContext) -> None:
    _KEEPERS.pop(id(context), None)
    BrowserContext.close(context)  # the class's close, not the pool's


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}" if parts.scheme in ("http", "https") else ""


def _reset(context: BrowserContext, origins: set[str]) -> None:
    keeper = _KEEPERS[id(context)]
    for pg in context.pages:
        if pg is not keeper:
            pg.close()
    context.clear_cookies()
    context.clear_permissions()
    cdp = context.new_cdp_session(keeper)
    try:
        for origin in sorted(origins - {"", _origin(_keeper_url())}):
            cdp.send("Storage.clearDataForOrigin", {"origin": origin, "storageTypes": "all"})
    finally:
        cdp.detach()


@pytest.fixture(scope="session")
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        raise RuntimeError(f"{CHROMIUM} is missing: `bash .ci/run` installs it "
                           "(apt-get install chromium-headless-shell)")
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
