"""Websockets: a lobby channel and one channel per table, each connection bound to one seat.

A table connection says who it is in its first message (`{"type": "hello", "seat": n, "token":
t}`; no seat: spectator) so that tokens never appear in URLs or server logs. Every message it
then receives is built for that seat alone from `LiveTable.view(seat)`; state messages go
through a per-connection queue, so a broadcast never waits for a slow client and each client
sees the versions in order.

Client messages: `{"type": "act", "action": text, "version": n, "id": any}` answered by
`{"type": "ack", "id", "version"}` or `{"type": "error", "id", "error": {code, message}}`;
`{"type": "ping"}` answered by `{"type": "pong"}`. Text that UTF-8 cannot hold (lone
surrogates, which JSON escapes such as `"\ud800"` can carry) is refused like any other bad
field, and every outgoing message is encodable, so such input never breaks a connection.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from dataclasses import dataclass, field
from typing import Any

import orjson
from fastapi import WebSocket, WebSocketDisconnect

from .errors import ApiError
from .live import LiveTable
from .store import Store
from .tables import TableManager

log = logging.getLogger("bloodforge.server.ws")

HELLO_TIMEOUT = 15.0
MAX_QUEUE = 200
LOBBY_DEBOUNCE = 0.3


@dataclass(eq=False)
class Connection:
    ws: WebSocket
    table_id: str
    seat: int | None
    #: Messages to send: a dict, or its JSON text already made (shared between connections).
    queue: asyncio.Queue[dict[str, Any] | str | None] = field(default_factory=asyncio.Queue)
    log_sent: int = 0
    #: The seat's credential the connection authenticated with (its rematch offer carries it).
    token: str | None = None
    #: The rematch offered on this connection (a process hears of its own rematch twice: once
    #: made, once through its NOTIFY).
    offered: str | None = None

    def offer(self, new_table: str) -> None:
        if self.offered != new_table:
            self.offered = new_table
            self.push(rematch_message(new_table, self.seat, self.token))

    def push(self, message: dict[str, Any] | str) -> None:
        if self.queue.qsize() >= MAX_QUEUE:  # a client that reads nothing: let it go
            self.queue.put_nowait(None)
            return
        self.queue.put_nowait(message)


def rematch_message(new_table: str, seat: int | None, token: str | None) -> dict[str, Any]:
    """The rematch offer for one connection of the finished table: a seat its own link to its
    seat of the rematch, made of the credential it authenticated with (which claims that seat
    once, `TableManager.claim`), so it never sees another seat's credential; a spectator the
    rematch's spectator link. *Why its own credential:* the rematch's new links are not stored
    (credentials are kept only hashed), and this link works from any server process and after
    a restart."""
    url = f"/table/{new_table}"
    if seat is not None and token:
        return {"type": "rematch", "table": new_table, "seat": seat, "url": f"{url}#seat={seat}&token={token}"}
    return {"type": "rematch", "table": new_table, "seat": None, "url": url}


class Hub:
    def __init__(self, manager: TableManager, store: Store) -> None:
        self.manager = manager
        self.store = store
        self.tables: dict[str, set[Connection]] = {}
        #: Lobby sockets: their queue of ready JSON texts -> whether they asked for deltas.
        self.lobby: dict[asyncio.Queue[str | None], bool] = {}
        #: Each table's JSON in the last lobby snapshot pushed (what deltas are relative to).
        self._lobby_last: dict[str, str] = {}
        self._lobby_dirty = False
        self._lobby_task: asyncio.Task[None] | None = None
        self._offering: set[asyncio.Task[None]] = set()
        manager.listeners.append(self.broadcast)
        manager.after_rematch.append(self._remote_rematch)
        manager.after_change.append(lambda _live: self.lobby_changed())
        manager.after_remote.append(lambda _table_id: self.lobby_changed())
        manager.watched = lambda table_id: table_id in self.tables
        manager.after_credentials.append(self.drop_seat)
        # a claimed link turns an open seat into a taken one in the lobby's list
        manager.after_credentials.append(lambda _table_id, _seat: self.lobby_changed())

    def drop_seat(self, table_id: str, seat: int | None) -> None:
        """A seat's credential changed (its link was claimed or re-issued): close the
        connections that authenticated for it (None: every seat); they reconnect with what
        they hold, and a spent link gets the spectator's view."""
        for conn in list(self.tables.get(table_id, ())):
            if conn.seat is not None and (seat is None or conn.seat == seat):
                conn.queue.put_nowait(None)

    def offer_rematch(self, table_id: str, new_table: str) -> None:
        """A rematch of a finished table was made: every connection of it here gets a
        `rematch` message (`rematch_message`). Connections that come later get it when they
        connect, from the table's record (the database: any process, and after a restart)."""
        for conn in self.tables.get(table_id, ()):
            conn.offer(new_table)

    def _remote_rematch(self, table_id: str) -> None:
        """Another server process made the rematch of a table: offer it to the connections here."""
        if table_id not in self.tables:
            return

        async def offer() -> None:
            with contextlib.suppress(ApiError):
                live = await self.manager.get(table_id)
                if live.record.rematch_id is not None:
                    self.offer_rematch(table_id, live.record.rematch_id)

        task = asyncio.get_running_loop().create_task(offer(), name=f"rematch-{table_id}")
        self._offering.add(task)
        task.add_done_callback(self._offering.discard)

    # -- table channel ------------------------------------------------------------------------
    def broadcast(self, live: LiveTable) -> None:
        """Queue the new state for every connection of the table (called under its lock).
        Connections that see the same (the spectators, or tabs of one seat, that have had the
        same log lines) share one view, built and serialised once: a table with a thousand
        spectators costs one view per move, not a thousand."""
        built: dict[tuple[int | None, int], tuple[str, int]] = {}
        for conn in self.tables.get(live.id, ()):
            key = (conn.seat, conn.log_sent)
            made = built.get(key)
            if made is None:
                view = live.view(conn.seat, log_from=conn.log_sent)
                made = built[key] = (dumps(view), view["log_start"] + len(view["log"]))
            conn.log_sent = made[1]
            conn.push(made[0])

    def _send_state(self, conn: Connection, live: LiveTable) -> None:
        view = live.view(conn.seat, log_from=conn.log_sent)
        conn.log_sent = view["log_start"] + len(view["log"])
        conn.push(view)

    async def serve_table(self, ws: WebSocket, table_id: str) -> None:
        await ws.accept()
        try:
            live = await self.manager.get(table_id)
            hello = await asyncio.wait_for(ws.receive_json(), HELLO_TIMEOUT)
            if not isinstance(hello, dict) or hello.get("type") != "hello":
                raise ApiError(400, "request/invalid", 'first message must be {"type": "hello", "seat": n, "token": t}')
            seat_raw = hello.get("seat")
            if seat_raw is not None and (isinstance(seat_raw, bool) or not isinstance(seat_raw, int)):
                raise ApiError(400, "seat/invalid", "seat must be an integer or null")
            token = hello.get("token")
            try:
                seat = self.manager.authenticate(live, seat_raw, token if isinstance(token, str) else None)
            except ApiError as err:
                if err.code != "seat/claimed":
                    raise
                seat = None  # a seat link someone else opened first: the spectator's view
        except ApiError as err:
            await _refuse(ws, err)
            return
        except (TimeoutError, WebSocketDisconnect, json.JSONDecodeError, KeyError, ValueError, RecursionError):
            with contextlib.suppress(Exception):
                await ws.close(code=4400)
            return
        conn = Connection(ws, table_id, seat, token=token if seat is not None and isinstance(token, str) else None)
        async with live.lock:  # the first state and later broadcasts stay in version order
            self.tables.setdefault(table_id, set()).add(conn)
            live.watchers += 1
            self._send_state(conn, live)
            if live.record.rematch_id is not None:
                conn.offer(live.record.rematch_id)
        writer = asyncio.create_task(self._writer(conn))
        try:
            await self._reader(conn)
        finally:
            conns = self.tables.get(table_id)
            if conns is not None:
                conns.discard(conn)
                if not conns:
                    del self.tables[table_id]
            live.watchers -= 1
            conn.queue.put_nowait(None)
            await writer

    async def _reader(self, conn: Connection) -> None:
        while True:
            try:
                message = await conn.ws.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            raw = message.get("text")
            if raw is None:  # a binary frame: refused like any other bad message
                refusal = ApiError(400, "request/invalid", "messages must be JSON text, not binary frames")
                conn.push({"type": "error", "id": None, **refusal.body()})
                continue
            reply = await self._handle(conn, raw)
            if reply is not None:
                conn.push(reply)

    async def _handle(self, conn: Connection, raw: str) -> dict[str, Any] | None:
        msg_id: Any = None
        try:
            try:
                msg = json.loads(raw)
            except (json.JSONDecodeError, RecursionError):  # RecursionError: nested too deep
                raise ApiError(400, "request/invalid", "messages must be JSON objects (not nested deeply)") from None
            if not isinstance(msg, dict):
                raise ApiError(400, "request/invalid", "messages must be JSON objects")
            msg_id = msg.get("id")
            if not isinstance(msg_id, str | int | None) or isinstance(msg_id, bool):
                msg_id = None
            if isinstance(msg_id, str) and (len(msg_id) > 100 or not encodable(msg_id)):
                msg_id = None
            kind = msg.get("type")
            if kind == "ping":
                return {"type": "pong", "id": msg_id}
            if kind != "act":
                raise ApiError(400, "request/invalid", f"unknown message type {kind!r}; use act or ping")
            if conn.seat is None:
                raise ApiError(403, "seat/spectator", "spectators cannot act")
            action, version = msg.get("action"), msg.get("version")
            if not isinstance(action, str) or not 0 < len(action) <= 200:
                raise ApiError(422, "request/invalid", "action must be a text of 1-200 characters")
            if not encodable(action):
                raise ApiError(422, "request/invalid", "action must be valid Unicode text (no lone surrogates)")
            if isinstance(version, bool) or not isinstance(version, int):
                raise ApiError(422, "request/invalid", "version must be an integer (the version you saw)")
            new_version, _text = await self.manager.submit(conn.table_id, seat=conn.seat, text=action, version=version)
            return {"type": "ack", "id": msg_id, "version": new_version}
        except ApiError as err:
            return {"type": "error", "id": msg_id, **err.body()}
        except Exception:  # a bug or the database gone: this message fails, the connection lives
            log.exception("table %s: message from seat %s failed", conn.table_id, conn.seat)
            return {"type": "error", "id": msg_id, **ApiError(500, "server/error", "unexpected server error").body()}

    async def _writer(self, conn: Connection) -> None:
        while True:
            msg = await conn.queue.get()
            if msg is None:
                with contextlib.suppress(Exception):
                    await conn.ws.close()
                return
            try:
                await conn.ws.send_text(msg if isinstance(msg, str) else dumps(msg))
            except Exception:
                return

    # -- lobby channel ------------------------------------------------------------------------
    def lobby_changed(self) -> None:
        """Coalesce lobby updates: at most one snapshot per LOBBY_DEBOUNCE seconds."""
        if not self.lobby or (self._lobby_task is not None and not self._lobby_task.done()):
            return
        self._lobby_task = asyncio.get_running_loop().create_task(self._push_lobby())

    async def _push_lobby(self) -> None:
        """One snapshot per change, serialised once for every socket; nothing when no table in
        it changed; sockets that asked for deltas (`/ws/lobby?deltas=1`) get only the changed
        tables and the ids of those gone (`lobby_delta`), not the whole list again."""
        await asyncio.sleep(LOBBY_DEBOUNCE)
        snapshot = await self.lobby_snapshot()
        rows = {str(t["id"]): dumps(t) for t in snapshot["tables"]}
        last, self._lobby_last = self._lobby_last, rows
        changed = [text for tid, text in rows.items() if last.get(tid) != text]
        removed = [tid for tid in last if tid not in rows]
        if not changed and not removed:
            return
        full = dumps(snapshot)
        delta = '{"type":"lobby_delta","tables":[' + ",".join(changed) + '],"removed":' + json.dumps(removed) + "}"
        for q, deltas in list(self.lobby.items()):
            q.put_nowait(delta if deltas else full)

    async def lobby_snapshot(self) -> dict[str, Any]:
        from .api import lobby_tables

        tables = await lobby_tables(self.manager)
        return {"type": "lobby", "tables": [t.model_dump(mode="json") for t in tables]}

    async def serve_lobby(self, ws: WebSocket) -> None:
        await ws.accept()
        queue: asyncio.Queue[str | None] = asyncio.Queue()
        snapshot = await self.lobby_snapshot()
        if not self.lobby:  # the first socket: later deltas are relative to what it got
            self._lobby_last = {str(t["id"]): dumps(t) for t in snapshot["tables"]}
        self.lobby[queue] = ws.query_params.get("deltas") == "1"
        queue.put_nowait(dumps(snapshot))

        async def drain_client() -> None:
            with contextlib.suppress(Exception):
                while True:
                    await ws.receive_text()
            queue.put_nowait(None)

        reader = asyncio.create_task(drain_client())
        try:
            while True:
                text = await queue.get()
                if text is None:
                    return
                await ws.send_text(text)
        except Exception:
            return
        finally:
            self.lobby.pop(queue, None)
            if not self.lobby:
                self._lobby_last = {}  # the next socket starts from a full snapshot
            reader.cancel()
            with contextlib.suppress(BaseException):
                await reader


def encodable(text: str) -> bool:
    """Can UTF-8 hold `text` (no lone surrogates)?"""
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def dumps(msg: dict[str, Any]) -> str:
    """JSON text of an outgoing message; escaped to ASCII if some text cannot be UTF-8.

    orjson first (a view is encoded once per move for each seat: the standard library's
    encoder was a tenth of the server's CPU per move); it refuses text UTF-8 cannot hold
    (lone surrogates) and integers past 64 bits, which the standard encoder then writes."""
    try:
        return orjson.dumps(msg, option=orjson.OPT_NON_STR_KEYS).decode()
    except (orjson.JSONEncodeError, TypeError):
        return json.dumps(msg, separators=(",", ":"))


async def _refuse(ws: WebSocket, err: ApiError) -> None:
    with contextlib.suppress(Exception):
        await ws.send_text(dumps({"type": "error", "id": None, **err.body()}))
        await ws.close(code=4000 + err.status)
