"""BLOODSTONE arena in the browser: the 127-hex arena drawn by the shared hex renderer, an
initiative card picked with its button, then a click on a central hex enters the arena
(R-SET / R-FR: round 1 placement). The real server and Debian's Chromium, as tests/e2e."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Page, expect
from tests.server.support import ServerThread

import bloodforge


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
    # the seat's link belongs to this browser now (the server refuses it elsewhere): the page's
    # own log says where the Champion entered
    # (named from the centre since the UI audit: "at 2 spaces west of the centre", not "-2,0")
    expect(page.locator("#log")).to_contain_text("Vhrak enters the arena at ")
    assert f"at {where}" not in page.locator("#log").inner_text()
    page.screenshot(path=str(shots / "arena-01-entered.png"))


def test_issue18_defect1_the_arena_panel_and_status_board_are_shown_and_readable(
    page: Page, server: ServerThread, shots: Path
) -> None:
    """Defect 1: the view filled the extra panel and never un-hid it. Now the status board
    (HP/max, Blood Energy, dice, initiative, Ultimate) is under each combatant, the extra
    panel shows the initiative order, a figure's HP is its token's text (no "150/175" cut to
    "5" in a corner badge), and a hand card shows its description on hover."""
    body = {"game": "arena", "params": {"players": 1}, "seed": 2, "seats": [{"name": "Ann"}]}
    created = httpx.post(server.url + "/api/tables", json=body, timeout=20).json()
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(server.url + created["links"][0]["url"])
    page.wait_for_selector("svg.board-hexes polygon.cell")
    players = page.locator("#players")
    expect(players).to_contain_text("HP 175/175")
    expect(players).to_contain_text("Ulwazi (Rival)")  # the solo default has a Rival (R-MODE-7)
    expect(players).to_contain_text("Mal'varra (Boss)")
    expect(players).to_contain_text("Ultimate")
    card = page.locator('.hand-item[data-hand="lunge"]')
    expect(card).to_have_attribute("data-card", "lunge")
    card.click()
    entry = page.locator("polygon.cell[data-hex].legal").first
    expect(entry).to_be_visible(timeout=10_000)
    extra = page.locator("#extra")
    expect(extra).to_be_visible()
    expect(extra).to_contain_text("Initiative order")
    expect(extra).to_contain_text("Mal'varra")
    entry.click()
    boss = page.locator('g.piece[data-unit="malvarra"]')
    expect(boss).to_be_visible(timeout=10_000)
    # the token carries the figure's short name over its HP (UI audit: tokens by name, not colour)
    expect(page.locator('g.piece[data-unit="malvarra"] text.piece-text')).to_have_text("Mal")
    hp = page.locator('g.piece[data-unit="malvarra"] text.piece-sub')
    expect(hp).to_have_text("230")
    box = hp.bounding_box()
    token = page.locator('g.piece[data-unit="malvarra"] .token').bounding_box()
    assert box is not None
    assert token is not None
    assert box["width"] <= token["width"]  # the number fits inside its token
    page.locator('.hand-item[data-hand="brace"]').hover()
    tip = page.locator("#card-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("You heal 5 HP")
    text = page.locator(".side-column").inner_text()
    for bad in ("undefined", "null", "NaN", "[object", "R-REC", "R-MODE"):
        assert bad not in text, bad
    page.screenshot(path=str(shots / "arena-02-status-board.png"))
