"""The rematch is offered to every browser of the finished table (issue 18): POST
/api/tables/{id}/rematch sends a `rematch` message on the old table's websocket to each
connection, a seat its own link to its seat of the new table (made of the credential it holds,
which claims that seat once) and never another seat's credential, a spectator the spectator's
link; a page that connects later gets the offer too. The rematch is kept in the database (the
finished table's `rematch_id`): the offer survives a restart and reaches every server process,
and a second rematch is refused there too."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from .conftest import ClientFactory
from .support import auth, create_table, fresh_pg_database


def hello(ws: Any, seat: int | None = None, token: str | None = None) -> None:
    ws.send_json({"type": "hello", "seat": seat, "token": token})
    assert ws.receive_json()["type"] == "state"


def until_rematch(ws: Any) -> dict[str, Any]:
    """The rematch message queued before a ping's pong (the offer is queued when the POST is
    answered), so a missing offer fails instead of waiting forever."""
    ws.send_json({"type": "ping", "id": "after"})
    found: dict[str, Any] | None = None
    while True:
        msg: dict[str, Any] = ws.receive_json()
        if msg["type"] == "rematch":
            found = msg
        if msg["type"] == "pong":
            assert found is not None, "no rematch message"
            return found


def test_rematch_message_carries_each_seat_its_own_link_only(sqlite_client: TestClient, contract: None) -> None:
    client = sqlite_client
    data = create_table(client, game="toy_contract", params={"plies": 2}, seed=1,
                        seats=[{"name": "Ann", "kind": "human"}, {"name": "Bea", "kind": "human"}])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    url = f"/ws/tables/{tid}"
    with client.websocket_connect(url) as w0, client.websocket_connect(url) as w1, \
            client.websocket_connect(url) as spec:
        hello(w0, 0, tokens[0])
        hello(w1, 1, tokens[1])
        hello(spec)
        for seat in (0, 1):
            view = client.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()
            r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]),
                            json={"seat": seat, "action": view["legal"][0], "version": view["version"]})
            assert r.status_code == 200, r.text
        made = client.post(f"/api/tables/{tid}/rematch", headers=auth(data["host_token"]))  # the host: every link
        assert made.status_code == 201, made.text
        new = made.json()
        links = {link["seat"]: link for link in new["links"]}
        got = {0: until_rematch(w0), 1: until_rematch(w1), None: until_rematch(spec)}
    for seat in (0, 1):
        msg = got[seat]
        assert msg["table"] == new["table"]["id"]
        assert msg["seat"] == seat
        assert msg["url"] == f"/table/{new['table']['id']}#seat={seat}&token={tokens[seat]}"  # its own credential
        assert links[1 - seat]["token"] not in str(msg)  # never another seat's credential
        assert tokens[1 - seat] not in str(msg)
    assert got[None] == {"type": "rematch", "table": new["table"]["id"], "seat": None, "url": new["spectator_url"]}
    assert all(link["token"] not in str(got[None]) for link in links.values())
    # a second click (another player at the same moment) makes no second table
    again = client.post(f"/api/tables/{tid}/rematch?seat=1", headers=auth(tokens[1]))
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "rematch/started"
    # a page that opens the finished table later is offered the rematch as well
    with client.websocket_connect(url) as late:
        hello(late, 1, tokens[1])
        assert until_rematch(late)["url"] == got[1]["url"]


def test_only_a_player_or_the_host_starts_a_rematch_and_a_player_gets_its_own_link(
        sqlite_client: TestClient, contract: None) -> None:
    """A stranger who could start the rematch would hold every new seat's link and could
    claim the seats before the players: no credential -> 401, a wrong one -> 403, nothing made.
    A player gets back only its own seat's link (the others arrive on their own connections)."""
    client = sqlite_client
    data = create_table(client, game="toy_contract", params={"plies": 2}, seed=1,
                        seats=[{"name": "Ann", "kind": "human"}, {"name": "Bea", "kind": "human"}])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    for seat in (0, 1):
        view = client.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()
        client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]),
                    json={"seat": seat, "action": view["legal"][0], "version": view["version"]})
    tables_before = len(client.get("/api/tables").json())
    anonymous = client.post(f"/api/tables/{tid}/rematch")
    assert anonymous.status_code == 401
    assert anonymous.json()["error"]["code"] == "auth/missing_token"
    for query, token in (("?seat=0", "not-a-token"), ("?seat=0", tokens[1]), ("", tokens[0])):
        refused = client.post(f"/api/tables/{tid}/rematch{query}", headers=auth(token))
        assert refused.status_code in (401, 403), (query, refused.text)
    assert len(client.get("/api/tables").json()) == tables_before
    made = client.post(f"/api/tables/{tid}/rematch?seat=1", headers=auth(tokens[1]))
    assert made.status_code == 201, made.text
    new = made.json()
    assert [link["seat"] for link in new["links"]] == [1]
    assert new["host_token"] is None


def finished_table(client: TestClient) -> tuple[str, dict[int, str], str]:
    """A two-human Contract Walk played to its end: (table id, seat -> credential, host token)."""
    data = create_table(client, game="toy_contract", params={"plies": 2}, seed=1,
                        seats=[{"name": "Ann", "kind": "human"}, {"name": "Bea", "kind": "human"}])
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    for seat in (0, 1):
        view = client.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()
        r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]),
                        json={"seat": seat, "action": view["legal"][0], "version": view["version"]})
        assert r.status_code == 200, r.text
    return tid, tokens, data["host_token"]


def test_the_rematch_offer_survives_a_restart_and_seats_each_player_once(
        make_client: ClientFactory, db_url: str, contract: None) -> None:
    """Made, then the server restarts (nothing in memory): a page of the finished table is
    offered the rematch again, a seat the link made of its own credential, which claims its
    seat of the rematch once (a new credential of its own); a second rematch is still refused,
    and another seat's credential opens nothing there."""
    with make_client(db_url, ai_processes=0) as client:
        tid, tokens, _host = finished_table(client)
        made = client.post(f"/api/tables/{tid}/rematch?seat=0", headers=auth(tokens[0]))
        assert made.status_code == 201, made.text
        new = made.json()["table"]["id"]
    with make_client(db_url, ai_processes=0) as client:  # a restarted server on the same database
        url = f"/ws/tables/{tid}"
        with client.websocket_connect(url) as bea, client.websocket_connect(url) as spec:
            hello(bea, 1, tokens[1])
            hello(spec)
            offer = until_rematch(bea)
            watch = until_rematch(spec)
        assert offer == {"type": "rematch", "table": new, "seat": 1, "url": f"/table/{new}#seat=1&token={tokens[1]}"}
        assert watch == {"type": "rematch", "table": new, "seat": None, "url": f"/table/{new}"}
        again = client.post(f"/api/tables/{tid}/rematch?seat=1", headers=auth(tokens[1]))
        assert again.status_code == 409, again.text
        assert again.json()["error"]["code"] == "rematch/started"
        # another seat's credential of the finished table does not open seat 1 of the rematch
        wrong = client.post(f"/api/tables/{new}/seats/1/claim", headers=auth(tokens[0]))
        assert wrong.status_code == 403, wrong.text
        claimed = client.post(f"/api/tables/{new}/seats/1/claim", headers=auth(tokens[1]))
        assert claimed.status_code == 200, claimed.text
        mine = claimed.json()["token"]
        assert mine not in tokens.values()
        view = client.get(f"/api/tables/{new}/state?seat=1", headers=auth(mine))
        assert view.status_code == 200, view.text
        table = client.get(f"/api/tables/{new}").json()
        assert [s["claimed"] for s in table["seats"]] == [False, True]
        # the offer claims once: the same credential again (another browser) watches instead
        twice = client.post(f"/api/tables/{new}/seats/1/claim", headers=auth(tokens[1]))
        assert twice.status_code == 409
        assert twice.json()["error"]["code"] == "seat/claimed"


def test_a_second_server_on_the_database_refuses_a_second_rematch(
        make_client: ClientFactory, sqlite_url: str, contract: None) -> None:
    """Two server processes, a player clicking on each: the second sees the first's rematch in
    the database (409) and makes no table (it was in one process's memory: two tables)."""
    with make_client(sqlite_url, ai_processes=0) as first, make_client(sqlite_url, ai_processes=0) as second:
        tid, tokens, _host = finished_table(first)
        second.get(f"/api/tables/{tid}")  # the second process holds the finished table too
        made = first.post(f"/api/tables/{tid}/rematch?seat=0", headers=auth(tokens[0]))
        assert made.status_code == 201, made.text
        count = len(second.get("/api/tables").json())
        again = second.post(f"/api/tables/{tid}/rematch?seat=1", headers=auth(tokens[1]))
        assert again.status_code == 409, again.text
        assert again.json()["error"]["code"] == "rematch/started"
        assert len(second.get("/api/tables").json()) == count


def wait_for(ws: Any, wanted: Callable[[dict[str, Any]], bool], seconds: float = 10.0) -> dict[str, Any] | None:
    """The first message `wanted` that arrives within `seconds` (a ping's pong ends each look,
    so a message that never comes fails the test instead of blocking it)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        ws.send_json({"type": "ping", "id": "wait"})
        found = None
        while (msg := ws.receive_json())["type"] != "pong":
            if found is None and wanted(msg):
                found = msg
        if found is not None:
            return found
        time.sleep(0.05)
    return None


def test_a_rematch_made_on_one_server_is_offered_on_another_at_once(
        make_client: ClientFactory, pg_admin_url: str, contract: None) -> None:
    """Two server processes on one PostgreSQL database: Ann starts the rematch on the first,
    Bea's page is connected to the second; the second learns of it (NOTIFY) and offers it to
    Bea without her reconnecting (it was in the first process's memory only)."""
    db = fresh_pg_database(pg_admin_url)
    with make_client(db, ai_processes=0) as first, make_client(db, ai_processes=0) as second:
        data = create_table(first, game="toy_contract", params={"plies": 2}, seed=1,
                            seats=[{"name": "Ann", "kind": "human"}, {"name": "Bea", "kind": "human"}])
        tid = data["table"]["id"]
        tokens = {link["seat"]: link["token"] for link in data["links"]}
        with second.websocket_connect(f"/ws/tables/{tid}") as bea:
            hello(bea, 1, tokens[1])
            for seat in (0, 1):
                view = first.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()
                r = first.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]),
                               json={"seat": seat, "action": view["legal"][0], "version": view["version"]})
                assert r.status_code == 200, r.text
            # the moves made on the first server reach the second: its NOTIFY listener runs
            assert wait_for(bea, lambda m: m["type"] == "state" and m["terminal"] is True)
            made = first.post(f"/api/tables/{tid}/rematch?seat=0", headers=auth(tokens[0]))
            assert made.status_code == 201, made.text
            new = made.json()["table"]["id"]
            offer = wait_for(bea, lambda m: m["type"] == "rematch")
        assert offer == {"type": "rematch", "table": new, "seat": 1, "url": f"/table/{new}#seat=1&token={tokens[1]}"}
