"""Rematch for every seat (issue 18: only the browser that clicked Rematch reached the new table).
Two people play Contract Walk (a test-only game) in two browsers to its end; one clicks Rematch
and lands in its own seat of the new table; the other is offered the rematch by the server (its
own seat's link, over the finished table's websocket) and lands in its own seat too."""

from __future__ import annotations

from pathlib import Path

import httpx
from playwright.sync_api import Browser, Page, expect

from tests.e2e.browser import new_context
from tests.server.support import ServerThread

from .clicks import version, wait_my_turn


def step(page: Page) -> None:
    wait_my_turn(page)
    before = version(page)
    page.locator('#actions button[data-action^="step"]').first.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)


def test_both_humans_land_in_their_own_seats_of_the_rematch(
        browser: Browser, server: ServerThread, shots: Path, contract: None) -> None:
    r = httpx.post(server.url + "/api/tables", timeout=30, json={
        "game": "toy_contract", "name": "Walk", "seed": 1, "params": {"plies": 2},
        "seats": [{"name": "Ann", "kind": "human"}, {"name": "Bea", "kind": "human"}]})
    assert r.status_code == 201, r.text
    made = r.json()
    old = made["table"]["id"]
    pages: list[Page] = []
    contexts = []
    try:
        for link in made["links"]:
            context = new_context(browser, viewport={"width": 1280, "height": 800})
            contexts.append(context)
            page = context.new_page()
            page.goto(server.url + link["url"])
            page.wait_for_function("() => document.body.dataset.version !== undefined")
            pages.append(page)
        ann, bea = pages
        step(ann)
        step(bea)
        for page in pages:
            page.wait_for_function("() => document.body.dataset.terminal === 'true'")
            expect(page.locator("#summary-dialog")).to_be_visible()
        ann.locator("#summary-dialog").get_by_role("button", name="Rematch").click()
        ann.wait_for_url(lambda url: "/table/" in url and old not in url and "#seat=0&token=" in url)
        new = ann.url.split("/table/")[1].split("#")[0]
        # Bea's browser is offered her own seat there, without reloading or asking anyone
        join = bea.locator("#summary-dialog").get_by_role("button", name="Join the rematch")
        expect(join).to_be_visible(timeout=10_000)
        bea.screenshot(path=str(shots / "rematch-offer.png"))
        join.click()
        bea.wait_for_url(lambda url: f"/table/{new}#seat=1&token=" in url)
        for page, name in ((ann, "Ann"), (bea, "Bea")):
            page.wait_for_function("() => document.body.dataset.version !== undefined")
            expect(page.locator("#who")).to_contain_text(name)
        # both are seated (each claimed its own link): the new table has no open human seat
        table = httpx.get(f"{server.url}/api/tables/{new}", timeout=30).json()
        assert [s["claimed"] for s in table["seats"]] == [True, True], table["seats"]
    finally:
        for context in contexts:
            context.close()
