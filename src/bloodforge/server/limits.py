"""Bounds on what one client can make the server do: body sizes, table creation, AI work.

Refusals are the usual JSON errors: 413 `request/too_large` for a body over the cap (refused
from its Content-Length before any route reads it, or while it streams in), 429
`limit/tables` / `limit/ai_tables` with a `Retry-After` header. Clients are told apart by
their address; the bounds are per server process (a deployment behind a proxy should limit at
the proxy too).
"""

from __future__ import annotations

import json
import time
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


class BodyLimit:
    """ASGI middleware capping HTTP request bodies at `max_bytes`."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

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

        async def limited() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise BodyTooLargeError(self.max_bytes)
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

    async def _refuse(self, send: Send) -> None:
        body = ApiError(413, "request/too_large", f"request bodies are limited to {self.max_bytes} bytes").body()
        raw = json.dumps(body).encode()
        await send({"type": "http.response.start", "status": 413,
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
