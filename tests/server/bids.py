"""Sealed Bids (tests/toy_bids.py) on the server: registration and small API helpers."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bloodforge.core import register_game, unregister_game
from bloodforge.match import Record
from tests.toy_bids import BidsGame

from .support import auth, create_table


@pytest.fixture
def bids_game() -> Iterator[None]:
    register_game(BidsGame)
    yield
    unregister_game(BidsGame.info.id)


def bids_table(client: Any, humans: int = 2, agents: int = 0, **body: Any) -> tuple[str, dict[int, str]]:
    params = {"players": humans + agents, "prizes": 3, **body.pop("params", {})}
    seats = [{"name": f"P{i}"} for i in range(humans)] + [{"kind": "agent", "agent": "random"}] * agents
    data = create_table(client, game="toy_bids", params=params, seed=3, seats=seats, **body)
    return data["table"]["id"], {link["seat"]: link["token"] for link in data["links"]}


def view(client: Any, tid: str, seat: int | None = None, token: str | None = None) -> dict[str, Any]:
    q = "" if seat is None else f"?seat={seat}"
    r = client.get(f"/api/tables/{tid}/state{q}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    out: dict[str, Any] = r.json()
    return out


def bid(client: Any, tid: str, seat: int, token: str, action: str, version: int) -> Any:
    return client.post(f"/api/tables/{tid}/actions", json={"seat": seat, "action": action, "version": version},
                       headers=auth(token))


def wait_for(
    client: TestClient, tid: str, done: Callable[[dict[str, Any]], bool], seconds: float = 20
) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    table: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
    while not done(table) and time.monotonic() < deadline:
        time.sleep(0.05)
        table = client.get(f"/api/tables/{tid}").json()
    assert done(table), table
    return table


def replayed_record(client: TestClient, tid: str) -> Record:
    """The finished table's history as a game record (every entry, with its seat)."""
    table = client.get(f"/api/tables/{tid}").json()
    hist = client.get(f"/api/tables/{tid}/history").json()
    assert all(h["action"] is not None for h in hist)
    return Record(game="toy_bids", params=table["params"], seed=table["seed"],
                  moves=[(h["seat"], h["action"]) for h in hist])
