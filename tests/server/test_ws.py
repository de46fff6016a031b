"""Websockets: a connection is bound to one seat; states arrive live, in order, after commit."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text
from starlette.websockets import WebSocketDisconnect

from .support import create_table


def hello(ws: Any, seat: int | None = None, token: str | None = None) -> dict[str, Any]:
    ws.send_json({"type": "hello", "seat": seat, "token": token})
    msg: dict[str, Any] = ws.receive_json()
    return msg


def test_seat_connection_plays_and_everyone_sees_it_after_commit(client: TestClient, db_url: str) -> None:
    data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    engine = create_engine(db_url)
    with client.websocket_connect(f"/ws/tables/{tid}") as w0, client.websocket_connect(f"/ws/tables/{tid}") as w1, \
            client.websocket_connect(f"/ws/tables/{tid}") as spec:
        s0, s1, sp = hello(w0, 0, tokens[0]), hello(w1, 1, tokens[1]), hello(spec)
        assert s0["type"] == s1["type"] == sp["type"] == "state"
        socks = {0: w0, 1: w1}
        views = {0: s0, 1: s1}
        for step in range(10):
            cur = views[0]["current_player"]
            action = views[cur]["legal"][0]
            socks[cur].send_json({"type": "act", "action": action, "version": step, "id": f"m{step}"})
            for seat, ws in socks.items():
                msg = ws.receive_json()
                assert msg["type"] == "state"
                assert msg["version"] == step + 1
                with engine.connect() as conn:
                    n = conn.execute(text("SELECT count(*) FROM actions WHERE table_id = :t"), {"t": tid}).scalar()
                assert n == step + 1, "a state is sent only after its action is committed"
                views[seat] = msg
            ack = socks[cur].receive_json()
            assert ack == {"type": "ack", "id": f"m{step}", "version": step + 1}
            assert spec.receive_json()["version"] == step + 1
        assert views[0]["log_start"] > 0, "later states carry only the new log lines"
    engine.dispose()


def test_ws_refusals_keep_the_connection_open(sqlite_client: TestClient) -> None:
    client = sqlite_client
    data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    cur = client.get(f"/api/tables/{tid}/state").json()["current_player"]
    with client.websocket_connect(f"/ws/tables/{tid}") as ws, client.websocket_connect(f"/ws/tables/{tid}") as idle:
        hello(ws, cur, tokens[cur])
        hello(idle, 1 - cur, tokens[1 - cur])
        idle.send_json({"type": "act", "action": "done", "version": 0})
        assert idle.receive_json()["error"]["code"] == "seat/not_your_turn"
        cases: list[tuple[Any, str]] = [
            ("not json", "request/invalid"),
            ([1, 2], "request/invalid"),
            ({"type": "shout"}, "request/invalid"),
            ({"type": "act", "action": "done"}, "request/invalid"),
            ({"type": "act", "action": 5, "version": 0}, "request/invalid"),
            ({"type": "act", "action": "fly away", "version": 0, "id": 3}, "action/syntax"),
            ({"type": "act", "action": "done", "version": 99}, "action/stale"),
        ]
        for payload, code in cases:
            if isinstance(payload, str):
                ws.send_text(payload)
            else:
                ws.send_json(payload)
            reply = ws.receive_json()
            assert reply["type"] == "error", (payload, reply)
            assert reply["error"]["code"] == code, (payload, reply)
        ws.send_json({"type": "ping", "id": 9})
        assert ws.receive_json() == {"type": "pong", "id": 9}


def test_double_submission_of_the_same_version_is_refused_as_stale(sqlite_client: TestClient) -> None:
    client = sqlite_client
    data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    spectator = client.get(f"/api/tables/{tid}/state").json()
    cur = spectator["current_player"]
    with client.websocket_connect(f"/ws/tables/{tid}") as tab1, client.websocket_connect(f"/ws/tables/{tid}") as tab2:
        v1, _ = hello(tab1, cur, tokens[cur]), hello(tab2, cur, tokens[cur])
        action = v1["legal"][0]
        tab1.send_json({"type": "act", "action": action, "version": 0, "id": 1})
        tab1.send_json({"type": "act", "action": action, "version": 0, "id": 2})
        msgs = [tab1.receive_json() for _ in range(3)]
        kinds = sorted((m["type"], m.get("id")) for m in msgs)
        assert kinds == [("ack", 1), ("error", 2), ("state", None)]
        assert next(m for m in msgs if m["type"] == "error")["error"]["code"] == "action/stale"
        assert tab2.receive_json()["version"] == 1
    assert client.get(f"/api/tables/{tid}").json()["ply"] == 1


@pytest.mark.parametrize(
    ("hello_msg", "code"),
    [
        ({"type": "hello", "seat": 0, "token": "wrong"}, "auth/bad_token"),
        ({"type": "hello", "seat": 0}, "auth/missing_token"),
        ({"type": "hello", "seat": 5, "token": "x"}, "seat/invalid"),
        ({"type": "hello", "seat": "0", "token": "x"}, "seat/invalid"),
        ({"type": "act"}, "request/invalid"),
    ],
)
def test_bad_hello_is_refused_and_closed(sqlite_client: TestClient, hello_msg: dict[str, Any], code: str) -> None:
    data = create_table(sqlite_client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    with sqlite_client.websocket_connect(f"/ws/tables/{data['table']['id']}") as ws:
        ws.send_json(hello_msg)
        reply = ws.receive_json()
        assert reply["type"] == "error"
        assert reply["error"]["code"] == code
        with pytest.raises(WebSocketDisconnect):
            ws.receive_json()


def test_unknown_table_is_refused(sqlite_client: TestClient) -> None:
    with sqlite_client.websocket_connect("/ws/tables/nope") as ws:
        reply = ws.receive_json()
        assert reply["error"]["code"] == "table/not_found"


def test_spectators_cannot_act(sqlite_client: TestClient) -> None:
    data = create_table(sqlite_client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    with sqlite_client.websocket_connect(f"/ws/tables/{data['table']['id']}") as ws:
        hello(ws)
        ws.send_json({"type": "act", "action": "done", "version": 0})
        assert ws.receive_json()["error"]["code"] == "seat/spectator"


def test_lobby_channel_announces_new_tables(sqlite_client: TestClient) -> None:
    with sqlite_client.websocket_connect("/ws/lobby") as lobby:
        first = lobby.receive_json()
        assert first == {"type": "lobby", "tables": []}
        data = create_table(sqlite_client, name="Open game", seats=[{"name": "Ann"}, {"name": "Bob"}])
        update = lobby.receive_json()
        assert [t["id"] for t in update["tables"]] == [data["table"]["id"]]
        assert update["tables"][0]["name"] == "Open game"
