"""Issue 18, the generic table page (docs/browser.md, "Issue 18 additions"): status boards,
card descriptions, battle dialogs, the end summary with a rematch, the replay's move list and
viewpoints, zoom, and the phone layout. The generic machinery is checked with Contract Walk (a
test-only game sending every optional key); the phone layout and the status panel with the
five games themselves. Screenshots go to artifacts/screenshots/t18-*.png."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page, ViewportSize, expect

from tests.e2e.browser import new_context
from tests.server.support import ServerThread

from .clicks import create, version, wait_my_turn

GAMES = ["arena", "bloodstones", "forts", "kingdoms", "witch"]
PHONE: ViewportSize = {"width": 390, "height": 844}


def walk_table(server: ServerThread, plies: int = 12, **params: Any) -> dict[str, Any]:
    return create(server, game="toy_contract", name="Walk", seed=1, params={"plies": plies, **params},
                  seats=[{"name": "Walker", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "random"}])


def open_link(page: Page, server: ServerThread, url: str) -> None:
    page.goto(server.url + url)
    page.wait_for_function("() => document.body.dataset.version !== undefined")


def step(page: Page) -> None:
    """Play the first legal step by its button and wait for the answer."""
    wait_my_turn(page)
    before = version(page)
    page.locator('#actions button[data-action^="step"]').first.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)


def view_box(page: Page) -> list[float]:
    raw = page.get_attribute("svg.map", "viewBox") or ""
    return [float(x) for x in raw.split()]


def wait_over(server: ServerThread, table_id: str, limit: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        table: dict[str, Any] = httpx.get(f"{server.url}/api/tables/{table_id}", timeout=10).json()
        if table["status"] == "over":
            return table
        time.sleep(0.3)
    raise AssertionError(f"table {table_id} did not finish")


# -- contract 1: status boards ---------------------------------------------------------------
def test_status_board_shows_each_seats_items_and_only_your_private_ones(
    page: Page, server: ServerThread, shots: Path, contract: None
) -> None:
    made = walk_table(server)
    open_link(page, server, made["links"][0]["url"])
    mine = page.locator('.player[data-seat="0"] .status')
    theirs = page.locator('.player[data-seat="1"] .status')
    expect(mine.locator(".status-item").first).to_contain_text("Distance")
    expect(mine.locator(".status-item").first).to_contain_text("2 hexes")
    expect(mine.locator(".status-item").first).to_have_attribute("title", "hexes from the centre")
    expect(mine.locator(".status-item.private")).to_have_text("Secret Plan of North")
    expect(theirs.locator(".status-item")).to_have_count(1)  # South's secret never reaches North
    expect(page.locator("#prompt")).to_contain_text("Walking")  # the phase label, not "play"
    page.screenshot(path=str(shots / "t18-01-status.png"))
    page.set_viewport_size(PHONE)
    box = mine.bounding_box()
    assert box is not None
    assert box["y"] + box["height"] <= PHONE["height"], box


def test_a_views_extra_panel_is_shown_once_it_has_content(page: Page, server: ServerThread) -> None:
    """Defect 1: the arena and Kingdoms views wrote their panels into #extra and it stayed hidden
    (only Bloodstones' view un-hid it itself). The arena's view fills it from the first round."""
    made = create(server, game="arena", params={"players": 2},
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "random"}])
    open_link(page, server, made["links"][0]["url"])
    page.wait_for_function("() => document.getElementById('extra').childElementCount > 0")
    expect(page.locator("#extra")).to_be_visible()


def test_an_empty_extra_panel_stays_hidden(page: Page, server: ServerThread, contract: None) -> None:
    made = walk_table(server)
    open_link(page, server, made["links"][0]["url"])
    expect(page.locator("#extra")).to_be_hidden()


@pytest.mark.parametrize("game", GAMES)
def test_a_games_status_board_is_visible_without_hovering(page: Page, server: ServerThread, game: str) -> None:
    params = {} if game == "witch" else {"players": 2}
    made = create(server, game=game, params=params,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "random"}])
    state = httpx.get(f"{server.url}/api/tables/{made['table']['id']}/state").json()
    if not state["observation"].get("status"):
        pytest.skip(f"{game} sends no status board yet (contract 1)")
    open_link(page, server, made["links"][0]["url"])
    expect(page.locator("#players .status-item").first).to_be_visible()


# -- contract 2: descriptions ----------------------------------------------------------------
def test_card_descriptions_on_focus_hover_and_in_the_cards_list(
    page: Page, server: ServerThread, shots: Path, contract: None
) -> None:
    made = walk_table(server)
    open_link(page, server, made["links"][0]["url"])
    wait_my_turn(page)
    tip = page.locator("#card-tip")
    # an action button whose argument is a card
    button = page.locator('#actions button[data-action^="step w0"]').first
    expect(button).to_have_attribute("data-card", "w0")
    button.focus()
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("North Walker")
    expect(tip).to_contain_text("Walks one hex at a time.")
    expect(tip).to_contain_text("1 hex")
    page.screenshot(path=str(shots / "t18-02-card-tip.png"))
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()
    # a piece carrying "card": hover, and keyboard focus
    page.locator('g.piece[data-unit="w1"]').hover()
    expect(tip).to_contain_text("South Walker")
    page.locator('g.piece[data-unit="w1"]').focus()
    expect(tip).to_contain_text("South Walker")
    # the list of every card
    page.locator("#cards-button").click()
    dialog = page.locator("#list-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".card-body")).to_have_count(3)
    dialog.locator(".cards-filter").fill("centre")
    expect(dialog.locator(".card-body")).to_have_count(1)
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()


def test_a_tap_shows_the_card_on_a_touch_screen(browser: Browser, server: ServerThread, contract: None) -> None:
    context = new_context(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    page = context.new_page()
    try:
        made = walk_table(server)
        open_link(page, server, made["links"][0]["url"])
        page.locator('g.piece[data-unit="w1"]').tap()
        expect(page.locator("#card-tip")).to_be_visible()
        expect(page.locator("#card-tip")).to_contain_text("South Walker")
    finally:
        context.close()


# -- contract 3: battles -----------------------------------------------------------------------
def test_a_new_battle_opens_a_dialog_that_stays_and_reopens_from_the_log(
    page: Page, server: ServerThread, shots: Path, contract: None
) -> None:
    made = walk_table(server)
    open_link(page, server, made["links"][0]["url"])
    dialog = page.locator("#battle-dialog")
    expect(dialog).to_be_hidden()
    step(page)
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("Clash")
    expect(dialog.locator(".die").first).to_be_visible()
    expect(dialog).to_contain_text("+1 high ground")
    page.screenshot(path=str(shots / "t18-03-battle.png"))
    time.sleep(1.0)
    expect(dialog).to_be_visible()  # stays until dismissed
    dialog.get_by_role("button", name="OK").click()
    expect(dialog).to_be_hidden()
    link = page.locator("#log .battle-link").first
    expect(link).to_be_visible()
    link.click()
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.locator("#battles-button").click()
    expect(page.locator("#list-dialog .battle-list li").first).to_contain_text("Clash")


def test_moves_glide_and_dice_tumble_unless_reduced_motion_is_asked(
    browser: Browser, server: ServerThread, contract: None
) -> None:
    for reduced in (False, True):
        context = new_context(browser, viewport={"width": 1280, "height": 800},
                                      reduced_motion="reduce" if reduced else "no-preference")
        page = context.new_page()
        try:
            made = walk_table(server)
            open_link(page, server, made["links"][0]["url"])
            page.evaluate("""() => { window.__seen = { moving: false, rolling: false };
              new MutationObserver(() => {
                if (document.querySelector('g.piece.moving')) window.__seen.moving = true;
                if (document.querySelector('#battle-dialog.rolling')) window.__seen.rolling = true;
              }).observe(document.body, { subtree: true, childList: true, attributes: true }); }""")
            step(page)
            expect(page.locator("#battle-dialog")).to_be_visible()
            seen = page.evaluate("() => window.__seen")
            assert seen == {"moving": not reduced, "rolling": not reduced}, (reduced, seen)
        finally:
            context.close()


# -- contract 4: the end -------------------------------------------------------------------------
def test_end_summary_names_the_winner_and_rematch_opens_a_new_table(
    page: Page, server: ServerThread, shots: Path, contract: None
) -> None:
    made = walk_table(server, plies=2)
    open_link(page, server, made["links"][0]["url"])
    step(page)
    page.wait_for_function("() => document.body.dataset.terminal === 'true'")
    dialog = page.locator("#summary-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator(".summary-scores tbody tr")).to_have_count(2)
    expect(dialog).to_contain_text("Hexes walked")
    expect(page.locator("#announce")).to_contain_text("Game over")
    page.screenshot(path=str(shots / "t18-04-summary.png"))
    own = page.evaluate("() => location.hash")  # the seat's own credential (a link is claimed once)
    replay_link = dialog.get_by_role("link", name="Watch the replay")
    expect(replay_link).to_have_attribute("href", f"/table/{made['table']['id']}/replay{own}")
    old = made["table"]["id"]
    dialog.get_by_role("button", name="Rematch").click()
    page.wait_for_url(lambda url: "/table/" in url and old not in url and "#seat=0&token=" in url)
    page.wait_for_function("() => document.body.dataset.version !== undefined")
    expect(page.locator("#who")).to_contain_text("Walker")
    expect(page.locator("#summary-dialog")).to_be_hidden()


# -- replay ------------------------------------------------------------------------------------
def test_replay_has_a_clickable_move_list_and_every_seats_view_once_over(
    page: Page, server: ServerThread, shots: Path, contract: None
) -> None:
    made = walk_table(server, plies=4)
    link = made["links"][0]["url"]
    open_link(page, server, link)
    step(page)
    wait_my_turn(page)
    own = page.evaluate("() => location.hash")  # the seat's own credential (a link is claimed once)
    link = f"/table/{made['table']['id']}{own}"
    replay = f"/table/{made['table']['id']}/replay{own}"
    open_link(page, server, replay)
    options = page.locator("#rp-view option")
    expect(options).to_have_text(["Spectator", "Walker (North)"])  # running: no other seat's view
    moves = page.locator("#moves .move-link")
    expect(moves).to_have_count(2)
    expect(moves.first).to_contain_text("Walker: Step")
    moves.first.click()
    expect(page.locator("#rp-slider")).to_have_value("1")
    expect(moves.first).to_have_class("move-link current")
    # finish the game, then every seat's view is offered
    open_link(page, server, link)
    step(page)
    page.wait_for_function("() => document.body.dataset.terminal === 'true'")
    open_link(page, server, replay)
    expect(options).to_have_text(["Spectator", "Walker (North)", "Bot (South)"])
    page.locator("#rp-view").select_option("1")
    expect(page.locator('.player[data-seat="1"] .status-item.private')).to_have_text("Secret Plan of South")
    expect(page.locator("#prompt")).not_to_contain_text("null")
    page.screenshot(path=str(shots / "t18-05-replay.png"))


SLOW_REPLAY_FETCH = """
const realFetch = window.fetch;
window.fetch = (url, ...rest) => String(url).includes("/replay/")
  ? new Promise((ok) => setTimeout(ok, 400)).then(() => realFetch(url, ...rest))
  : realFetch(url, ...rest);
"""


def test_replay_quick_clicks_on_next_and_arrows_each_step_one_move(page: Page, server: ServerThread) -> None:
    """A click on ▶ while the previous position is still loading steps on from the position
    asked for: five quick clicks are five moves (each read the slider the previous fetch had not
    set yet, so quick clicks were lost; the suite met it on a loaded machine). Every replay
    position is fetched 400 ms late here, so the clicks always overlap."""
    made = create(server, game="witch", seed=3, seats=[{"name": "Red Bot", "kind": "agent", "agent": "random"},
                                                       {"name": "Blue Bot", "kind": "agent", "agent": "random"}])
    table_id = made["table"]["id"]
    wait_over(server, table_id)
    page.add_init_script(SLOW_REPLAY_FETCH)
    open_link(page, server, f"/table/{table_id}/replay")
    page.wait_for_function("() => document.body.dataset.terminal === 'true'")
    page.locator("#rp-first").click()
    page.wait_for_function("() => document.body.dataset.version === '0'")
    for _ in range(5):
        page.locator("#rp-next").click()
    expect(page.locator("#rp-slider")).to_have_value("5")  # at once, before the positions arrive
    page.wait_for_function("() => document.body.dataset.version === '5'")
    expect(page.locator("#rp-label")).to_contain_text("Move 5 of")
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    page.locator("#rp-prev").click()
    page.wait_for_function("() => document.body.dataset.version === '6'")
    expect(page.locator("#rp-label")).to_contain_text("Move 6 of")
    expect(page.locator("#rp-slider")).to_have_value("6")
    # at a laptop's 1280x800 every control keeps its label on one line ("|◀" and "▷ play"
    # broke in two there, twice the height of their neighbours)
    page.set_viewport_size({"width": 1280, "height": 800})
    heights = page.evaluate("() => [...document.querySelectorAll('#replay-bar button')]"
                            ".map(b => Math.round(b.getBoundingClientRect().height))")
    assert len(heights) == 5
    assert len(set(heights)) == 1, heights


# -- zoom ----------------------------------------------------------------------------------------
@pytest.mark.parametrize("geometry", ["hexes", "areas", "squares"])
def test_zoom_buttons_wheel_and_drag_on_every_renderer(
    page: Page, server: ServerThread, contract: None, geometry: str
) -> None:
    if geometry == "squares":
        made = create(server, game="witch",
                      seats=[{"name": "Ann"}, {"name": "Bot", "kind": "agent", "agent": "random"}])
    else:
        made = walk_table(server, geometry=geometry)
    open_link(page, server, made["links"][0]["url"])
    page.wait_for_selector("svg.map")
    base = view_box(page)
    page.get_by_role("button", name="Zoom in").click()
    zoomed = view_box(page)
    assert zoomed[2] < base[2] * 0.8
    # drag the zoomed board: the view moves, and no click lands on a cell
    box = page.locator("svg.map").bounding_box()
    assert box is not None
    v = version(page)
    cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(cx, cy)
    page.mouse.down()
    page.mouse.move(cx + 60, cy + 40, steps=5)
    page.mouse.up()
    moved = view_box(page)
    assert (moved[0], moved[1]) != (zoomed[0], zoomed[1])
    assert version(page) == v
    page.get_by_role("button", name="Reset zoom").click()
    assert view_box(page) == pytest.approx(base, abs=1e-3)
    page.mouse.move(cx, cy)
    page.mouse.wheel(0, -300)
    page.wait_for_function(
        "w => Number(document.querySelector('svg.map').getAttribute('viewBox').split(' ')[2]) < w", arg=base[2])
    page.get_by_role("button", name="Zoom out").click()


# -- phone ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_phone_shows_the_prompt_and_actions_on_the_first_screen(
    browser: Browser, server: ServerThread, shots: Path, game: str
) -> None:
    """Defect 9: at 390x844 the prompt sat 900-1100 px below the top."""
    params = {} if game == "witch" else {"players": 2}
    made = create(server, game=game, params=params,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "random"}])
    context = new_context(browser, viewport=PHONE)
    page = context.new_page()
    try:
        open_link(page, server, made["links"][0]["url"])
        wait_my_turn(page)
        prompt = page.locator("#prompt").bounding_box()
        assert prompt is not None
        assert prompt["y"] >= 0, prompt
        assert prompt["y"] + prompt["height"] <= PHONE["height"], prompt
        first = page.locator("#actions button:visible, #actions summary:visible").first.bounding_box()
        assert first is not None
        assert first["y"] + first["height"] <= PHONE["height"], first
        board = page.locator("#board").bounding_box()
        assert board is not None
        assert board["height"] >= 200, board
        panel = page.locator(".prompt-panel").bounding_box()
        assert panel is not None
        # the whole board is above the fixed prompt panel: nothing of it hides behind the panel
        assert board["y"] + board["height"] <= panel["y"] + 1, (board, panel)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= PHONE["width"], width
        page.screenshot(path=str(shots / f"t18-06-phone-{game}.png"))
    finally:
        context.close()


def test_log_numbers_above_99_are_not_clipped(page: Page, server: ServerThread) -> None:
    """LOW: "252" showed as "52." (the list's padding held two digits); four digits fit now."""
    made = create(server, game="witch", seats=[{"name": "Ann"}, {"name": "Bot", "kind": "agent", "agent": "random"}])
    open_link(page, server, made["links"][0]["url"])
    room = page.evaluate("""() => {
      const log = document.getElementById('log');
      const probe = document.createElement('span');
      probe.textContent = '8888.';  // Kingdoms logs run past a thousand lines
      probe.style.font = getComputedStyle(log).font;
      document.body.append(probe);
      const need = probe.getBoundingClientRect().width;
      probe.remove();
      return parseFloat(getComputedStyle(log).paddingLeft) - need;
    }""")
    assert room > 0, room
