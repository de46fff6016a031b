"""UI audit of 2026-11-26 (docs/browser.md, "UI audit"): one test per defect found by playing
the five games as a newcomer at 1280x800 and 390x844. One server and one page for the module
(each test opens its own table), so the file stays cheap."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, Page

from bloodforge.server.config import Settings
from tests.e2e.browser import new_context
from tests.server.support import ServerThread

from .clicks import create

GAMES = Path(__file__).resolve().parents[2] / "src" / "bloodforge" / "games"


@pytest.fixture(scope="module")
def srv(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    db = tmp_path_factory.mktemp("audit") / "e2e.sqlite3"
    # every test makes its own table: more than the default limits allow one client a minute
    settings = Settings(db_url=f"sqlite:///{db}", ai_delay=0.0, ai_time_budget=5.0,
                        tables_per_minute=600.0, table_burst=100, max_ai_tables_per_client=100)
    with ServerThread(settings) as s:
        yield s


@pytest.fixture(scope="module")
def pg(browser: Browser) -> Iterator[Page]:
    context = new_context(browser, viewport={"width": 1280, "height": 800})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    yield page
    context.close()
    assert not errors, errors


def scenario_table(srv: ServerThread, path: Path, seats: int = 2) -> dict[str, Any]:
    people = [{"name": "Ann", "kind": "human"}] + [{"name": "Bot", "kind": "agent", "agent": "greedy"}] * (seats - 1)
    return create(srv, scenario=path.read_text(), seats=people)


def open_seat(page: Page, srv: ServerThread, made: dict[str, Any]) -> None:
    page.goto(srv.url + made["links"][0]["url"])
    page.wait_for_function("() => document.body.dataset.version !== undefined")


def act(srv: ServerThread, made: dict[str, Any], action: str) -> None:
    table, token = made["table"]["id"], made["links"][0]["token"]
    view = httpx.get(f"{srv.url}/api/tables/{table}/state?seat=0", headers={"Authorization": f"Bearer {token}"}).json()
    r = httpx.post(f"{srv.url}/api/tables/{table}/actions", headers={"Authorization": f"Bearer {token}"},
                   json={"seat": 0, "action": action, "version": view["version"]}, timeout=30)
    assert r.status_code < 300, r.text


def play_until(srv: ServerThread, made: dict[str, Any], ready: Callable[[dict[str, Any]], bool],
               pick: Callable[[list[str]], str] = lambda legal: legal[0], tries: int = 60) -> dict[str, Any]:
    """Seat 0 plays `pick` of its legal actions (the first by default) until `ready(view)` holds
    for its view with an action to play, the AI answering on the server in between; returns
    that view (the last one read if `tries` ran out: the caller asserts what it needs)."""
    table, token = made["table"]["id"], made["links"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    view: dict[str, Any] = {}
    for _ in range(tries):
        view = httpx.get(f"{srv.url}/api/tables/{table}/state?seat=0", headers=auth).json()
        if view["legal"] and ready(view):
            break
        if view["legal"]:
            httpx.post(f"{srv.url}/api/tables/{table}/actions", headers=auth, timeout=30,
                       json={"seat": 0, "action": pick(view["legal"]), "version": view["version"]})
        else:
            time.sleep(0.1)
    return view


def test_five_forts_marks_lie_inside_their_own_territory(pg: Page, srv: ServerThread) -> None:
    """Forts and resource tokens sat on the line between two territories (half in the next
    one), so a newcomer could not tell which territory had the fort."""
    made = create(srv, game="forts", params={"players": 2}, seed=3,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    open_seat(pg, srv, made)
    pg.wait_for_selector("g.mark[data-at]")
    outside = pg.evaluate("""() => [...document.querySelectorAll('g.mark[data-at]')].flatMap((g) => {
      const cell = document.querySelector(`[data-cell="${g.dataset.at}"]`).getBoundingClientRect();
      const m = g.querySelector('.token').getBoundingClientRect();
      const ok = m.top >= cell.top - 0.5 && m.bottom <= cell.bottom + 0.5
        && m.left >= cell.left - 0.5 && m.right <= cell.right + 0.5;
      const at = (a, b) => `${a.toFixed(1)}-${b.toFixed(1)}`;
      return ok ? [] : [`${g.dataset.at}: ${at(m.top, m.bottom)} in ${at(cell.top, cell.bottom)}`];
    })""")
    assert not outside, outside


def test_text_on_a_light_token_is_dark(pg: Page, srv: ServerThread) -> None:
    """The resource tokens ("$", "f", "$f") were white letters on pale yellow."""
    made = create(srv, game="forts", params={"players": 2}, seed=3,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    open_seat(pg, srv, made)
    pg.wait_for_selector("g.mark.kind-resources .mark-text")
    fills = pg.eval_on_selector_all("g.mark.kind-resources .mark-text", "els => els.map(e => getComputedStyle(e).fill)")
    assert fills
    assert all(f != "rgb(255, 255, 255)" for f in fills), fills


def test_bloodstones_players_panel_colours_match_the_pieces_at_first_sight(pg: Page, srv: ServerThread) -> None:
    """The panel's swatches were drawn before the look knew the factions: the Horse Lords' AI
    showed blue beside gold stacks on the map."""
    made = scenario_table(srv, GAMES / "bloodstones" / "scenarios" / "worked_example_battle.yaml")
    open_seat(pg, srv, made)
    pg.wait_for_selector(".piece[data-owner='1'] .token")
    swatch = pg.eval_on_selector("#players .player[data-seat='1'] .swatch", "e => getComputedStyle(e).backgroundColor")
    piece = pg.eval_on_selector(".piece[data-owner='1'] .token", "e => getComputedStyle(e).fill")
    assert swatch == piece == "rgb(212, 154, 0)", (swatch, piece)
    # the hand size is what a player refills to, not a cap ("9 of 6 tiles" read as an error)
    assert "refills to 6" in pg.inner_text("#hand .hand-title")


def test_bloodstones_battle_dialog_strikes_the_tiles_that_do_not_count(pg: Page, srv: ServerThread) -> None:
    """The dialog listed four drawn tiles 4 4 3 3 beside "Total 15": only the best three count,
    and nothing said which."""
    made = scenario_table(srv, GAMES / "bloodstones" / "scenarios" / "worked_example_battle.yaml")
    act(srv, made, "battle 27 1")
    act(srv, made, "keep")
    table = made["table"]["id"]
    for _ in range(100):
        if httpx.get(f"{srv.url}/api/tables/{table}/state").json()["observation"].get("battles"):
            break
        pg.wait_for_timeout(100)
    open_seat(pg, srv, made)
    pg.wait_for_selector("#battle-dialog[open] .btile-chip")
    attacker = pg.locator("#battle-dialog .battle-col").first
    assert attacker.locator(".btile-chip").count() == 4
    struck = attacker.locator(".btile-chip.not-counted")
    assert struck.count() == 1
    assert struck.get_attribute("title") == "does not count: only the best tiles count"
    # the dialog lies over the board, not over the prompt's buttons (it covered "End turn")
    dialog, side = pg.locator("#battle-dialog").bounding_box(), pg.locator(".side-column").bounding_box()
    assert dialog is not None
    assert side is not None
    assert dialog["x"] + dialog["width"] <= side["x"], (dialog, side)


def test_five_forts_battle_panel_names_territories_and_the_stage_in_words(pg: Page, srv: ServerThread) -> None:
    """The panel read "Battle for frostwall (heroes)" and "attacks from ashgate": ids."""
    made = scenario_table(srv, GAMES / "forts" / "scenarios" / "last_fort.yaml")
    state = httpx.get(f"{srv.url}/api/tables/{made['table']['id']}/state?seat=0",
                      headers={"Authorization": f"Bearer {made['links'][0]['token']}"}).json()
    attack = next(a for a in state["legal"] if a.startswith("attack ashgate frostwall"))
    act(srv, made, attack)
    open_seat(pg, srv, made)
    pg.wait_for_selector("#extra .battle")
    text = pg.inner_text("#extra .battle")
    assert "Battle for Frostwall · hero cards" in text
    assert "from Ashgate" in text
    assert "the independent army defends" in text
    for raw in ("frostwall", "ashgate", "(heroes)"):
        assert raw not in text


@pytest.mark.parametrize(("game", "words"), [
    ("forts", ["2 infantry, 1 cavalry", "independent army", "great fort", "+1 currency a turn"]),
    ("kingdoms", ["territory value: crowns a turn", "victory gem", "castle", "unseen pieces"]),
])
def test_the_legend_explains_the_maps_symbols(pg: Page, srv: ServerThread, game: str, words: list[str]) -> None:
    """Five Forts' "2i 1c", towers and "$f", Kingdoms' "Sylvanhold 8◆": nowhere explained."""
    made = create(srv, game=game, params={"players": 2}, seed=3,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    open_seat(pg, srv, made)
    legend = pg.inner_text(".legend")
    for w in words:
        assert w in legend


def test_arena_texts_name_hexes_by_where_they_lie_not_by_axial_coordinates(pg: Page, srv: ServerThread) -> None:
    """The arena's log read "Hellfire Spray is laid at 0,0" and "Vhrak moves 3,0 -> 1,-1": the
    board shows no coordinates, so those numbers meant nothing to a player."""
    made = create(srv, game="arena", params={"players": 1}, seed=3, seats=[{"name": "Ann", "kind": "human"}])
    open_seat(pg, srv, made)
    pg.wait_for_selector("#log li")
    log = pg.inner_text("#log")
    assert "Hellfire Spray is laid at the centre" in log
    assert "0,0" not in log


def test_a_long_text_stays_inside_its_round_token(pg: Page, srv: ServerThread) -> None:
    """The arena's figures show their HP ("230") in a round token, and the digits ran over its
    edge."""
    made = create(srv, game="arena", params={"players": 1}, seed=3, seats=[{"name": "Ann", "kind": "human"}])
    # the first legal action until the figures stand in the arena
    play_until(srv, made, lambda view: any(p.get("id") for p in view["observation"]["board"]["pieces"]), tries=40)
    open_seat(pg, srv, made)
    pg.wait_for_selector("g.piece .piece-text")
    over = pg.evaluate("""() => [...document.querySelectorAll('g.piece')].flatMap((g) => {
      const t = g.querySelector('.piece-text'), c = g.querySelector('.token');
      if (!t || !c) return [];
      const a = t.getBBox(), b = c.getBBox();
      return a.width <= b.width * 0.95 ? [] : [`${t.textContent}: ${a.width.toFixed(3)} > ${b.width.toFixed(3)}`];
    })""")
    assert pg.locator("g.piece .piece-text").count() >= 1
    assert not over, over


def test_the_log_keeps_several_lines_in_view_at_1280x800(pg: Page, srv: ServerThread) -> None:
    """At 1280x800 the arena's status boards, prompt and initiative panel left the log two
    lines: the AI's moves went by unseen."""
    made = create(srv, game="arena", params={"players": 1}, seed=3, seats=[{"name": "Ann", "kind": "human"}])
    open_seat(pg, srv, made)
    pg.wait_for_selector("#log li")
    box = pg.locator(".log-panel").bounding_box()
    assert box is not None
    assert box["height"] >= 170, box  # 11em: the heading and about six lines
    assert box["y"] + box["height"] <= 800, box


def test_kingdoms_prompt_says_what_to_do_not_the_phase_again(pg: Page, srv: ServerThread) -> None:
    """The prompt repeated its heading ("Round 1 · Dwarves: buy units" twice) and said nothing
    of how to play the phase."""
    made = create(srv, game="kingdoms", params={"players": 2}, seed=3,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    open_seat(pg, srv, made)
    pg.wait_for_selector(".prompt.your-turn")
    text = pg.inner_text("#prompt")
    assert "Buy units with your crowns" in text
    assert text.count("buy units") <= 1, text


def test_log_lines_start_with_a_capital(pg: Page, srv: ServerThread) -> None:
    """Five Forts' and Kingdoms' own log lines began in lower case ("round 1, turn 1: ...",
    "game over: ...")."""
    made = create(srv, game="forts", params={"players": 2}, seed=3,
                  seats=[{"name": "ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    open_seat(pg, srv, made)
    pg.wait_for_selector("#log li")
    first = pg.locator("#log li").first.inner_text()
    assert first.startswith("Round 1, turn 1: ann (Red)"), first  # a player's name stays as written


def test_bloodstones_payment_says_how_many_pips_are_still_to_pay(pg: Page, srv: ServerThread) -> None:
    """"Choosing a move — cost 7 · paid ship" left the player to add up the tiles' pips."""
    made = create(srv, game="bloodstones", params={"players": 2}, seed=3,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bea", "kind": "human"}])
    tokens = {link["seat"]: link["token"] for link in made["links"]}
    table = made["table"]["id"]
    moves = [(1, "citadel 17"), (1, "build skirmishers 17"), (1, "build cavalry 17"), (1, "build shields 17"),
             (1, "build leader 17"), (1, "done"), (0, "citadel 68"), (0, "done"), (0, "done"),
             (0, "village 70"), (0, "pay ship"), (1, "move 17 leader"), (1, "to 12"), (1, "pay ship")]
    for seat, action in moves:
        auth = {"Authorization": f"Bearer {tokens[seat]}"}
        view = httpx.get(f"{srv.url}/api/tables/{table}/state?seat={seat}", headers=auth).json()
        r = httpx.post(f"{srv.url}/api/tables/{table}/actions", headers=auth, timeout=30,
                       json={"seat": seat, "action": action, "version": view["version"]})
        assert r.status_code < 300, (action, r.text)
    link = next(x for x in made["links"] if x["seat"] == 1)
    pg.goto(srv.url + link["url"])
    pg.wait_for_selector("#pending .pending-box")
    text = pg.inner_text("#pending")
    assert "cost 7 pips" in text
    assert "paid ship (4)" in text
    assert "3 to go" in text


def test_arena_view_words_texts_for_people(pg: Page, srv: ServerThread) -> None:
    """The arena view's text function itself: hexes from the centre, moves by their length, and
    "an Ignite die" (the log read "gains a Ignite die")."""
    pg.goto(srv.url + "/")
    words = pg.evaluate("""async () => {
      const m = await import('/games/arena/view.js');
      const v = m.createView({ staticInfo: {}, table: { seats: [] }, seat: null });
      return ["Mal'varra moves 0,-3 -> 1,-1", "Vhrak is pulled to -1,2", "Ulwazi gains a Ignite die",
              "Ulwazi gains a Temporary Attack die", "Vhrak rolls Attack 6, Attack 5"].map(v.logText);
    }""")
    assert words == ["Mal'varra moves 3 spaces to 1 space north-east of the centre",
                     "Vhrak is pulled to 2 spaces south of the centre", "Ulwazi gains an Ignite die",
                     "Ulwazi gains a Temporary Attack die", "Vhrak rolls Attack 6, Attack 5"]


# Hands the page a state message of our own: the last one the server sent, changed by `change`
# (a JS function of the message), as if the server had sent it next.
CATCH_SOCKET = """(() => {
  const Base = window.WebSocket;
  window.WebSocket = class extends Base {
    constructor(...args) {
      super(...args);
      window.__socket = this;
      this.addEventListener("message", (ev) => {
        const m = JSON.parse(ev.data);
        if (m.type === "state") window.__last = m;
      });
    }
  };
})()"""


def test_the_end_of_the_game_wins_over_the_battle_that_ended_it(pg: Page, srv: ServerThread) -> None:
    """A battle that ended the game opened its dialog over the end summary: the end comes
    first, and the summary names the battle's result with a button to see it."""
    made = scenario_table(srv, GAMES / "bloodstones" / "scenarios" / "worked_example_battle.yaml")
    page = pg.context.new_page()
    try:
        page.add_init_script(CATCH_SOCKET)
        open_seat(page, srv, made)
        page.wait_for_function("() => window.__last !== undefined")
        battle = {"id": 99, "title": "Battle at the Citadel", "result": "The attacker wins by 4",
                  "sides": [{"seat": 0, "tiles": [5, 4], "total": 9}, {"seat": 1, "tiles": [3, 2], "total": 5}]}
        page.evaluate("""(battle) => {
          const m = structuredClone(window.__last);
          m.version += 1; m.terminal = true; m.log_start = m.log.length + (m.log_start || 0); m.log = [];
          m.summary = { winners: [0], reason: "Ann holds every citadel",
                        scores: [{ seat: 0, value: 3 }, { seat: 1, value: 1 }] };
          m.observation = { ...m.observation, battles: [...(m.observation.battles || []), battle] };
          window.__socket.onmessage({ data: JSON.stringify(m) });
        }""", battle)
        page.wait_for_selector("#summary-dialog[open]")
        assert not page.locator("#battle-dialog").evaluate("d => d.open")
        summary = page.inner_text("#summary-dialog")
        assert "Battle at the Citadel: The attacker wins by 4" in summary
        page.click("#summary-dialog [data-end-battle]")
        page.wait_for_selector("#battle-dialog[open]")
        assert "The attacker wins by 4" in page.inner_text("#battle-dialog")
    finally:
        page.close()


def test_the_legend_opens_on_a_phone_and_closes_again(browser: Browser, srv: ServerThread) -> None:
    """At 390x844 the legend was hidden for good (it would take a third of a small board): a
    "Legend" button opens it over the board's foot, and closes it."""
    made = create(srv, game="kingdoms", params={"players": 2}, seed=3,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    context = new_context(browser, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        open_seat(page, srv, made)
        toggle = page.locator(".legend-toggle")
        toggle.wait_for(state="visible")
        assert not page.locator(".legend").is_visible()
        toggle.click()
        assert page.locator(".legend").is_visible()
        assert "victory gem" in page.inner_text(".legend")
        legend, board = page.locator(".legend").bounding_box(), page.locator("#board").bounding_box()
        assert legend is not None
        assert board is not None
        assert board["y"] <= legend["y"], (legend, board)
        assert legend["y"] + legend["height"] <= board["y"] + board["height"] + 0.5, (legend, board)
        assert toggle.inner_text() == "Hide legend"
        toggle.click()
        assert not page.locator(".legend").is_visible()
    finally:
        context.close()


def test_blood_stone_friendly_fire_says_the_target_is_your_own_and_asks_first(pg: Page, srv: ServerThread) -> None:
    """Attacking a unit of your own side is legal ("including friendly units"), but the button
    read like any attack, and a click on the board played it at once."""
    text = (GAMES / "witch" / "scenarios" / "last_stand.yaml").read_text()
    moved = text.replace("archer: {square: a6, blood: 1}", "archer: {square: g6, blood: 1}")
    assert moved != text
    made = create(srv, scenario=moved,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    open_seat(pg, srv, made)
    own = pg.locator('#actions button[data-action="attack swordsman archer"]')
    other = pg.locator('#actions button[data-action="attack spearman minion2"]')
    own.wait_for(state="attached")
    assert own.text_content() == "Swordsman attacks your own Archer (Bowman)"
    assert other.text_content() == "Spearman attacks Green Boar"
    pg.evaluate("() => document.querySelectorAll('#actions details').forEach((d) => { d.open = true; })")
    version = pg.evaluate("() => document.body.dataset.version")
    own.click()
    assert pg.inner_text("#confirm").startswith("Archer (Bowman) is on your own side: attack it anyway?")
    pg.click("#confirm .confirm-no")
    assert pg.evaluate("() => document.body.dataset.version") == version


def test_battle_dice_say_what_they_needed_and_mark_a_hit_not_by_colour_alone(pg: Page, srv: ServerThread) -> None:
    """Kingdoms' dice showed which die hit only by its colour and a tooltip: the dice stand
    under what they needed ("Round 1: hits on 1 or less") and a hit carries a ✓."""
    made = create(srv, game="kingdoms", params={"players": 2}, seed=3,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])
    page = pg.context.new_page()
    try:
        page.add_init_script(CATCH_SOCKET)
        open_seat(page, srv, made)
        page.wait_for_function("() => window.__last !== undefined")
        low, high = "Round 1: hits on 1 or less", "Round 1: hits on 3 or less"
        rolls = [{"face": 1, "hit": True, "need": low}, {"face": 2, "hit": False, "need": low},
                 {"face": 3, "hit": True, "need": high}]
        battle = {"id": "battle-x", "title": "Elves attack Amberford held by Humans", "result": "The battle goes on.",
                  "sides": [{"seat": 0, "rolls": rolls, "hits": "2"}, {"seat": 1, "rolls": [], "hits": "0"}]}
        page.evaluate("""(battle) => {
          const m = structuredClone(window.__last);
          m.version += 1; m.log_start = m.log.length + (m.log_start || 0); m.log = [];
          m.observation = { ...m.observation, battles: [battle] };
          window.__socket.onmessage({ data: JSON.stringify(m) });
        }""", battle)
        page.wait_for_selector("#battle-dialog[open] .die")
        side = page.locator("#battle-dialog .battle-col").first
        assert side.locator(".dice-need").all_inner_texts() == [low, high]
        groups = side.locator(".dice-group")
        assert groups.nth(0).locator(".die").count() == 2
        page.wait_for_function("() => !document.querySelector('#battle-dialog.rolling')")
        marks = side.locator(".die").evaluate_all("ds => ds.map((d) => [d.querySelector('.die-face').textContent, "
                                                  "d.querySelector('.die-mark')?.textContent ?? ''])")
        assert marks == [["1", "✓"], ["2", ""], ["3", "✓"]]
    finally:
        page.close()


@pytest.fixture(scope="module")
def arena_figures(srv: ServerThread) -> dict[str, Any]:
    """A solo arena table played (first legal action) until the figures stand on the board."""
    made = create(srv, game="arena", params={"players": 1}, seed=3, seats=[{"name": "Ann", "kind": "human"}])
    play_until(srv, made, lambda view: len([p for p in view["observation"]["board"]["pieces"] if p.get("id")]) >= 3,
               tries=40)
    return made


def test_arena_tokens_fill_their_hex_and_name_their_figure(pg: Page, srv: ServerThread,
                                                          arena_figures: dict[str, Any]) -> None:
    """The arena's figures were 24 px discs in 52 px hexes showing only their HP, so a newcomer
    told the Champion, the Rival and the Boss apart by colour alone: a token fills most of its
    hex and carries the figure's short name (its first letters) over its HP."""
    open_seat(pg, srv, arena_figures)
    pg.wait_for_selector("g.piece .piece-text")
    tokens = pg.evaluate("""() => [...document.querySelectorAll('g.piece[data-at]')].map((g) => {
      const cell = document.querySelector(`[data-cell="${g.dataset.at}"]`).getBoundingClientRect();
      const t = g.querySelector('.token').getBoundingClientRect();
      return { share: t.width / cell.width, text: g.querySelector('.piece-text').textContent,
               sub: g.querySelector('.piece-sub')?.textContent ?? '', title: g.querySelector('title').textContent };
    })""")
    assert len(tokens) >= 3, tokens
    for t in tokens:
        assert t["share"] >= 0.7, t  # most of the hex (was under half)
        name = t["title"].split(":")[0]
        assert t["text"][:1] == name[0], t  # its name's first letters
        assert not t["text"].isdigit(), t
        assert t["sub"].isdigit(), t  # and its HP
        assert f"{t['sub']} of" in t["title"], t
    assert len({t["text"] for t in tokens}) == len(tokens), tokens  # no two figures look alike


def test_arena_legend_lists_each_figure_with_its_token_and_full_name(pg: Page, srv: ServerThread,
                                                                    arena_figures: dict[str, Any]) -> None:
    """The map legend listed only the arena floor and the central zone: it names each figure on
    the board in full, its kind beside it, by a swatch of its token (colour and short name)."""
    open_seat(pg, srv, arena_figures)
    pg.wait_for_selector("g.piece .piece-text")
    tokens = pg.evaluate("""() => Object.fromEntries([...document.querySelectorAll('g.piece')].map((g) =>
      [g.querySelector('.piece-text').textContent,
       [g.querySelector('title').textContent.split(':')[0], getComputedStyle(g.querySelector('.token')).fill]]))""")
    items = pg.evaluate("""() => [...document.querySelectorAll('.legend .legend-item')].map((i) => {
      const sym = i.querySelector('.legend-symbol');
      const fill = sym ? getComputedStyle(sym).backgroundColor : '';
      return { symbol: sym?.textContent ?? null, text: i.textContent, fill };
    })""")
    for short, (name, fill) in tokens.items():
        found = [i for i in items if i["symbol"] == short]
        assert len(found) == 1, (short, items)
        assert f"{name} (" in found[0]["text"], found  # "Vhrak (Champion)"
        assert found[0]["fill"] == fill, found  # the token's own colour
    words = " ".join(i["text"] for i in items)
    assert "Champion" in words, words
    assert "Boss" in words, words
    assert "_" not in words, words
    assert "undefined" not in words, words


def test_arena_legend_names_each_environmental_tile_by_its_tint(pg: Page, srv: ServerThread,
                                                                 arena_figures: dict[str, Any]) -> None:
    """The map legend explained the floor, the central zone and the figures, but not the tinted
    hexes of an Environmental's tiles (Hellfire Spray's orange from the first round): only the
    side panel named them, below the initiative order's fold. The legend lists each
    Environmental on the board by a swatch of its hexes' own tint and its name."""
    open_seat(pg, srv, arena_figures)
    pg.wait_for_selector("g.piece .piece-text")
    table = arena_figures["table"]["id"]
    view = httpx.get(f"{srv.url}/api/tables/{table}/state").json()  # tiles are public: a spectator's view
    assert "observation" in view, view
    envs = sorted({t["env"] for t in view["observation"]["tiles"]})
    assert envs, "the table should show an Environmental's tiles"  # or this test checks nothing
    static = httpx.get(f"{srv.url}/api/tables/{table}/static").json()
    names = {e["id"]: e["name"] for e in static["static"]["environmentals"]}
    got = pg.evaluate("""(envs) => {
      const items = [...document.querySelectorAll('.legend .legend-item')].map((i) => {
        const sw = i.querySelector('.swatch');
        return { text: i.textContent, swatch: sw ? getComputedStyle(sw).backgroundColor : null };
      });
      const tints = Object.fromEntries(envs.map((e) => {
        const cell = document.querySelector(`.cell.mark-${e}`);
        return [e, cell ? getComputedStyle(cell).fill : null];
      }));
      return { items, tints };
    }""", envs)
    for env in envs:
        tint = got["tints"][env]
        assert tint, (env, got)  # its hexes are tinted on the map
        found = [i for i in got["items"] if i["swatch"] == tint and "Environmental" in i["text"]]
        assert len(found) == 1, (env, got)
        assert names[env] in found[0]["text"], found  # "Hellfire Spray (Environmental tiles)"
        assert "_" not in found[0]["text"], found
        assert "undefined" not in found[0]["text"], found


def test_witch_legend_names_each_unit_token_and_the_blood_badge(pg: Page, srv: ServerThread) -> None:
    """Blood Stone's map legend explained the squares only: a newcomer met tokens lettered "B",
    "R", "G", "Y" and "W" and red numbers on them with nothing beside the map to say what they
    were. The legend names each kind of unit on the board by a swatch of its token (glyph and
    side colour) and says the red number is the unit's blood."""
    made = create(srv, game="witch", seed=3,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])

    def sides(view: dict[str, Any]) -> set[str]:
        units = view["observation"]["units"]
        return {units[p["id"]]["side"] for p in view["observation"]["board"]["pieces"] if p.get("id") in units}

    # the Witch's AI places, then Ann places her Soldiers (first legal action)
    view = play_until(srv, made, lambda view: sides(view) == {"soldiers", "witch"})
    assert sides(view) == {"soldiers", "witch"}, view["observation"]["board"]
    open_seat(pg, srv, made)
    pg.wait_for_selector("g.piece .piece-text")
    tokens = pg.evaluate("""() => [...document.querySelectorAll('g.piece')].map((g) =>
      [g.querySelector('.piece-text').textContent, g.querySelector('title').textContent.split(':')[0],
       getComputedStyle(g.querySelector('.token')).fill])""")
    items = pg.evaluate("""() => [...document.querySelectorAll('.legend .legend-item')].map((i) => {
      const sym = i.querySelector('.legend-symbol');
      return { symbol: sym?.textContent ?? null, text: i.textContent,
               fill: sym ? getComputedStyle(sym).backgroundColor : '' };
    })""")
    assert len(tokens) >= 4, tokens
    for glyph, name, fill in tokens:
        found = [i for i in items if i["symbol"] == glyph and name in i["text"]]
        assert len(found) == 1, (glyph, name, items)
        assert found[0]["fill"] == fill, (found, fill)  # the token's own colour
    assert any("blood" in i["text"] for i in items), items
    words = " ".join(i["text"] for i in items)
    assert "undefined" not in words, words
    assert "_" not in words, words


def test_bloodstones_legend_explains_the_armies_their_glyphs_villages_and_citadels(pg: Page,
                                                                                   srv: ServerThread) -> None:
    """Bloodstones' map legend explained the terrain only: a newcomer met number chips with
    glyphs under them, houses and towers with nothing beside the map to say what they were. The
    legend says what an army's number is, names every glyph the armies on the board show, and
    names villages and citadels when the board has them."""
    made = create(srv, game="bloodstones", params={"players": 2}, seed=3,
                  seats=[{"name": "Ann", "kind": "human"}, {"name": "Bot", "kind": "agent", "agent": "greedy"}])

    def pick(legal: list[str]) -> str:
        """A village, a payment or a unit built when Ann may, else `done` (the first legal
        action alone builds and cancels the same unit for ever)."""
        for verb in ("village ", "pay ", "build "):
            found = next((a for a in legal if a.startswith(verb)), None)
            if found is not None:
                return found
        return "done" if "done" in legal else next((a for a in legal if a != "cancel"), legal[0])

    def ready(view: dict[str, Any]) -> bool:  # both sides have armies, and villages stand
        board = view["observation"]["board"]
        return ({p["owner"] for p in board["pieces"]} == {0, 1}
                and {m["kind"] for m in board["marks"]} == {"village", "citadel"})

    view = play_until(srv, made, ready, pick, tries=150)
    assert ready(view), view["observation"]["board"]
    open_seat(pg, srv, made)
    pg.wait_for_selector("g.piece")
    subs = pg.evaluate("""() => [...document.querySelectorAll('g.piece .piece-sub')].map((t) => t.textContent)""")
    items = pg.evaluate("""() => [...document.querySelectorAll('.legend .legend-item')].map((i) =>
      ({ symbol: i.querySelector('.legend-symbol')?.textContent ?? null, text: i.textContent }))""")
    assert any(i["symbol"] and i["symbol"].isdigit() and "army" in i["text"] for i in items), items
    glyphs = {g for sub in subs for g in sub}
    assert glyphs, subs  # the armies show some special unit (or this test checks less than it says)
    for g in glyphs:
        found = [i for i in items if i["symbol"] == g]
        assert len(found) == 1, (g, items)
        assert "in an army:" in found[0]["text"], found
    words = " ".join(i["text"] for i in items)
    assert "village" in words, words
    assert "citadel" in words, words
    assert "_" not in words, words
    assert "undefined" not in words, words


def test_arena_status_boards_on_a_phone_cut_no_line(browser: Browser, srv: ServerThread,
                                                    arena_figures: dict[str, Any]) -> None:
    """At 390x844 the arena's status boards stood side by side in a panel of 17% of the height
    and cut their lines ("Initiative 3rd of 4,"): each board is a card about the screen's width,
    the cards scroll sideways, and the panel is as tall as its tallest card."""
    context = new_context(browser, viewport={"width": 390, "height": 844})
    try:
        page = context.new_page()
        open_seat(page, srv, arena_figures)
        page.wait_for_selector(".side-column > .players .status-item")
        got = page.evaluate("""() => {
          const P = document.querySelector('.side-column > .players');
          const cards = [...P.querySelectorAll(':scope > .player')];
          const cut = cards.flatMap((c) => { const cr = c.getBoundingClientRect();
            return [...c.querySelectorAll('.status-item')].filter((i) => { const r = i.getBoundingClientRect();
              return r.bottom > cr.bottom + 0.5 || r.right > cr.right + 0.5 || r.left < cr.left - 0.5; })
              .map((i) => i.innerText); });
          return { hidden: P.scrollHeight - P.clientHeight, width: P.clientWidth,
                   cards: cards.map((c) => c.getBoundingClientRect().width), cut };
        }""")
        assert got["hidden"] <= 1, got  # nothing cut at the panel's foot
        assert not got["cut"], got  # every line inside its own card
        assert len(got["cards"]) >= 2, got
        assert all(0.7 * got["width"] <= w <= got["width"] for w in got["cards"]), got  # a card shows whole
    finally:
        context.close()
