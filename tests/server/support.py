"""Test support: a real server on a free port, a throwaway PostgreSQL cluster, API helpers."""

from __future__ import annotations

import contextlib
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
from glob import glob
from pathlib import Path
from typing import Any

import httpx
import uvicorn

from bloodforge.server.app import create_app
from bloodforge.server.config import Settings
from bloodforge.server.runner import uvicorn_config


def free_port() -> int:
    """A port free now. Another process may take it before the caller binds it (a `serve`
    subprocess needs seconds to start): callers that start a server check with
    `serving_process_holds` that the server answering is theirs."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _listening_inodes(port: int) -> set[str]:
    """The socket inodes listening on TCP `port` in this network namespace (Linux /proc)."""
    inodes: set[str] = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        with contextlib.suppress(OSError), open(table, encoding="ascii") as f:
            next(f, None)
            for line in f:
                fields = line.split()
                if len(fields) > 9 and fields[3] == "0A" and int(fields[1].rsplit(":", 1)[1], 16) == port:
                    inodes.add(fields[9])
    return inodes


def serving_process_holds(pid: int, port: int) -> bool:
    """Whether process `pid` holds the socket listening on `port`. *Why:* between `free_port`
    and a server's bind another test's server may take the port; the health check then reaches
    that server, and the test talks to a stranger that its own test stops under it (seen once:
    a lobby socket closed with 1012, "service restart", mid-test)."""
    wanted = {f"socket:[{inode}]" for inode in _listening_inodes(port)}
    if not wanted:
        return False
    fd_dir = f"/proc/{pid}/fd"
    with contextlib.suppress(OSError):
        for fd in os.listdir(fd_dir):
            with contextlib.suppress(OSError):
                if os.readlink(f"{fd_dir}/{fd}") in wanted:
                    return True
    return False


class ServerThread:
    """uvicorn serving `create_app(settings)` on 127.0.0.1 in a thread: real sockets, real
    websockets, as a browser or the load benchmark meets them."""

    def __init__(self, settings: Settings | None = None, *, forwarded_allow_ips: str | None = None,
                 app: Any = None) -> None:
        """Serves `create_app(settings)`, or `app` (any ASGI app) when given."""
        # Port 0: the kernel picks a free port at the bind itself, so no other test's server
        # can take it between a look-up and the bind; `port` and `url` are known once started.
        if app is None:
            assert settings is not None, "ServerThread needs settings or an app"
            app = create_app(settings)
        config = uvicorn_config(app, host="127.0.0.1", port=0,
                                forwarded_allow_ips=forwarded_allow_ips)  # as `bloodforge serve` runs it
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.port = 0
        self.url = ""

    def __enter__(self) -> ServerThread:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        self.port = int(self.server.servers[0].sockets[0].getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=20)


# -- PostgreSQL --------------------------------------------------------------------------------
class PgCluster:
    """A throwaway PostgreSQL server from Debian's binaries in a temp dir, on a free port.

    Run as the `postgres` system user when the tests run as root (PostgreSQL refuses root)."""

    def __init__(self) -> None:
        bins = sorted(glob("/usr/lib/postgresql/*/bin/initdb"))
        if not bins:
            found = shutil.which("initdb")
            if not found:
                raise RuntimeError(
                    "PostgreSQL is not installed: run `bash .ci/run` (it installs Debian's postgresql) "
                    "or set BLOODFORGE_TEST_PG_URL"
                )
            bins = [found]
        self.bindir = Path(bins[-1]).parent
        self.port = free_port()
        self.dir = Path(tempfile.mkdtemp(prefix="bloodforge-pg-"))
        self.as_user: list[str] = []
        if os.geteuid() == 0:
            shutil.chown(self.dir, "postgres", "postgres")
            self.as_user = ["runuser", "-u", "postgres", "--"]

    def _run(self, *args: str) -> None:
        subprocess.run([*self.as_user, *args], check=True, capture_output=True, timeout=120)

    def start(self) -> str:
        """initdb, then the server on a port looked up just before it starts. *Why the retry:*
        another test's server may take the port between the look-up and the postmaster's bind
        (`free_port`); the postmaster then exits and `pg_ctl -w` fails, and a fresh port is
        tried (up to three), with the cluster's log in the error if all fail."""
        data = self.dir / "data"
        self._run(str(self.bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "postgres",
                  "--no-sync", "-E", "UTF8")
        log = self.dir / "log"
        for _attempt in range(3):
            self.port = free_port()
            opts = f"-p {self.port} -k {self.dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off"
            try:
                self._run(str(self.bindir / "pg_ctl"), "-D", str(data), "-o", opts, "-w", "-t", "60",
                          "-l", str(log), "start")
                return f"postgresql+psycopg://postgres@127.0.0.1:{self.port}/postgres"
            except subprocess.CalledProcessError:
                continue
        tail = log.read_text(errors="replace")[-4000:] if log.exists() else "(no log)"
        raise RuntimeError(f"PostgreSQL did not start on three ports; its log:\n{tail}")

    def stop(self) -> None:
        with contextlib.suppress(Exception):
            self._run(str(self.bindir / "pg_ctl"), "-D", str(self.dir / "data"), "-m", "immediate", "stop")
        shutil.rmtree(self.dir, ignore_errors=True)


def fresh_pg_database(admin_url: str) -> str:
    """An empty database for one test: the shared test database with its schema dropped and
    made anew (much cheaper than a database per test, which fills the cluster's WAL)."""
    import psycopg

    plain = admin_url.replace("postgresql+psycopg://", "postgresql://")
    base, _, _db = admin_url.rpartition("/")
    with psycopg.connect(plain, autocommit=True) as conn:
        exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = 'bloodforge_test'").fetchone()
        if not exists:
            conn.execute("CREATE DATABASE bloodforge_test")
    test_url = f"{base}/bloodforge_test"
    with psycopg.connect(test_url.replace("postgresql+psycopg://", "postgresql://"), autocommit=True) as conn:
        conn.execute("SET lock_timeout = '10s'")
        conn.execute("DROP SCHEMA public CASCADE")
        conn.execute("CREATE SCHEMA public")
    return test_url


# -- API helpers -------------------------------------------------------------------------------
def create_table(client: httpx.Client | Any, **body: Any) -> dict[str, Any]:
    body.setdefault("game", "bloodstones")
    body.setdefault("params", {"players": 2})
    body.setdefault("seed", 11)
    r = client.post("/api/tables", json={k: v for k, v in body.items() if v is not None})
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}
