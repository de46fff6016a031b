"""Five Forts log in the browser names players as the panels do (issue 18, LOW: the log said
"Red"/"Blue" while the panels said "Ann · Red"). The rules' log keeps the seat colours (the
terminal shows them); the page words them "Ann (Red)" through the game view's logText, since
seat names belong to the table. Lines about an AI seat are marked as such (logSeat)."""

from __future__ import annotations

import re

from playwright.sync_api import Browser

from tests.server.support import ServerThread

from .clicks import create, open_page, wait_my_turn


def test_forts_log_names_the_player_with_the_colour(browser: Browser, server: ServerThread) -> None:
    created = create(server, game="forts", params={"players": 2, "max_rounds": 3, "planning_seconds": 0}, seed=5,
                     seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    errors: list[str] = []
    page = open_page(browser, server, created["links"][0], errors)
    wait_my_turn(page)
    colours = page.evaluate("() => [...document.querySelectorAll('.player .muted')].map((e) => e.textContent)")
    assert any("Red" in c for c in colours), colours  # the panel: "Ann · Red"
    page.wait_for_function("() => document.querySelectorAll('#log li').length > 0")
    log = page.locator("#log").inner_text()
    assert re.search(r"\b(Ann \(Red\)|Bot \((Blue|Green|Gold)\))", log), log
    # no colour is left standing alone for a player
    bare = re.findall(r"(?<![(\w])(Red|Blue|Green|Gold)\b(?!\))", log)
    assert not bare, (bare, log)
    # the lines about the AI's seat are marked as the AI's (as in games whose log says "P1")
    ai_lines = page.locator("#log li.by-ai").all_inner_texts()
    assert ai_lines
    assert all(t.startswith("Bot (") for t in ai_lines), ai_lines
    assert not errors, errors
