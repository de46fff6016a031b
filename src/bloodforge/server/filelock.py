"""One server per SQLite file: an OS lock on a file beside the database, held for the
process's life.

*Why:* a server keeps its live tables in memory and writes through them; a second server on the
same SQLite file would never hear of the first one's moves (SQLite has no LISTEN/NOTIFY) and
would silently serve stale tables and refuse moves as stale. Several processes are for
PostgreSQL. The lock is `flock` on `<database>.lock`: the OS drops it when the process dies,
even by SIGKILL, so a crash never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path
from typing import IO

from sqlalchemy.engine import make_url


class DatabaseInUseError(RuntimeError):
    """Another server process holds the SQLite file."""


def sqlite_path(db_url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases and in-memory SQLite)."""
    url = make_url(db_url)
    if url.get_backend_name() != "sqlite" or not url.database or url.database == ":memory:":
        return None
    return Path(url.database).resolve()


def lock_sqlite(db_url: str) -> IO[str] | None:
    """Hold the lock of the SQLite file of `db_url` (keep the returned file open for as long as
    the server runs); DatabaseInUseError if another process holds it; None for PostgreSQL."""
    path = sqlite_path(db_url)
    if path is None:
        return None
    path.parent.mkdir(parents=True, exist_ok=True)
    lock_path = path.with_name(path.name + ".lock")
    handle = open(lock_path, "a+", encoding="utf-8")  # noqa: SIM115 - held for the process's life
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError:
        handle.seek(0)
        holder = handle.read().strip()
        handle.close()
        who = f" (process {holder})" if holder.isdigit() else ""
        raise DatabaseInUseError(
            f"another bloodforge server{who} is already using {path}; one server per SQLite file "
            "(stop it, give this one another --data-dir or --db, or run several servers on PostgreSQL)"
        ) from None
    with contextlib.suppress(OSError):
        handle.seek(0)
        handle.truncate()
        handle.write(str(os.getpid()))
        handle.flush()
    return handle
