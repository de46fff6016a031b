"""The rematch is offered to every browser of the finished table (issue 18): POST
/api/tables/{id}/rematch sends a `rematch` message on the old table's websocket to each
connection, a seat its own claim link for the new table and never another seat's credential,
a spectator the spectator's link; a page that connects later gets the offer too."""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from .support import auth, create_table


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
        assert msg["url"] == links[seat]["url"]
        assert links[1 - seat]["token"] not in str(msg)  # never another seat's credential
    assert got[None] == {"type": "rematch", "table": new["table"]["id"], "seat": None, "url": new["spectator_url"]}
    assert all(link["token"] not in str(got[None]) for link in links.values())
    # a second click (another player at the same moment) makes no second table
    again = client.post(f"/api/tables/{tid}/rematch?seat=1", headers=auth(tokens[1]))
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "rematch/started"
    # a page that opens the finished table later is offered the rematch as well
    with client.websocket_connect(url) as late:
        hello(late, 1, tokens[1])
        assert until_rematch(late)["url"] == links[1]["url"]


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
