"""Issue 22, the designer's workbench in Debian's Chromium against the real server (`--lab`):
the lobby links to it only when it is on; a bad number is refused beside its field and nothing
is saved; a good one is saved as a variant with its difference from the published content; a
small A/B runs to the end and its result (table and sentence) shows; "Playtest" opens a table
of the variant whose header names it.

Screenshots: artifacts/screenshots/workbench-*.png.
"""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from bloodforge.server.config import Settings
from tests.server.support import ServerThread

TOKEN = "e2e-operator-token"


@pytest.fixture
def lab_server(tmp_path: Path) -> Iterator[ServerThread]:
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'lab.sqlite3'}", ai_delay=0.02, lab=True, lab_token=TOKEN,
                        lab_workers=2)
    with ServerThread(settings) as s:
        yield s


def lab_api(server: ServerThread, path: str) -> Any:
    req = urllib.request.Request(server.url + path, headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(req, timeout=10) as res:
        return json.loads(res.read())


def test_lobby_has_no_workbench_link_when_the_lab_is_off(page: Page, server: ServerThread) -> None:
    page.goto(server.url + "/")
    page.wait_for_load_state("networkidle")
    expect(page.locator("#lab-link")).to_be_hidden()


def test_edit_bad_then_good_number_save_and_run_a_small_ab(page: Page, lab_server: ServerThread, shots: Path) -> None:
    page.goto(lab_server.url + "/")
    link = page.locator("#lab-link")
    expect(link).to_be_visible()
    link.click()
    page.wait_for_url("**/lab")
    page.fill("#token", "not the token")
    page.click("#login-form button[type=submit]")
    expect(page.locator("#login-error")).to_have_text("That is not the operator token.")
    page.fill("#token", TOKEN)
    page.click("#login-form button[type=submit]")
    page.select_option("#lab-game", "witch")
    stones = page.locator('input[data-path="content.blood_stones"]')
    expect(stones).to_have_value("42")

    stones.fill("-5")
    page.fill("#variant-name", "more stones")
    page.click("#save")
    row = page.locator('.lab-field[data-path="content.blood_stones"]')
    expect(row).to_have_class("lab-field invalid")
    expect(row.locator(".lab-field-error")).to_contain_text("greater than or equal to 1")
    expect(page.locator("#lab-errors")).to_contain_text("Not saved")
    assert lab_api(lab_server, "/api/lab/variants")["variants"] == []
    page.screenshot(path=str(shots / "workbench-invalid.png"))

    stones.fill("50")
    page.click("#save")
    expect(page.locator(".lab-saved")).to_contain_text("version 1")
    expect(row).to_have_class("lab-field")
    expect(page.locator(".lab-diff li").first).to_have_text("Blood stones: 42 → 50")
    saved = lab_api(lab_server, "/api/lab/variants")["variants"]
    assert [(v["name"], v["version"]) for v in saved] == [("more stones", 1)]

    page.fill("#ab-games", "4")
    page.fill("#ab-agents", "random")
    page.click("#ab-run")
    sentence = page.locator(".lab-sentence")
    expect(sentence).to_contain_text("Blood stones +8: ", timeout=180_000)
    expect(sentence).to_contain_text("win rate")
    expect(page.locator("#ab-status")).to_have_text("Done: 8 games.")
    rates = page.locator(".lab-rates tbody tr")
    expect(rates).to_have_count(3)
    expect(rates.nth(0)).to_contain_text("Published")
    expect(rates.nth(1)).to_contain_text("more stones v1")
    expect(rates.nth(2)).to_contain_text("Difference (paired)")
    page.screenshot(path=str(shots / "workbench-result.png"), full_page=True)

    page.click("#playtest")
    page.wait_for_url("**/table/**")
    expect(page.locator("#table-title")).to_contain_text("Playtest of more stones (version 1)")
    page.wait_for_selector("polygon.cell[data-square]")  # the variant's board is drawn: the game started
    page.screenshot(path=str(shots / "workbench-playtest.png"))


def test_lists_add_and_remove_entries_with_the_models_checking_them(page: Page, lab_server: ServerThread) -> None:
    """A copied spell keeps its id: refused (ids used twice), nothing saved; removing it and the
    last phantom spell saves a variant whose difference is that spell removed."""
    page.goto(lab_server.url + "/lab")
    page.fill("#token", TOKEN)
    page.click("#login-form button[type=submit]")
    page.select_option("#lab-game", "witch")
    page.wait_for_load_state("networkidle")
    spells = page.locator('details[data-path="content.phantom_spells"]')
    spells.evaluate("d => { d.open = true; }")
    expect(spells.locator("> summary")).to_have_text("Phantom spells (6)")
    spells.locator('> button.lab-add').click()
    spells = page.locator('details[data-path="content.phantom_spells"]')
    expect(spells.locator("> summary")).to_have_text("Phantom spells (7)")
    page.fill("#variant-name", "fewer phantoms")
    page.click("#save")
    expect(page.locator("#lab-errors")).to_contain_text("used twice")
    assert lab_api(lab_server, "/api/lab/variants")["variants"] == []
    spells.locator('button.lab-remove[data-path="content.phantom_spells.6"]').click()
    spells = page.locator('details[data-path="content.phantom_spells"]')
    spells.locator('button.lab-remove[data-path="content.phantom_spells.5"]').click()
    expect(page.locator('details[data-path="content.phantom_spells"] > summary')).to_have_text("Phantom spells (5)")
    page.click("#save")
    expect(page.locator(".lab-saved")).to_contain_text("version 1")
    expect(page.locator(".lab-diff li")).to_have_text(["Phantom spells \u203a Rally: (a list or group) \u2192 nothing"])


def test_arena_content_forms_edit_a_boss_and_save(page: Page, lab_server: ServerThread) -> None:
    """The same page works for a game with seven data files (forms from each file's schema)."""
    page.goto(lab_server.url + "/lab")
    page.fill("#token", TOKEN)
    page.click("#login-form button[type=submit]")
    page.select_option("#lab-game", "arena")
    page.wait_for_load_state("networkidle")
    hp = page.locator('input[data-path="bosses.0.hp_base"]')
    old = int(hp.input_value())
    page.locator('details[data-path="bosses"]').evaluate("d => { d.open = true; }")
    page.locator('details[data-path="bosses.0"]').evaluate("d => { d.open = true; }")
    hp.fill("many")
    page.fill("#variant-name", "tough boss")
    page.click("#save")
    expect(page.locator('.lab-field[data-path="bosses.0.hp_base"] .lab-field-error')).to_contain_text("integer")
    hp.fill(str(old + 20))
    page.click("#save")
    expect(page.locator(".lab-saved")).to_contain_text("version 1")
    expect(page.locator(".lab-diff li").first).to_contain_text(f"Hp base: {old} \u2192 {old + 20}")
