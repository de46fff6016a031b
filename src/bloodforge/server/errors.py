"""Refusals the server sends to clients: an HTTP status plus a namespaced code and a message.

The server boundary never throws at a client (boardgame.io's `errors.ts`): every refusal is one
of these, rendered as `{"error": {"code": ..., "message": ...}}` over HTTP and websockets alike,
and nothing is changed when one is raised.
"""

from __future__ import annotations

from typing import Any

#: Characters of an error message; longer ones (echoing a huge input) are cut.
MAX_MESSAGE = 2000


class ApiError(Exception):
    def __init__(self, status: int, code: str, message: str, **details: Any) -> None:
        if len(message) > MAX_MESSAGE:  # a refusal never grows with the input that caused it
            message = message[:MAX_MESSAGE] + "…"
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.details = details

    def body(self) -> dict[str, Any]:
        err: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.details:
            err["details"] = self.details
        return {"error": err}


def not_found(what: str, ident: str) -> ApiError:
    return ApiError(404, f"{what}/not_found", f"no {what} {ident!r}")
