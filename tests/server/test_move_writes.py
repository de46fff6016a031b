"""How a move reaches SQLite (issue 19, CPU per move): on the event loop when SQLite's write
lock is free, from the writer thread when it is not; either way committed before anyone is
told, stored exactly as the Core statements store it, and still there after a kill -9."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

from bloodforge.server.db import make_engine, make_sessionmaker
from bloodforge.server.migrate import upgrade_to_head
from bloodforge.server.store import SeatSpec, StaleWrite, Store

from .support import ServerThread, auth, create_table, free_port, serving_process_holds


def _store(path: Path) -> Store:
    engine = make_engine(f"sqlite:///{path}")
    upgrade_to_head(engine)
    store = Store(make_sessionmaker(engine))
    store.create_table(
        table_id="t1", name="x", game="bloodstones", game_version=1, params={}, seed=1, scenario=None,
        seats=[SeatSpec(0, "Ann", "human", None, None, "h" * 64)], entries=[(None, "start")], actors=[0],
        result=None, turn_clock=None, deadlines=None,
    )
    return store


def _rows(path: Path) -> tuple[list[Any], list[Any]]:
    with sqlite3.connect(path) as db:
        table = db.execute("SELECT ply, to_move, actors, deadlines, status, result, typeof(result), "
                           "length(updated_at) FROM tables").fetchall()
        actions = db.execute("SELECT ply, seat, text, length(created_at) FROM actions ORDER BY ply").fetchall()
    return table, actions


def _two_moves(store: Store, write: str) -> None:
    moves: list[dict[str, Any]] = [
        {"ply": 1, "entries": [(0, "a b"), (None, "step é")], "actors": [0, 1], "result": None, "deadlines": {}},
        {"ply": 3, "entries": [(1, "c")], "actors": [], "result": {"scores": [1, 2.5]},
         "deadlines": {"0": {"at": 5, "kind": "turn"}}},
    ]
    for move in moves:
        if write == "now":
            assert store.append_now(table_id="t1", take_over=None, **move)
        else:
            store.append_entries(table_id="t1", **move)


def test_each_way_of_writing_a_move_stores_the_same_rows(tmp_path: Path) -> None:
    """The event loop's and the writer thread's DBAPI statements against SQLAlchemy's Core ones."""
    stored = {}
    for way in ("now", "thread", "core"):
        path = tmp_path / f"{way}.sqlite3"
        store = _store(path)
        if way == "core":
            store.close()
            store._fast = store._now = None  # the Core statements (PostgreSQL's path)
        _two_moves(store, "now" if way == "now" else "thread")
        stored[way] = _rows(path)
        assert store.entries(table_id="t1") == [(None, "start"), (0, "a b"), (None, "step é"), (1, "c")]
        store.close()
    assert stored["now"] == stored["thread"] == stored["core"]
    assert stored["now"][0] == [(4, None, "[]", '{"0": {"at": 5, "kind": "turn"}}', "over",
                                 '{"scores": [1, 2.5]}', "text", 26)]


def test_a_move_for_a_ply_already_written_is_stale_on_every_path(tmp_path: Path) -> None:
    store = _store(tmp_path / "db.sqlite3")
    _two_moves(store, "now")
    for write in (store.append_now, store.append_entries):
        try:
            write(table_id="t1", ply=3, entries=[(0, "again")], actors=[], result=None, deadlines={},
                  take_over=None)
        except StaleWrite:
            pass
        else:
            raise AssertionError(f"{write.__name__} wrote ply 3 twice")
    assert len(store.entries(table_id="t1")) == 4
    store.close()


def test_the_event_loop_never_waits_for_a_sqlite_lock_held_elsewhere(tmp_path: Path) -> None:
    """A move made while another connection holds SQLite's write lock is not written on the
    event loop (which would stop every table) but by the writer thread, once the lock is free;
    health answers meanwhile, and the move is committed before it is acknowledged."""
    from bloodforge.server.config import Settings

    path = tmp_path / "db.sqlite3"
    with ServerThread(Settings(db_url=f"sqlite:///{path}", ai_delay=0.0)) as server, \
            httpx.Client(base_url=server.url, timeout=30) as http:
        data = create_table(http, seats=[{"name": "Ann"}, {"name": "Bob"}])
        tid = data["table"]["id"]
        tokens = {link["seat"]: link["token"] for link in data["links"]}
        state = http.get(f"/api/tables/{tid}/state").json()
        seat = state["current_player"]
        legal = http.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()["legal"]
        locker = sqlite3.connect(path, timeout=5, isolation_level=None)
        locker.execute("BEGIN IMMEDIATE")  # SQLite's one write lock, held by someone else
        replies: list[httpx.Response] = []
        body = {"seat": seat, "action": legal[0], "version": state["version"]}
        mover = threading.Thread(target=lambda: replies.append(
            http.post(f"/api/tables/{tid}/actions", json=body, headers=auth(tokens[seat]))))
        mover.start()
        time.sleep(0.5)
        started = time.monotonic()
        assert http.get("/api/health").status_code == 200
        assert time.monotonic() - started < 1.0, "the event loop waited for the lock"
        assert not replies, "acknowledged before it could be committed"
        locker.execute("ROLLBACK")
        locker.close()
        mover.join(timeout=30)
        assert replies, "the move was never answered"
        assert replies[0].status_code == 200, replies[0].text
        assert replies[0].json()["version"] == state["version"] + 1
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM actions WHERE table_id = ?", (tid,)).fetchone()[0] == \
            state["version"] + 1


def test_acknowledged_moves_survive_a_kill_9(tmp_path: Path) -> None:
    """`serve` on SQLite: every move acknowledged before a SIGKILL is in the database after it."""
    path = tmp_path / "db.sqlite3"
    port = free_port()
    code = ("from bloodforge.server.runner import serve; "
            f"serve(host='127.0.0.1', port={port}, db_url={f'sqlite:///{path}'!r}, ai_delay=0.0)")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    acked: list[str] = []
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30) as http:
            deadline = time.monotonic() + 60
            while True:
                try:
                    http.get("/api/health").raise_for_status()
                    break
                except httpx.HTTPError:
                    assert proc.poll() is None, "serve did not start"
                    assert time.monotonic() < deadline, "serve did not start"
                    time.sleep(0.1)
            assert serving_process_holds(proc.pid, port), "another process answers on the port"
            data = create_table(http, seats=[{"name": "Ann"}, {"name": "Bob"}])
            tid = data["table"]["id"]
            tokens = {link["seat"]: link["token"] for link in data["links"]}
            version = http.get(f"/api/tables/{tid}").json()["ply"]
            for i in range(12):
                seat = http.get(f"/api/tables/{tid}/state").json()["current_player"]
                legal = http.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()["legal"]
                r = http.post(f"/api/tables/{tid}/actions", json={"seat": seat, "action": legal[i % len(legal)],
                                                                   "version": version}, headers=auth(tokens[seat]))
                assert r.status_code == 200, r.text
                version = r.json()["version"]
                acked.append(r.json()["action"])
            os.kill(proc.pid, signal.SIGKILL)  # no shutdown, no checkpoint, no goodbye
            proc.wait(timeout=20)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=20)
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT ply, seat, text FROM actions WHERE table_id = ? ORDER BY ply", (tid,)).fetchall()
        ply = db.execute("SELECT ply FROM tables WHERE id = ?", (tid,)).fetchone()[0]
    assert ply == version == len(rows)
    assert [text for _ply, seat, text in rows if seat is not None] == acked


def test_moves_written_on_the_event_loop_leave_the_checkpoint_to_the_writer_thread(tmp_path: Path) -> None:
    """The loop's connection never copies the write-ahead log into the database (that waits
    for the disk); `Store.checkpoint`, which the table manager runs in its writer thread every
    CHECKPOINT_EVERY moves, copies all of it."""
    path = tmp_path / "db.sqlite3"
    store = _store(path)
    for ply in range(1, 40):
        assert store.append_now(table_id="t1", ply=ply, entries=[(0, f"move {ply}")], actors=[0], result=None,
                                deadlines={}, take_over=None)
    with sqlite3.connect(path) as db:
        assert db.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 1000  # others keep SQLite's default
    assert store._now is not None
    assert store._now.conn.dbapi_connection.execute("PRAGMA wal_autocheckpoint").fetchone()[0] == 0
    frames, copied = store.checkpoint()
    assert frames > 0
    assert copied == frames
    store.close()
