"""Five Forts played through the page by clicks only (issue 18): seat 0 against the AI at
1280x800 to the end summary, on the short variant `max_rounds=3` without the planning clock
(both real parameters). Moves and attacks are made by clicking the army's territory, then its
destination, then the number of units in the menu the board opens; recruits by clicking the
fort; hero cards in the hand; everything else by the page's buttons. Button texts are short
(no territory features), the bribe button shows the army's real cost (defect 5, checked in
tests/forts/test_forts_table_view.py and here on the page), and at 390x844 the prompt is on the
first screen. Screenshots go to artifacts/screenshots/forts-*.png."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.server.support import ServerThread

from .clicks import (
    FREE_POINT,
    close_dialogs,
    confirm_if_asked,
    create,
    legal,
    open_page,
    pick_from_menu,
    prompt_fits_a_phone,
    version,
    wait_my_turn,
)


def click_area(page: Page, area: str) -> None:
    point = page.evaluate(FREE_POINT, area)
    assert point, f"no free point to click in {area}"
    page.mouse.click(point[0], point[1])


def by_clicks(page: Page, action: str) -> None:
    before = version(page)
    verb, *args = action.split()
    if verb in ("move", "attack"):
        click_area(page, args[0])
        click_area(page, args[1])
        pick_from_menu(page, action)
    elif verb in ("recruit", "bribe", "disband") and args:
        click_area(page, args[0])
        pick_from_menu(page, action)
    elif verb == "hero":
        page.locator(f'.hand-item[data-hand="{args[0]}"]').first.click()
        pick_from_menu(page, action)
    else:
        button = page.locator(f'#actions button[data-action="{action}"]')
        if not button.first.is_visible():
            page.eval_on_selector_all("#actions details", "els => els.forEach(d => d.open = true)")
        button.first.click()
    confirm_if_asked(page)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=20_000)


def strength(action: str) -> int:
    *_, inf, cav = action.split()
    return int(inf) + 2 * int(cav)


def choose(options: list[str]) -> str:
    """A plain player: recruit, buy a hero, play hero cards, attack with the strongest army,
    otherwise march everything forward, take the first loss or retreat, advance, end."""
    for prefix in ("recruit ", "buy", "hero ", "commit", "lose ", "retreat ", "advance", "pass", "disband "):
        found = next((o for o in options if o == prefix or o.startswith(prefix)), None)
        if found:
            return found
    attacks = [o for o in options if o.startswith("attack ")]
    if attacks:
        return max(attacks, key=strength)
    moves = [o for o in options if o.startswith("move ")]
    if moves:
        return max(moves, key=strength)
    return next((o for o in options if o in ("act", "end")), options[0])


def test_forts_whole_game_by_clicks_against_the_ai(browser: Browser, server: ServerThread, shots: Path) -> None:
    created = create(server, game="forts", params={"players": 2, "max_rounds": 3, "planning_seconds": 0}, seed=5,
                     seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    errors: list[str] = []
    page = open_page(browser, server, created["links"][0], errors)
    wait_my_turn(page)
    players = page.locator("#players").inner_text()
    for word in ("Currency", "Food limit", "Forts", "Hero cards"):
        assert word in players, players
    page.screenshot(path=str(shots / "forts-1280-start.png"))
    moved = set()
    for _ in range(300):
        wait_my_turn(page, timeout=180_000)
        if page.evaluate("() => document.body.dataset.terminal") == "true":
            break
        close_dialogs(page)
        options = legal(page)
        action = choose([o for o in options if not (o.startswith("move ") and o.split()[1] in moved)])
        if action.startswith("move "):
            moved.add(action.split()[2])  # do not walk the same army back and forth
        if action == "end":
            moved.clear()
        if action.startswith(("move ", "attack ")):
            text = page.locator(f'#actions button[data-action="{action}"]').first.inner_text()
            assert "(" not in text, text  # short: no territory features in the button
        by_clicks(page, action)
    assert page.evaluate("() => document.body.dataset.terminal") == "true", "the game reached its end"
    page.wait_for_selector("#summary-dialog[open]")
    page.screenshot(path=str(shots / "forts-1280-end.png"))
    assert not errors, errors


def test_defect5_the_bribe_button_shows_the_armys_cost_and_warns_of_disbanding(
    browser: Browser, server: ServerThread, shots: Path
) -> None:
    """Green (seat 2, a human) may bribe Blue's 2 infantry in Stormkeep for 2 currency, which puts
    it over its food quota: the button says so and a confirmation asks first."""
    scenario = {
        "game": "forts", "seed": 0, "params": {"players": 3, "planning_seconds": 2},
        "position": {"base": "empty", "turn_seat": 1, "phase": "planning", "currency": [0, 0, 5],
                     "territories": {"bluehall": {"owner": 1, "infantry": 1}, "stormkeep": {"owner": 1, "infantry": 2},
                                     "redhall": {"owner": 0, "infantry": 1}, "greenhall": {"owner": 2, "infantry": 3}}},
    }
    created = create(server, scenario=scenario,
                     seats=[{"name": "Red Bot", "kind": "agent", "agent": "greedy"},
                            {"name": "Blue", "kind": "human"}, {"name": "Gina", "kind": "human"}])
    errors: list[str] = []
    page = open_page(browser, server, next(link for link in created["links"] if link["seat"] == 2), errors)
    page.wait_for_selector('#actions button[data-action="bribe stormkeep"]', timeout=60_000)
    text = page.locator('#actions button[data-action="bribe stormkeep"]').inner_text()
    assert text == "Bribe 2 infantry in Stormkeep for 2 currency — then disband 2 units", text
    page.locator('#actions button[data-action="bribe stormkeep"]').click()
    assert "disband 2 units" in page.locator("#confirm").inner_text()
    page.screenshot(path=str(shots / "forts-1280-bribe.png"))
    assert not errors, errors


def test_forts_phone_prompt_is_on_the_first_screen(browser: Browser, server: ServerThread, shots: Path) -> None:
    prompt_fits_a_phone(browser, server, shots, "forts", {"players": 2, "planning_seconds": 0})
