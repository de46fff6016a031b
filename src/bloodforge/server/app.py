"""The FastAPI application factory: API, websockets, pages and static UI files."""

from __future__ import annotations

import asyncio
import logging
import re
import sys
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request, Response, WebSocket
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

import bloodforge

from .ai import AiRunner
from .api import router
from .apidocs import add_offline_docs
from .config import Settings
from .db import make_engine, make_sessionmaker
from .errors import ApiError
from .hints import router as hints_router
from .limits import BodyLimit, ClientLimits, ConnectionCap, RateLimit, SafeJSONResponse
from .migrate import upgrade_to_head
from .newtable import roles_at_a_new_table
from .notify import Listener
from .replay import ReplayCache
from .store import Store
from .tables import TableManager
from .tutorials import router as tutorial_router
from .workbench import install_workbench
from .ws import Hub

log = logging.getLogger("bloodforge.server")

WEB_DIR = Path(__file__).resolve().parent.parent / "web"

#: Validation errors named in one 422 reply (the rest are counted).
MAX_ERRORS_SHOWN = 10

#: The UI loads only its own files; names and other user text can never run as script.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


def create_app(settings: Settings) -> FastAPI:
    """A ready-to-serve app on `settings.db_url`: migrations run and AI seats resume at startup."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = make_engine(settings.db_url)
        if settings.migrate:
            await asyncio.to_thread(upgrade_to_head, engine)
        store = Store(make_sessionmaker(engine))
        manager = TableManager(store, settings)
        hub = Hub(manager, store)
        ai = AiRunner(manager, settings)
        app.state.manager = manager
        app.state.hub = hub
        app.state.ai = ai
        app.state.replays = ReplayCache(store)
        app.state.replay_limit = RateLimit(settings.replays_per_second, settings.replay_burst)
        app.state.limits = ClientLimits(settings.tables_per_minute, settings.table_burst,
                                        settings.max_ai_tables_per_client)
        ai.owner_of = app.state.limits.owner_of  # AI work is shared fairly between creators
        warming = asyncio.get_running_loop().create_task(ai.warm(), name="ai-warm")
        listener = Listener(engine, manager.on_remote_change) if store.dialect == "postgresql" else None
        sweeper = None
        if listener is not None:
            listener.start()
            sweeper = asyncio.get_running_loop().create_task(ai.sweep_forever(), name="sweep")
        if settings.resume_ai:
            resumed = await ai.resume_all()
            if resumed:
                log.info("resumed %d table(s) waiting for an AI seat", resumed)
        try:
            yield
        finally:
            if sweeper is not None:
                sweeper.cancel()
            if listener is not None:
                await asyncio.to_thread(listener.stop)
            warming.cancel()
            await ai.close()
            await manager.close()
            manager.writer.shutdown(wait=True)
            store.close()
            app.state.replays.pool.shutdown(wait=False, cancel_futures=True)
            engine.dispose()

    app = FastAPI(
        title="bloodforge",
        summary="Board games on one engine: lobby, live tables, AI seats.",
        version="1",
        lifespan=lifespan,
        default_response_class=SafeJSONResponse,
        docs_url=None,  # served by add_offline_docs from local files: the CDN pages are blank offline
        redoc_url=None,
    )
    add_offline_docs(app)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes, body_seconds=settings.body_seconds)
    app.add_middleware(ConnectionCap, per_client=settings.max_connections_per_client)  # outermost
    app.include_router(router)
    app.include_router(tutorial_router)
    app.include_router(hints_router)  # issue 21: hints for human seats
    install_workbench(app, settings)  # only with `serve --lab`
    _errors(app)
    _pages(app)

    @app.websocket("/ws/lobby")
    async def lobby_ws(ws: WebSocket) -> None:
        await ws.app.state.hub.serve_lobby(ws)

    @app.websocket("/ws/tables/{table_id}")
    async def table_ws(ws: WebSocket, table_id: str) -> None:
        await ws.app.state.hub.serve_table(ws, table_id[:32])

    @app.middleware("http")
    async def security_headers(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        response = await call_next(request)
        if not request.url.path.startswith(("/docs", "/redoc")):  # their pages start Swagger UI inline
            response.headers["Content-Security-Policy"] = CSP
        response.headers["X-Content-Type-Options"] = "nosniff"
        response.headers["Referrer-Policy"] = "no-referrer"
        response.headers["X-Frame-Options"] = "DENY"
        return response

    return app


def _errors(app: FastAPI) -> None:
    @app.exception_handler(ApiError)
    async def api_error(_request: Request, err: ApiError) -> JSONResponse:
        retry = err.details.get("retry_after")
        headers = {"Retry-After": str(retry)} if retry is not None else None
        return SafeJSONResponse(err.body(), status_code=err.status, headers=headers)

    @app.exception_handler(RequestValidationError)
    async def invalid_request(_request: Request, err: RequestValidationError) -> JSONResponse:
        errors = err.errors()
        parts = []
        for e in errors[:MAX_ERRORS_SHOWN]:  # the reply stays small however many fields were wrong
            loc = ".".join(str(x)[:60] for x in e.get("loc", ()))
            parts.append(f"{loc}: {e.get('msg', 'invalid')}")
        if len(errors) > MAX_ERRORS_SHOWN:
            parts.append(f"and {len(errors) - MAX_ERRORS_SHOWN} more")
        body = ApiError(422, "request/invalid", "; ".join(parts) or "invalid request").body()
        return SafeJSONResponse(body, status_code=422)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, err: StarletteHTTPException) -> JSONResponse:
        code = {400: "request/invalid", 404: "http/not_found", 405: "http/method_not_allowed",
                408: "request/timeout", 413: "request/too_large"}.get(
            err.status_code, f"http/{err.status_code}")
        headers = dict(err.headers or {})
        if err.status_code == 405:
            headers["Allow"] = ", ".join(_allowed_methods(request))
        return SafeJSONResponse(ApiError(err.status_code, code, str(err.detail)).body(), status_code=err.status_code,
                                headers=headers)

    @app.exception_handler(Exception)
    async def server_error(_request: Request, err: Exception) -> JSONResponse:
        log.exception("unexpected error", exc_info=err)
        return SafeJSONResponse(ApiError(500, "server/error", "unexpected server error").body(), status_code=500)


def _allowed_methods(request: Request) -> list[str]:
    """Every method some route takes at this path (Starlette names only the first route's)."""
    routes = request.app.router.routes
    return [m for m in ("DELETE", "GET", "HEAD", "PATCH", "POST", "PUT")
            if any(r.matches({**request.scope, "method": m})[0] == Match.FULL for r in routes)]


def _pages(app: FastAPI) -> None:
    app.mount("/static", StaticFiles(directory=WEB_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def index() -> FileResponse:
        return FileResponse(WEB_DIR / "index.html")

    @app.get("/table/{table_id}", include_in_schema=False)
    async def table_page(table_id: str) -> FileResponse:
        del table_id
        return FileResponse(WEB_DIR / "table.html")

    @app.get("/table/{table_id}/replay", include_in_schema=False)
    async def replay_page(table_id: str) -> FileResponse:
        del table_id
        return FileResponse(WEB_DIR / "table.html")

    @app.get("/rules/{game_id}", include_in_schema=False)
    async def rules_page(game_id: str) -> FileResponse:
        del game_id
        return FileResponse(WEB_DIR / "rules.html")

    @app.get("/api/games/{game_id}/rules")
    async def game_rules(game_id: str) -> dict[str, str]:
        """The players' rules of a game: the `rules.md` its folder ships (Markdown)."""
        return await asyncio.to_thread(rules_text, game_id)

    @app.get("/api/games/{game_id}/seats")
    async def game_seats(game_id: str, players: int | None = None) -> dict[str, list[dict[str, Any]]]:
        """What each seat plays when the game fixes it (its board's `seats`), for the lobby."""
        return await asyncio.to_thread(seat_roles, game_id, players)

    @app.get("/games/{game_id}/{file_path:path}", include_in_schema=False)
    async def game_asset(game_id: str, file_path: str) -> FileResponse:
        """A file of a game's browser view (`games/<id>/web/`): its look, over the shared boards."""
        path = game_asset_path(game_id, file_path)
        return FileResponse(path, media_type=ASSET_TYPES[path.suffix.lower()])


#: The only kinds of files a game's web folder may serve, with their content types.
ASSET_TYPES = {
    ".js": "text/javascript; charset=utf-8", ".css": "text/css; charset=utf-8", ".json": "application/json",
    ".svg": "image/svg+xml", ".png": "image/png", ".webp": "image/webp",
}
_SEGMENT = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}")


def game_asset_path(game_id: str, file_path: str) -> Path:
    """The file `file_path` inside the web folder of game `game_id`, or 404.

    Every segment must be a plain name (no `..`, no hidden files, no backslashes or drive
    letters), the suffix one of ASSET_TYPES, and the resolved path (symlinks followed) must stay
    inside the game's web folder: a URL can never make the server read anything else.
    """
    segments = file_path.split("/")
    if (
        not 0 < len(segments) <= 4
        or not all(_SEGMENT.fullmatch(seg) and ".." not in seg for seg in segments)
        or Path(segments[-1]).suffix.lower() not in ASSET_TYPES
    ):
        raise ApiError(404, "asset/not_found", "no such file in the game's web folder")
    root = game_web_dir(game_id)
    if root is None:
        raise ApiError(404, "asset/not_found", f"game {game_id[:40]!r} has no web folder")
    path = root.joinpath(*segments).resolve()
    if not path.is_relative_to(root) or not path.is_file():
        raise ApiError(404, "asset/not_found", "no such file in the game's web folder")
    return path


def rules_text(game_id: str) -> dict[str, str]:
    """`rules.md` beside the game's own module (its folder, `games/<id>/`), or 404."""
    info = next((g for g in bloodforge.list_games() if g["id"] == game_id), None)
    if info is None:
        raise ApiError(404, "game/unknown", f"no game {game_id[:40]!r}")
    game = bloodforge.load_game(game_id, players=info["min_players"])
    module = sys.modules.get(type(game).__module__)
    folder = Path(module.__file__).resolve().parent if module and module.__file__ else None
    path = folder / "rules.md" if folder else None
    if path is None or not path.is_file():
        raise ApiError(404, "rules/not_found", f"{info['name']} ships no rules page")
    return {"game": game_id, "name": str(info["name"]), "markdown": path.read_text(encoding="utf-8")}


def seat_roles(game_id: str, players: int | None) -> dict[str, list[dict[str, Any]]]:
    """The seats' roles and colours of `game_id` with `players` players and default parameters
    (`roles_at_a_new_table`: the game's seat roles; empty when it deals roles at the start)."""
    info = next((g for g in bloodforge.list_games() if g["id"] == game_id), None)
    if info is None:
        raise ApiError(404, "game/unknown", f"no game {game_id[:40]!r}")
    n = players if players is not None else int(info["min_players"])
    if not int(info["min_players"]) <= n <= int(info["max_players"]):
        limits = f"{info['min_players']} to {info['max_players']}"
        raise ApiError(422, "params/invalid", f"{info['name']} takes {limits} players")
    return {"seats": roles_at_a_new_table(bloodforge.load_game(game_id, players=n))}


_WEB_DIRS: dict[str, Path] = {}


def game_web_dir(game_id: str) -> Path | None:
    """The resolved web folder of a registered game (None: unknown game or no folder); found
    ones are remembered, since building a game to ask it can read data files."""
    known = _WEB_DIRS.get(game_id)
    if known is not None:
        return known
    info = next((g for g in bloodforge.list_games() if g["id"] == game_id), None)
    if info is None:
        return None
    folder = bloodforge.load_game(game_id, players=info["min_players"]).web_dir()
    if folder is None or not folder.is_dir():
        return None
    _WEB_DIRS[game_id] = folder.resolve()
    return _WEB_DIRS[game_id]
