"""Checks `serve` makes before starting, so a busy port or a bad database URL is one clear line.

Imported only by the `serve` command, so other commands never load SQLAlchemy."""

from __future__ import annotations

import errno
import socket

import typer
from sqlalchemy import text
from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

from bloodforge.server.config import normalise_db_url
from bloodforge.server.db import make_engine


def check_port(host: str, port: int) -> None:
    """Refuse a port that is out of range or already taken (another server is listening)."""
    if not 0 <= port < 65536:
        raise typer.BadParameter(f"{port} is not a TCP port (0-65535)", param_hint="--port")
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except socket.gaierror as err:
        raise typer.BadParameter(f"cannot listen on {host!r}: {err.strerror}", param_hint="--host") from None
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as err:
            if err.errno == errno.EADDRINUSE:
                raise typer.BadParameter(
                    f"port {port} on {host} is already in use (another server?); choose another with --port",
                    param_hint="--port",
                ) from None
            raise typer.BadParameter(f"cannot listen on {host}:{port}: {err.strerror}", param_hint="--port") from None


def check_database(url: str | None) -> None:
    """Refuse a database URL SQLAlchemy cannot use, or a database that does not answer."""
    if url is None:
        return
    try:
        engine = make_engine(normalise_db_url(url))
    except (ArgumentError, NoSuchModuleError, ValueError) as err:
        raise typer.BadParameter(
            f"{url.split('@')[-1]!r} is not a database URL this server knows ({err}); use "
            "postgresql://user:password@host/dbname or sqlite:///path/to/file.sqlite3",
            param_hint="--db",
        ) from None
    try:
        with engine.connect() as conn:
            conn.execute(text("SELECT 1"))
    except SQLAlchemyError as err:
        reason = str(getattr(err, "orig", None) or err).strip().splitlines()[0]
        raise typer.BadParameter(f"cannot reach the database: {reason}", param_hint="--db") from None
    finally:
        engine.dispose()
