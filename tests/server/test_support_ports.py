"""The test servers' port checks: a server started on port 0 learns its port, and a process
that does not hold a port's listening socket is told apart from one that does."""

from __future__ import annotations

import os
import socket
import subprocess
import sys

import httpx

from bloodforge.server.config import Settings

from .support import ServerThread, free_port, serving_process_holds


def test_a_server_thread_binds_its_own_port_and_this_process_holds_it(sqlite_url: str) -> None:
    with ServerThread(Settings(db_url=sqlite_url, ai_delay=0.0)) as server:
        assert server.port > 0
        assert server.url.endswith(f":{server.port}")
        assert httpx.get(f"{server.url}/api/health").json()["status"] == "ok"
        assert serving_process_holds(os.getpid(), server.port)
        other = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
        try:
            assert not serving_process_holds(other.pid, server.port)
        finally:
            other.kill()
            other.wait()


def test_no_process_holds_a_port_nobody_listens_on() -> None:
    port = free_port()
    assert not serving_process_holds(os.getpid(), port)
    with socket.socket() as s:  # bound, not listening: no server there either
        s.bind(("127.0.0.1", port))
        assert not serving_process_holds(os.getpid(), port)
        s.listen()
        assert serving_process_holds(os.getpid(), port)
