"""Learn to play in the browser (issue 18): from the lobby's button, every step of a game's guide
followed by clicking only what the coach highlights, to the real game against the AI.

The test reads nothing but the page: the coach's step counter (data-step), the highlighted
elements in their click order (data-tutorial-order) and the prompt. Screenshots at 1280x800 and
390x844 go to artifacts/screenshots/.
"""

from __future__ import annotations

import re
import time
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser import SCREENSHOTS, new_context
from tests.server.support import ServerThread

DEVELOPER_TEXT = re.compile(r"\b(undefined|null|NaN)\b|\[object Object\]|\b[a-z]+_[a-z_]+\b")


#: Seat 0 plays its first legal action through the API (the game waits for the player).
PLAY_FIRST_LEGAL = """async () => {
  const h = new URLSearchParams(location.hash.slice(1));
  const id = location.pathname.split("/")[2];
  const headers = {Authorization: `Bearer ${h.get("token")}`, "Content-Type": "application/json"};
  const state = await (await fetch(`/api/tables/${id}/state?seat=0`, {headers})).json();
  const body = JSON.stringify({seat: 0, action: state.legal[0], version: state.version});
  const r = await fetch(`/api/tables/${id}/actions`, {method: "POST", headers, body});
  if (!r.ok) throw new Error(await r.text());
}"""
#: True once an AI seat has made a move after the player's last one (from the table's history;
#: page.evaluate awaits the promise).
AI_MOVED = """async () => {
  const h = new URLSearchParams(location.hash.slice(1));
  const id = location.pathname.split("/")[2];
  const r = await fetch(`/api/tables/${id}/history?seat=0`, {headers: {Authorization: `Bearer ${h.get("token")}`}});
  const entries = await r.json();
  const last = entries.map((e) => e.seat).lastIndexOf(0);
  return entries.slice(last + 1).some((e) => e.seat !== null && e.seat !== 0);
}"""


def _new_page(browser: Browser, width: int, height: int, *, motion: bool = False) -> tuple[Page, list[str]]:
    context = new_context(browser, viewport={"width": width, "height": height},
                          reduced_motion="no-preference" if motion else "reduce")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.on("dialog", lambda d: errors.append(f"unexpected dialog: {d.message}"))
    return page, errors


def _open_tutorial(page: Page, server: ServerThread, game: str) -> int:
    page.goto(f"{server.url}/")
    button = page.locator(f'[data-learn="{game}"]')
    expect(button).to_be_visible(timeout=15_000)
    button.click()
    page.wait_for_url(re.compile(r"/table/"), timeout=15_000)
    coach = page.locator("#coach")
    expect(coach).to_have_attribute("data-step", "0", timeout=15_000)
    return int(coach.get_attribute("data-steps") or "0")


def _click_highlighted(page: Page, step: int) -> None:
    """Click the step's highlights in their order; if a menu or a confirmation then offers the
    step's action (highlighted too), click that."""
    coach = page.locator("#coach")
    expect(page.locator(".tutorial-highlight").first).to_be_attached(timeout=10_000)
    orders = sorted({int(o) for o in page.eval_on_selector_all(
        ".tutorial-highlight", "ns => ns.map(n => n.dataset.tutorialOrder)") if o is not None and o != "99"})
    version = page.evaluate("document.body.dataset.version")
    for order in orders:
        # a click that completes the action plays it at once (a piece clicked on its cell)
        if coach.get_attribute("data-step") != str(step) or page.evaluate("document.body.dataset.version") != version:
            return
        target = page.locator(f'.tutorial-highlight[data-tutorial-order="{order}"]:visible').first
        # a cell is clicked where a person would: its middle, even when its pieces are drawn there
        target.click(force=target.get_attribute("data-cell") is not None)
        page.wait_for_timeout(250)
    for i in range(40):
        if coach.get_attribute("data-step") != str(step) or page.evaluate("document.body.dataset.version") != version:
            return
        follow = page.locator("#confirm .tutorial-highlight:visible, #menu .tutorial-highlight:visible")
        if follow.count() and follow.first.is_visible():
            follow.first.click()
        elif i == 5:  # the board led nowhere: the step's own action button, highlighted too
            page.locator('#actions .tutorial-highlight[data-tutorial-order="99"]:visible').first.click()
        page.wait_for_timeout(250)


def _follow_guide(page: Page, steps: int, shots: Path, name: str) -> None:
    coach = page.locator("#coach")
    for i in range(steps):
        expect(coach).to_have_attribute("data-step", str(i), timeout=20_000)
        expect(page.locator("#prompt.your-turn")).to_be_visible(timeout=20_000)
        text = coach.inner_text()
        assert f"Step {i + 1} of {steps}" in text
        assert "Rulebook, " in text
        assert not DEVELOPER_TEXT.search(text), DEVELOPER_TEXT.search(text)
        if i in (0, steps - 1):
            page.screenshot(path=str(shots / f"tutorial-{name}-step{i + 1}-1280.png"))
        _click_highlighted(page, i)
        try:
            expect(coach).not_to_have_attribute("data-step", str(i), timeout=20_000)
        except AssertionError:
            page.screenshot(path=str(shots / f"tutorial-{name}-stuck{i + 1}-1280.png"))
            raise
    expect(coach).to_have_attribute("data-step", str(steps), timeout=20_000)


@pytest.mark.parametrize("game", ["witch", "forts", "kingdoms", "bloodstones", "arena"])
def test_learn_to_play_from_the_lobby_to_a_real_game_against_the_ai(
    browser: Browser, server: ServerThread, game: str
) -> None:
    shots = SCREENSHOTS
    shots.mkdir(parents=True, exist_ok=True)
    page, errors = _new_page(browser, 1280, 800)
    page.goto(f"{server.url}/")
    expect(page.locator("#learn")).to_be_visible(timeout=15_000)
    page.screenshot(path=str(shots / "tutorial-lobby-1280.png"))
    steps = _open_tutorial(page, server, game)
    assert 5 <= steps <= 10
    _follow_guide(page, steps, shots, game)
    coach = page.locator("#coach")
    expect(coach).to_contain_text("Guide complete")
    expect(coach).to_contain_text("play on against the AI")
    # the panel keeps its nodes while what it shows stays the same: rebuilt on every state
    # message, its "Close the guide" could be replaced between a click's press and release
    close_button = page.locator(".coach-close").element_handle()
    version = int(page.evaluate("document.body.dataset.version"))
    # a real game goes on: the AI plays after the guide (its whole turn can take minutes on a
    # busy machine, each decision having a 5 s budget, so one AI move is what is waited for)
    # the guide's last step hands the turn on: an AI seat moves, or the game asks the player
    # again (the arena's Rival and Boss are the game's own steps, and ask the player on ties)
    deadline = time.monotonic() + 120
    while not (page.evaluate(AI_MOVED) or page.locator("#prompt.your-turn").count()):
        assert time.monotonic() < deadline, "the game did not go on after the guide"
        page.wait_for_timeout(1000)
    assert page.evaluate("document.body.dataset.terminal") == "false"
    assert page.locator(".tutorial-highlight").count() == 0, "after the guide nothing is highlighted"
    page.screenshot(path=str(shots / f"tutorial-{game}-after-1280.png"))
    if int(page.evaluate("document.body.dataset.version")) == version:
        page.evaluate(PLAY_FIRST_LEGAL)  # the game asks the player: a move through the API
    page.wait_for_function(f"() => Number(document.body.dataset.version) > {version}")
    assert close_button.evaluate("node => node.isConnected"), "an update rebuilt the finished guide"
    page.locator(".coach-close").click()
    expect(coach).to_be_hidden()
    assert not errors, errors


def test_learn_to_play_on_a_phone_shows_the_step_on_the_first_screen(browser: Browser, server: ServerThread) -> None:
    page, errors = _new_page(browser, 390, 844, motion=True)  # the highlights' pulse is checked
    page.goto(f"{server.url}/")
    expect(page.locator("#learn")).to_be_visible(timeout=15_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "the lobby scrolls sideways"
    page.screenshot(path=str(SCREENSHOTS / "tutorial-lobby-390.png"))
    _open_tutorial(page, server, "witch")
    coach = page.locator("#coach")
    expect(page.locator(".tutorial-highlight").first).to_be_attached(timeout=10_000)
    box = coach.bounding_box()
    assert box is not None
    assert box["y"] >= 0
    assert box["y"] + 40 <= 844, f"the coach starts below the first screen: {box}"
    page.screenshot(path=str(SCREENSHOTS / "tutorial-witch-step1-390.png"))
    # the highlights pulse a few times, then stay lit: never an endless blink (WCAG 2.2.2), which
    # also repainted the whole map every frame for as long as the step waited
    counts = page.eval_on_selector_all(
        ".tutorial-highlight", "ns => ns.map(n => getComputedStyle(n).animationIterationCount)")
    assert counts, "no highlight on the first step"
    assert "infinite" not in counts, counts
    assert counts != ["1"] * len(counts), "no pulse at all: was reduced motion asked for?"
    # the first step by clicks on the phone too
    _click_highlighted(page, 0)
    expect(coach).to_have_attribute("data-step", "1", timeout=15_000)
    page.screenshot(path=str(SCREENSHOTS / "tutorial-witch-step2-390.png"))
    assert not errors, errors


def test_learn_to_play_says_when_the_player_leaves_the_guide(browser: Browser, server: ServerThread) -> None:
    """Another move than the step's is named; when the step can no longer be played, the coach
    says the guide ends there and the game goes on."""
    page, errors = _new_page(browser, 1280, 800)
    _open_tutorial(page, server, "witch")
    coach = page.locator("#coach")
    expect(page.locator(".tutorial-highlight").first).to_be_attached(timeout=10_000)
    page.locator('#actions [data-action="move archer c1"]').click()
    expect(coach).to_contain_text("You played", timeout=15_000)
    expect(coach).to_contain_text("instead")
    assert coach.get_attribute("data-step") == "0"
    assert page.locator('#board .tutorial-highlight[data-unit="swordsman"]').count() == 1
    assert not DEVELOPER_TEXT.search(coach.inner_text())
    # the Swordsman moves elsewhere: the step (move him to d5) is impossible now
    page.locator('#actions [data-action="move swordsman c5"]').click()
    expect(coach).to_contain_text("no longer possible", timeout=15_000)
    assert page.locator(".tutorial-highlight").count() == 0
    page.screenshot(path=str(SCREENSHOTS / "tutorial-witch-off-guide-1280.png"))
    page.locator(".coach-close").click()
    expect(coach).to_be_hidden()
    assert not errors, errors
