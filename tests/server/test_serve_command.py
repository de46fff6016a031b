"""The newcomer's first command: `bloodforge serve` creates and migrates its database, prints
the address to open, and serves the lobby there."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import httpx

from .support import free_port, serving_process_holds

ENV_WITHOUT_DATABASE_URL = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}


def start_serve(port: int, data_dir: Path) -> subprocess.Popen[str]:
    """`bloodforge serve` as a newcomer runs it (no `$DATABASE_URL`), its output readable."""
    return subprocess.Popen(
        [sys.executable, "-m", "bloodforge.cli.main", "serve", "--port", str(port), "--data-dir", str(data_dir)],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=ENV_WITHOUT_DATABASE_URL,
    )


def address_line(proc: subprocess.Popen[str], seconds: float = 60) -> str:
    """The line naming the address to open ("" if none came within `seconds`)."""
    assert proc.stdout is not None
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if "open http://" in line:
            return line
        if not line and proc.poll() is not None:
            return ""
    return ""


def stop(proc: subprocess.Popen[str]) -> None:
    proc.terminate()
    proc.wait(timeout=20)


def test_serve_prints_the_address_and_serves_the_lobby(tmp_path: Path) -> None:
    port = free_port()
    proc = start_serve(port, tmp_path / "data")
    try:
        line = address_line(proc)
        assert f"open http://localhost:{port}/" in line, line
        page = httpx.get(f"http://127.0.0.1:{port}/")  # printed once it listens: it answers at once
        assert serving_process_holds(proc.pid, port), "another process answers on the port"
        assert page.status_code == 200
        assert "New table" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").json()["tables"] == 0
        assert (tmp_path / "data" / "bloodforge.sqlite3").exists()
    finally:
        stop(proc)


def test_a_second_serve_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    """Issue 19 item 10: a second server on one SQLite file would serve stale tables."""
    data = tmp_path / "data"
    first = start_serve(free_port(), data)
    try:
        assert address_line(first)
        second = subprocess.run(
            [sys.executable, "-m", "bloodforge.cli.main", "serve", "--port", str(free_port()), "--data-dir", str(data)],
            capture_output=True, text=True, env=ENV_WITHOUT_DATABASE_URL, timeout=60,
        )
        assert second.returncode == 1
        assert f"another bloodforge server (process {first.pid}) is already using" in second.stderr
        assert "PostgreSQL" in second.stderr
        assert "open http://" not in second.stdout
    finally:
        stop(first)
    again = start_serve(free_port(), data)  # the first one stopped: the file is free again
    try:
        assert address_line(again)
    finally:
        stop(again)


def test_serve_on_port_zero_prints_the_port_the_system_chose(tmp_path: Path) -> None:
    """`serve --port 0`: the address is printed once the server listens, with the real port."""
    proc = start_serve(0, tmp_path / "data")
    try:
        line = address_line(proc)
        found = re.search(r"open http://localhost:(\d+)/", line)
        assert found, line
        port = int(found.group(1))
        assert port != 0
        assert serving_process_holds(proc.pid, port)
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").json()["status"] == "ok"  # already listening
    finally:
        stop(proc)
