"""Issue 21, item 3: the lobby says what an AI level is worth in the chosen game ("Level 7 · Elo
~640") from the game's measured levels (GET /api/games, `levels`), with a tooltip saying what
Elo 0 means; a game, table size or level without a measurement shows the level alone.

The game listing is answered with known levels for Blood Stone (the page's reading of them is
what is tested here; the shipped files and the API are tested in tests/server/test_levels_api.py);
the other games keep the levels the server ships.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, Route

from bloodforge.agents.levels import load_levels
from tests.server.support import ServerThread

from .devtext import dev_text, page_text


def entry(level: int, elo: int, measured: bool, seconds: float | None = None) -> dict[str, Any]:
    return {"level": level, "seconds": seconds, "elo": elo, "low": elo - 100, "high": elo + 100,
            "measured": measured, "games": 12 if measured else 0}


SEARCH = {1: 300, 2: 380, 3: 430, 4: 470, 5: 500, 6: 530, 7: 550, 8: 570, 9: 590, 10: 610}
LEVELS = {
    "game": "witch", "players": 2, "scale": "bradley-terry-elo", "anchor": "random",
    "interval": "bootstrap", "interpolation": "log seconds", "command": "bloodforge lab levels witch",
    "date": "2026-11-26", "seed": 1, "games": 60, "result": "docs/results/witch_levels.json", "pairs": [],
    "agents": {
        "mcts": [{**entry(k, v, k in (1, 3, 10), 0.1 * k), "pooled_with": [1] if k == 3 else []}
                 for k, v in SEARCH.items()],
        "greedy": [entry(10, 250, True)],
    },
}


def serve_levels(route: Route) -> None:
    response = route.fetch()
    games = response.json()
    for g in games:
        if g["id"] == "witch":
            g["levels"] = LEVELS
    route.fulfill(response=response, body=json.dumps(games), headers={**response.headers, "content-type":
                                                                       "application/json"})


def seat_levels(page: Page, seat: int) -> tuple[list[str], str, str]:
    row = page.locator(f'.seat-row[data-seat="{seat}"]')
    options = row.locator(".seat-strength option").all_text_contents()
    note = row.locator(".seat-elo")
    return options, (note.text_content() or "") if note.is_visible() else "", note.get_attribute("title") or ""


def test_the_lobby_shows_the_measured_elo_of_each_level_and_nothing_without_one(
    page: Page, server: ServerThread, shots: Path
) -> None:
    page.route("**/api/games", serve_levels)
    page.goto(server.url + "/")
    page.wait_for_selector(".seat-row")
    page.select_option("#game", "witch")
    page.wait_for_selector('.seat-row[data-seat="1"]')
    row = '.seat-row[data-seat="1"]'
    page.select_option(f"{row} .seat-kind", "agent:mcts")
    options, note, title = seat_levels(page, 1)
    assert options[0] == "Level 1 · Elo ~300"
    assert options[1] == "Level 2 · Elo ~380 (estimated)", "an interpolated level says so"
    assert options[9] == "Level 10 · Elo ~610"
    assert note == "Elo ~610, likely between 510 and 710 (12 games)"
    assert "0 is a player who moves at random" in title
    assert "2-player games" in title
    page.select_option(f"{row} .seat-strength", "5")
    assert seat_levels(page, 1)[1] == "Elo ~500, likely between 400 and 600 (estimated from the levels around it)"
    page.select_option(f"{row} .seat-strength", "3")
    assert seat_levels(page, 1)[1] == (
        "Elo ~430, likely between 330 and 530 (12 games; the lab could not tell it from level 1)"
    ), "a level pooled with another says the games could not tell them apart"
    page.screenshot(path=str(shots / "lobby-levels.png"))

    # greedy: level 10 measured, the others not: no number where there is none
    page.select_option(f"{row} .seat-kind", "agent:greedy")
    options, note, _ = seat_levels(page, 1)
    assert options[9] == "Level 10 · Elo ~250"
    assert options[:9] == [f"Level {k}" for k in range(1, 10)]
    page.select_option(f"{row} .seat-strength", "4")
    assert seat_levels(page, 1)[1] == ""
    page.select_option(f"{row} .seat-kind", "agent:random")
    assert seat_levels(page, 1)[1] == "Elo 0 (moves at random)"
    assert not dev_text(page_text(page)), dev_text(page_text(page))

    # Five Forts' shipped levels (measured at two players) at two players: the Elo beside each level
    shipped = load_levels("forts")
    assert shipped is not None
    assert shipped.players == 2
    search = shipped.entry("mcts", 10)
    assert search is not None
    page.select_option("#game", "forts")
    page.select_option("#players", "2")
    page.wait_for_selector('.seat-row[data-seat="1"]')
    page.select_option(f"{row} .seat-kind", "agent:mcts")
    options, note, _ = seat_levels(page, 1)
    assert options[9] == f"Level 10 · Elo ~{search.elo}"
    assert note.startswith(f"Elo ~{search.elo}, likely between {search.low} and {search.high}")
    page.screenshot(path=str(shots / "lobby-levels-forts.png"))

    # a table size nobody measured (the levels are from two-player games, the table has
    # three): levels only, no note, nothing odd
    page.select_option("#players", "3")
    page.wait_for_selector('.seat-row[data-seat="2"]')
    page.select_option(f"{row} .seat-kind", "agent:mcts")
    options, note, title = seat_levels(page, 1)
    assert options == [f"Level {k}" for k in range(1, 11)]
    assert note == ""
    assert title == ""

    assert not dev_text(page_text(page)), dev_text(page_text(page))
