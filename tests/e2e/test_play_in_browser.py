"""A newcomer's path in a real browser: lobby, a Bloodstones table against the heuristic AI,
setup and a turn by clicking, the AI's answer, a reload that finds the same position, a whole
(short) game to the end and the replay viewer. Screenshots of each screen are saved."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page, expect

from tests.server.support import ServerThread

from .clicks import legal, perform, version, wait_my_turn


def create_from_lobby(
    page: Page, server: ServerThread, shots: Path, *, name: str, max_rounds: int | None = None
) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat-row")
    page.locator("#game").select_option("bloodstones")  # games are listed by id; arena comes first
    page.locator(".seat-name").first.fill(name)
    expect(page.locator(".seat-kind").nth(1)).to_have_value("agent:greedy")
    if max_rounds is not None:
        page.locator("#more summary").click()
        page.locator('[data-param="max_rounds"]').fill(str(max_rounds))
    page.screenshot(path=str(shots / "01-lobby.png"))
    page.locator("#create-button").click()
    page.wait_for_url("**/table/**")
    page.wait_for_selector("polygon.cell")
    page.wait_for_function("() => document.body.dataset.version !== undefined")


def snapshot(page: Page) -> dict[str, str]:
    return {
        "version": str(version(page)),
        "players": page.locator("#players").inner_text(),
        "hand": page.locator("#hand").inner_text(),
        "pieces": page.locator("g.pieces").inner_html(),
        "log": page.locator("#log").inner_text(),
    }


def pick(options: list[str], *prefixes: str) -> str | None:
    for prefix in prefixes:
        for text in options:
            if text == prefix or text.startswith(prefix + " "):
                return text
    return None


def test_setup_and_a_turn_by_clicking_then_the_ai_answers_and_reload_keeps_it(
    page: Page, server: ServerThread, shots: Path
) -> None:
    create_from_lobby(page, server, shots, name="Ann <img src=x onerror=alert(1)>")
    expect(page.locator("#who")).to_have_text("you are Ann <img src=x onerror=alert(1)>")

    # -- setup: citadel, then spend the build points by clicking a tile and an area ------------
    wait_my_turn(page)
    options = legal(page)
    citadel = pick(options, "citadel")
    assert citadel, options
    page.screenshot(path=str(shots / "02-setup-citadel.png"))
    perform(page, citadel)
    built = 0
    while True:
        wait_my_turn(page)
        options = legal(page)
        if not any(o.startswith("build ") for o in options):
            break
        build = pick(options, "build")
        assert build
        perform(page, build)
        built += 1
        if built == 1:
            page.screenshot(path=str(shots / "03-setup-build.png"))
    assert built >= 1
    done = pick(legal(page), "done")
    if done and page.evaluate("() => document.body.dataset.phase") == "setup_build":
        perform(page, done)

    # -- our first main turn: build and pay, move (with an undo) and pay, then done -----------
    while True:
        wait_my_turn(page)
        if page.evaluate("() => document.body.dataset.phase") == "main_actions":
            break
        perform(page, pick(legal(page), "done", "citadel", "build") or legal(page)[0])
    page.screenshot(path=str(shots / "04-main-turn.png"))
    did: set[str] = set()
    for _ in range(60):
        wait_my_turn(page)
        options = legal(page)
        if page.evaluate("() => document.body.dataset.phase") != "main_actions":
            break
        pending = page.locator("#pending").inner_text()
        if "Choosing" in pending:
            action = pick(options, "to", "pay") or "cancel"
            if action.startswith("to ") and "undo" not in did:
                # undo a partial move before it is committed, then take it again
                perform(page, "cancel")
                expect(page.locator("#pending")).to_have_text("")
                did.add("undo")
                did.discard("move")
                continue
        elif "build" not in did and pick(options, "build"):
            action = pick(options, "build") or ""
            did.add("build")
        elif "move" not in did and pick(options, "move"):
            action = pick(options, "move") or ""
            did.add("move")
            perform(page, action)
            page.screenshot(path=str(shots / "05-move-choosing.png"))
            continue
        else:
            action = pick(options, "done") or options[0]
        verb = action.split()[0]
        did.add(verb)
        perform(page, action)
        if verb == "done":
            break
    assert {"build", "pay", "move", "to", "undo"} <= did, did

    # -- finish our turn (villages, ...), then the AI answers live ------------------------------
    def ai_lines() -> int:
        return page.locator("#log li.by-ai[data-seat='1']").count()  # lines about the AI, marked

    before_ai = ai_lines()
    for _ in range(30):
        wait_my_turn(page, timeout=90_000)
        if ai_lines() > before_ai and page.evaluate("() => document.body.dataset.phase") == "main_actions":
            break
        perform(page, pick(legal(page), "done") or legal(page)[0])
    assert ai_lines() > before_ai, "the AI's moves appear in the log"
    page.screenshot(path=str(shots / "06-after-ai-answer.png"))

    # -- reload: the same position ------------------------------------------------------------
    before = snapshot(page)
    page.reload()
    page.wait_for_function("v => document.body.dataset.version === v", arg=before["version"])
    wait_my_turn(page)
    assert snapshot(page) == before

    # -- open the menu on an area with several choices for the screenshot ----------------------
    options = legal(page)
    move = pick(options, "move")
    if move:
        page.locator(f'polygon[data-area="{move.split()[1]}"]').click(force=True)
        page.screenshot(path=str(shots / "07-area-menu.png"))


def test_a_whole_game_to_the_end_by_clicking_then_replay(page: Page, server: ServerThread, shots: Path) -> None:
    create_from_lobby(page, server, shots, name="Newcomer", max_rounds=2)
    battle_seen = False
    for _ in range(400):
        wait_my_turn(page, timeout=90_000)
        if page.evaluate("() => document.body.dataset.terminal") == "true":
            break
        options = legal(page)
        # a plain player: build or move when possible, pay, attack if offered, else done
        action = (pick(options, "battle", "stay", "keep", "casualty", "retreat", "raise", "to", "pay")
                  or pick(options, "citadel", "build", "capture", "village", "move", "done")
                  or options[0])
        if action == "cancel":
            action = next(o for o in options if o != "cancel")
        perform(page, action)
        if not battle_seen and page.locator("#extra").is_visible():
            battle_seen = True
            page.screenshot(path=str(shots / "08-battle.png"))
    expect(page.locator("#banner")).to_contain_text("Game over")
    page.screenshot(path=str(shots / "09-game-over.png"))

    # the end summary comes up by itself; its replay link is the way on (it covers the page)
    summary = page.locator("#summary-dialog")
    expect(summary).to_be_visible()
    expect(summary.get_by_role("button", name="Rematch")).to_be_visible()
    summary.get_by_role("link", name="Watch the replay").click()
    page.wait_for_selector("#replay-bar:not([hidden])")
    page.wait_for_function("() => Number(document.body.dataset.version) > 0")
    final = version(page)
    assert final > 20
    page.locator("#rp-first").click()
    page.wait_for_function("() => document.body.dataset.version === '0'")
    for _ in range(5):
        page.locator("#rp-next").click()
    page.wait_for_function("() => document.body.dataset.version === '5'")
    expect(page.locator("#rp-label")).to_contain_text("Move 5 of")
    page.screenshot(path=str(shots / "10-replay.png"))

    page.goto(server.url + "/")
    page.wait_for_selector(".table-item")
    expect(page.locator("#mine")).to_contain_text("Newcomer")
    expect(page.locator(".table-item").first).to_contain_text("finished")
    page.screenshot(path=str(shots / "11-lobby-tables.png"))


def test_a_battle_from_an_uploaded_scenario(page: Page, server: ServerThread, shots: Path) -> None:
    """The rulebook's battle example uploaded as a scenario file in the lobby: attack by clicking
    the area, then follow the battle panel (tiles, substitution, totals) to its end."""
    scenarios = Path(__file__).resolve().parents[2] / "src/bloodforge/games/bloodstones/scenarios"
    scenario = scenarios / "worked_example_battle.yaml"
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat-row")
    page.locator("#game").select_option("bloodstones")  # the seats offered are the game's
    page.locator(".seat-name").first.fill("Attacker")
    page.locator("#more summary").click()
    page.locator("#scenario").set_input_files(str(scenario))
    page.locator("#create-button").click()
    page.wait_for_url("**/table/**")
    wait_my_turn(page)
    perform(page, "battle 27 1")
    shot = False
    for _ in range(20):
        wait_my_turn(page)
        if page.locator("#extra .btile").count() and not shot:
            page.screenshot(path=str(shots / "08-battle.png"))
            shot = True
        if not page.locator("#extra").is_visible():
            break
        options = legal(page)
        perform(page, pick(options, "keep", "stay", "casualty", "retreat", "raise") or options[0])
    assert shot
    assert "battle" in page.locator("#log").inner_text().lower()


def test_blood_stone_place_select_move_and_the_witch_answers(page: Page, server: ServerThread, shots: Path) -> None:
    """Blood Stone in the browser: the grid, pieces with blood, placing by clicking start squares,
    selecting a soldier, moving it by clicking a square, ending the turn, the AI Witch's answer."""
    page.goto(server.url + "/")
    page.wait_for_selector("#seats .seat-row")
    page.locator("#game").select_option("witch")
    page.locator(".seat-name").first.fill("Captain")
    page.locator("#create-button").click()
    page.wait_for_url("**/table/**")
    page.wait_for_selector("polygon.cell[data-square]")
    for _ in range(12):  # placement: click a highlighted start square (a menu offers the pieces)
        wait_my_turn(page)
        if page.locator("g.piece.legal").count():
            break
        before = version(page)
        page.locator("polygon.cell.legal").first.click(force=True)
        if page.locator("#menu").is_visible():
            page.locator("#menu button[data-action]").first.click()
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    expect(page.locator("g.piece")).to_have_count(8)
    before = version(page)
    page.locator("g.piece.legal").first.click(force=True)
    page.wait_for_selector("polygon.cell.selected")
    page.screenshot(path=str(shots / "12-blood-stone-select.png"))
    page.locator("polygon.cell.legal").first.click(force=True)
    if page.locator("#menu").is_visible():
        page.locator("#menu button[data-action]").first.click()
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    assert "moves" in page.locator("#log").inner_text()
    witch_lines = page.locator("#log li").count()
    perform(page, "end")
    wait_my_turn(page, timeout=90_000)
    assert page.locator("#log li").count() > witch_lines + 1, "the Witch's turn appears in the log"
    page.screenshot(path=str(shots / "13-blood-stone-after-witch.png"))
