"""A stopping server waits a bounded time for its connections (`uvicorn_config`).

uvicorn misses a websocket whose handshake lands while it stops, keeps it open, and then waited
for it without end: `serve` hung after Ctrl-C and a test server's teardown after 20 s. A request
that never finishes makes the same wait, deterministically: the server must still stop within
the grace period, cancelling it."""

from __future__ import annotations

import asyncio
import socket
import threading
import time
from typing import Any

import uvicorn

from bloodforge.server.runner import GRACEFUL_SHUTDOWN_SECONDS, uvicorn_config


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
    server = uvicorn.Server(uvicorn_config(never_answers, host="127.0.0.1", port=0))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        assert thread.is_alive(), "the server did not start"
        assert time.monotonic() < deadline, "the server did not start in 20 s"
        time.sleep(0.02)
    port = server.servers[0].sockets[0].getsockname()[1]
    client = socket.create_connection(("127.0.0.1", port), timeout=5)
    try:
        client.sendall(b"GET / HTTP/1.1\r\nHost: test\r\n\r\n")
        while not server.server_state.tasks:  # the request is in the app
            assert time.monotonic() < deadline, "the request never reached the app"
            time.sleep(0.02)
        stopped_at = time.monotonic()
        server.should_exit = True
        thread.join(timeout=GRACEFUL_SHUTDOWN_SECONDS + 15)
        waited = time.monotonic() - stopped_at
    finally:
        client.close()
    assert not thread.is_alive(), "the server still waits for the request"
    assert GRACEFUL_SHUTDOWN_SECONDS - 0.5 <= waited <= GRACEFUL_SHUTDOWN_SECONDS + 5, waited
