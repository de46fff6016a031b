"""Issue 22, the workbench's sweeps and plots in Debian's Chromium against the real server
(`--lab`): the value to sweep is chosen by clicking it in the form, a tiny sweep (two values,
two games each) runs to the end, and its table per value and the lab report's plots show in
the page; a matchup with an SPRT shows its verdict.

Screenshots: artifacts/screenshots/workbench-sweep.png, workbench-matchup.png.
"""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.e2e.test_workbench import TOKEN, lab_server  # noqa: F401 - the fixture
from tests.server.support import ServerThread

BLOOD = "content.units.0.starting_blood"


def open_witch_and_save(page: Page, server: ServerThread, name: str) -> None:
    page.goto(server.url + "/lab")
    page.fill("#token", TOKEN)
    page.click("#login-form button[type=submit]")
    page.select_option("#lab-game", "witch")
    expect(page.locator(f'input[data-path="{BLOOD}"]')).to_have_value("16")
    page.fill("#variant-name", name)
    page.click("#save")
    expect(page.locator(".lab-saved")).to_contain_text("version 1")


def test_sweep_chosen_in_the_form_runs_and_shows_its_table_and_plot(page: Page, lab_server: ServerThread,  # noqa: F811
                                                                    shots: Path) -> None:
    open_witch_and_save(page, lab_server, "as published")
    page.select_option("#exp-kind", "sweep")
    expect(page.locator("#sweep-fields")).to_be_visible()
    for path in ("content.units", "content.units.0"):
        page.locator(f'details[data-path="{path}"]').evaluate("d => { d.open = true; }")
    page.click(f'input[data-path="{BLOOD}"]')
    expect(page.locator("#sweep-what")).to_contain_text("Starting blood")
    page.fill("#sweep-start", "14")
    page.fill("#sweep-stop", "16")
    page.fill("#sweep-step", "2")
    page.fill("#ab-agents", "random")
    page.fill("#ab-games", "2")
    page.click("#ab-run")
    expect(page.locator("#ab-status")).to_have_text("Done: 6 games.", timeout=120_000)
    expect(page.locator(".lab-sentence")).to_contain_text("Starting blood from 14 to 16: ")
    rows = page.locator(".lab-sweep tbody tr")
    expect(rows).to_have_count(3)
    expect(rows.nth(0)).to_contain_text("Published")
    expect(rows.nth(1).locator("td").first).to_have_text("14")
    expect(rows.nth(2).locator("td").first).to_have_text("16")
    expect(rows.nth(2)).to_contain_text("p = ")  # the paired difference against the published content
    plot = page.locator('figure[data-plot="sweep"] img')
    expect(plot).to_be_visible(timeout=30_000)
    page.wait_for_function("() => { const i = document.querySelector('figure[data-plot=sweep] img');"
                           " return i && i.complete && i.naturalWidth > 100; }")
    expect(page.locator('figure[data-plot="sweep"] figcaption')).to_have_text("Win rate against Starting blood")
    page.screenshot(path=str(shots / "workbench-sweep.png"), full_page=True)


def test_matchup_with_sprt_shows_the_verdict(page: Page, lab_server: ServerThread, shots: Path) -> None:  # noqa: F811
    open_witch_and_save(page, lab_server, "for a matchup")
    page.select_option("#exp-kind", "matchup")
    expect(page.locator("#matchup-fields")).to_be_visible()
    page.fill("#ab-agents", "random, mcts:iterations=2:rollout_depth=2")
    page.fill("#ab-games", "2")
    page.check("#sprt-on")
    page.fill("#sprt-p0", "0.2")
    page.fill("#sprt-p1", "0.8")
    page.click("#ab-run")
    expect(page.locator("#ab-status")).to_have_text("Done: 2 games.", timeout=120_000)
    expect(page.locator(".lab-sentence")).to_contain_text("SPRT: ")
    pair = page.locator(".lab-pairs tbody tr")
    expect(pair).to_have_count(1)
    expect(pair.first).to_contain_text("MCTS (iterations 2, rollout depth 2)")
    expect(pair.first.locator("td").last).to_have_text("Undecided")
    expect(page.locator('figure[data-plot="matrix"] img')).to_be_visible(timeout=30_000)
    page.screenshot(path=str(shots / "workbench-matchup.png"), full_page=True)


def test_bloodstones_factions_form_edits_one_number_and_saves(page: Page, lab_server: ServerThread) -> None:  # noqa: F811
    """Another game's content in the same page: the Horse Lords' hand size, refused as text,
    saved as a number with its difference."""
    page.goto(lab_server.url + "/lab")
    page.fill("#token", TOKEN)
    page.click("#login-form button[type=submit]")
    page.select_option("#lab-game", "bloodstones")
    hand = page.locator('input[data-path="factions.factions.0.hand_size"]')
    expect(hand).to_have_value("7")
    for path in ("factions.factions", "factions.factions.0"):
        page.locator(f'details[data-path="{path}"]').evaluate("d => { d.open = true; }")
    hand.fill("seven")
    page.fill("#variant-name", "bigger hands")
    page.click("#save")
    expect(page.locator('.lab-field[data-path="factions.factions.0.hand_size"] .lab-field-error')).to_contain_text(
        "integer")
    hand.fill("8")
    page.click("#save")
    expect(page.locator(".lab-saved")).to_contain_text("version 1")
    expect(page.locator(".lab-diff li").first).to_contain_text("Hand size: 7 \u2192 8")
