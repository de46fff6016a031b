"""Concurrency over real sockets: simultaneous submissions, one wins; AI never blocks others."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from bloodforge.agents import register_agent
from bloodforge.agents.random_agent import RandomAgent
from bloodforge.core import Action, State
from bloodforge.server.config import Settings

from .support import ServerThread, auth, create_table


@pytest.fixture
def server(db_url: str) -> Iterator[ServerThread]:
    with ServerThread(Settings(db_url=db_url, ai_delay=0.0, ai_time_budget=0.3)) as s:
        yield s


def test_two_simultaneous_submissions_one_wins(server: ServerThread) -> None:
    with httpx.Client(base_url=server.url) as client:
        data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
        tid = data["table"]["id"]
        tokens = {link["seat"]: link["token"] for link in data["links"]}
        for version in range(8):
            seat = client.get(f"/api/tables/{tid}/state").json()["current_player"]
            legal = client.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(tokens[seat])).json()["legal"]
            barrier = threading.Barrier(2)
            results: list[int] = []

            def submit(
                action: str, seat: int = seat, version: int = version,
                barrier: threading.Barrier = barrier, results: list[int] = results,
            ) -> None:
                with httpx.Client(base_url=server.url) as c:
                    barrier.wait()
                    r = c.post(f"/api/tables/{tid}/actions", json={"seat": seat, "action": action, "version": version},
                               headers=auth(tokens[seat]))
                    results.append(r.status_code)
                    if r.status_code != 200:
                        assert r.json()["error"]["code"] == "action/stale"

            threads = [threading.Thread(target=submit, args=(a,)) for a in (legal[0], legal[-1])]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(results) == [200, 409]
        assert client.get(f"/api/tables/{tid}").json()["ply"] == 8


class SleepyAgent(RandomAgent):
    """An agent far over its time budget: the server must play on without it."""

    name = "sleepy"

    def select_action(self, state: State) -> Action:
        time.sleep(2.0)
        return super().select_action(state)


def test_a_slow_ai_keeps_its_time_budget_and_blocks_no_one(server: ServerThread) -> None:
    register_agent("sleepy", SleepyAgent)
    with httpx.Client(base_url=server.url) as client:
        slow = create_table(client, seats=[{"kind": "agent", "agent": "sleepy"}, {"kind": "agent", "agent": "sleepy"}])
        t0 = time.monotonic()
        fast = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
        tid = fast["table"]["id"]
        token = {link["seat"]: link["token"] for link in fast["links"]}
        seat = client.get(f"/api/tables/{tid}/state").json()["current_player"]
        legal = client.get(f"/api/tables/{tid}/state?seat={seat}", headers=auth(token[seat])).json()["legal"]
        r = client.post(f"/api/tables/{tid}/actions", json={"seat": seat, "action": legal[0], "version": 0},
                        headers=auth(token[seat]))
        assert r.status_code == 200
        # a server blocked by the sleepy agent would answer after its 2 s sleep; four requests
        # on a busy 2-core CI machine once took 1.08 s, so the bound sits between the two
        assert time.monotonic() - t0 < 1.8
        time.sleep(1.2)
        ply = client.get(f"/api/tables/{slow['table']['id']}").json()["ply"]
        assert ply >= 2, "over-budget moves are replaced by random legal ones after 0.3 s"


def test_hostile_websocket_input_is_cut_off_and_the_server_lives_on(server: ServerThread) -> None:
    import json

    from websockets.exceptions import ConnectionClosed
    from websockets.sync.client import connect

    with httpx.Client(base_url=server.url) as client:
        data = create_table(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    tid = data["table"]["id"]
    ws_url = server.url.replace("http", "ws") + f"/ws/tables/{tid}"
    with connect(ws_url) as ws:  # a 1 MB message: over the 64 KiB cap
        ws.send(json.dumps({"type": "hello", "seat": None, "junk": "x" * 1_000_000}))
        with pytest.raises(ConnectionClosed):
            ws.recv(timeout=10)
    with connect(ws_url) as ws:  # a first message that is not a hello
        ws.send("[]")
        reply = json.loads(ws.recv(timeout=10))
        assert reply["error"]["code"] == "request/invalid"
    with httpx.Client(base_url=server.url) as client:
        assert client.get("/api/health").json()["status"] == "ok"
        assert client.get(f"/api/tables/{tid}").json()["ply"] == 0
