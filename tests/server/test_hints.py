"""Hints over the API (server/hints.py, issue 21 item 4): off by default, the seat's own token,
a legal action of the seat with an estimated win chance, the same for every ask."""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from .support import auth, create_table

HUMANS = [{"name": "Ann"}, {"name": "Bob"}]


@pytest.fixture
def hint_client(sqlite_client: TestClient) -> TestClient:
    sqlite_client.app.state.hint_iterations = 12  # type: ignore[attr-defined]  # small: a shared machine
    return sqlite_client


def acting(client: TestClient, data: dict[str, Any]) -> tuple[str, int, str]:
    table = data["table"]
    seat = table["actors"][0]
    token = next(link["token"] for link in data["links"] if link["seat"] == seat)
    return table["id"], seat, token


def hint_url(table_id: str, seat: int) -> str:
    return f"/api/tables/{table_id}/seats/{seat}/hint"


def test_hints_are_off_by_default_and_refused_with_403(hint_client: TestClient) -> None:
    data = create_table(hint_client, game="witch", params={"players": 2}, seats=HUMANS)
    assert data["table"]["hints"] is False
    table_id, seat, token = acting(hint_client, data)
    r = hint_client.get(hint_url(table_id, seat), headers=auth(token))
    assert r.status_code == 403, r.text
    assert r.json()["error"]["code"] == "hints/off"


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_hint_on_gives_a_legal_action_of_the_seat_and_a_win_chance(hint_client: TestClient, method: str) -> None:
    data = create_table(hint_client, game="witch", params={"players": 2}, seats=HUMANS, hints=True)
    assert data["table"]["hints"] is True
    table_id, seat, token = acting(hint_client, data)
    r = hint_client.request(method, hint_url(table_id, seat), headers=auth(token))
    assert r.status_code == 200, r.text
    hint = r.json()
    assert set(hint) == {"action", "label", "then", "win_chance", "iterations"}
    view = hint_client.get(f"/api/tables/{table_id}/state?seat={seat}", headers=auth(token)).json()
    assert hint["action"] in view["legal"]
    assert 0.0 <= hint["win_chance"] <= 1.0
    assert hint["label"]
    assert "_" not in hint["label"]
    again = hint_client.request(method, hint_url(table_id, seat), headers=auth(token)).json()
    assert again == hint, "the same position gives the same hint"


def test_hint_needs_the_seats_own_token(hint_client: TestClient) -> None:
    data = create_table(hint_client, game="witch", params={"players": 2}, seats=HUMANS, hints=True)
    table_id, seat, _ = acting(hint_client, data)
    other_token = next(link["token"] for link in data["links"] if link["seat"] != seat)
    missing = hint_client.get(hint_url(table_id, seat))
    assert missing.status_code == 401
    wrong = hint_client.get(hint_url(table_id, seat), headers=auth(other_token))
    assert wrong.status_code == 403
    assert wrong.json()["error"]["code"] == "auth/bad_token"


def test_hint_for_a_seat_not_to_act_is_refused(hint_client: TestClient) -> None:
    data = create_table(hint_client, game="witch", params={"players": 2}, seats=HUMANS, hints=True)
    table_id, seat, _ = acting(hint_client, data)
    idle = 1 - seat
    token = next(link["token"] for link in data["links"] if link["seat"] == idle)
    r = hint_client.get(hint_url(table_id, idle), headers=auth(token))
    assert r.status_code == 409
    assert r.json()["error"]["code"] == "seat/not_your_turn"


def test_the_hints_option_is_stored_with_the_table(hint_client: TestClient) -> None:
    """The option is stored with the table (a column), so it survives in the table's record."""
    data = create_table(hint_client, game="witch", params={"players": 2}, seats=HUMANS, hints=True)
    listed = hint_client.get(f"/api/tables/{data['table']['id']}").json()
    assert listed["hints"] is True
