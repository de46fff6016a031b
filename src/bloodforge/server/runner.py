"""`bloodforge serve`: migrate the database, print the address to open, run uvicorn."""

from __future__ import annotations

import gc
import logging
import socket
import sys
from pathlib import Path
from typing import Any

import uvicorn
from starlette.types import ASGIApp

import bloodforge
from bloodforge.buildinfo import build_info

from .app import create_app
from .config import DEFAULT_DATA_DIR, Settings, default_db_url, normalise_db_url
from .filelock import DatabaseInUseError, lock_sqlite

#: Allocations (less deallocations) of container objects between two young collections.
GC_THRESHOLD = 20_000


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    data_dir: Path = DEFAULT_DATA_DIR,
    ai_delay: float = 0.35,
    ai_time_budget: float = 10.0,
    forwarded_allow_ips: str | None = None,
    **options: Any,
) -> None:
    """`options`: other `Settings` fields (the limits per client, which the load benchmark
    raises; the sweep timing, which tests shorten). `forwarded_allow_ips`: see `uvicorn_config`."""
    url = normalise_db_url(db_url) if db_url else default_db_url(Path(data_dir))
    settings = Settings(db_url=url, ai_delay=ai_delay, ai_time_budget=ai_time_budget, **options)
    try:
        lock = lock_sqlite(url)  # held until the process ends
    except DatabaseInUseError as err:
        print(f"bloodforge: {err}", file=sys.stderr, flush=True)
        raise SystemExit(1) from None
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(f"bloodforge: database {_redact(url)}; engine build: {build_info().describe()}", flush=True)
    config = uvicorn_config(create_app(settings), host=host, port=port, forwarded_allow_ips=forwarded_allow_ips)
    quiet_gc()
    try:
        AnnouncingServer(config, shown).run()
    finally:
        if lock is not None:
            lock.close()


class AnnouncingServer(uvicorn.Server):
    """uvicorn's server, printing the address to open once it is listening. *Why then:* the
    address is worth opening only once the server answers, and with `--port 0` only the bound
    socket knows which port the system chose (before, `serve --port 0` printed ":0")."""

    def __init__(self, config: uvicorn.Config, shown_host: str) -> None:
        super().__init__(config)
        self.shown_host = shown_host

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        await super().startup(sockets=sockets)
        if self.should_exit or not self.servers or not self.servers[0].sockets:
            return
        port = self.servers[0].sockets[0].getsockname()[1]
        print(f"bloodforge: open http://{self.shown_host}:{port}/ in your browser (Ctrl+C stops the server)",
              flush=True)


def quiet_gc() -> None:
    """Load every game now, then let the cycle collector skip what startup built and run less
    often. *Why:* building a view makes thousands of short-lived dicts and lists; at the default
    threshold (700) the collector ran several times per move, each time walking the young
    objects of the view in progress and, every tenth time, the older ones; about a twentieth of
    the server's CPU per move. What is freed by reference counting (nearly everything a move
    makes) never reaches the collector at the higher threshold."""
    bloodforge.list_games()
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_THRESHOLD, 20, 20)


#: How long a stopping server waits for its connections and requests (`uvicorn_config`).
GRACEFUL_SHUTDOWN_SECONDS = 5


def uvicorn_config(app: ASGIApp, *, host: str, port: int, forwarded_allow_ips: str | None = None) -> uvicorn.Config:
    """How `serve` runs uvicorn. Limits per client key on the client's address, so
    `X-Forwarded-For` / `X-Forwarded-Proto` are believed only from the proxies named in
    `forwarded_allow_ips` (comma-separated addresses or networks, `*` for any): by default from
    nobody, not even loopback (uvicorn's own default trusts 127.0.0.1, which lets any local
    client forge its address, and `$FORWARDED_ALLOW_IPS` is not read either)."""
    trusted = (forwarded_allow_ips or "").strip()
    return uvicorn.Config(
        app, host=host, port=port, ws_max_size=65536, log_level="warning",
        proxy_headers=bool(trusted), forwarded_allow_ips=trusted or "",
        # Idle keep-alive connections close after 5 s; past 4000 connections and tasks new
        # requests get 503 at once (far below the descriptor limit, so health stays up).
        timeout_keep_alive=5, limit_concurrency=4000,
        # No permessage-deflate: compressing every state message for every connection was the
        # largest single CPU cost of a move (about a third); views are a few kilobytes.
        ws_per_message_deflate=False,
        # Stopping waits at most this long for open connections and requests, then cancels
        # them. *Why:* uvicorn tells the connections it has to close when it stops, but a
        # websocket whose handshake lands in that moment is missed and kept open, and uvicorn
        # then waited for it without end (one stop in 16 right after a lobby page opened
        # still waited after 25 s; docs/testing.md). Every move is committed before it is
        # acknowledged, so nothing acknowledged is lost to the cut.
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
    )


def _redact(url: str) -> str:
    """Hide a password in a database URL before printing it."""
    if "@" not in url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    creds, host = rest.rsplit("@", 1)
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}"
