"""The newcomer's first command: `bloodforge serve` creates and migrates its database, prints
the address to open, and serves the lobby there."""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import httpx

from .support import free_port


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
        assert page.status_code == 200
        assert "New table" in page.text
        assert httpx.get(f"http://127.0.0.1:{port}/api/health").json()["tables"] == 0
        assert (tmp_path / "data" / "bloodforge.sqlite3").exists()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
