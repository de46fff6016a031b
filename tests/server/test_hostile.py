"""Issue 19: the server holds against one hostile client. Each test names the item it checks:
bounded parsing (1), 4xx instead of 500 for deep input and binary frames (7), small error
replies (9), and the rest further down."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

from bloodforge.server.config import Settings

from .conftest import ClientFactory
from .support import ServerThread, auth, create_table

WITCH_SCENARIO = Path("src/bloodforge/games/witch/scenarios/last_stand.yaml")


def alias_bomb(levels: int = 8) -> str:
    """The probe's ~600-byte scenario: ten copies of the list before it, `levels` deep."""
    text = "game: witch\nparams: {players: 2}\nposition:\n  a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n"
    for i in range(1, levels):
        text += f"  a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 10) + "]\n"
    return text


# -- item 1: YAML alias bomb ------------------------------------------------------------------
def test_item1_alias_bomb_is_refused_and_health_answers_meanwhile(sqlite_url: str) -> None:
    with ServerThread(Settings(db_url=sqlite_url, ai_delay=0.0)) as server, httpx.Client(base_url=server.url) as http:
        assert http.get("/api/health").status_code == 200
        slowest = 0.0
        stop = threading.Event()

        def poll() -> None:
            nonlocal slowest
            with httpx.Client(base_url=server.url, timeout=10) as probe:
                while not stop.is_set():
                    t0 = time.monotonic()
                    assert probe.get("/api/health").status_code == 200
                    slowest = max(slowest, time.monotonic() - t0)
                    time.sleep(0.02)

        poller = threading.Thread(target=poll)
        poller.start()
        try:
            started = time.process_time()  # the server's work, in this process (see item 9)
            for levels in (7, 8, 9):
                bomb = alias_bomb(levels)
                assert len(bomb) < 1000
                r = http.post("/api/tables", json={"scenario": bomb}, timeout=30)
                assert r.status_code == 422, r.text
                assert r.json()["error"]["code"] == "scenario/invalid"
                assert "anchors and aliases" in r.json()["error"]["message"]
            took = time.process_time() - started
        finally:
            stop.set()
            poller.join()
        assert took < 2.0, f"refusing three alias bombs took {took:.2f} CPU-s"
        assert slowest < 1.0, f"health waited {slowest:.2f} s during a hostile request"
        assert http.get("/api/tables").json() == []


def test_item1_a_single_anchor_is_refused_before_anything_is_built(sqlite_client: TestClient) -> None:
    text = "game: witch\nparams: &p {players: 2}\nposition: {}\nagain: *p\n"
    r = sqlite_client.post("/api/tables", json={"scenario": text, "scenario_name": "mine.yaml"})
    assert r.status_code == 422
    assert r.json()["error"]["message"].startswith("scenario file 'mine.yaml'")


def test_item1_scenario_size_is_capped_in_nodes(sqlite_client: TestClient) -> None:
    text = "game: witch\nparams: {players: 2}\nposition:\n  pad: [" + ",".join(["1"] * 60_000) + "]\n"
    assert len(text) < 200_000
    r = sqlite_client.post("/api/tables", json={"scenario": text})
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "scenario/too_large"
    flat = {"game": "witch", "params": {"players": 2}, "position": {"pad": [1] * 60_000}}
    r = sqlite_client.post("/api/tables", json={"scenario": flat})
    assert r.status_code == 413
    assert r.json()["error"]["code"] == "scenario/too_large"


def test_item1_a_real_scenario_still_loads(sqlite_client: TestClient) -> None:
    data = create_table(sqlite_client, game=None, params=None, seed=None,
                        scenario=WITCH_SCENARIO.read_text(encoding="utf-8"),
                        seats=[{"name": "Ann"}, {"name": "Bob"}])
    assert data["table"]["from_scenario"]


# -- item 7: 4xx, never 500, for deep input; binary frames ------------------------------------
@pytest.mark.parametrize("deep", [
    "game: witch\nposition: " + "[" * 5000 + "]" * 5000,
    "game: witch\nposition: " + "{a: " * 3000 + "1" + "}" * 3000,
    "game: witch\nposition:\n" + "".join(" " * i + "- \n" for i in range(1, 200)),
])
def test_item7_deeply_nested_yaml_is_a_422_not_a_500(sqlite_client: TestClient, deep: str) -> None:
    r = sqlite_client.post("/api/tables", json={"scenario": deep})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "scenario/invalid"


def test_item7_deep_json_scenario_and_params_are_422(sqlite_client: TestClient) -> None:
    nested: object = 1
    for _ in range(200):
        nested = {"a": nested}
    r = sqlite_client.post("/api/tables", json={"scenario": {"game": "witch", "position": nested}})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "scenario/invalid"
    r = sqlite_client.post("/api/tables", json={"game": "witch", "params": {"players": 2, "x": nested}})
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] == "params/invalid"


def test_item7_deep_websocket_json_and_binary_frames_are_request_errors(sqlite_client: TestClient) -> None:
    client = sqlite_client
    data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    tid = data["table"]["id"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello"})
        assert ws.receive_json()["type"] == "state"
        ws.send_text("[" * 100_000 + "]" * 100_000)  # over the recursion limit of json
        reply = ws.receive_json()
        assert reply["type"] == "error"
        assert reply["error"]["code"] == "request/invalid"
        ws.send_bytes(b'{"type": "ping"}')
        reply = ws.receive_json()
        assert reply["error"]["code"] == "request/invalid"
        assert "binary" in reply["error"]["message"]
        ws.send_json({"type": "ping", "id": 7})
        assert ws.receive_json() == {"type": "pong", "id": 7}
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:  # a deep hello: closed, no traceback
        ws.send_text("[" * 100_000 + "]" * 100_000)
        with pytest.raises(Exception):  # noqa: B017 - the server closes the socket
            ws.receive_json()


# -- item 9: error replies stay small ----------------------------------------------------------
def test_item9_many_unknown_keys_get_a_small_quick_reply(sqlite_client: TestClient) -> None:
    """The server's work is measured in CPU time: the test client runs the app in this process,
    so `process_time` counts the request's parsing and validation and nothing of the other
    tests on the machine. On the wall clock, 0.25 s of work once took 1.53 s on CI's loaded
    two cores; an error list built for all 60,000 keys, or work quadratic in them, would take
    far more CPU than the bound."""
    keys = {f"k{i}": i for i in range(60_000)}
    for body in ({"game": "witch", "params": keys}, {"game": "witch", **keys}):
        raw = json.dumps(body)  # encoded beforehand: the server's time is measured
        t0 = time.process_time()
        r = sqlite_client.post("/api/tables", content=raw, headers={"content-type": "application/json"})
        took = time.process_time() - t0
        assert r.status_code == 422
        assert len(r.content) < 4000, len(r.content)
        assert took < 1.5, f"{took:.2f} CPU-s for one request"
    r = sqlite_client.post("/api/tables", json={"game": "witch", "params": {f"k{i}": i for i in range(60)}})
    assert r.status_code == 422
    assert len(r.content) < 4000


# -- item 2: take-overs count as AI tables; a sane minimum clock ------------------------------
def test_item2_tables_with_a_turn_clock_count_towards_the_ai_table_cap(make_client: ClientFactory,
                                                                       sqlite_url: str) -> None:
    humans = [{"name": "Ann"}, {"name": "Bob"}]
    with make_client(sqlite_url, max_ai_tables_per_client=2, min_turn_clock=5.0) as client:
        r = client.post("/api/tables", json={"game": "witch", "params": {"players": 2}, "seats": humans,
                                             "turn_clock": 0.05})
        assert r.status_code == 422
        assert r.json()["error"]["code"] == "request/invalid"
        assert "turn_clock" in r.json()["error"]["message"]
        for _ in range(2):
            create_table(client, game="witch", seats=humans, turn_clock=5.0)
        r = client.post("/api/tables", json={"game": "witch", "params": {"players": 2}, "seats": humans,
                                             "turn_clock": 5.0})
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "limit/ai_tables"
        create_table(client, game="witch", seats=humans)  # no clock, no AI: not capped


# -- item 3: forwarded headers only from configured proxies -----------------------------------
def test_item3_forged_forwarded_for_does_not_escape_the_limits(sqlite_url: str) -> None:
    humans = [{"name": "Ann"}, {"name": "Bob"}]
    body = {"game": "witch", "params": {"players": 2}, "seats": humans}
    settings = Settings(db_url=sqlite_url, tables_per_minute=1.0, table_burst=3)
    with ServerThread(settings) as server, httpx.Client(base_url=server.url) as http:
        codes = [http.post("/api/tables", json=body, headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code
                 for i in range(6)]
        assert codes == [201, 201, 201, 429, 429, 429]


def test_item3_a_configured_proxy_names_the_client(tmp_path: Path) -> None:
    humans = [{"name": "Ann"}, {"name": "Bob"}]
    body = {"game": "witch", "params": {"players": 2}, "seats": humans}
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'p.sqlite3'}", tables_per_minute=1.0, table_burst=1)
    with ServerThread(settings, forwarded_allow_ips="127.0.0.1") as server, \
            httpx.Client(base_url=server.url) as http:
        first = [http.post("/api/tables", json=body, headers={"X-Forwarded-For": f"10.0.0.{i}"}).status_code
                 for i in range(3)]
        assert first == [201, 201, 201]  # three people behind the proxy: three buckets
        again = http.post("/api/tables", json=body, headers={"X-Forwarded-For": "10.0.0.1"})
        assert again.status_code == 429


def test_item3_serve_trusts_no_proxy_by_default() -> None:
    from bloodforge.server.runner import uvicorn_config

    config = uvicorn_config(lambda *a: None, host="127.0.0.1", port=1)  # type: ignore[arg-type]
    assert config.proxy_headers is False
    config = uvicorn_config(lambda *a: None, host="127.0.0.1", port=1,  # type: ignore[arg-type]
                            forwarded_allow_ips="10.1.2.3")
    assert config.proxy_headers is True
    assert config.forwarded_allow_ips == "10.1.2.3"


# -- item 11: claim-once seat links ------------------------------------------------------------
def test_item11_the_first_opener_claims_a_seat_and_the_creators_copy_only_spectates(
        sqlite_client: TestClient) -> None:
    client = sqlite_client
    data = create_table(client, game="witch", params={"players": 2}, seats=[{"name": "Sol"}, {"name": "Wit"}])
    tid = data["table"]["id"]
    invite = data["links"][1]["token"]
    claim = f"/api/tables/{tid}/seats/1/claim"
    r = client.post(claim, headers=auth(invite))  # the friend opens the link
    assert r.status_code == 200, r.text
    mine = r.json()["token"]
    assert mine != invite
    assert client.post(claim, headers=auth(mine)).json()["token"] == mine  # a reload keeps it
    assert client.get(f"/api/tables/{tid}/state?seat=1", headers=auth(mine)).json()["seat"] == 1
    # the creator's copy of the link: no hand any more, only the spectator's view
    for path in (claim, f"/api/tables/{tid}/state?seat=1", f"/api/tables/{tid}/history?seat=1"):
        r = client.request("POST" if path == claim else "GET", path, headers=auth(invite))
        assert r.status_code in (403, 409), (path, r.text)
        assert r.json()["error"]["code"] == "seat/claimed"
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "seat": 1, "token": invite})
        first = ws.receive_json()
        assert first["type"] == "state"
        assert first["seat"] is None
        assert first["observation"] == client.get(f"/api/tables/{tid}/state").json()["observation"]


def test_item11_a_claim_drops_connections_made_with_the_link(sqlite_client: TestClient) -> None:
    client = sqlite_client
    data = create_table(client, game="witch", params={"players": 2}, seats=[{"name": "Sol"}, {"name": "Wit"}])
    tid = data["table"]["id"]
    invite = data["links"][1]["token"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:  # the creator peeks with the link
        ws.send_json({"type": "hello", "seat": 1, "token": invite})
        assert ws.receive_json()["seat"] == 1
        assert client.post(f"/api/tables/{tid}/seats/1/claim", headers=auth(invite)).status_code == 200
        kinds = []
        with pytest.raises(WebSocketDisconnect):  # noqa: PT012 - read until the server closes
            while True:
                kinds.append(ws.receive_json()["type"])
        assert "state" not in kinds, "no view of the seat after its link was claimed"


def test_item11_the_host_reinvites_a_seat(sqlite_client: TestClient) -> None:
    client = sqlite_client
    data = create_table(client, game="witch", params={"players": 2}, seats=[{"name": "Sol"}, {"name": "Wit"}])
    tid = data["table"]["id"]
    invite = data["links"][1]["token"]
    taken = client.post(f"/api/tables/{tid}/seats/1/claim", headers=auth(invite)).json()["token"]
    assert client.post(f"/api/tables/{tid}/seats/1/invite", headers=auth(invite)).status_code == 403
    r = client.post(f"/api/tables/{tid}/seats/1/invite", headers=auth(data["host_token"]))
    assert r.status_code == 200, r.text
    link = r.json()
    assert link["url"] == f"/table/{tid}#seat=1&token={link['token']}"
    assert client.get(f"/api/tables/{tid}/state?seat=1", headers=auth(taken)).status_code == 403
    fresh = client.post(f"/api/tables/{tid}/seats/1/claim", headers=auth(link["token"])).json()["token"]
    assert client.get(f"/api/tables/{tid}/state?seat=1", headers=auth(fresh)).json()["seat"] == 1


def test_item11_claims_survive_a_restart(make_client: ClientFactory, sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        data = create_table(client, game="witch", params={"players": 2}, seats=[{"name": "Sol"}, {"name": "Wit"}])
        tid = data["table"]["id"]
        invite = data["links"][0]["token"]
        mine = client.post(f"/api/tables/{tid}/seats/0/claim", headers=auth(invite)).json()["token"]
    with make_client(sqlite_url) as client:
        assert client.get(f"/api/tables/{tid}/state?seat=0", headers=auth(mine)).status_code == 200
        r = client.get(f"/api/tables/{tid}/state?seat=0", headers=auth(invite))
        assert r.json()["error"]["code"] == "seat/claimed"


# -- item 6: slow bodies, connections per address, lobby deltas, replays ---------------------
def test_item6_a_slow_body_gets_408_and_health_answers_meanwhile(sqlite_url: str) -> None:
    import socket

    with ServerThread(Settings(db_url=sqlite_url, body_seconds=1.0)) as server:
        with socket.create_connection(("127.0.0.1", server.port), timeout=10) as sock:
            sock.sendall(b"POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                         b"Content-Length: 1000\r\n\r\n{")
            t0 = time.monotonic()
            reply = b""
            for _ in range(20):  # one byte every 0.2 s, for ever: refused after 1 s
                try:
                    sock.sendall(b" ")
                except OSError:
                    break
                health = httpx.get(f"{server.url}/api/health", timeout=2)
                assert health.status_code == 200
                sock.settimeout(0.2)
                try:
                    reply += sock.recv(4096)
                except TimeoutError:
                    continue
                if reply:
                    break
            took = time.monotonic() - t0
            sock.settimeout(2.0)
            while b"}}" not in reply:  # the body may come in a later segment
                more = sock.recv(4096)
                if not more:
                    break
                reply += more
        assert reply.startswith(b"HTTP/1.1 408"), reply[:200]
        assert b"request/timeout" in reply
        # refused after about a second (body_seconds=1.0); the bound is loose because each
        # round also waits for a health answer, which took 4.7 s over 20 rounds in a loaded
        # CI run. A server that never refuses leaves `reply` empty and fails above.
        assert took < 6.0


def test_item6_connections_are_capped_per_address(sqlite_url: str) -> None:
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    settings = Settings(db_url=sqlite_url, max_connections_per_client=4)
    with ServerThread(settings) as server, httpx.Client(base_url=server.url) as http:
        tid = create_table(http, seats=[{"name": "Ann"}, {"name": "Bob"}])["table"]["id"]
        url = server.url.replace("http", "ws") + f"/ws/tables/{tid}"
        sockets = [connect(url, legacy=True) for _ in range(4)]
        try:
            for ws in sockets:
                ws.send('{"type": "hello"}')
                assert '"state"' in ws.recv(timeout=10)
            with pytest.raises(InvalidStatus):
                connect(url)
            with pytest.raises(InvalidStatus):
                connect(server.url.replace("http", "ws") + "/ws/lobby")
            r = http.get("/api/health")
            assert r.status_code == 429
            assert r.json()["error"]["code"] == "limit/connections"
        finally:
            for ws in sockets:
                ws.close()
        deadline = time.monotonic() + 5
        while http.get("/api/health").status_code != 200 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert http.get("/api/health").status_code == 200
        with connect(url) as ws:  # room again
            ws.send('{"type": "hello"}')
            assert '"state"' in ws.recv(timeout=10)


def test_item6_lobby_sockets_can_take_deltas(sqlite_client: TestClient) -> None:
    client = sqlite_client
    first = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])["table"]["id"]
    with client.websocket_connect("/ws/lobby?deltas=1") as deltas, client.websocket_connect("/ws/lobby") as full:
        assert [t["id"] for t in deltas.receive_json()["tables"]] == [first]
        full.receive_json()
        second = create_table(client, seats=[{"name": "Cid"}, {"name": "Dee"}])["table"]["id"]
        msg = deltas.receive_json()
        assert msg["type"] == "lobby_delta"
        assert [t["id"] for t in msg["tables"]] == [second], "only the table that changed"
        assert msg["removed"] == []
        snapshot = full.receive_json()
        assert snapshot["type"] == "lobby"
        assert {t["id"] for t in snapshot["tables"]} == {first, second}


def test_item6_replays_are_rate_limited_and_cached(make_client: ClientFactory, sqlite_url: str) -> None:
    with make_client(sqlite_url, replays_per_second=0.5, replay_burst=4) as client:
        data = create_table(client, seats=[{"kind": "agent", "agent": "random"}] * 2, seed=4)
        tid = data["table"]["id"]
        deadline = time.monotonic() + 30
        while client.get(f"/api/tables/{tid}").json()["ply"] < 6 and time.monotonic() < deadline:
            time.sleep(0.05)
        replays = client.app.state.replays  # type: ignore[attr-defined]
        built = []
        real = replays.state_at

        def counting(record: object, ply: int) -> object:
            built.append(ply)
            return real(record, ply)

        replays.state_at = counting
        plies = client.get(f"/api/tables/{tid}").json()["ply"]
        one = client.get(f"/api/tables/{tid}/replay/3")
        assert one.status_code == 200
        codes = [client.get(f"/api/tables/{tid}/replay/3").status_code for _ in range(4)]
        assert codes[:3] == [200, 200, 200]
        assert codes[3] == 429
        r = client.get(f"/api/tables/{tid}/replay/3")
        assert r.json()["error"]["code"] == "limit/requests"
        assert int(r.headers["retry-after"]) >= 1
        if client.get(f"/api/tables/{tid}").json()["ply"] == plies:
            assert built == [3], "the same view was built once"


# -- item 5: CPU fairness --------------------------------------------------------------------
def test_item5_the_fair_gate_serves_clients_in_turn() -> None:
    import asyncio

    from bloodforge.server.aiwork import FairGate

    async def scenario() -> list[str]:
        gate = FairGate(1)
        order: list[str] = []
        await gate.acquire("A")  # A's first search runs

        async def wait(name: str, client: str) -> None:
            await gate.acquire(client)
            order.append(name)

        tasks = [asyncio.create_task(wait(f"A{i}", "A")) for i in range(2, 6)]
        await asyncio.sleep(0)
        tasks.append(asyncio.create_task(wait("B1", "B")))
        await asyncio.sleep(0)
        for _ in range(5):
            gate.release()
            await asyncio.sleep(0)
        await asyncio.gather(*tasks)
        return order

    # A thread of its own: a pytest worker that ran a browser test holds Playwright's event loop,
    # and asyncio.run() refuses to start inside a running loop.
    with ThreadPoolExecutor(1) as pool:
        order = pool.submit(asyncio.run, scenario()).result()
    assert order == ["A2", "B1", "A3", "A4", "A5"], "B waits for one turn, not for all of A's"


def test_item5_ai_seats_think_in_worker_processes(sqlite_client: TestClient) -> None:
    from concurrent.futures import ProcessPoolExecutor

    ai = sqlite_client.app.state.ai  # type: ignore[attr-defined]
    assert isinstance(ai.pool, ProcessPoolExecutor)
    search = [{"kind": "agent", "agent": "mcts", "strength": 1}] * 2
    tid = create_table(sqlite_client, game="witch", seats=search, seed=8)["table"]["id"]
    deadline = time.monotonic() + 90
    while sqlite_client.get(f"/api/tables/{tid}").json()["ply"] < 6 and time.monotonic() < deadline:
        time.sleep(0.1)
    assert sqlite_client.get(f"/api/tables/{tid}").json()["ply"] >= 6


@pytest.mark.slow
def test_item5_ten_strong_tables_of_one_client_do_not_starve_another(tmp_path: Path) -> None:
    """The probe: ten max-strength search tables from one client slowed another client's AI
    table 12x. Client B's one table beside client A's ten (addresses told apart through a
    trusted proxy header): the two AI workers serve the two clients in turn, and B's one table,
    with one decision waiting at a time, made 6 moves against the 16 of A's ten together; first
    come, first served gave it a tenth (2 against 20, with the gate made a single queue). The bar,
    a fifth, sits between the two with a factor of two on each side. Both are
    counted in the same window on the same machine, so the test measures the sharing, not the
    machine's speed: B's pace alone against its pace beside A's, the first form of this test,
    failed on a slow machine with B at 1 move against 5 alone. And health stays quick.

    The searches take 0.3 s (strength 3), not the probe's full second: the gate hands out
    decisions whatever their length, and shorter ones give more moves to count in a shorter
    window (5 s and 20 moves instead of 12 s and 15). The window is what the test costs, both
    worker processes searching throughout (docs/testing.md)."""
    settings = Settings(db_url=f"sqlite:///{tmp_path / 'f.sqlite3'}", ai_delay=0.0, ai_time_budget=10.0,
                        max_ai_tables_per_client=100, tables_per_minute=1000, table_burst=100)
    strong = [{"kind": "agent", "agent": "mcts", "strength": 3}] * 2  # 0.3 s of search a move
    with ServerThread(settings, forwarded_allow_ips="127.0.0.1") as server, \
            httpx.Client(base_url=server.url, timeout=30) as http:
        def make(client: str, seed: int) -> str:
            r = http.post("/api/tables", headers={"X-Forwarded-For": client},
                          json={"game": "witch", "params": {"players": 2}, "seed": seed, "seats": strong})
            assert r.status_code == 201, r.text
            return str(r.json()["table"]["id"])

        def plies(tables: list[str]) -> int:
            return sum(int(http.get(f"/api/tables/{tid}").json()["ply"]) for tid in tables)

        time.sleep(3.0)  # the worker processes start in the background
        theirs = [make("10.0.0.1", 100 + i) for i in range(10)]
        mine = [make("10.0.0.2", 2)]
        time.sleep(1.0)
        worst = 0.0
        start_mine, start_theirs = plies(mine), plies(theirs)
        # at least 5 s and 20 moves in all (a slow machine counts longer), at most 60 s
        began = time.monotonic()
        b_moves = a_moves = 0
        while time.monotonic() - began < 60.0:
            for _ in range(5):
                t0 = time.monotonic()
                assert http.get("/api/health").status_code == 200
                worst = max(worst, time.monotonic() - t0)
                time.sleep(0.2)
            b_moves, a_moves = plies(mine) - start_mine, plies(theirs) - start_theirs
            if time.monotonic() - began >= 5.0 and a_moves + b_moves >= 20:
                break
        assert a_moves + b_moves >= 20, f"only {a_moves + b_moves} AI moves in 60 s"
        assert b_moves >= a_moves / 5, f"B's one table made {b_moves} moves, A's ten {a_moves}"
        assert worst < 1.0, f"health took {worst:.2f} s"


def test_item6_spectators_share_one_view_per_move(sqlite_client: TestClient) -> None:
    """1,500 spectators pushed health to 2.3 s: each got a view of its own, built and
    serialised per connection. Now connections that see the same share one."""
    from contextlib import ExitStack

    client = sqlite_client
    data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    live = client.app.state.manager.tables[tid]  # type: ignore[attr-defined]
    with ExitStack() as stack:
        watchers = [stack.enter_context(client.websocket_connect(f"/ws/tables/{tid}")) for _ in range(5)]
        for ws in watchers:
            ws.send_json({"type": "hello"})
            assert ws.receive_json()["version"] == 0
        built: list[int | None] = []
        real = live.view

        def counting(seat: int | None, *, log_from: int = 0) -> dict[str, object]:
            built.append(seat)
            return real(seat, log_from=log_from)

        live.view = counting
        seat = client.get(f"/api/tables/{tid}/state").json()["current_player"]
        legal = client.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()["legal"]
        built.clear()
        r = client.post(f"/api/tables/{tid}/actions", json={"seat": seat, "action": legal[0], "version": 0},
                        headers=auth(tokens[seat]))
        assert r.status_code == 200
        texts = [ws.receive_text() for ws in watchers]
        assert len(set(texts)) == 1, "every spectator got the same message"
        assert built == [None], "one view for five spectators"
