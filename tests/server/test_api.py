"""The JSON API: creating tables, seats' views, playing actions, and every refusal as 4xx JSON."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

import bloodforge
from bloodforge.core import FILE_PARAMETER_KEY, game_class

from .support import auth, create_table

HUMANS = [{"name": "Ann"}, {"name": "Bob"}]


def state(client: TestClient, table_id: str, seat: int | None = None, token: str | None = None) -> dict[str, Any]:
    q = "" if seat is None else f"?seat={seat}"
    r = client.get(f"/api/tables/{table_id}/state{q}", headers=auth(token) if token else {})
    assert r.status_code == 200, r.text
    data: dict[str, Any] = r.json()
    return data


def act(client: TestClient, table_id: str, seat: int, token: str, action: str, version: int) -> Any:
    return client.post(f"/api/tables/{table_id}/actions", json={"seat": seat, "action": action, "version": version},
                       headers=auth(token))


def assert_error(r: Any, status: int, code: str) -> None:
    assert r.status_code == status, r.text
    body = r.json()
    assert set(body) == {"error"}
    assert body["error"]["code"] == code, body
    assert body["error"]["message"]


def test_games_lists_every_registered_game_with_schema_and_grammar(client: TestClient) -> None:
    games = client.get("/api/games").json()
    assert [g["id"] for g in games] == [g["id"] for g in bloodforge.list_games()]
    bs = next(g for g in games if g["id"] == "bloodstones")
    assert bs["parameters"]["properties"]["players"]["maximum"] == 6
    assert {"move", "to", "pay", "cancel"} <= {v["kind"] for v in bs["grammar"]}
    assert "greedy" in bs["agents"]
    assert "random" in bs["agents"]


def test_openapi_schema_documents_the_api(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    assert "/api/tables" in schema["paths"]
    assert "/api/tables/{table_id}/actions" in schema["paths"]
    assert client.get("/docs").status_code == 200


def test_create_table_gives_one_secret_link_per_human_seat(client: TestClient) -> None:
    data = create_table(client, name="Friday", seats=[{"name": "Ann"}, {"kind": "agent", "agent": "random"}])
    table = data["table"]
    assert table["name"] == "Friday"
    assert table["players"] == 2
    assert table["ply"] == 0
    assert [s["kind"] for s in table["seats"]] == ["human", "agent"]
    assert table["seed"] is None, "the seed would reveal every hidden tile: never shown while playing"
    assert len(data["links"]) == 1
    link = data["links"][0]
    assert link["seat"] == 0
    assert len(link["token"]) >= 40
    assert link["url"] == f"/table/{table['id']}#seat=0&token={link['token']}"
    assert data["spectator_url"] == f"/table/{table['id']}"
    listed = client.get("/api/tables").json()
    assert table["id"] in [t["id"] for t in listed]
    assert all("token" not in str(t) for t in listed)


def test_default_seats_are_one_human_and_greedy_ai(client: TestClient) -> None:
    data = create_table(client, seats=None)
    assert [(s["kind"], s["agent"]) for s in data["table"]["seats"]] == [("human", None), ("agent", "greedy")]


def test_seat_view_holds_own_hand_and_legal_actions_only_for_the_seat_to_move(client: TestClient) -> None:
    data = create_table(client, seats=HUMANS)
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    views = {s: state(client, tid, s, t) for s, t in tokens.items()}
    spectator = state(client, tid)
    current = views[0]["current_player"]
    assert views[current]["legal"]
    assert views[1 - current]["legal"] == []
    assert spectator["legal"] == []
    assert views[0]["observation"]["hand"] is not None
    assert spectator["observation"]["hand"] is None
    assert views[0]["seat"] == 0
    assert spectator["seat"] is None


def test_play_actions_and_version_advances(client: TestClient) -> None:
    data = create_table(client, seats=HUMANS)
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    for expected in range(6):
        spectator = state(client, tid)
        seat = spectator["current_player"]
        view = state(client, tid, seat, tokens[seat])
        assert view["version"] == expected
        r = act(client, tid, seat, tokens[seat], view["legal"][0], expected)
        assert r.status_code == 200, r.text
        assert r.json() == {"version": expected + 1, "action": view["legal"][0]}
    assert client.get(f"/api/tables/{tid}").json()["ply"] == 6


def test_refusals_are_json_4xx_and_change_nothing(client: TestClient) -> None:
    data = create_table(client, seats=HUMANS)
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    view = state(client, tid)
    cur = view["current_player"]
    other = 1 - cur
    legal = state(client, tid, cur, tokens[cur])["legal"]

    assert_error(act(client, tid, cur, tokens[other], legal[0], 0), 403, "auth/bad_token")
    assert_error(act(client, tid, other, tokens[other], legal[0], 0), 409, "seat/not_your_turn")
    assert_error(act(client, tid, cur, tokens[cur], legal[0], 5), 409, "action/stale")
    assert_error(act(client, tid, cur, tokens[cur], "fly 27", 0), 422, "action/syntax")
    assert_error(act(client, tid, cur, tokens[cur], "citadel 999", 0), 422, "action/illegal")
    r = client.post(f"/api/tables/{tid}/actions", json={"seat": cur, "action": legal[0], "version": 0})
    assert_error(r, 401, "auth/missing_token")
    r = client.post(f"/api/tables/{tid}/actions", json={"seat": cur, "action": legal[0], "version": 0},
                    headers={"Authorization": "Basic abc"})
    assert_error(r, 401, "auth/bad_header")
    r = client.post(f"/api/tables/{tid}/actions", content=b"{not json", headers=auth(tokens[cur]))
    assert_error(r, 422, "request/invalid")
    r = client.post(f"/api/tables/{tid}/actions", json={"seat": cur, "action": legal[0], "version": 0, "x": 1},
                    headers=auth(tokens[cur]))
    assert_error(r, 422, "request/invalid")
    assert_error(act(client, tid, cur, tokens[cur], "x" * 500, 0), 422, "request/invalid")
    assert_error(client.get(f"/api/tables/{tid}/state?seat=7", headers=auth(tokens[cur])), 400, "seat/invalid")
    assert_error(client.get("/api/tables/nope/state"), 404, "table/not_found")
    assert_error(client.get("/api/nowhere"), 404, "http/not_found")
    after = state(client, tid)
    assert after["version"] == 0
    assert after["observation"] == view["observation"]


def test_ai_seat_cannot_be_played_by_anyone(client: TestClient) -> None:
    data = create_table(client, seats=[{"name": "Ann"}, {"kind": "agent", "agent": "random"}])
    tid = data["table"]["id"]
    token = data["links"][0]["token"]
    assert_error(client.get(f"/api/tables/{tid}/state?seat=1", headers=auth(token)), 403, "auth/bad_token")


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"game": "chess", "params": {"players": 2}}, "game/unknown"),
        ({"game": "bloodstones", "params": {"players": 9}}, "params/invalid"),
        ({"game": "bloodstones", "params": {"players": 2, "colour": "red"}}, "params/invalid"),
        ({"game": "bloodstones", "params": {"players": 2, "map": "/etc/passwd.json"}}, "params/invalid"),
        ({"game": "bloodstones", "params": {"players": 2, "map_file": "/etc/passwd.json"}}, "params/invalid"),
        ({"game": "witch", "params": {"content": "/etc/passwd"}}, "params/invalid"),
        ({"game": "bloodstones", "params": {"players": 2, "faction_data": "x.json"}}, "params/invalid"),
        ({"game": "bloodstones", "params": {"players": 2}, "seats": [{"name": "A"}]}, "seats/invalid"),
        ({"game": "bloodstones", "params": {"players": 2}, "seats": [{}, {"kind": "agent", "agent": "oracle"}]},
         "agent/unknown"),
        ({"game": "bloodstones", "params": {"players": 2}, "seats": [{}, {"kind": "robot"}]}, "request/invalid"),
        ({"game": "bloodstones", "params": {"players": 2}, "seed": -1}, "request/invalid"),
        ({"params": {"players": 2}}, "game/missing"),
        ({"scenario": "game: [unclosed"}, "scenario/invalid"),
        ({"scenario": "- a list"}, "scenario/invalid"),
        ({"scenario": {"game": "bloodstones", "params": {"players": 2}, "position": {"nonsense": 1}}},
         "scenario/invalid"),
        ({"game": "bloodstones", "name": "x" * 81}, "request/invalid"),
    ],
)
def test_bad_create_requests_are_refused_clearly(client: TestClient, body: dict[str, Any], code: str) -> None:
    before = len(client.get("/api/tables").json())
    r = client.post("/api/tables", json=body)
    assert r.status_code in (413, 422), r.text
    assert r.json()["error"]["code"] == code
    assert len(client.get("/api/tables").json()) == before


def test_names_are_stored_as_text_without_control_characters(client: TestClient) -> None:
    data = create_table(client, name="<script>alert(1)</script>\x00\x1b[31m",
                        seats=[{"name": "  <img src=x onerror=alert(1)>\u202e "}, {"kind": "agent"}])
    assert data["table"]["name"] == "<script>alert(1)</script>[31m"
    assert data["table"]["seats"][0]["name"] == "<img src=x onerror=alert(1)>"
    page = client.get(f"/table/{data['table']['id']}")
    assert "alert" not in page.text, "pages are static: names reach them only as JSON, shown as text"
    assert "script-src 'self'" in page.headers["content-security-policy"]


def test_scenario_table_rebuilds_from_the_stored_scenario(client: TestClient) -> None:
    path = "src/bloodforge/games/bloodstones/scenarios/worked_example_battle.yaml"
    text = Path(path).read_text(encoding="utf-8")
    data = create_table(client, game=None, params=None, seed=None, scenario=text,
                        seats=[{"name": "A"}, {"name": "B"}])
    assert data["table"]["from_scenario"]
    expected = bloodforge.load_scenario(path)
    view = client.get(f"/api/tables/{data['table']['id']}/state").json()
    assert view["observation"] == expected.observation(None)


def test_history_hides_other_seats_action_texts_while_playing(client: TestClient) -> None:
    data = create_table(client, seats=HUMANS)
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    for v in range(8):
        seat = state(client, tid)["current_player"]
        legal = state(client, tid, seat, tokens[seat])["legal"]
        assert act(client, tid, seat, tokens[seat], legal[-1], v).status_code == 200
    hist = client.get(f"/api/tables/{tid}/history?seat=0", headers=auth(tokens[0])).json()
    assert len(hist) == 8
    assert all((h["action"] is not None) == (h["seat"] == 0) for h in hist)
    spectator = client.get(f"/api/tables/{tid}/history").json()
    assert all(h["action"] is None for h in spectator)
    assert_error(client.get(f"/api/tables/{tid}/history?seat=1"), 401, "auth/missing_token")


def test_replay_gives_each_ply_as_the_seat_saw_it(client: TestClient) -> None:
    data = create_table(client, seats=HUMANS)
    tid = data["table"]["id"]
    tokens = {link["seat"]: link["token"] for link in data["links"]}
    game = bloodforge.load_game("bloodstones", players=2, seed=11)
    mirror = game.new_initial_state()
    seen: list[dict[str, Any]] = [mirror.observation(0)]
    for v in range(30):
        seat = state(client, tid)["current_player"]
        legal = state(client, tid, seat, tokens[seat])["legal"]
        assert act(client, tid, seat, tokens[seat], legal[v % len(legal)], v).status_code == 200
        mirror.apply(legal[v % len(legal)])
        seen.append(mirror.observation(0))
    for ply in (0, 1, 7, 26, 30):
        r = client.get(f"/api/tables/{tid}/replay/{ply}?seat=0", headers=auth(tokens[0])).json()
        assert r["observation"] == seen[ply]
        assert r["ply"] == ply
        assert r["plies"] == 30
    assert_error(client.get(f"/api/tables/{tid}/replay/31"), 404, "replay/out_of_range")
    assert_error(client.get(f"/api/tables/{tid}/replay/3?seat=1", headers=auth(tokens[0])), 403, "auth/bad_token")


def test_ai_seats_play_a_whole_game_and_the_result_is_public(client: TestClient) -> None:
    data = create_table(client, seats=[{"kind": "agent", "agent": "random"}, {"kind": "agent", "agent": "random"}])
    tid = data["table"]["id"]
    deadline = time.monotonic() + 60
    table = client.get(f"/api/tables/{tid}").json()
    while table["status"] != "over" and time.monotonic() < deadline:
        time.sleep(0.1)
        table = client.get(f"/api/tables/{tid}").json()
    assert table["status"] == "over", table
    assert table["seed"] == 11
    assert table["result"]["winners"]
    expected = bloodforge.load_game("bloodstones", players=2, seed=11).new_initial_state()
    hist = client.get(f"/api/tables/{tid}/history").json()
    assert all(h["action"] is not None for h in hist), "finished games show every action"
    for h in hist:
        expected.apply(h["action"])
    assert expected.is_terminal()
    assert expected.scores() == table["result"]["scores"]
    assert client.get(f"/api/tables/{tid}/replay/3?seat=1").status_code == 200, "any seat's view once over"


def test_an_mcts_seat_with_the_lobbys_strength_searches_instead_of_falling_back(
    client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    """The lobby sends a strength with every AI seat; the search agent takes it as its time
    per decision (strength 1: 0.1 s) rather than failing into the random fallback."""
    caplog.set_level("WARNING", logger="bloodforge.server.ai")
    data = create_table(client, game="witch", params={"players": 2},
                        seats=[{"kind": "agent", "agent": "mcts", "strength": 1},
                               {"kind": "agent", "agent": "mcts", "strength": 1}])
    tid = data["table"]["id"]
    deadline = time.monotonic() + 60
    plies = 0
    while plies < 12 and time.monotonic() < deadline:
        time.sleep(0.2)
        plies = len(client.get(f"/api/tables/{tid}/history").json())
    assert plies >= 12
    assert not [r for r in caplog.records if "random move" in r.getMessage()], caplog.text


def _file_parameter_cases() -> list[tuple[str, str]]:
    cases = []
    for info in bloodforge.list_games():
        for name in game_class(info["id"]).info.params_model.file_parameters():
            cases.append((info["id"], name))
    return cases


def test_every_game_declares_its_file_parameters_in_the_schema() -> None:
    """A parameter that opens a file must be declared as one (so the server can refuse it): any
    parameter whose name or description speaks of a path is marked."""
    for info in bloodforge.list_games():
        props = info["parameters"].get("properties", {})
        for name, prop in props.items():
            text = f"{name} {prop.get('description', '')}".lower()
            if "path" in text:
                assert prop.get(FILE_PARAMETER_KEY) is True, f"{info['id']}.{name} looks like a file parameter"


@pytest.mark.parametrize(("game_id", "param"), _file_parameter_cases())
def test_file_parameters_are_refused_for_every_game(client: TestClient, game_id: str, param: str) -> None:
    """`POST /api/tables {"game": ..., "params": {"<file param>": "/etc/passwd"}}` never opens the file."""
    info = next(g for g in bloodforge.list_games() if g["id"] == game_id)
    params = {"players": info["min_players"], param: "/etc/passwd"}
    for body in ({"game": game_id, "params": params},
                 {"scenario": {"game": game_id, "params": params, "position": {}}}):
        r = client.post("/api/tables", json=body)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["code"] == "params/invalid"
        assert param in r.json()["error"]["message"]
        assert "root:" not in r.text


def test_a_tables_static_info_says_what_each_seat_plays_with_its_own_seating(client: TestClient) -> None:
    """Issue 18: a seat commanding two Kingdoms factions was headed by one ("Ann · Elves"); the
    table's page reads the seats' roles of this table's parameters from its static info."""
    data = create_table(client, game="kingdoms", params={"players": 3, "seating": "elves+humans/dwarves/undead"},
                        seats=[{"name": "Ann"}, *[{"kind": "agent", "agent": "random"}] * 2])
    static = client.get(f"/api/tables/{data['table']['id']}/static").json()
    assert [r["role"] for r in static["roles"]] == ["Elves + Humans", "Dwarves", "Undead"]
    assert all(r["colour"] for r in static["roles"])
