"""A stopping server waits a bounded time for its connections (`uvicorn_config`).

uvicorn misses a websocket whose handshake lands while it stops, keeps it open, and then waited
for it without end: `serve` hung after Ctrl-C and a test server's teardown after 20 s. A request
that never finishes makes the same wait, deterministically: the server must still stop within
the grace period, cancelling it."""

from __future__ import annotations

import asyncio
import socket
import time
from typing import Any

from bloodforge.server.runner import GRACEFUL_SHUTDOWN_SECONDS
from tests.server.support import ServerThread


async def never_answers(scope: dict[str, Any], receive: Any, send: Any) -> None:
    """An ASGI app whose every HTTP request hangs (the lifespan is answered at once)."""
    if scope["type"] == "lifespan":
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return
    await asyncio.sleep(3600)


def test_a_stopping_server_waits_at_most_the_grace_period_for_a_request_that_never_ends() -> None:
    with ServerThread(app=never_answers) as running:
        server = running.server
        client = socket.create_connection(("127.0.0.1", running.port), timeout=5)
        try:
            client.sendall(b"GET / HTTP/1.1\r\nHost: test\r\n\r\n")
            deadline = time.monotonic() + 20
            while not server.server_state.tasks:  # the request is in the app
                assert time.monotonic() < deadline, "the request never reached the app"
                time.sleep(0.02)
            stopped_at = time.monotonic()
            server.should_exit = True
            running.thread.join(timeout=GRACEFUL_SHUTDOWN_SECONDS + 15)
            waited = time.monotonic() - stopped_at
        finally:
            client.close()
        assert not running.thread.is_alive(), "the server still waits for the request"
    assert GRACEFUL_SHUTDOWN_SECONDS - 0.5 <= waited <= GRACEFUL_SHUTDOWN_SECONDS + 5, waited
