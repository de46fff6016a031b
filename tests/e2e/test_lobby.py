"""Issue 18, the lobby as a new player meets it (Debian's Chromium against the real server): only
the options the server accepts, refusals under their field, no developer text, a table list
that says who plays and whose turn it is, "Your seats" with their status, a legal default setup
of every game at every player count, and the API page working offline.

Screenshots: artifacts/screenshots/lobby-*.png.
"""

from __future__ import annotations

import json
import re
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Route

import bloodforge
from bloodforge.core.game import FILE_PARAMETER_KEY
from bloodforge.server.config import Settings
from tests.e2e.browser import new_context
from tests.server.support import ServerThread

from .devtext import dev_text, page_text

GAMES = {g["id"]: g for g in bloodforge.list_games()}


@pytest.fixture
def lobby_server(tmp_path: Path) -> Iterator[ServerThread]:
    """The real server; the table limits raised, since these tests create a table per game and
    player count from one address."""
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'lobby.sqlite3'}", ai_delay=0.02, ai_time_budget=5.0,
                        tables_per_minute=6000.0, table_burst=200, max_ai_tables_per_client=200)
    with ServerThread(settings) as s:
        yield s


def call(server: ServerThread, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(server.url + path, data=data, method=method, headers=headers)
    with urllib.request.urlopen(req, timeout=20) as r:
        return json.load(r)


def open_lobby(page: Page, server: ServerThread) -> None:
    page.goto(server.url + "/")
    page.wait_for_selector(".seat-row")


def choose(page: Page, game: str, players: int | None = None) -> None:
    page.select_option("#game", game)
    if players is not None:
        page.select_option("#players", str(players))
    page.wait_for_function("n => document.querySelectorAll('.seat-row').length === n",
                           arg=int(page.input_value("#players")))
    if page.locator("#more").get_attribute("open") is None:
        page.click("#more summary")


def readable_text(page: Page) -> str:
    """The visible text with tooltips, plus what only shows on demand: placeholders and the
    options of every menu."""
    extra: str = page.evaluate("""() => [
        ...[...document.querySelectorAll('[placeholder]')].map((n) => n.placeholder),
        ...[...document.querySelectorAll('option')].map((n) => n.textContent),
    ].join('\\n')""")
    return page_text(page) + "\n" + extra


def test_lobby_offers_every_parameter_the_server_accepts_and_no_file_parameter(
    page: Page, lobby_server: ServerThread
) -> None:
    """Defect 6: Map File, Content, Arena, Units and Mercenaries were offered and then refused."""
    open_lobby(page, lobby_server)
    for gid, info in GAMES.items():
        choose(page, gid)
        offered = set(page.eval_on_selector_all("[data-param]", "ns => ns.map((n) => n.dataset.param)"))
        props = info["parameters"]["properties"]
        files = {k for k, v in props.items() if v.get(FILE_PARAMETER_KEY)}
        assert files, f"{gid} declares its data files as file parameters"
        assert not offered & files, (gid, offered & files)
        assert offered == set(props) - files - {"players"}, gid
        labels = page.eval_on_selector_all(".param > label", "ns => ns.map((n) => n.textContent.trim())")
        for label in labels:
            assert "_" not in label, (gid, label)
            assert label[:1].isupper(), (gid, label)


def test_a_refusal_is_written_under_the_field_it_is_about(page: Page, lobby_server: ServerThread, shots: Path) -> None:
    """Defect 6: a refusal naming `map_file` was written under Map. Now the server names the
    field (`details.field`) and the lobby writes the message there, in the parameter's words."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_lobby(page, lobby_server)
    choose(page, "bloodstones", 2)
    page.select_option("#param-map", "grand")  # marked for 5-6 players
    page.click("#create-button")
    slot = page.locator('[data-error-for="param-map"]')
    slot.wait_for(state="visible")
    assert "5-6 players" in slot.inner_text()
    assert "Allow Unrecommended" in slot.inner_text()  # the parameter's label, not allow_unrecommended
    assert page.locator("#param-map").evaluate("n => n.classList.contains('input-error')")
    others = page.eval_on_selector_all(
        ".field-error", "ns => ns.filter((n) => n.textContent.trim() && n.id !== 'form-error')"
                        ".map((n) => n.dataset.errorFor || n.dataset.field)")
    assert others == ["param-map"], others
    assert not dev_text(page_text(page)), dev_text(page_text(page))
    page.screenshot(path=str(shots / "lobby-error-1280x800.png"), full_page=True)

    # a second refusal first clears the first one; a seat's refusal goes to its row
    page.select_option("#param-map", "map1")
    page.evaluate("""() => { const s = document.querySelector('.seat-row[data-seat="1"] .seat-kind');
                            s.append(new Option('x', 'agent:alphazero')); s.value = 'agent:alphazero'; }""")
    page.click("#create-button")
    row_error = page.locator('.seat-row[data-seat="1"] .field-error')
    row_error.wait_for(state="visible")
    assert "Seat 2" in row_error.inner_text()  # counted from 1, as the seat rows are
    assert "alphazero" in row_error.inner_text()
    assert page.locator('[data-error-for="param-map"]').inner_text() == ""


def test_the_server_names_the_field_of_a_parameter_refusal(lobby_server: ServerThread) -> None:
    """`details.field` is what the lobby places a refusal by (`map` is not named by `map_file`)."""
    def refusal(body: dict[str, Any]) -> dict[str, Any]:
        try:
            call(lobby_server, "POST", "/api/tables", body)
        except urllib.error.HTTPError as err:
            error: dict[str, Any] = json.load(err)["error"]
            return error
        raise AssertionError("accepted")

    err = refusal({"game": "bloodstones", "params": {"players": 2, "map_file": "x.json"}})
    assert err["details"]["field"] == "params.map_file"
    err = refusal({"game": "bloodstones", "params": {"players": 2, "map": "grand"}})
    assert err["details"]["field"] == "params.map"
    err = refusal({"game": "kingdoms", "params": {"players": 4, "max_rounds": 0}})
    assert err["details"]["field"] == "params.max_rounds"
    err = refusal({"game": "witch", "params": {"players": 2},
                   "seats": [{"kind": "human"}, {"kind": "agent", "agent": "alphazero"}]})
    assert err["details"]["field"] == "seats.1"
    assert err["message"].startswith("seat 2:")


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)])
def test_lobby_shows_no_developer_text(browser: Browser, lobby_server: ServerThread, shots: Path,
                                       size: tuple[int, int]) -> None:
    """Defect 7: rule codes ("(R-REC-3)", "L229", "A38"), "`timeout <seat>`", snake_case names,
    "null" in the lobby's labels, help, menus and placeholders, for every game."""
    call(lobby_server, "POST", "/api/tables", {"game": "kingdoms", "params": {"players": 4}, "seats": [
        {"name": "Anna"}, {"kind": "agent", "agent": "random"}, {"kind": "agent", "agent": "mcts"},
        {"kind": "agent", "agent": "greedy"}]})
    context = new_context(browser, viewport={"width": size[0], "height": size[1]})
    page = context.new_page()
    try:
        open_lobby(page, lobby_server)
        page.wait_for_selector(".table-item")
        for gid, info in GAMES.items():
            for n in sorted({info["min_players"], info["max_players"]}):
                choose(page, gid, n)
                found = dev_text(readable_text(page))
                assert not found, f"{gid}, {n} players:\n" + "\n".join(found)
                assert "timeout" not in readable_text(page).lower() or "a timeout" in readable_text(page)
        choose(page, "arena", 1)
        page.screenshot(path=str(shots / f"lobby-{size[0]}x{size[1]}.png"), full_page=False)
    finally:
        context.close()


def seat_counts(server: ServerThread, table_id: str) -> str:
    """"2 people", "1 person, 3 AI", "1 person, 1 open": human seats whose link nobody opened
    yet are open (when the server tells, by `claimed`)."""
    seats = call(server, "GET", f"/api/tables/{table_id}")["seats"]
    is_open = [s["kind"] == "human" and s.get("claimed") is False for s in seats]
    people = sum(s["kind"] == "human" for s in seats) - sum(is_open)
    ai = sum(s["kind"] == "agent" for s in seats)
    parts = [f"{people} {'person' if people == 1 else 'people'}"] if people else []
    parts += [f"{ai} AI"] if ai else []
    parts += [f"{sum(is_open)} open"] if any(is_open) else []
    return ", ".join(parts)


def test_lobby_lists_tables_with_game_seats_turn_and_status(page: Page, lobby_server: ServerThread,
                                                            shots: Path) -> None:
    playing = call(lobby_server, "POST", "/api/tables", {"game": "forts", "params": {"players": 2}, "seats": [
        {"name": "Anna"}, {"name": "Bob"}]})["table"]
    with_ai = call(lobby_server, "POST", "/api/tables", {"game": "kingdoms", "params": {"players": 4}, "seats": [
        {"name": "Anna"}, {"kind": "agent"}, {"kind": "agent"}, {"kind": "agent"}]})["table"]
    over = call(lobby_server, "POST", "/api/tables", {"game": "witch", "params": {"players": 2, "max_turns": 2},
                                                      "seats": [{"kind": "agent", "agent": "random"},
                                                                {"kind": "agent", "agent": "random"}]})["table"]
    assert with_ai["name"] == "Kingdoms of Blood · Anna vs 3 AI"  # not "Kingdoms of Blood table"
    assert playing["name"] == "Five Forts · Anna vs Bob"
    page.set_viewport_size({"width": 1280, "height": 800})
    open_lobby(page, lobby_server)
    page.wait_for_function("id => document.querySelector(`.table-item[data-table='${id}'].is-over`)",
                           arg=over["id"], timeout=60_000)
    item = page.locator(f".table-item[data-table='{playing['id']}']")
    text = " ".join(item.inner_text().split())
    for words in ("Five Forts", "Anna vs Bob", seat_counts(lobby_server, playing["id"]), "PLAYING"):
        assert words in text, (words, text)
    actors = call(lobby_server, "GET", f"/api/tables/{playing['id']}")["actors"]
    names = ["Anna", "Bob"]
    assert " and ".join(names[a] for a in actors) + " to play" in text
    text = " ".join(page.locator(f".table-item[data-table='{with_ai['id']}']").inner_text().split())
    assert seat_counts(lobby_server, with_ai["id"]) in text
    assert "3 AI" in text
    assert "Anna" in text
    text = " ".join(page.locator(f".table-item[data-table='{over['id']}']").inner_text().split())
    assert "finished" in text.lower()
    result = call(lobby_server, "GET", f"/api/tables/{over['id']}")["result"]
    shared = len(result["winners"]) in (0, 2)  # a draw: nobody, or every seat, wins
    assert ("a draw" in text) if shared else ("won" in text), text
    assert not dev_text(page_text(page)), dev_text(page_text(page))
    page.screenshot(path=str(shots / "lobby-tables-1280x800.png"), full_page=True)


def test_your_seats_show_your_turn_waiting_and_finished(page: Page, lobby_server: ServerThread) -> None:
    created = call(lobby_server, "POST", "/api/tables", {"game": "witch", "params": {"players": 2}, "seats": [
        {"name": "Anna"}, {"name": "Bob"}]})
    open_lobby(page, lobby_server)
    page.evaluate("""(c) => {
        const all = {};
        for (const l of c.links) all[`${c.table.id}#${l.seat}`] =
            { table: c.table.id, seat: l.seat, token: l.token, label: `${c.table.name} — ${l.name}`, at: l.seat };
        localStorage.setItem('bloodforge.seats', JSON.stringify(all)); }""", created)
    page.reload()
    page.wait_for_selector(".mine-status")
    actors = created["table"]["actors"]
    statuses = {}
    for li in page.locator(".mine-item").all():
        seat = int(li.locator("a").get_attribute("data-seat") or "-1")
        statuses[seat] = li.locator(".mine-status").inner_text()
    for seat in (0, 1):
        mover = ["Anna", "Bob"][actors[0]]
        assert statuses[seat] == ("your turn" if seat in actors else f"waiting for {mover}"), statuses


def lobby_default_body(page: Page, server: ServerThread, game: str, players: int) -> dict[str, Any]:
    """What the lobby sends when a player picks `game` and `players` and touches nothing else
    (the request is caught before it reaches the server)."""
    sent: list[dict[str, Any]] = []

    def catch(route: Route) -> None:
        sent.append(json.loads(route.request.post_data or "{}"))
        route.fulfill(status=422, content_type="application/json",
                      body=json.dumps({"error": {"code": "request/invalid", "message": "caught by the test"}}))

    page.route("**/api/tables", catch)
    try:
        choose(page, game, players)
        page.click("#create-button")
        for _ in range(200):  # the request is caught (the form's message may be the last round's)
            if sent:
                break
            page.wait_for_timeout(50)
        page.wait_for_function("() => document.querySelector('#form-error').textContent.includes('by the test')")
    finally:
        page.unroute("**/api/tables")
    return sent[-1]


def test_the_lobby_default_setup_of_every_game_is_legal(page: Page, lobby_server: ServerThread) -> None:
    """Defect 8: the arena's default solo table broke its own rulebook (the log warned that solo
    needs a Rival). For every game and player count the lobby's untouched form is created by the
    server and its log warns of nothing; the lobby sends only the player count (defaults are the
    game's own)."""
    open_lobby(page, lobby_server)
    warned = []
    for gid, info in GAMES.items():
        for n in range(info["min_players"], info["max_players"] + 1):
            body = lobby_default_body(page, lobby_server, gid, n)
            assert body["params"] == {"players": n}, (gid, n, body["params"])
            body["seats"] = [{"name": f"Player {i + 1}", "kind": "human"} for i in range(n)]  # no AI load
            created = call(lobby_server, "POST", "/api/tables", body)
            link = created["links"][0]
            view = call(lobby_server, "GET", f"/api/tables/{created['table']['id']}/state?seat=0", token=link["token"])
            bad = [line for line in view["log"] if re.search(r"recommend|warning|illegal|not legal", line, re.I)]
            if bad:
                warned.append((gid, n, bad))
    assert not warned, warned


def test_lobby_default_player_count_is_the_games_own(page: Page, lobby_server: ServerThread) -> None:
    open_lobby(page, lobby_server)
    for gid, info in GAMES.items():
        page.select_option("#game", gid)
        default = info["parameters"]["properties"]["players"].get("default", info["min_players"])
        assert page.input_value("#players") == str(default), gid


def test_api_page_works_offline(browser: Browser, lobby_server: ServerThread, shots: Path) -> None:
    """The API page was blank offline (Swagger UI from a CDN): it now loads only this server's
    files, and renders with every other host unreachable."""
    html = urllib.request.urlopen(lobby_server.url + "/docs", timeout=10).read().decode()
    refs = re.findall(r"""(?:src|href)=["']([^"']+)""", html)
    assert refs
    assert all(r.startswith("/") for r in refs), refs
    for ref in refs:
        with urllib.request.urlopen(lobby_server.url + ref, timeout=10) as r:
            assert r.status == 200
            assert len(r.read()) > 1000, ref
    context = new_context(browser, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    outside: list[str] = []

    def only_local(route: Route) -> None:
        if route.request.url.startswith(lobby_server.url):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    try:
        page.route("**/*", only_local)
        page.goto(lobby_server.url + "/docs")
        page.wait_for_selector(".opblock", timeout=20_000)
        assert page.locator(".opblock").count() >= 10
        assert "/api/tables" in page.locator("body").inner_text()
        page.screenshot(path=str(shots / "api-docs-offline.png"))
    finally:
        context.close()
    assert not outside, outside


def test_open_seats_are_the_human_seats_whose_link_nobody_opened(page: Page, lobby_server: ServerThread) -> None:
    """Seats (human, AI, open): a human seat counts as open until its claim-once link is opened."""
    created = call(lobby_server, "POST", "/api/tables", {"game": "forts", "params": {"players": 3}, "seats": [
        {"name": "Anna"}, {"name": "Bob"}, {"name": "Cleo"}]})  # no AI: nothing else changes the list
    table = created["table"]["id"]
    open_lobby(page, lobby_server)
    item = page.locator(f".table-item[data-table='{table}']")
    item.wait_for()
    assert "3 open" in " ".join(item.inner_text().split())
    call(lobby_server, "POST", f"/api/tables/{table}/seats/0/claim", token=created["links"][0]["token"])
    seats = call(lobby_server, "GET", f"/api/tables/{table}")["seats"]
    assert [s["claimed"] for s in seats] == [True, False, False]
    # the list follows live (no reload): a claim is a lobby change
    page.wait_for_function("id => !document.querySelector(`.table-item[data-table='${id}']`).textContent"
                           ".includes('Anna (open seat)')", arg=table, timeout=10_000)
    text = " ".join(item.inner_text().split())
    assert "1 person, 2 open" in text, text
    assert "Bob (open seat)" in text, text
    assert "Anna (open seat)" not in text, text


def test_the_creator_makes_a_new_link_for_a_seat_from_your_seats(page: Page, lobby_server: ServerThread,
                                                                 shots: Path) -> None:
    """Claim-once links: the creator keeps the host token, and Your seats offers a new link for
    each other human seat; the old link is void, the new one takes the seat."""
    page.set_viewport_size({"width": 1280, "height": 800})
    open_lobby(page, lobby_server)
    choose(page, "witch")
    page.locator(".seat-name").nth(0).fill("Anna")
    page.locator(".seat-kind").nth(1).select_option("human")
    page.locator(".seat-name").nth(1).fill("Bob")
    page.click("#create-button")
    page.wait_for_selector("#created .link-input")
    old_link = page.locator("#created .link-input").nth(1).input_value()
    table = re.search(r"/table/([^#]+)#", old_link).group(1)  # type: ignore[union-attr]
    panel = page.locator(f".mine-item[data-table='{table}'] details.invite")
    panel.locator("summary").click()
    row = panel.locator(".invite-row[data-seat='1']")
    assert "Seat 2 — Bob" in row.inner_text()
    row.get_by_role("button", name="New link").click()
    new_input = page.locator(f".mine-item[data-table='{table}'] .invite-row[data-seat='1'] .link-input")
    new_input.wait_for()
    new_link = new_input.input_value()
    assert "#seat=1&token=" in new_link
    assert new_link != old_link
    page.screenshot(path=str(shots / "lobby-new-link-1280x800.png"), full_page=True)
    old_token = old_link.split("token=")[1]
    with pytest.raises(urllib.error.HTTPError) as refused:
        call(lobby_server, "POST", f"/api/tables/{table}/seats/1/claim", token=old_token)
    assert refused.value.code in (401, 403)
    new_token = urllib.parse.unquote(new_link.split("token=")[1])
    claimed = call(lobby_server, "POST", f"/api/tables/{table}/seats/1/claim", token=new_token)
    assert claimed["seat"] == 1


def test_the_list_follows_changes_by_deltas(page: Page, lobby_server: ServerThread) -> None:
    """The lobby asks for deltas (only changed tables after the first list) and merges them:
    a new table appears and the others stay."""
    first = call(lobby_server, "POST", "/api/tables", {"game": "witch", "params": {"players": 2},
                                                       "seats": [{"name": "Anna"}, {"name": "Bob"}]})["table"]
    frames: list[str] = []
    page.on("websocket", lambda ws: ws.on("framereceived", lambda payload: frames.append(str(payload))))
    open_lobby(page, lobby_server)
    page.locator(f".table-item[data-table='{first['id']}']").wait_for()
    second = call(lobby_server, "POST", "/api/tables", {"game": "forts", "params": {"players": 2},
                                                        "seats": [{"name": "Cleo"}, {"name": "Dan"}]})["table"]
    page.locator(f".table-item[data-table='{second['id']}']").wait_for(timeout=10_000)
    assert page.locator(f".table-item[data-table='{first['id']}']").count() == 1
    assert any('"type":"lobby_delta"' in f for f in frames), frames[-1:]
    ids = page.eval_on_selector_all(".table-item", "ns => ns.map((n) => n.dataset.table)")
    assert ids == [second["id"], first["id"]]  # the table that moved last comes first


def test_each_seat_row_says_what_the_seat_plays_at_that_player_count(page: Page, lobby_server: ServerThread) -> None:
    """Kingdoms with 2 or 3 players: a seat may command two factions, and the third seat of
    three plays the Undead (the board's per-faction list said "Elves" and "Dwarves")."""
    roles = call(lobby_server, "GET", "/api/games/kingdoms/seats?players=3")["seats"]
    assert [r["role"] for r in roles] == ["Elves + Dwarves", "Humans", "Undead"]
    board = bloodforge.load_game("kingdoms", players=4).static_info()["board"]["seats"]
    assert roles[2]["colour"] == next(s["colour"] for s in board if s["name"] == "Undead")
    assert call(lobby_server, "GET", "/api/games/bloodstones/seats?players=2")["seats"] == []  # dealt by the seed
    open_lobby(page, lobby_server)
    choose(page, "kingdoms", 2)
    role = page.locator('.seat-row[data-seat="0"] .seat-role')
    role.wait_for()
    page.wait_for_function("() => document.querySelector('.seat-row[data-seat=\"1\"] .seat-role').textContent")
    assert role.inner_text() == "plays Elves + Dwarves"
    assert page.locator('.seat-row[data-seat="1"] .seat-role').inner_text() == "plays Humans + Undead"


def test_the_seat_menu_offers_the_players_ais_only(page: Page, lobby_server: ServerThread) -> None:
    """The server registers research agents too (OpenSpiel's IS-MCTS, the lab's yardstick; the
    `heuristic` alias of greedy): a newcomer's seat menu offers a human and the three AIs."""
    assert "openspiel-ismcts" in call(lobby_server, "GET", "/api/games")[0]["agents"]
    open_lobby(page, lobby_server)
    kinds = page.locator('.seat-row[data-seat="1"] .seat-kind option').all_inner_texts()
    assert sorted(kinds) == sorted(["Human", "AI", "AI (search)", "AI (random moves)"])
