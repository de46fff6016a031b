"""Hints in the browser (issue 21 item 4): the lobby offers the table option, and at the table
the seat to act gets a Hint button that names the strongest AI's choice with its win chance and
outlines that action's button. Screenshot: artifacts/screenshots/hint-witch.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from playwright.sync_api import Page

from bloodforge.server import hints
from tests.server.support import ServerThread


def test_hint_button_names_the_ais_choice_and_marks_its_button(
    page: Page, server: ServerThread, shots: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hints, "HINT_ITERATIONS", 10)  # small: the machine is shared
    page.goto(server.url + "/")
    page.wait_for_selector(".seat-row")
    page.select_option("#game", "witch")
    page.check("#hints")
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_selector("#actions button[data-action]", timeout=60_000)
    button = page.locator("#actions .hint-button")
    assert button.is_visible()
    button.click()
    page.wait_for_function(
        "() => /The AI would play: .+ \\(estimated win chance \\d{1,3}%\\)/.test("
        "document.querySelector('#actions .hint-text')?.textContent || '')", timeout=60_000)
    text = page.locator("#actions .hint-text").inner_text()
    assert "_" not in text
    marked = page.locator("#actions button.hinted")
    assert marked.count() >= 1
    legal_labels = page.locator("#actions button[data-action]").all_inner_texts()
    assert marked.first.inner_text() in legal_labels
    assert marked.first.inner_text() in text
    page.screenshot(path=str(shots / "hint-witch.png"))


def test_no_hint_button_at_a_table_without_hints(page: Page, server: ServerThread) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector(".seat-row")
    page.select_option("#game", "witch")
    assert not page.is_checked("#hints"), "hints are off by default"
    page.click("#create-button")
    page.wait_for_url(re.compile(r"/table/"))
    page.wait_for_selector("#actions button[data-action]", timeout=60_000)
    assert page.locator("#actions .hint-button").count() == 0
