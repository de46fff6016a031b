"""Hardening: what one client can make the server do is bounded, and odd input is refused
clearly without breaking anything (issue 11)."""

from __future__ import annotations

import dataclasses
import json
import threading
import time
from collections.abc import Iterator, Mapping
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient

from bloodforge.core import Rng, register_game, unregister_game
from bloodforge.server.config import Settings
from tests.toy_bids import BidsGame, BidsState

from .conftest import ClientFactory
from .support import ServerThread, auth, create_table


def test_405_names_the_allowed_methods(sqlite_client: TestClient) -> None:
    r = sqlite_client.delete("/api/tables")
    assert r.status_code == 405
    assert r.json()["error"]["code"] == "http/method_not_allowed"
    assert set(r.headers["allow"].replace(" ", "").split(",")) == {"GET", "POST"}


def test_request_bodies_are_capped(make_client: ClientFactory, sqlite_url: str) -> None:
    with make_client(sqlite_url, max_body_bytes=4096) as client:
        big = {"game": "bloodstones", "name": "x", "params": {"players": 2, "pad": "y" * 10_000}}
        r = client.post("/api/tables", json=big)
        assert r.status_code == 413
        assert r.json()["error"]["code"] == "request/too_large"

        def chunks() -> Iterator[bytes]:  # no Content-Length: counted while it streams in
            yield b'{"game": "bloodstones", "name": "'
            for _ in range(10):
                yield b"z" * 1000
            yield b'"}'

        r = client.post("/api/tables", content=chunks(), headers={"content-type": "application/json"})
        assert r.status_code == 413
        assert r.json()["error"]["code"] == "request/too_large"
        deep = '{"game": "bloodstones", "params": {"x": ' + "[" * 2000 + "]" * 2000 + "}}"
        r = client.post("/api/tables", content=deep, headers={"content-type": "application/json"})
        assert r.status_code == 400  # nested too deep to parse: refused, not a server error
        assert r.json()["error"]["code"] == "request/invalid"
        assert client.get("/api/tables").json() == []
        create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])  # a normal body still works


def test_table_creation_is_rate_limited_per_client(make_client: ClientFactory, sqlite_url: str) -> None:
    with make_client(sqlite_url, tables_per_minute=1.0, table_burst=3) as client:
        humans = [{"name": "Ann"}, {"name": "Bob"}]
        for _ in range(3):
            create_table(client, seats=humans)
        r = client.post("/api/tables", json={"game": "bloodstones", "params": {"players": 2}, "seats": humans})
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "limit/tables"
        assert int(r.headers["retry-after"]) >= 1
        assert len(client.get("/api/tables").json()) == 3


def test_running_ai_tables_are_bounded_per_client(make_client: ClientFactory, sqlite_url: str) -> None:
    with make_client(sqlite_url, max_ai_tables_per_client=2, ai_delay=30.0) as client:
        ai = [{"name": "Ann"}, {"kind": "agent", "agent": "random"}]
        for _ in range(2):
            create_table(client, seats=ai)
        r = client.post("/api/tables", json={"game": "bloodstones", "params": {"players": 2}, "seats": ai})
        assert r.status_code == 429
        assert r.json()["error"]["code"] == "limit/ai_tables"
        create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])  # tables of people only: fine


def test_unencodable_text_gets_an_error_and_the_connection_keeps_working(sqlite_client: TestClient) -> None:
    client = sqlite_client
    data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    cur = client.get(f"/api/tables/{tid}/state").json()["current_player"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "seat": cur, "token": tokens[cur]})
        first = ws.receive_json()
        ws.send_text('{"type": "act", "action": "move \\ud800", "version": 0, "id": "\\udc00"}')
        reply = ws.receive_json()
        assert reply["type"] == "error"
        assert reply["error"]["code"] == "request/invalid"
        assert reply["id"] is None
        ws.send_text('{"type": "shout \\ud800"}')  # echoed in the message: sent escaped, not dropped
        reply = json.loads(ws.receive_text())
        assert reply["error"]["code"] == "request/invalid"
        ws.send_json({"type": "ping", "id": 1})
        assert ws.receive_json() == {"type": "pong", "id": 1}
        ws.send_json({"type": "act", "action": first["legal"][0], "version": 0, "id": 2})
        kinds = sorted(m["type"] for m in (ws.receive_json(), ws.receive_json()))
        assert kinds == ["ack", "state"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:  # a hello with such a token
        ws.send_text('{"type": "hello", "seat": 0, "token": "\\ud800"}')
        assert ws.receive_json()["error"]["code"] == "auth/bad_token"
    r = client.post(f"/api/tables/{tid}/actions", content='{"seat": 0, "action": "x\\ud800", "version": 1}',
                    headers={**auth(tokens[0]), "content-type": "application/json"})
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "request/invalid"
    r = client.post("/api/tables", content='{"game": "bloodstones", "name": "\\ud800"}',
                    headers={"content-type": "application/json"})
    assert r.status_code == 422


def test_scenario_errors_name_the_uploaded_file(sqlite_client: TestClient) -> None:
    cases = [
        "game: [unclosed",
        "- a list",
        "game: bloodstones\nparams: {players: 2}\nposition: {nonsense: 1}\n",
    ]
    for text in cases:
        r = sqlite_client.post("/api/tables", json={"scenario": text, "scenario_name": "my_battle.yaml"})
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "scenario/invalid"
        assert r.json()["error"]["message"].startswith("scenario file 'my_battle.yaml'"), r.json()
    r = sqlite_client.post("/api/tables", json={"scenario": "x" * 200_001, "scenario_name": "huge.yaml"})
    assert r.status_code == 413
    assert "huge.yaml" in r.json()["error"]["message"]


class SlowBidsGame(BidsGame):
    """Sealed Bids that takes a second to set up, like a game loading a large map."""

    info = dataclasses.replace(BidsGame.info, id="toy_slow_bids")

    def _new_initial_state(self) -> BidsState:
        time.sleep(1.0)
        return super()._new_initial_state()

    def _state_from_position(self, position: Mapping[str, Any], rng: Rng) -> BidsState:
        time.sleep(1.0)
        return super()._state_from_position(position, rng)


@pytest.fixture
def slow_game() -> Iterator[None]:
    register_game(SlowBidsGame)
    yield
    unregister_game(SlowBidsGame.info.id)


def test_games_load_off_the_event_loop(slow_game: None, sqlite_url: str) -> None:
    with ServerThread(Settings(db_url=sqlite_url)) as server, httpx.Client(base_url=server.url, timeout=30) as client:
        results: list[int] = []

        def create() -> None:
            r = client.post("/api/tables", json={"game": "toy_slow_bids", "params": {"players": 2},
                                                 "seats": [{"name": "A"}, {"name": "B"}]})
            results.append(r.status_code)

        worker = threading.Thread(target=create)
        worker.start()
        time.sleep(0.2)
        t0 = time.monotonic()
        assert client.get("/api/health").status_code == 200
        waited = time.monotonic() - t0
        worker.join()
        assert results == [201]
        assert waited < 0.5, f"the health check waited {waited:.2f} s behind a game being set up"


def test_an_unexpected_failure_fails_one_message_not_the_connection(sqlite_client: TestClient) -> None:
    client = sqlite_client
    data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    cur = client.get(f"/api/tables/{tid}/state").json()["current_player"]
    manager = client.app.state.manager  # type: ignore[attr-defined]
    real = manager.submit
    calls = []

    async def broken_once(*args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        if len(calls) == 1:
            raise RuntimeError("the database went away")
        return await real(*args, **kwargs)

    manager.submit = broken_once
    with client.websocket_connect(f"/ws/tables/{tid}") as ws:
        ws.send_json({"type": "hello", "seat": cur, "token": tokens[cur]})
        first = ws.receive_json()
        ws.send_json({"type": "act", "action": first["legal"][0], "version": 0, "id": 1})
        reply = ws.receive_json()
        assert reply["error"]["code"] == "server/error"
        assert "database" not in reply["error"]["message"], "internals stay in the server's log"
        ws.send_json({"type": "act", "action": first["legal"][0], "version": 0, "id": 2})
        assert sorted(m["type"] for m in (ws.receive_json(), ws.receive_json())) == ["ack", "state"]
