"""Playing through the page as a person does: every action is made by clicking the map, the
hand or the buttons, never by calling the API. The legal action texts are read from the side
panel (which lists them all) only to decide what to click."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page

from tests.e2e.browser import new_context
from tests.server.support import ServerThread

AREA_VERBS = {"citadel", "start", "move", "to", "battle", "capture", "village", "withdraw", "retreat", "undead"}
QUICK = {"done", "cancel", "stay", "keep"}


# A point of an area's own outline that no piece or mark covers, nearest its middle: where a
# person clicks the land (page.evaluate(FREE_POINT, area) -> [x, y] or null).
FREE_POINT = """(area) => {
  const poly = document.querySelector(`polygon[data-area="${area}"]`);
  const r = poly.getBoundingClientRect();
  let best = null, bestD = Infinity;
  for (let i = 1; i < 20; i++) for (let j = 1; j < 20; j++) {
    const x = r.left + (i / 20) * r.width, y = r.top + (j / 20) * r.height;
    const d = Math.hypot(i - 10, j - 10);
    if (d < bestD && document.elementFromPoint(x, y) === poly) { best = [x, y]; bestD = d; }
  }
  return best;
}"""


def version(page: Page) -> int:
    return int(page.evaluate("() => Number(document.body.dataset.version || -1)"))


def wait_my_turn(page: Page, timeout: float = 60_000) -> None:
    page.wait_for_function(
        "() => document.querySelector('.prompt.your-turn')"
        " && document.querySelectorAll('#actions button:disabled').length === 0"
        " || document.body.dataset.terminal === 'true'",
        timeout=timeout,
    )


def legal(page: Page) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(
        "#actions button[data-action]", "els => els.map(e => e.dataset.action)"
    )
    return texts


def close_battle_view(page: Page) -> None:
    """A battle's view stays over the board until dismissed (issue 18): a player closes it
    before clicking the map under it."""
    dialog = page.locator("#battle-dialog[open]")
    if dialog.count():
        dialog.locator(".dialog-close").click()


def click_area(page: Page, area: str, action: str) -> None:
    close_battle_view(page)
    page.locator(f'polygon[data-area="{area}"]').click(force=True)
    pick_from_menu(page, action)


def pick_from_menu(page: Page, action: str) -> None:
    menu = page.locator("#menu")
    if menu.is_visible():
        menu.locator(f'button[data-action="{action}"]').click()


def perform(page: Page, action: str) -> None:
    """Make `action` by the most natural click and wait until the page shows its result."""
    before = version(page)
    verb, *args = action.split()
    if verb in QUICK:
        page.locator(f'#actions .quick button[data-action="{action}"]').click()
    elif verb in ("pay", "substitute"):
        page.locator(f'.hand-item[data-hand="{args[0]}"]').first.click()
        pick_from_menu(page, action)
    elif verb in ("build", "place"):
        page.locator(f'.hand-item[data-hand="{args[0]}"]').first.click()
        page.wait_for_selector(f'.hand-item.chosen[data-hand="{args[0]}"]')
        click_area(page, args[1], action)
    elif verb in AREA_VERBS:
        click_area(page, args[0], action)
    else:
        button = page.locator(f'#actions button[data-action="{action}"]')
        if not button.is_visible():
            page.eval_on_selector_all("#actions details", "els => els.forEach(d => d.open = true)")
        button.click()
    confirm_if_asked(page)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before, timeout=15_000)


def confirm_if_asked(page: Page) -> None:
    """Ending a turn with moves left asks for a confirmation (docs/browser.md): give it."""
    yes = page.locator("#confirm:not([hidden]) .confirm-yes")
    if yes.count():
        yes.click()


def create(server: ServerThread, **body: Any) -> dict[str, Any]:
    """A table made through the API (its setup is not what a click test tests)."""
    req = urllib.request.Request(server.url + "/api/tables", data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        out: dict[str, Any] = json.load(r)
    return out


def open_page(browser: Browser, server: ServerThread, link: dict[str, Any], errors: list[str],
              size: tuple[int, int] = (1280, 800), cell: str = "polygon.cell") -> Page:
    """A seat's page in a fresh browser context of `size`, page errors collected in `errors`."""
    context = new_context(browser, viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    page.set_default_timeout(60_000)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto(server.url + link["url"])
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    page.wait_for_selector(cell)
    return page


def close_dialogs(page: Page) -> None:
    """Dismiss what the page put over the board (a battle's view, the end summary)."""
    for _ in range(3):
        dialog = page.locator("dialog[open]")
        if not dialog.count():
            return
        dialog.first.locator(".dialog-close").click()


def prompt_fits_a_phone(browser: Browser, server: ServerThread, shots: Path, game: str, params: dict[str, Any]) -> None:
    """Issue 18: at 390x844 the turn prompt of a new table is within the first screen."""
    created = create(server, game=game, params=params, seed=3,
                     seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    errors: list[str] = []
    page = open_page(browser, server, created["links"][0], errors, size=(390, 844))
    wait_my_turn(page)
    box = page.locator("#prompt").bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= 844, box
    page.screenshot(path=str(shots / f"{game}-390-start.png"))
    assert not errors, errors
