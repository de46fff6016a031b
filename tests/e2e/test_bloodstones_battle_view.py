"""Bloodstones battle view (issue 18: the dialog opened showing "No losses" and the casualty was
only logged afterwards). The view opens when the battle is decided, before the loser chooses
casualties; when the casualty is chosen, the dialog still open on the other player's screen shows
it. The rulebook's worked-example battle (scenarios/worked_example_battle.yaml), two humans."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Browser, expect

from tests.server.support import ServerThread

from .clicks import close_dialogs, perform, wait_my_turn
from .test_bloodstones_by_clicks import fight_the_worked_example_battle


def test_open_battle_view_shows_the_losses_once_chosen(browser: Browser, server: ServerThread, shots: Path) -> None:
    errors: list[str] = []
    attacker, defender = fight_the_worked_example_battle(browser, server, errors)
    # the battle is decided: Ann's view opens before Bob has chosen what he loses
    dialog = attacker.locator("#battle-dialog[open]")
    expect(dialog).to_be_visible()
    losses = dialog.locator(".battle-losses")
    expect(losses.nth(1)).to_have_text("No losses")
    wait_my_turn(defender)
    close_dialogs(defender)
    perform(defender, "casualty swords")
    # Ann's dialog, still open, now shows the defender's loss (it was left at "No losses")
    expect(losses.nth(1)).to_contain_text("swords", timeout=10_000)
    expect(dialog).to_be_visible()
    attacker.screenshot(path=str(shots / "bloodstones-battle-losses.png"))
    assert not errors, errors
