"""Issue 18, end of game: the state message's `summary` (winners, scores with their label, the
game's statistics in words, the reason), the rematch endpoint, and the replay's viewpoints
(another seat's view only once the game is over, when nothing is hidden any more)."""

from __future__ import annotations

import random
import re
from typing import Any

from fastapi.testclient import TestClient

from bloodforge.server.summary import statistic_label

from .support import auth, create_table

HUMANS = [{"name": "Ann"}, {"name": "Bob"}]


def _state(client: TestClient, tid: str, seat: int | None = None, token: str | None = None) -> dict[str, Any]:
    q = "" if seat is None else f"?seat={seat}"
    r = client.get(f"/api/tables/{tid}/state{q}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def _play_to_the_end(client: TestClient, tid: str, tokens: dict[int, str], *, limit: int = 3000) -> dict[str, Any]:
    rng = random.Random(5)
    for _ in range(limit):
        public = _state(client, tid)
        if public["terminal"]:
            return public
        seat = public["actors"][0]
        view = _state(client, tid, seat, tokens[seat])
        r = client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]),
                        json={"seat": seat, "action": rng.choice(view["legal"]), "version": view["version"]})
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def _witch_table(client: TestClient) -> tuple[str, dict[int, str]]:
    data = create_table(client, game="witch", params={}, seed=3, seats=HUMANS)
    return data["table"]["id"], {link["seat"]: link["token"] for link in data["links"]}


def test_summary_is_sent_only_when_the_game_is_over_worded_for_people(sqlite_client: TestClient) -> None:
    client = sqlite_client
    tid, tokens = _witch_table(client)
    assert _state(client, tid)["summary"] is None
    final = _play_to_the_end(client, tid, tokens)
    summary = final["summary"]
    assert summary["winners"] == final["result"]["winners"]
    assert [s["score"] for s in summary["scores"]] == final["result"]["scores"]
    assert {s["role"] for s in summary["scores"]} == {"Soldiers", "Witch"}
    assert all(s["label"] and s["value"] for s in summary["scores"])
    assert summary["statistics"], "Blood Stone has statistics"
    for item in summary["statistics"]:
        # words for people: no snake_case, no dotted keys, numbers without a trailing ".0"
        assert "_" not in item["label"], item
        assert "." not in item["label"], item
        assert not item["value"].endswith(".0"), item
    assert re.search(r"win", summary["reason"], re.IGNORECASE), summary["reason"]
    # the replay's last position carries the same summary
    last = client.get(f"/api/tables/{tid}/replay/{final['version']}").json()
    assert last["summary"] == summary


def test_statistic_labels_name_items_by_the_games_cards_and_roles() -> None:
    names = {"blood_feast": "Blood Feast", "red": "Red"}
    assert statistic_label("casts.blood_feast", {}, names) == "Casts: Blood Feast"
    assert statistic_label("income.red", {}, names) == "Income: Red"
    assert statistic_label("x_at_die.some_spell", {}, names) == "X at die: Some Spell"
    assert statistic_label("casts.blood_feast", {"casts": "Spells cast"}, names) == "Spells cast: Blood Feast"
    assert statistic_label("turns", {"turns": "Turns played"}, names) == "Turns played"


def test_replay_shows_another_seats_view_only_once_the_game_is_over(sqlite_client: TestClient) -> None:
    client = sqlite_client
    tid, tokens = _witch_table(client)
    for _ in range(6):
        public = _state(client, tid)
        seat = public["actors"][0]
        view = _state(client, tid, seat, tokens[seat])
        client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[seat]),
                    json={"seat": seat, "action": view["legal"][0], "version": view["version"]})
    # running: another seat's view would leak its hidden hand
    assert client.get(f"/api/tables/{tid}/replay/2?seat=1").status_code == 401
    assert client.get(f"/api/tables/{tid}/replay/2?seat=1", headers=auth(tokens[0])).status_code == 403
    assert client.get(f"/api/tables/{tid}/replay/2?seat=0", headers=auth(tokens[0])).status_code == 200
    assert client.get(f"/api/tables/{tid}/replay/2").status_code == 200
    _play_to_the_end(client, tid, tokens)
    # over: every seat's view, also for a player holding their own seat's token
    for seat in (0, 1):
        r = client.get(f"/api/tables/{tid}/replay/2?seat={seat}", headers=auth(tokens[0]))
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == seat
    assert client.get(f"/api/tables/{tid}/replay/2?seat=2").status_code == 400


def test_rematch_opens_a_new_table_with_the_same_game_and_seats(sqlite_client: TestClient) -> None:
    client = sqlite_client
    data = create_table(client, game="witch", params={}, seed=3,
                        seats=[{"name": "Ann"}, {"name": "Robo", "kind": "agent", "agent": "random"}])
    tid, tokens = data["table"]["id"], {link["seat"]: link["token"] for link in data["links"]}
    refused = client.post(f"/api/tables/{tid}/rematch", headers=auth(data["host_token"]))
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "game/not_over"
    rng = random.Random(2)
    for _ in range(3000):
        public = _state(client, tid)
        if public["terminal"]:
            break
        if 0 not in public["actors"]:
            continue
        view = _state(client, tid, 0, tokens[0])
        client.post(f"/api/tables/{tid}/actions", headers=auth(tokens[0]),
                    json={"seat": 0, "action": rng.choice(view["legal"]), "version": view["version"]})
    assert _state(client, tid)["terminal"]
    r = client.post(f"/api/tables/{tid}/rematch", headers=auth(data["host_token"]))
    assert r.status_code == 201, r.text
    new = r.json()
    assert new["table"]["id"] != tid
    assert new["table"]["game"] == "witch"
    assert new["table"]["params"] == data["table"]["params"]
    assert new["table"]["status"] == "playing"
    assert [(s["name"], s["kind"], s["agent"]) for s in new["table"]["seats"]] == [
        ("Ann", "human", None), ("Robo", "agent", "random")]
    assert [link["seat"] for link in new["links"]] == [0]
    assert _state(client, new["table"]["id"], 0, new["links"][0]["token"])["summary"] is None
