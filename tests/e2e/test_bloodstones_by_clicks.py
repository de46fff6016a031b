"""Bloodstones played through the page by clicks only (issue 18): seat 0 against the AI at
1280x800 from faction choice to the end summary on the short variant `max_rounds=2` (a real
parameter: the house cap on rounds). Tiles and areas are clicked on the board and the hand,
decisions by the buttons the page shows. Also: the casualty step of the rulebook's battle at
1280x800 (defect 3): the Lose choices are on screen without scrolling and a click on the unit
on the map picks it; a stack moves with one "Take all" click; at 390x844 the prompt is on the
first screen. Screenshots go to artifacts/screenshots/bloodstones-*.png."""

from __future__ import annotations

from pathlib import Path

import yaml
from playwright.sync_api import Browser, Page

from tests.server.support import ServerThread

from .clicks import close_dialogs, create, legal, open_page, perform, prompt_fits_a_phone, version, wait_my_turn

SCENARIO = Path(__file__).resolve().parents[2] / "src/bloodforge/games/bloodstones/scenarios/worked_example_battle.yaml"


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert size is not None
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def pick(options: list[str], *prefixes: str) -> str | None:
    for prefix in prefixes:
        for text in options:
            if text == prefix or text.startswith(prefix + " "):
                return text
    return None


def test_bloodstones_whole_game_by_clicks_against_the_ai(browser: Browser, server: ServerThread, shots: Path) -> None:
    created = create(server, game="bloodstones", params={"players": 2, "max_rounds": 2}, seed=4,
                     seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    errors: list[str] = []
    page = open_page(browser, server, created["links"][0], errors)
    first = True
    for _ in range(500):
        wait_my_turn(page, timeout=180_000)
        if page.evaluate("() => document.body.dataset.terminal") == "true":
            break
        close_dialogs(page)
        options = legal(page)
        if first:
            page.screenshot(path=str(shots / "bloodstones-1280-start.png"))
            first = False
        action = (pick(options, "faction", "stay", "keep", "casualty", "retreat", "raise", "to", "pay")
                  or pick(options, "citadel", "start", "build", "capture", "village", "move", "done")
                  or options[0])
        if action == "cancel":
            action = next(o for o in options if o != "cancel")
        if action.startswith("faction "):
            before = version(page)
            page.locator(f'.faction-card button[data-action="{action}"]').click()
            page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
            continue
        if action.startswith("casualty ") and page.locator("#extra .battle-choice").count():
            page.screenshot(path=str(shots / "bloodstones-1280-casualty.png"))
        perform(page, action)
        if page.evaluate("() => document.body.dataset.phase") == "main_actions" and \
                not (shots / "bloodstones-1280-main.png").exists():
            page.screenshot(path=str(shots / "bloodstones-1280-main.png"))
    assert page.evaluate("() => document.body.dataset.terminal") == "true", "the game reached its end"
    page.wait_for_selector("#summary-dialog[open]")
    page.screenshot(path=str(shots / "bloodstones-1280-end.png"))
    assert "VP" in page.locator("#summary-dialog").inner_text()
    assert not errors, errors


def fight_the_worked_example_battle(browser: Browser, server: ServerThread,
                                    errors: list[str]) -> tuple[Page, Page]:
    """Two humans' pages (Ann attacks, Bob defends) of the rulebook's worked-example battle,
    played by clicks up to the fight: both substitutions made, the loser to choose casualties."""
    created = create(server, scenario=SCENARIO.read_text(),
                     seats=[{"name": "Ann", "kind": "human"}, {"name": "Bob", "kind": "human"}])
    attacker = open_page(browser, server, created["links"][0], errors)
    defender = open_page(browser, server, created["links"][1], errors)
    wait_my_turn(attacker)
    perform(attacker, "battle 27 1")
    wait_my_turn(attacker)
    perform(attacker, "substitute resources")
    wait_my_turn(defender)
    perform(defender, "substitute ship")
    return attacker, defender


def test_defect3_the_casualty_choice_fits_1280x800_and_the_map_picks_the_unit(
    browser: Browser, server: ServerThread, shots: Path
) -> None:
    errors: list[str] = []
    _attacker, defender = fight_the_worked_example_battle(browser, server, errors)
    wait_my_turn(defender)
    close_dialogs(defender)
    assert sorted(legal(defender)) == ["casualty shields", "casualty swords"]
    # the choice and both sides' tiles are on screen, no scrolling
    assert in_view(defender, '.battle-choice button[data-action="casualty swords"]')
    assert in_view(defender, '#extra .battle-tiles[data-side="1"]')
    defender.screenshot(path=str(shots / "bloodstones-1280-defect3.png"))
    # the map: the loser's units are pieces of their own; a click on the swords picks them
    before = version(defender)
    defender.locator('g.piece[data-unit="swords"], g.piece[data-id="swords"]').first.click(force=True)
    if defender.locator("#menu").is_visible():
        defender.locator('#menu button[data-action="casualty swords"]').click()
    defender.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert "eliminates swords" in defender.locator("#log").inner_text()
    assert not errors, errors


def test_a_stack_moves_with_one_take_all_click(browser: Browser, server: ServerThread, shots: Path) -> None:
    scenario = yaml.safe_load(SCENARIO.read_text())
    # the rulebook's position without the Horse Lords in area 27: the Dragon Riders' stack may move
    units = scenario["position"]["units"]
    scenario["position"]["units"] = [u for u in units if not (u["area"] == 27 and u["seat"] == 1)]
    created = create(server, scenario=scenario,
                     seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    errors: list[str] = []
    page = open_page(browser, server, created["links"][0], errors)
    wait_my_turn(page)
    first = pick(legal(page), "move 27")
    assert first, legal(page)
    perform(page, first)
    page.locator(".stack-all").click()
    page.wait_for_function("() => !document.querySelector('.stack-all')", timeout=30_000)
    pending = page.locator("#pending").inner_text()
    assert "cavalry" in pending
    assert "lizardmen" in pending
    assert "leader" in pending
    page.screenshot(path=str(shots / "bloodstones-1280-stack.png"))
    assert not errors, errors


def test_bloodstones_phone_prompt_is_on_the_first_screen(browser: Browser, server: ServerThread, shots: Path) -> None:
    prompt_fits_a_phone(browser, server, shots, "bloodstones", {"players": 2})
