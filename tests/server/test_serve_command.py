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


def test_serve_prints_the_address_and_serves_the_lobby(tmp_path: Path) -> None:
    port = free_port()
    env_free = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bloodforge.cli.main", "serve", "--port", str(port),
         "--data-dir", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env_free,
    )
    try:
        assert proc.stdout is not None
        lines = []
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            line = proc.stdout.readline()
            lines.append(line)
            if "open http://" in line:
                break
        assert f"open http://localhost:{port}/" in "".join(lines), lines
        for _ in range(100):
            try:
                page = httpx.get(f"http://127.0.0.1:{port}/")
                break
            except httpx.HTTPError:
                time.sleep(0.1)
        assert serving_process_holds(proc.pid, port), "another process answers on the port"
        assert page.status_code == 200
        assert "New table" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").json()["tables"] == 0
        assert (tmp_path / "data" / "bloodforge.sqlite3").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def test_a_second_serve_on_the_same_sqlite_file_is_refused(tmp_path: Path) -> None:
    """Issue 19 item 10: a second server on one SQLite file would serve stale tables."""
    env_free = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    data = str(tmp_path / "data")
    first = subprocess.Popen(
        [sys.executable, "-m", "bloodforge.cli.main", "serve", "--port", str(free_port()), "--data-dir", data],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env_free,
    )
    try:
        assert first.stdout is not None
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and "open http://" not in first.stdout.readline():
            pass
        second = subprocess.run(
            [sys.executable, "-m", "bloodforge.cli.main", "serve", "--port", str(free_port()), "--data-dir", data],
            capture_output=True, text=True, env=env_free, timeout=60,
        )
        assert second.returncode == 1
        assert f"another bloodforge server (process {first.pid}) is already using" in second.stderr
        assert "PostgreSQL" in second.stderr
        assert "open http://" not in second.stdout
    finally:
        first.terminate()
        first.wait(timeout=20)
    again = subprocess.Popen(  # the first one stopped: the file is free again
        [sys.executable, "-m", "bloodforge.cli.main", "serve", "--port", str(free_port()), "--data-dir", data],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env_free,
    )
    try:
        assert again.stdout is not None
        deadline = time.monotonic() + 30
        seen = ""
        while time.monotonic() < deadline and "open http://" not in seen:
            seen = again.stdout.readline()
        assert "open http://" in seen
    finally:
        again.terminate()
        again.wait(timeout=20)


def test_serve_on_port_zero_prints_the_port_the_system_chose(tmp_path: Path) -> None:
    """`serve --port 0`: the address is printed once the server listens, with the real port."""
    env_free = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "bloodforge.cli.main", "serve", "--port", "0", "--data-dir", str(tmp_path / "data")],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env_free,
    )
    try:
        assert proc.stdout is not None
        deadline = time.monotonic() + 60
        line = ""
        while time.monotonic() < deadline and "open http://" not in line:
            line = proc.stdout.readline()
            assert line or proc.poll() is None, "serve ended before it printed the address"
        found = re.search(r"open http://localhost:(\d+)/", line)
        assert found, line
        port = int(found.group(1))
        assert port != 0
        assert serving_process_holds(proc.pid, port)
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").json()["status"] == "ok"  # already listening
    finally:
        proc.terminate()
        proc.wait(timeout=20)
