"""Several server processes on one PostgreSQL database see each other's moves live.

Every commit of entries (and every new table) sends `NOTIFY bloodforge_tables, '<id> <ply>'`
inside its transaction, so it is delivered exactly when the entries are visible. Each process
listens on its own connection in a thread and hands notifications to the event loop; the table
manager then steps its live copy forward from the database and broadcasts, as if the move had
been made here. A process that dies loses nothing: the database holds every entry and every
deadline, and any other process serves the table. SQLite has one process by nature: no-op.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable

from sqlalchemy import Connection, Engine, text

log = logging.getLogger("bloodforge.server.notify")

CHANNEL = "bloodforge_tables"


def notify(conn: Connection, table_id: str, ply: int) -> None:
    """Announce (at COMMIT) that `table_id` now has `ply` entries; PostgreSQL only."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_notify(:channel, :payload)"), {"channel": CHANNEL, "payload": f"{table_id} {ply}"})


class Listener:
    """LISTEN in a thread; calls `on_change(table_id, ply)` on the event loop."""

    def __init__(self, engine: Engine, on_change: Callable[[str, int], None]) -> None:
        self.url = engine.url.set(drivername="postgresql").render_as_string(hide_password=False)
        self.on_change = on_change
        self.stopping = threading.Event()
        self.thread: threading.Thread | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        self.connected = threading.Event()

    def start(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.thread = threading.Thread(target=self._run, name="pg-listen", daemon=True)
        self.thread.start()

    def stop(self) -> None:
        self.stopping.set()
        if self.thread is not None:
            self.thread.join(timeout=5)

    def _run(self) -> None:
        import psycopg

        backoff = 0.5
        while not self.stopping.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self.connected.set()
                    backoff = 0.5
                    while not self.stopping.is_set():
                        for note in conn.notifies(timeout=0.25):
                            self._deliver(note.payload)
            except Exception as err:  # the database restarted or the network dropped: listen again
                self.connected.clear()
                if self.stopping.is_set():
                    return
                log.warning("listening for other servers' moves failed (%s); retrying in %.1fs", err, backoff)
                self.stopping.wait(backoff)
                backoff = min(backoff * 2, 10.0)

    def _deliver(self, payload: str) -> None:
        table_id, _, ply = payload.partition(" ")
        if not table_id or not ply.removeprefix("-").isdigit() or self.loop is None:  # -1: credentials
            return
        self.loop.call_soon_threadsafe(self.on_change, table_id, int(ply))
