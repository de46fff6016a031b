"""Bounds on what one client can make the server do: body sizes, table creation, AI work.

Refusals are the usual JSON errors: 413 `request/too_large` for a body over the cap (refused
from its Content-Length before any route reads it, or while it streams in), 429
`limit/tables` / `limit/ai_tables` with a `Retry-After` header. Clients are told apart by
their address; the bounds are per server process (a deployment behind a proxy should limit at
the proxy too).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import ApiError


class SafeJSONResponse(JSONResponse):
    """JSON that always encodes: text with lone surrogates (which UTF-8 cannot hold, e.g. an
    echoed `"\\ud800"` from a client) is sent escaped instead of failing the response."""

    def render(self, content: Any) -> bytes:
        try:
            return super().render(content)
        except UnicodeEncodeError:
            return json.dumps(content, ensure_ascii=True, allow_nan=False, separators=(",", ":")).encode()


class BodyTooLargeError(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"request bodies are limited to {limit} bytes")


class BodyTimeoutError(HTTPException):
    def __init__(self, seconds: float) -> None:
        super().__init__(408, f"the request body did not arrive within {seconds:g} s")


class BodyLimit:
    """ASGI middleware capping HTTP request bodies at `max_bytes`, and the time the whole body
    may take to arrive at `body_seconds` (408 `request/timeout`): a client sending one byte
    every few seconds would otherwise hold its connection and a worker for ever."""

    def __init__(self, app: ASGIApp, max_bytes: int, body_seconds: float = 20.0) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.body_seconds = body_seconds

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope.get("headers") or ()).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        received = 0
        started = False
        complete = False
        deadline = time.monotonic() + self.body_seconds

        async def limited() -> Message:
            nonlocal received, complete
            if complete:  # the body is in: later reads wait for a disconnect, without a deadline
                return await receive()
            try:
                async with asyncio.timeout(max(0.0, deadline - time.monotonic())):
                    message = await receive()
            except TimeoutError:
                raise BodyTimeoutError(self.body_seconds) from None
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLargeError(self.max_bytes)
                complete = not message.get("more_body", False)
            return message

        async def watch(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, watch)
        except BodyTooLargeError:
            if started:
                raise
            await self._refuse(send)
        except BodyTimeoutError:
            if started:
                raise
            await self._refuse(send, ApiError(408, "request/timeout",
                                              f"the request body did not arrive within {self.body_seconds:g} s"))

    async def _refuse(self, send: Send, err: ApiError | None = None) -> None:
        err = err or ApiError(413, "request/too_large", f"request bodies are limited to {self.max_bytes} bytes")
        raw = json.dumps(err.body()).encode()
        await send({"type": "http.response.start", "status": err.status,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()),
                                (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": raw})


@dataclass
class _Bucket:
    tokens: float
    at: float


@dataclass
class ClientLimits:
    """Per-client token bucket for table creation and a cap on running tables with AI seats."""

    tables_per_minute: float
    burst: int
    max_ai_tables: int
    buckets: dict[str, _Bucket] = field(default_factory=dict)
    ai_tables: dict[str, set[str]] = field(default_factory=dict)
    #: table id -> the address that created it (whose turn the table's AI work takes).
    owners: dict[str, str] = field(default_factory=dict)

    def check_create(self, client: str, with_ai: bool, running: Callable[[str], bool]) -> None:
        """Raise 429 if `client` may not create a table now (nothing is spent on a refusal)."""
        now = time.monotonic()
        bucket = self.buckets.get(client) or _Bucket(float(self.burst), now)
        tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.tables_per_minute / 60)
        if tokens < 1:
            wait = (1 - tokens) * 60 / self.tables_per_minute
            raise ApiError(429, "limit/tables", f"too many new tables from your address; try again in {wait:.0f} s",
                           retry_after=max(1, round(wait)))
        if with_ai:
            mine = {t for t in self.ai_tables.get(client, set()) if running(t)}
            self.ai_tables[client] = mine
            if len(mine) >= self.max_ai_tables:
                raise ApiError(429, "limit/ai_tables",
                               f"your address already has {len(mine)} running tables with AI seats "
                               f"(at most {self.max_ai_tables}); finish one first", retry_after=30)
        self.buckets[client] = _Bucket(tokens - 1, now)
        if len(self.buckets) > 10_000:  # forget the oldest clients, keep memory bounded
            for key in sorted(self.buckets, key=lambda k: self.buckets[k].at)[:1000]:
                del self.buckets[key]

    def created(self, client: str, table_id: str, with_ai: bool) -> None:
        if with_ai:
            self.ai_tables.setdefault(client, set()).add(table_id)
            self.owners[table_id] = client
            if len(self.owners) > 100_000:  # oldest first (dicts keep insertion order)
                for key in list(self.owners)[:10_000]:
                    del self.owners[key]

    def owner_of(self, table_id: str) -> str | None:
        return self.owners.get(table_id)


class ConnectionCap:
    """ASGI middleware: at most `per_client` websockets and HTTP requests in flight at once
    per client address (429 `limit/connections`; a websocket is refused in its handshake).
    *Why:* without it one address could hold thousands of spectator or lobby sockets (each
    costing a view per move) or slow requests, and starve everyone else."""

    def __init__(self, app: ASGIApp, per_client: int) -> None:
        self.app = app
        self.per_client = per_client
        self.open: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        key = str(client[0]) if client else "?"
        if self.open[key] >= self.per_client:
            await self._refuse(scope, send)
            return
        self.open[key] += 1
        try:
            await self.app(scope, receive, send)
        finally:
            self.open[key] -= 1
            if self.open[key] <= 0:
                del self.open[key]

    async def _refuse(self, scope: Scope, send: Send) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1013, "reason": "too many connections from your address"})
            return
        err = ApiError(429, "limit/connections",
                       f"your address has {self.per_client} connections open already; close some first",
                       retry_after=5)
        raw = json.dumps(err.body()).encode()
        await send({"type": "http.response.start", "status": 429,
                    "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(raw)).encode()),
                                (b"retry-after", b"5")]})
        await send({"type": "http.response.body", "body": raw})


@dataclass
class RateLimit:
    """A token bucket per client address: `per_second` on average, bursts of `burst`; used
    for replays and histories, which rebuild old positions (429 `limit/requests`)."""

    per_second: float
    burst: int
    buckets: dict[str, _Bucket] = field(default_factory=dict)

    def spend(self, client: str) -> None:
        now = time.monotonic()
        bucket = self.buckets.get(client) or _Bucket(float(self.burst), now)
        tokens = min(float(self.burst), bucket.tokens + (now - bucket.at) * self.per_second)
        if tokens < 1:
            wait = (1 - tokens) / self.per_second
            raise ApiError(429, "limit/requests", f"too many replay requests from your address; wait {wait:.1f} s",
                           retry_after=max(1, round(wait)))
        self.buckets[client] = _Bucket(tokens - 1, now)
        if len(self.buckets) > 10_000:
            for key in sorted(self.buckets, key=lambda k: self.buckets[k].at)[:1000]:
                del self.buckets[key]
