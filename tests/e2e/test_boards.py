"""The shared board renderers in a real browser, with a game that has no view.js of its own:
the generic hex renderer draws Hex Walk (a test-only game registered here), a click on the
walker picks the `unit` argument, a click on a hex the `hex` argument, and only legal actions
can be made that way."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Page, expect

from bloodforge.core.registry import register_game, unregister_game
from tests.server.support import ServerThread

from .clicks import version, wait_my_turn
from .hex_game import HEXES, WALLS, HexWalkGame, hex_id


@pytest.fixture
def hexwalk() -> Iterator[None]:
    register_game(HexWalkGame)
    try:
        yield
    finally:
        unregister_game(HexWalkGame.info.id)


def open_table(
    page: Page, server: ServerThread, selector: str = "svg.board-hexes polygon.cell", **params: object
) -> str:
    body = {
        "game": "toy_hexwalk", "name": "Hex walk", "params": params, "seed": 1,
        "seats": [{"name": "Walker", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "random"}],
    }
    created = httpx.post(server.url + "/api/tables", json=body, timeout=10).json()
    page.goto(server.url + created["links"][0]["url"])
    page.wait_for_selector(selector)
    return str(created["table"]["id"])


def test_a_hex_game_without_a_view_renders_and_a_click_on_a_hex_picks_the_hex_argument(
    page: Page, server: ServerThread, shots: Path, hexwalk: None
) -> None:
    table = open_table(page, server)
    cells = page.locator("polygon.cell[data-hex]")
    expect(cells).to_have_count(len(HEXES))
    corners = page.eval_on_selector_all("polygon.cell", "els => els.map(e => e.points.numberOfItems)")
    assert set(corners) == {6}
    expect(page.locator("polygon.cell.kind-wall")).to_have_count(len(WALLS))
    expect(page.locator("g.piece")).to_have_count(2)
    # buttons are worded by the grammar's label template
    expect(page.locator('#actions button[data-action="step w0 1,1"]')).to_have_text("Step walker 0 to 1,1")
    wait_my_turn(page)
    page.screenshot(path=str(shots / "20-hex-generic.png"))

    # a click on a hex that no legal action names does nothing
    before = version(page)
    page.locator(f'polygon.cell[data-hex="{hex_id(0, 0)}"]').click(force=True)
    expect(page.locator("#menu")).to_be_hidden()
    assert version(page) == before

    # the walker (unit), then a highlighted hex: exactly one legal action, played at once
    page.locator('g.piece[data-unit="w0"]').click(force=True)
    expect(page.locator('g.piece[data-unit="w0"]')).to_have_class(re.compile(r"\bselected\b"))
    legal_hexes = page.eval_on_selector_all("polygon.cell.legal", "els => els.map(e => e.dataset.hex)")
    assert sorted(legal_hexes) == ["-1,2", "0,1", "1,1"], legal_hexes  # the free neighbours of 0,2
    page.screenshot(path=str(shots / "21-hex-walker-chosen.png"))
    page.locator('polygon.cell[data-hex="1,1"]').click(force=True)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    history = httpx.get(f"{server.url}/api/tables/{table}/history").json()
    assert history[0]["seat"] == 0

    # a hex alone picks the hex argument too: the one step that names it is played
    wait_my_turn(page)
    before = version(page)
    assert page.locator("polygon.cell.legal").count() == 0, "before a walker is chosen, the walker is what lights up"
    expect(page.locator('g.piece[data-unit="w0"]')).to_have_class(re.compile(r"\blegal\b"))
    steps = page.eval_on_selector_all('#actions button[data-action^="step "]', "els => els.map(e => e.dataset.action)")
    target = steps[0].split()[2]
    page.locator(f'polygon.cell[data-hex="{target}"]').click(force=True)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    expect(page.locator("#log")).to_contain_text(f"Walker steps to {target}")  # the seat by its name


def test_flat_topped_hexes(page: Page, server: ServerThread, shots: Path, hexwalk: None) -> None:
    open_table(page, server, orientation="flat")
    first = page.eval_on_selector("polygon.cell", "e => [...e.points].map(p => [p.x, p.y])")
    # flat-topped: two corners share the top edge's y, and the first corner lies on the centre's row
    ys = sorted(round(y, 3) for _, y in first)
    assert ys[0] == ys[1]
    assert round(first[0][1], 3) in ys[2:4]
    page.screenshot(path=str(shots / "22-hex-flat.png"))


def test_an_area_map_without_outlines_gets_cells_around_its_points(
    page: Page, server: ServerThread, shots: Path, hexwalk: None
) -> None:
    open_table(page, server, geometry="areas", selector="svg.board-areas polygon.cell")
    expect(page.locator("polygon.cell[data-area]")).to_have_count(len(HEXES))
    corners = page.eval_on_selector_all("polygon.cell", "els => els.map(e => e.points.numberOfItems)")
    assert min(corners) >= 3
    # the walls are linked to nothing, so every edge they share with a neighbour is a barrier
    assert page.locator("line.barrier").count() >= 6
    expect(page.locator(".line.link")).to_have_count(0)  # neighbours' cells all touch
    wait_my_turn(page)
    before = version(page)
    page.locator('g.piece[data-unit="w0"]').click(force=True)
    target = page.eval_on_selector_all("polygon.cell.legal", "els => els.map(e => e.dataset.area)")[0]
    page.screenshot(path=str(shots / "23-areas-generic.png"))
    page.locator(f'polygon.cell[data-area="{target}"]').click(force=True)
    page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)
    expect(page.locator("#log")).to_contain_text(f"Walker steps to {target}")  # the seat by its name


def test_argument_picking_rules_in_the_page(page: Page, server: ServerThread) -> None:
    """boards/actions.js, run in the browser: picks fill the first free argument of their type
    (a `word` argument takes any click with its id), a target completes a choice and a piece
    or tile only selects, and labels fill templates with names."""
    page.goto(server.url + "/")
    result = page.evaluate("""async () => {
      const m = await import("/static/boards/actions.js");
      const g = m.grammarMap([
        {kind: "build", args: ["unit", "area"], types: ["tile", "area"], label: "Build {unit} in {area}"},
        {kind: "target", args: ["what"], types: ["word"], label: ""},
        {kind: "undead", args: ["from", "to"], types: ["area", "area"], label: "Undead {from} to {to}"},
      ]);
      const acts = ["build ship 8", "build ship 0", "build castle 8", "target archer", "undead 8 9"]
        .map((t) => m.parse(t, g));
      const cells = ["0", "8", "9"].map((v) => ({value: v, type: "area"}));
      const clickable = [...cells, {value: "ship", type: "tile"}, {value: "castle", type: "tile"}];
      const ship = {value: "ship", type: "tile"}, eight = {value: "8", type: "area"};
      const texts = (list) => list.map((a) => a.text);
      return {
        ship: texts(m.candidates(acts, [ship])),
        eight: texts(m.candidates(acts, [eight])),
        shipEight: texts(m.candidates(acts, [ship, eight])),
        eightShip: texts(m.candidates(acts, [eight, ship])),
        word: texts(m.candidates(acts, [{value: "archer", type: "unit"}])),
        tileAsArea: texts(m.candidates(acts, [{value: "ship", type: "area"}])),
        readyTile: m.ready(acts[0], [ship], clickable),
        readyArea: m.ready(acts[0], [eight], clickable),
        readyFrom: m.ready(acts[4], [eight], clickable),
        label: m.label(acts[0], (v, t) => (t === "area" ? `area ${v}` : v.toUpperCase())),
        noLabel: m.label(acts[3], (v) => v),
      };
    }""")
    assert result["ship"] == ["build ship 8", "build ship 0"]
    assert result["eight"] == ["build ship 8", "build castle 8", "undead 8 9"]
    assert result["shipEight"] == result["eightShip"] == ["build ship 8"]
    assert result["word"] == ["target archer"]
    assert result["tileAsArea"] == []
    assert result["readyTile"] is False  # a tile selects: its area is still to come
    assert result["readyArea"] is True  # an area completes: only the tile before it is open
    assert result["readyFrom"] is False  # `undead 8 9`: the destination comes after
    assert result["label"] == "Build SHIP in area 8"
    assert result["noLabel"] == "target archer"


def test_an_update_redraws_only_the_cells_whose_pieces_changed(page: Page, server: ServerThread, hexwalk: None) -> None:
    """A piece's node is kept while its cell's pieces, looks and highlights stay the same: the
    board used to redraw every token on every update, and the browser then laid out and
    repainted the whole map for each move (most of a move's rendering in software). A piece
    that moved, or whose highlight changed, is drawn afresh; the pieces drawn are always the
    observation's."""
    body = {"game": "toy_hexwalk", "name": "Hex walk", "params": {}, "seed": 1,
            "seats": [{"name": "Walker", "kind": "human"}, {"name": "Other", "kind": "human"}]}
    created = httpx.post(server.url + "/api/tables", json=body, timeout=10).json()
    table = created["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in created["links"]}
    page.goto(server.url + created["links"][0]["url"])
    page.wait_for_selector('g.piece[data-unit="w1"]')
    wait_my_turn(page)

    def act(seat: int, action: str) -> None:
        """Seat 0 plays in the page (its link is the page's now), seat 1 through the API."""
        before = version(page)
        if seat == 0:
            wait_my_turn(page)
            page.locator(f'#actions button[data-action="{action}"]').click()
        else:
            r = httpx.post(f"{server.url}/api/tables/{table}/actions",
                           json={"seat": 1, "action": action, "version": before},
                           headers={"Authorization": f"Bearer {tokens[1]}"}, timeout=10)
            assert r.status_code == 200, r.text
        page.wait_for_function("v => Number(document.body.dataset.version) > v", arg=before)

    def tag() -> None:
        page.evaluate("() => document.querySelectorAll('g.piece').forEach((g) => { g.__drawn = g.dataset.unit; })")

    def kept() -> dict[str, bool]:
        found: dict[str, bool] = page.evaluate(
            "() => Object.fromEntries([...document.querySelectorAll('g.piece')]"
            ".map((g) => [g.dataset.unit, g.__drawn === g.dataset.unit]))")
        return found

    tag()
    act(0, "step w0 1,1")  # the walker moves and is no longer to be clicked; the other is untouched
    assert kept() == {"w0": False, "w1": True}
    expect(page.locator('g.piece[data-unit="w0"]')).to_have_attribute("data-at", "1,1")
    tag()
    act(1, "pass")  # nothing moves; only seat 0's walker lights up again, as its turn comes back
    assert kept() == {"w0": False, "w1": True}
    expect(page.locator('g.piece[data-unit="w0"]')).to_have_class(re.compile(r"\blegal\b"))
    expect(page.locator('g.piece[data-unit="w1"]')).to_have_attribute("data-at", "0,-2")
    tag()
    act(0, "pass")  # an update that changes nothing drawn on the board replaces no node
    assert kept() == {"w0": False, "w1": True}  # w0's highlight went off
    tag()
    act(1, "pass")
    assert kept() == {"w0": False, "w1": True}
    tag()
    page.evaluate("() => document.querySelectorAll('#log li').forEach((li) => { li.__drawn = li.textContent; })")
    lines_before = page.locator("#log li").count()
    act(0, "step w0 0,1")
    assert kept()["w1"] is True
    expect(page.locator("g.piece")).to_have_count(2)
    # the log's earlier lines keep their nodes too; the new line is added after them
    expect(page.locator("#log li")).to_have_count(lines_before + 1)
    log = page.eval_on_selector_all("#log li",
                                    "els => els.map((li) => [li.__drawn === li.textContent, li.textContent])")
    assert [k for k, _ in log] == [True] * lines_before + [False], log
    assert "Walker steps to 0,1" in log[-1][1]
