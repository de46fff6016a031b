"""BLOODSTONE arena in the browser: the 127-hex arena drawn by the shared hex renderer, an
initiative card picked with its button, then a click on a central hex enters the arena
(R-SET / R-FR: round 1 placement). The real server and Debian's Chromium, as tests/e2e."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Page, expect
from tests.e2e import conftest as e2e
from tests.server.support import ServerThread

import bloodforge

# The end-to-end fixtures (Debian's Chromium, the real server, a page that fails on JS errors).
browser, page, server, shots = e2e.browser, e2e.page, e2e.server, e2e.shots


def test_r_fr_the_arena_is_a_hex_board_and_a_champion_enters_by_a_click(
    page: Page, server: ServerThread, shots: Path
) -> None:
    hexes = len(bloodforge.load_game("arena", players=1).static_info()["board"]["hexes"])
    body = {"game": "arena", "params": {"players": 1}, "seed": 1, "seats": [{"name": "Ann"}]}
    created = httpx.post(server.url + "/api/tables", json=body, timeout=20).json()
    page.goto(server.url + created["links"][0]["url"])
    page.wait_for_selector("svg.board-hexes polygon.cell")
    expect(page.locator("polygon.cell[data-hex]")).to_have_count(hexes)
    pick = page.locator('#actions button[data-action^="pick "]').first
    expect(pick).to_be_visible(timeout=10_000)
    pick.click()
    # round 1: the legal entry hexes light up; a click on one places the Champion there
    entry = page.locator("polygon.cell[data-hex].legal").first
    expect(entry).to_be_visible(timeout=10_000)
    where = entry.get_attribute("data-hex")
    entry.click()
    confirm = page.locator("#confirm-bar button.confirm")
    if confirm.count():
        confirm.click()
    link = created["links"][0]
    history = httpx.get(f"{server.url}/api/tables/{created['table']['id']}/history", params={"seat": 0},
                        headers={"Authorization": f"Bearer {link['token']}"}, timeout=10).json()
    page.screenshot(path=str(shots / "arena-01-entered.png"))
    assert any(h["action"] == f"place {where}" for h in history), history
