"""Issue 18, defect 7 and "Done when": no developer text on screen in any game, in the table
page (a seat's view and its Cards list), the end summary, and the replay (its last and a middle
position). Developer text is what `tests/e2e/devtext.py` names: undefined, null, NaN, [object
...], snake_case identifiers, rule codes such as "(R-REC-3)", "L229", "A38", "P0" labels.

Each game is played by AI seats (random agents) on a server without AI delay, so a whole game
is over in seconds; the page is then read as a person would read it.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

from bloodforge.server.config import Settings
from tests.server.support import ServerThread

from .clicks import wait_my_turn
from .devtext import assert_no_dev_text, dev_text

GAMES = ["arena", "bloodstones", "forts", "kingdoms", "witch"]


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerThread]:
    """The real server with AI seats playing at once (whole games in seconds)."""
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'devtext.sqlite3'}", ai_delay=0.0, ai_time_budget=5.0)
    with ServerThread(settings) as s:
        yield s


def create(server: ServerThread, game: str, seats: list[dict[str, Any]]) -> dict[str, Any]:
    params = {} if game == "witch" else {"players": 2}
    r = httpx.post(server.url + "/api/tables", json={"game": game, "params": params, "seats": seats}, timeout=30)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def wait_over(server: ServerThread, table_id: str, limit: float = 300) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()["status"] == "over":
            return
        time.sleep(0.5)
    raise AssertionError(f"{table_id}: the AI game did not end in {limit} s")


def test_the_scanner_finds_each_kind_of_developer_text() -> None:
    for bad in ("combat_move", "Replay: seat null to play", "(R-REC-3)", "see L229", "rule A38",
                "undefined", "NaN left", "[object Object]", "P0 moves", '{"a": 1}'):
        assert dev_text(bad), bad
    for fine in ("Combat move", "Ann moves 2 infantry to Elmwood", "Round 3 of 30", "HP 150/175",
                 "Blood Witch (16/18)", "Seat 2", "d6: 5 (hit)"):
        assert not dev_text(fine), (fine, dev_text(fine))


@pytest.mark.parametrize("game", GAMES)
def test_no_developer_text_in_the_table_summary_and_replay(
    page: Page, server: ServerThread, shots: Path, game: str
) -> None:
    # a seat's table page, with the list of all cards open
    seat_table = create(server, game, [{"name": "Ann", "kind": "human"},
                                       {"name": "Bot", "kind": "agent", "agent": "random"}])
    page.goto(server.url + seat_table["links"][0]["url"])
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    wait_my_turn(page)
    assert_no_dev_text(page, f"{game}: the table page")
    cards = page.locator("#cards-button")
    if cards.is_visible():
        cards.click()
        expect(page.locator("#list-dialog")).to_be_visible()
        assert_no_dev_text(page, f"{game}: the Cards list")
        page.keyboard.press("Escape")

    # a whole game between AI seats: its end summary, then its replay
    ai_table = create(server, game, [{"name": "Red Bot", "kind": "agent", "agent": "random"},
                                     {"name": "Blue Bot", "kind": "agent", "agent": "random"}])
    table_id = ai_table["table"]["id"]
    page.goto(f"{server.url}/table/{table_id}")  # a spectator while the AI seats play
    page.wait_for_function(
        "() => Number(document.body.dataset.version) >= 8 || document.body.dataset.terminal === 'true'")
    assert_no_dev_text(page, f"{game}: a spectator's page during the game")
    wait_over(server, table_id)
    page.goto(f"{server.url}/table/{table_id}")
    page.wait_for_function("() => document.body.dataset.terminal === 'true'")
    expect(page.locator("#summary-dialog")).to_be_visible()
    page.screenshot(path=str(shots / f"t18-10-summary-{game}.png"))
    assert_no_dev_text(page, f"{game}: the end summary")
    page.keyboard.press("Escape")

    page.goto(f"{server.url}/table/{table_id}/replay")
    page.wait_for_function("() => document.body.dataset.terminal === 'true'")
    expect(page.locator("#moves .move-link").first).to_be_visible()
    assert_no_dev_text(page, f"{game}: the replay's last position")
    moves = page.locator("#moves .move-link")
    moves.nth(moves.count() // 2).click()
    page.wait_for_function("() => document.body.dataset.terminal === 'false'")
    page.screenshot(path=str(shots / f"t18-11-replay-{game}.png"))
    assert_no_dev_text(page, f"{game}: the replay in the middle of the game")
