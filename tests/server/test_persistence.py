"""Persistence: the database log is the truth; a restarted server resumes every table exactly."""

from __future__ import annotations

import time
from typing import Any

import pytest
from sqlalchemy import create_engine, inspect, text

import bloodforge
from bloodforge.server.db import make_engine
from bloodforge.server.migrate import alembic_config, upgrade_to_head
from bloodforge.server.models import Base

from .conftest import ClientFactory
from .support import auth, create_table


def head_revision() -> str:
    """The newest migration (later ones are added by other work; the tests follow them)."""
    from alembic.script import ScriptDirectory

    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert head is not None
    return head


def test_restart_resumes_the_same_position(make_client: ClientFactory, db_url: str) -> None:
    with make_client(db_url) as client:
        data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
        tid = data["table"]["id"]
        tokens = {link["seat"]: link["token"] for link in data["links"]}
        for v in range(25):
            seat = client.get(f"/api/tables/{tid}/state").json()["current_player"]
            legal = client.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()["legal"]
            r = client.post(f"/api/tables/{tid}/actions", json={"seat": seat, "action": legal[v % len(legal)],
                                                                 "version": v}, headers=auth(tokens[seat]))
            assert r.status_code == 200
        before = {s: client.get(f"/api/tables/{tid}/state?seat={s}", headers=auth(t)).json() for s, t in tokens.items()}
    with make_client(db_url) as client:  # a new process: nothing in memory
        after = {s: client.get(f"/api/tables/{tid}/state?seat={s}", headers=auth(t)).json() for s, t in tokens.items()}
        for s in tokens:
            assert after[s]["version"] == 25
            assert after[s]["observation"] == before[s]["observation"]
            assert after[s]["legal"] == before[s]["legal"]
            assert after[s]["log"] == before[s]["log"]


def test_ai_seats_resume_by_themselves_after_a_restart(make_client: ClientFactory, db_url: str) -> None:
    seats = [{"kind": "agent", "agent": "random"}, {"kind": "agent", "agent": "random"}]
    with make_client(db_url, ai_delay=0.01) as client:
        tid = create_table(client, seats=seats)["table"]["id"]
        time.sleep(0.3)
        stopped_at = client.get(f"/api/tables/{tid}").json()
    assert stopped_at["status"] == "playing"
    assert stopped_at["ply"] > 0
    with make_client(db_url) as client:
        deadline = time.monotonic() + 60
        table: dict[str, Any] = client.get(f"/api/tables/{tid}").json()
        while table["status"] != "over" and time.monotonic() < deadline:
            time.sleep(0.1)
            table = client.get(f"/api/tables/{tid}").json()
        assert table["status"] == "over"
        assert table["ply"] > stopped_at["ply"]
        hist = client.get(f"/api/tables/{tid}/history").json()
    replay = bloodforge.load_game("bloodstones", players=2, seed=11).new_initial_state()
    for h in hist:
        replay.apply(h["action"])
    assert replay.is_terminal()
    assert replay.scores() == table["result"]["scores"]


def test_two_servers_on_one_database_cannot_both_write_a_ply(make_client: ClientFactory, db_url: str) -> None:
    """The unique (table, ply) key and the ply guard refuse the second writer, across processes."""
    with make_client(db_url) as a, make_client(db_url) as b:
        data = create_table(a, seats=[{"name": "Ann"}, {"name": "Bob"}])
        tid = data["table"]["id"]
        tokens = {link["seat"]: link["token"] for link in data["links"]}
        seat = a.get(f"/api/tables/{tid}/state").json()["current_player"]
        legal = b.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()["legal"]
        body = {"seat": seat, "version": 0}
        ra = a.post(f"/api/tables/{tid}/actions", json={**body, "action": legal[0]}, headers=auth(tokens[seat]))
        rb = b.post(f"/api/tables/{tid}/actions", json={**body, "action": legal[-1]}, headers=auth(tokens[seat]))
        assert ra.status_code == 200
        assert rb.status_code == 409
        assert rb.json()["error"]["code"] == "action/stale"
        # b dropped its stale copy: it now serves what a committed
        assert b.get(f"/api/tables/{tid}/state").json()["version"] == 1
        assert b.get(f"/api/tables/{tid}/history").json()[0]["seat"] == seat


def test_migrations_match_the_models(db_url: str) -> None:
    """`upgrade head` builds exactly the schema the ORM models describe (no missing migration)."""
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    engine = make_engine(db_url)
    upgrade_to_head(engine)
    upgrade_to_head(engine)  # idempotent
    with engine.connect() as conn:
        diff = compare_metadata(MigrationContext.configure(conn), Base.metadata)
        assert diff == [], diff
        assert set(inspect(conn).get_table_names()) >= {"tables", "seats", "actions", "alembic_version"}
        head = alembic_config().get_main_option("script_location")
        assert head
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
    engine.dispose()


def test_serve_creates_and_migrates_the_default_sqlite_file(tmp_path: Any, monkeypatch: Any) -> None:
    from bloodforge.server.config import default_db_url

    monkeypatch.delenv("DATABASE_URL", raising=False)
    url = default_db_url(tmp_path / "data")
    assert url.startswith("sqlite:///")
    assert (tmp_path / "data").is_dir()
    monkeypatch.setenv("DATABASE_URL", "postgres://u:p@db/x")
    assert default_db_url(tmp_path) == "postgresql+psycopg://u:p@db/x"
    engine = create_engine(url)
    upgrade_to_head(engine)
    assert "actions" in inspect(engine).get_table_names()
    engine.dispose()


def test_migration_0002_keeps_tables_written_under_0001(make_client: ClientFactory, db_url: str) -> None:
    """A database of yesterday's server (seat NOT NULL, no actors or clocks) upgrades in place
    and its tables play on."""
    from alembic import command

    from bloodforge.server.newtable import hash_token

    engine = make_engine(db_url)
    cfg = alembic_config()
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, "0001")
    first = bloodforge.load_game("bloodstones", players=2, seed=11).new_initial_state()
    seat = first.current_player
    action = str(first.legal_actions()[0])
    now = "2026-11-22 10:00:00+00:00"
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO tables (id, name, game, game_version, params, seed, created_at, updated_at, ply, to_move,"
            " status) VALUES ('old', 'Old', 'bloodstones', 1, :params, 11, :now, :now, 1, :to_move, 'playing')"
        ), {"params": '{"players": 2}', "now": now, "to_move": 1 - (seat or 0)})
        for s in (0, 1):
            conn.execute(text("INSERT INTO seats (table_id, seat, name, kind, token_hash) VALUES"
                              " ('old', :s, :name, 'human', :hash)"),
                         {"s": s, "name": f"P{s}", "hash": hash_token(f"token{s}")})
        conn.execute(text("INSERT INTO actions (table_id, ply, seat, text, created_at) VALUES"
                          " ('old', 0, :seat, :text, :now)"), {"seat": seat, "text": action, "now": now})
    engine.dispose()
    with make_client(db_url) as client:  # migrates to head on start
        view = client.get("/api/tables/old/state").json()
        first.apply(action)
        assert view["version"] == 1
        assert view["observation"] == first.observation(None)
        assert client.get("/api/tables/old/history").json() == [{"ply": 0, "seat": seat, "action": None}]
        mover = first.current_player
        assert mover is not None
        legal = client.get(f"/api/tables/old/state?seat={mover}", headers=auth(f"token{mover}")).json()["legal"]
        r = client.post("/api/tables/old/actions", json={"seat": mover, "action": legal[0], "version": 1},
                        headers=auth(f"token{mover}"))
        assert r.status_code == 200, r.text
    engine = make_engine(db_url)
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
    engine.dispose()


def test_migration_0002_downgrades_unless_games_took_their_own_steps(db_url: str) -> None:
    from alembic import command

    engine = make_engine(db_url)
    cfg = alembic_config()

    def run(step: str, target: str) -> None:
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            getattr(command, step)(cfg, target)

    run("upgrade", "head")
    with engine.begin() as conn:  # a table of people, written under 0002, survives the round trip
        conn.execute(text(
            "INSERT INTO tables (id, name, game, game_version, params, seed, created_at, updated_at, ply, status)"
            " VALUES ('p', 'P', 'bloodstones', 1, '{}', 1, '2026-11-23 10:00:00+00:00', '2026-11-23 10:00:00+00:00',"
            " 1, 'playing')"))
        conn.execute(text("INSERT INTO seats (table_id, seat, name, kind) VALUES ('p', 0, 'Ann', 'human')"))
        conn.execute(text("INSERT INTO actions (table_id, ply, seat, text, created_at)"
                          " VALUES ('p', 0, 0, 'done', '2026-11-23 10:00:00+00:00')"))
    run("downgrade", "0001")
    run("upgrade", "head")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM seats")).scalar() == 1
        assert conn.execute(text("SELECT seat, text FROM actions")).one() == (0, "done")
    with engine.begin() as conn:
        conn.execute(text(
            "INSERT INTO tables (id, name, game, game_version, params, seed, created_at, updated_at, ply, status)"
            " VALUES ('t', 'T', 'toy_bids', 1, '{}', 1, '2026-11-23 10:00:00+00:00', '2026-11-23 10:00:00+00:00', 1,"
            " 'playing')"))
        conn.execute(text("INSERT INTO actions (table_id, ply, seat, text, created_at)"
                          " VALUES ('t', 0, NULL, 'reveal', '2026-11-23 10:00:00+00:00')"))
    with pytest.raises(RuntimeError, match="games' own steps"):
        run("downgrade", "0001")
    with engine.connect() as conn:
        assert conn.execute(text("SELECT version_num FROM alembic_version")).scalar() == head_revision()
        assert conn.execute(text("SELECT count(*) FROM actions")).scalar() == 2
    engine.dispose()
