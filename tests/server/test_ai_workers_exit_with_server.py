"""Server hardening: the AI worker processes do not outlive a server killed without its shutdown.

A worker is a child of the fork server and holds the fork server's keep-alive pipe, so when the
server process died without shutting its pool down (SIGKILL, an out-of-memory kill), the workers
and their fork server, each with every game loaded, waited forever. Each worker now watches the
process that made the pool and exits when it is gone (`procpool.exit_with_owner`, shared with the
lab's process pools: tests/lab/test_pool_workers_exit_with_owner.py).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time

SERVER = """
import sys, time
from bloodforge.server.aiwork import make_pool, ready
pool = make_pool(1, 1)
print(pool.submit(ready).result(timeout=120), flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat:  # a zombie is gone for our purpose
        return stat.read().split(")")[-1].split()[0] != "Z"


def test_server_hardening_ai_workers_exit_when_their_server_is_killed() -> None:
    server = subprocess.Popen([sys.executable, "-c", SERVER], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        worker = int(server.stdout.readline())
        assert alive(worker), "the worker answered, so it runs"
        server.send_signal(signal.SIGKILL)
        server.wait(timeout=30)
        deadline = time.monotonic() + 30  # the watch looks every 2 s
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not alive(worker), "the AI worker outlived its killed server"
    finally:
        if server.poll() is None:
            server.kill()
