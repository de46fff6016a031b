"""Blood Stone played through the page by clicks only (issue 18): the Soldiers (seat 0) against
the AI Witch at 1280x800 to the end summary, on the short variant `max_turns=6` (a real
parameter: the house turn limit, a draw if nobody wins first). Pieces are placed by clicking a
start square, moved by clicking the piece then a square, attacks by the piece then its target,
spells by the hand; the status board shows every unit's blood without hovering; at 390x844 the
prompt is on the first screen. Screenshots go to artifacts/screenshots/witch-*.png."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, Page

from tests.server.support import ServerThread

from .clicks import (
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


def click_square(page: Page, square: str) -> None:
    page.locator(f'polygon.cell[data-square="{square}"]').click(force=True)


def by_clicks(page: Page, action: str) -> None:
    before = version(page)
    verb, *args = action.split()
    if verb == "place":
        click_square(page, args[1])
        pick_from_menu(page, action)
    elif verb == "move":
        page.locator(f'g.piece[data-unit="{args[0]}"]').click(force=True)
        page.wait_for_selector(f'g.piece.selected[data-unit="{args[0]}"], polygon.cell.selected')
        click_square(page, args[1])
        pick_from_menu(page, action)
    elif verb == "attack":
        page.locator(f'g.piece[data-unit="{args[0]}"]').click(force=True)
        page.locator(f'g.piece[data-unit="{args[1]}"]').click(force=True)
        pick_from_menu(page, action)
    elif verb in ("cast", "discard"):
        page.locator(f'.hand-item[data-hand="{args[0]}"]').first.click()
        pick_from_menu(page, action)
    elif verb == "target" and page.locator(f'g.piece[data-unit="{args[0]}"]').count():
        page.locator(f'g.piece[data-unit="{args[0]}"]').click(force=True)
        pick_from_menu(page, action)
    else:
        button = page.locator(f'#actions button[data-action="{action}"]')
        if not button.first.is_visible():
            page.eval_on_selector_all("#actions details", "els => els.forEach(d => d.open = true)")
        button.first.click()
    confirm_if_asked(page)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=20_000)


SOLDIERS = {"archer", "spearman", "swordsman"}


def choose(options: list[str], acted: set[str]) -> str:
    """A plain Soldiers player: place, attack whenever possible, cast a spell once, otherwise
    step towards the Witch's edge once per unit, then end the turn."""
    for prefix in ("place ", "attack ", "target ", "pay "):
        # never a Soldier's own side: attacks and targets on the Witch's units only
        found = next((o for o in options if o.startswith(prefix) and not (
            prefix in ("attack ", "target ") and o.split()[-1] in SOLDIERS)), None)
        if found:
            return found
    cast = next((o for o in options if o.startswith("cast ")), None)
    if cast and "cast" not in acted:
        acted.add("cast")
        return cast
    for o in options:
        if o.startswith("move ") and o.split()[1] not in acted:
            acted.add(o.split()[1])
            return o
    return next((o for o in options if o in ("done", "end")), options[0])


def test_witch_whole_game_by_clicks_against_the_ai(browser: Browser, server: ServerThread, shots: Path) -> None:
    created = create(server, game="witch", params={"max_turns": 6}, seed=2,
                     seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    errors: list[str] = []
    page = open_page(browser, server, created["links"][0], errors)
    wait_my_turn(page)
    players = page.locator("#players").inner_text()
    assert "Swordsman" in players
    assert "Blood Witch" in players
    page.screenshot(path=str(shots / "witch-1280-start.png"))
    acted: set[str] = set()
    for _ in range(200):
        try:
            wait_my_turn(page, timeout=180_000)
        except Exception:
            page.screenshot(path=str(shots / "witch-1280-stuck.png"))
            raise AssertionError(page.locator("#prompt").inner_text() + " | " + " ".join(legal(page))) from None
        if page.evaluate("() => document.body.dataset.terminal") == "true":
            break
        close_dialogs(page)
        action = choose(legal(page), acted)
        if action == "end":
            acted = set()
        by_clicks(page, action)
        if action.startswith("move ") and not (shots / "witch-1280-move.png").exists():
            page.screenshot(path=str(shots / "witch-1280-move.png"))
    assert page.evaluate("() => document.body.dataset.terminal") == "true", "the game reached its end"
    page.wait_for_selector("#summary-dialog[open]")
    page.screenshot(path=str(shots / "witch-1280-end.png"))
    assert not errors, errors


def test_witch_phone_prompt_is_on_the_first_screen(browser: Browser, server: ServerThread, shots: Path) -> None:
    prompt_fits_a_phone(browser, server, shots, "witch", {})
