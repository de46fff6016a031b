"""The designer's workbench (issue 22): off unless `serve --lab`, operator token, content as
forms, validated versioned variants with diffs, A/B experiments as jobs, and exports that
`bloodforge lab run` reproduces."""

from __future__ import annotations

import copy
import json
import time
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from typer.testing import CliRunner

from bloodforge.cli.main import app as cli_app
from bloodforge.lab.content import diff_content
from bloodforge.server.workbench import what_changed
from bloodforge.server.workbench_models import LabExperimentRow

from .conftest import ClientFactory

TOKEN = "operator-secret-for-tests"
AUTH = {"Authorization": f"Bearer {TOKEN}"}


def lab_client(make_client: ClientFactory, url: str, **options: Any) -> Any:
    return make_client(url, lab=True, lab_token=TOKEN, **options)


def witch_content(client: TestClient) -> dict[str, Any]:
    r = client.get("/api/lab/games/witch/content", headers=AUTH)
    assert r.status_code == 200, r.text
    files: dict[str, Any] = r.json()["files"]
    return files


def wait_done(client: TestClient, exp_id: str, timeout: float = 120) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        body: dict[str, Any] = client.get(f"/api/lab/experiments/{exp_id}", headers=AUTH).json()
        if body["status"] not in ("queued", "running"):
            return body
        time.sleep(0.2)
    raise AssertionError("the experiment did not finish")


def test_lab_is_off_without_the_flag_every_route_404(make_client: ClientFactory, sqlite_url: str) -> None:
    with make_client(sqlite_url) as client:
        assert client.get("/lab").status_code == 404
        assert client.get("/api/lab/games", headers=AUTH).status_code == 404
        assert client.get("/api/lab/games/witch/content", headers=AUTH).status_code == 404
        assert client.post("/api/lab/variants", headers=AUTH, json={}).status_code == 404
        assert client.post("/api/lab/experiments", headers=AUTH, json={}).status_code == 404


def test_operator_token_required_for_every_lab_call(make_client: ClientFactory, sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url) as client:
        assert client.get("/lab").status_code == 200  # the page asks for the token itself
        for method, path in [("GET", "/api/lab/games"), ("GET", "/api/lab/games/witch/content"),
                             ("POST", "/api/lab/variants"), ("GET", "/api/lab/variants"),
                             ("POST", "/api/lab/experiments"), ("GET", "/api/lab/experiments/x")]:
            assert client.request(method, path).status_code == 401, path
            wrong = client.request(method, path, headers={"Authorization": "Bearer wrong"})
            assert wrong.status_code == 401, path
            assert wrong.json()["error"]["code"] == "lab/unauthorized"
        assert client.get("/api/lab/games", headers=AUTH).status_code == 200


def test_token_from_environment(make_client: ClientFactory, sqlite_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("BLOODFORGE_LAB_TOKEN", "from-env")
    with make_client(sqlite_url, lab=True) as client:
        assert client.get("/api/lab/games", headers={"Authorization": "Bearer from-env"}).status_code == 200
        assert client.get("/api/lab/games", headers=AUTH).status_code == 401


def test_content_is_the_base_files_with_json_schemas(make_client: ClientFactory, sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url) as client:
        games = client.get("/api/lab/games", headers=AUTH).json()["games"]
        assert {"witch", "arena"} <= {g["id"] for g in games}
        body = client.get("/api/lab/games/witch/content", headers=AUTH).json()
        assert body["files"]["content"]["blood_stones"] == 42
        schema = body["schemas"]["content"]
        assert "$defs" in schema
        assert "blood_stones" in schema["$defs"]["ContentFile"]["properties"]
        arena = client.get("/api/lab/games/arena/content", headers=AUTH).json()
        assert set(arena["files"]) == {"champions", "bosses", "skirmish", "environmentals", "env_cards", "arena",
                                       "rules"}
        assert client.get("/api/lab/games/chess/content", headers=AUTH).status_code == 404


def test_invalid_content_is_422_with_field_paths_and_nothing_saved(make_client: ClientFactory,
                                                                     sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url) as client:
        content = witch_content(client)
        content["content"]["blood_stones"] = -5
        r = client.post("/api/lab/variants", headers=AUTH, json={"game": "witch", "name": "bad", "content": content})
        assert r.status_code == 422
        errors = r.json()["error"]["details"]["errors"]
        assert [e["path"] for e in errors] == ["content.blood_stones"]
        assert client.get("/api/lab/variants", headers=AUTH).json()["variants"] == []


def test_variants_are_versioned_with_diffs_against_base_and_parent(make_client: ClientFactory, db_url: str) -> None:
    """On SQLite and PostgreSQL (migration 0004 on both)."""
    with lab_client(make_client, db_url) as client:
        base = witch_content(client)
        v1 = copy.deepcopy(base)
        v1["content"]["blood_stones"] = 50
        r1 = client.post("/api/lab/variants", headers=AUTH, json={"game": "witch", "name": "more blood", "content": v1})
        assert r1.status_code == 201, r1.text
        v2 = copy.deepcopy(v1)
        v2["content"]["blood_stones"] = 60
        r2 = client.post("/api/lab/variants", headers=AUTH, json={"game": "witch", "name": "more blood", "content": v2})
        second = r2.json()
        assert (second["version"], second["parent"]) == (2, r1.json()["id"])
        got = client.get(f"/api/lab/variants/{second['id']}", headers=AUTH).json()
        assert got["diff_base"] == [{"path": "content.blood_stones", "old": 42, "new": 60}]
        assert got["diff_parent"] == [{"path": "content.blood_stones", "old": 50, "new": 60}]
        f = client.get(f"/api/lab/variants/{second['id']}/files/content", headers=AUTH)
        assert f.json()["blood_stones"] == 60
        assert "attachment" in f.headers["content-disposition"]


def test_ab_experiment_runs_as_a_job_and_its_export_reproduces_with_lab_run(
    make_client: ClientFactory, sqlite_url: str, tmp_path: Path
) -> None:
    with lab_client(make_client, sqlite_url, lab_workers=2) as client:
        content = witch_content(client)
        content["content"]["blood_stones"] = 50
        vid = client.post("/api/lab/variants", headers=AUTH,
                          json={"game": "witch", "name": "more stones", "content": content}).json()["id"]
        r = client.post("/api/lab/experiments", headers=AUTH,
                        json={"game": "witch", "variant": vid, "agents": ["random"], "games": 3, "seed": 11})
        assert r.status_code == 202, r.text
        exp_id = r.json()["id"]
        with client.websocket_connect(f"/ws/lab/experiments/{exp_id}") as ws:
            ws.send_json({"token": TOKEN})
            messages = []
            while True:
                msg = ws.receive_json()
                messages.append(msg)
                if msg["status"] not in ("queued", "running"):
                    break
        done = messages[-1]
        assert done["status"] == "done", done
        assert done["done"] == 6
        assert done["total"] == 6
        summary = done["summary"]
        assert [v["name"] for v in summary["variants"]] == ["base", "more stones v1"]
        assert "p_value" in summary["variants"][1]["vs_first"]["0"]
        assert done["sentence"].startswith("Blood stones +8: ")
        assert wait_done(client, exp_id)["summary"] == summary  # kept in the database
        config = client.get(f"/api/lab/experiments/{exp_id}/config", headers=AUTH)
        path = tmp_path / "exported.json"
        path.write_text(config.text, encoding="utf-8")
    out = tmp_path / "result.json"
    result = CliRunner().invoke(cli_app, ["lab", "run", str(path), "--out", str(out), "--backend", "local"])
    assert result.exit_code == 0, result.output
    again = json.loads(out.read_text(encoding="utf-8"))["summary"]
    assert again == {k: v for k, v in summary.items() if k != "seat_roles"}


def test_jobs_per_operator_are_limited_and_cancel_stops_one(make_client: ClientFactory, sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url, lab_jobs_per_operator=1, lab_workers=1) as client:
        vid = client.post("/api/lab/variants", headers=AUTH,
                          json={"game": "witch", "name": "same", "content": witch_content(client)}).json()["id"]
        body = {"game": "witch", "variant": vid, "agents": ["random"], "games": 500, "seed": 0}
        first = client.post("/api/lab/experiments", headers=AUTH, json=body)
        assert first.status_code == 202
        second = client.post("/api/lab/experiments", headers=AUTH, json=body)
        assert second.status_code == 429
        assert second.json()["error"]["code"] == "lab/too_many_jobs"
        exp_id = first.json()["id"]
        assert client.delete(f"/api/lab/experiments/{exp_id}", headers=AUTH).status_code == 200
        end = wait_done(client, exp_id, timeout=60)
        assert end["status"] == "cancelled"
        assert end["done"] < 1000
        assert end["summary"] is None
        assert client.post("/api/lab/experiments", headers=AUTH, json={**body, "games": 1}).status_code == 202


def test_what_changed_sentence_names_edit_seat_rates_interval_and_p() -> None:
    summary = {"variants": [
        {"seats": {"0": {"rate": 0.25, "low": 0.2, "high": 0.3}, "1": {"rate": 0.75, "low": 0.7, "high": 0.8}}},
        {"seats": {"0": {"rate": 0.41, "low": 0.35, "high": 0.47}, "1": {"rate": 0.59, "low": 0.53, "high": 0.65}},
         "vs_first": {"0": {"diff": 0.16, "p_value": 0.0002}, "1": {"diff": -0.16, "p_value": 0.0002}}},
    ]}
    changes = [{"path": "bosses[id=malvarra].hp", "old": 150, "new": 170}]
    assert what_changed(changes, summary, ["Boss", "Champion"]) == (
        "Malvarra HP +20: Boss win rate 0.25 -> 0.41 [0.35, 0.47], p < 0.001")


def test_what_changed_words_for_snake_case_keys() -> None:
    summary = {"variants": [{"seats": {"0": {"rate": 0.5, "low": 0.1, "high": 0.9}}},
                            {"seats": {"0": {"rate": 0.5, "low": 0.1, "high": 0.9}},
                             "vs_first": {"0": {"diff": 0.0, "p_value": 1.0}}}]}
    changes = [{"path": "bosses[id=malvarra].hp_base", "old": 70, "new": 90},
               {"path": "content.blood_stones", "old": 42, "new": 40}]
    assert what_changed(changes, summary, [""]) == (
        "Malvarra HP base +20, Blood stones -2: Seat 1 win rate 0.50 -> 0.50 [0.10, 0.90], p = 1")


def test_token_is_printed_at_start_when_none_is_given(make_client: ClientFactory, sqlite_url: str,
                                                       capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BLOODFORGE_LAB_TOKEN", raising=False)
    with make_client(sqlite_url, lab=True) as client:
        printed = capsys.readouterr().out
        token = printed.split("lab operator token: ", 1)[1].split()[0]
        assert len(token) >= 24
        assert client.get("/api/lab/games", headers={"Authorization": f"Bearer {token}"}).status_code == 200


def test_content_the_game_itself_refuses_is_422_and_not_saved(make_client: ClientFactory, sqlite_url: str) -> None:
    """The models accept 30 stones, but the game's own check (the cards start with 42) does not."""
    with lab_client(make_client, sqlite_url) as client:
        content = witch_content(client)
        content["content"]["blood_stones"] = 30
        r = client.post("/api/lab/variants", headers=AUTH, json={"game": "witch", "name": "few", "content": content})
        assert r.status_code == 422
        message = r.json()["error"]["message"]
        assert "box has 30" in message
        assert "/tmp" not in message  # no server path in the answer
        assert client.get("/api/lab/variants", headers=AUTH).json()["variants"] == []


def test_arena_content_variant_is_validated_per_file_with_diffs_by_id(make_client: ClientFactory,
                                                                       sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url) as client:
        files = client.get("/api/lab/games/arena/content", headers=AUTH).json()["files"]
        bad = copy.deepcopy(files)
        bad["bosses"][0]["hp_base"] = "lots"
        r = client.post("/api/lab/variants", headers=AUTH, json={"game": "arena", "name": "x", "content": bad})
        assert r.status_code == 422
        assert [e["path"] for e in r.json()["error"]["details"]["errors"]] == ["bosses.0.hp_base"]
        good = copy.deepcopy(files)
        boss = good["bosses"][0]
        boss["hp_base"] += 20
        vid = client.post("/api/lab/variants", headers=AUTH,
                          json={"game": "arena", "name": "tough", "content": good}).json()["id"]
        diff = client.get(f"/api/lab/variants/{vid}", headers=AUTH).json()["diff_base"]
        assert diff == [{"path": f"bosses[id={boss['id']}].hp_base", "old": boss["hp_base"] - 20,
                         "new": boss["hp_base"]}]


def test_a_path_in_the_content_is_never_opened(make_client: ClientFactory, sqlite_url: str) -> None:
    """Variants are content: a request naming a file (as the lab's `files:` do) is refused."""
    with lab_client(make_client, sqlite_url) as client:
        r = client.post("/api/lab/variants", headers=AUTH,
                        json={"game": "witch", "name": "x", "content": {"content": "/etc/passwd"}})
        assert r.status_code == 422
        assert "root:" not in r.text


def test_playtest_table_plays_the_variant_names_it_and_shows_no_path(make_client: ClientFactory,
                                                                      sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url) as client:
        content = witch_content(client)
        content["content"]["blood_stones"] = 50
        vid = client.post("/api/lab/variants", headers=AUTH,
                          json={"game": "witch", "name": "more stones", "content": content}).json()["id"]
        assert client.post(f"/api/lab/variants/{vid}/playtest", json={}).status_code == 401
        r = client.post(f"/api/lab/variants/{vid}/playtest", headers=AUTH, json={})
        assert r.status_code == 201, r.text
        created = r.json()
        table_id = created["table"]
        assert [link["seat"] for link in created["links"]] == [0]  # you, and the AI in the other seat
        live = client.app.state.manager.tables[table_id]
        assert live.game.content.data.blood_stones == 50
        public = client.get(f"/api/tables/{table_id}").json()
        assert public["name"] == "Playtest of more stones (version 1)"
        assert "content" not in public["params"]
        assert "/" not in json.dumps(public["params"])
    with lab_client(make_client, sqlite_url) as client:  # a restart rebuilds it from the database
        assert client.get(f"/api/tables/{table_id}").json()["name"] == "Playtest of more stones (version 1)"
        assert client.app.state.manager.tables[table_id].game.content.data.blood_stones == 50


def test_serve_has_a_lab_flag_off_by_default() -> None:
    result = CliRunner().invoke(cli_app, ["serve", "--help"])
    assert result.exit_code == 0
    assert "--lab" in result.output


def test_an_experiment_left_running_by_a_stopped_server_ends_as_failed(make_client: ClientFactory,
                                                                        sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url) as client:
        vid = client.post("/api/lab/variants", headers=AUTH,
                          json={"game": "witch", "name": "same", "content": witch_content(client)}).json()["id"]
        with client.app.state.workbench.sessions.begin() as s:  # what a killed server leaves behind
            s.add(LabExperimentRow(id="orphan", kind="ab", game="witch", variant_id=vid, config={}, status="running",
                                   done=3, total=10, operator="x"))
        assert client.get("/api/lab/experiments/orphan", headers=AUTH).json()["status"] == "running"
    with lab_client(make_client, sqlite_url) as client:
        end = client.get("/api/lab/experiments/orphan", headers=AUTH).json()
        assert end["status"] == "failed"
        assert "server stopped" in end["error"]


def test_an_experiment_that_cannot_run_is_refused_at_once(make_client: ClientFactory, sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url) as client:
        vid = client.post("/api/lab/variants", headers=AUTH,
                          json={"game": "witch", "name": "same", "content": witch_content(client)}).json()["id"]
        body = {"game": "witch", "variant": vid, "agents": ["greedy"], "games": 2, "seed": 0}
        r = client.post("/api/lab/experiments", headers=AUTH, json={**body, "agents": ["nobody"]})
        assert r.status_code == 422
        assert "unknown agent" in r.json()["error"]["message"]
        r = client.post("/api/lab/experiments", headers=AUTH, json={**body, "agents": ["greedy", "greedy", "random"]})
        assert r.status_code == 422
        r = client.post("/api/lab/experiments", headers=AUTH, json={**body, "game": "arena"})
        assert r.status_code == 422
        assert client.app.state.workbench.jobs == {}


def test_progress_websocket_refuses_a_wrong_token(make_client: ClientFactory, sqlite_url: str) -> None:
    with lab_client(make_client, sqlite_url) as client, client.websocket_connect("/ws/lab/experiments/x") as ws:
        ws.send_json({"token": "wrong"})
        assert ws.receive_json()["error"]["code"] == "lab/unauthorized"
    # without --lab there is no such websocket
    with make_client(sqlite_url) as client, pytest.raises(WebSocketDisconnect), \
            client.websocket_connect("/ws/lab/experiments/x") as ws:
        ws.receive_json()


def test_diff_matches_list_entries_by_id_so_reordering_is_no_change() -> None:
    old = {"units": [{"id": "a", "hp": 1}, {"id": "b", "hp": 2}], "tags": [1, 2]}
    assert diff_content(old, {"units": [{"id": "b", "hp": 2}, {"id": "a", "hp": 1}], "tags": [1, 2]}) == []
    new = {"units": [{"id": "b", "hp": 3}, {"id": "c", "hp": 1}], "tags": [1, 2, 3]}
    assert diff_content(old, new) == [
        {"path": "units[id=a]", "old": {"id": "a", "hp": 1}, "new": None},
        {"path": "units[id=b].hp", "old": 2, "new": 3},
        {"path": "units[id=c]", "old": None, "new": {"id": "c", "hp": 1}},
        {"path": "tags", "old": [1, 2], "new": [1, 2, 3]},
    ]
