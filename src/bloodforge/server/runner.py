"""`bloodforge serve`: migrate the database, print the address to open, run uvicorn."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import uvicorn

from .app import create_app
from .config import DEFAULT_DATA_DIR, Settings, default_db_url, normalise_db_url


def serve(
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    db_url: str | None = None,
    data_dir: Path = DEFAULT_DATA_DIR,
    ai_delay: float = 0.35,
    ai_time_budget: float = 10.0,
    **options: Any,
) -> None:
    """`options`: other `Settings` fields (the limits per client, which the load benchmark
    raises; the sweep timing, which tests shorten)."""
    url = normalise_db_url(db_url) if db_url else default_db_url(Path(data_dir))
    settings = Settings(db_url=url, ai_delay=ai_delay, ai_time_budget=ai_time_budget, **options)
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    shown = "localhost" if host in ("127.0.0.1", "0.0.0.0", "::") else host
    print(f"bloodforge: database {_redact(url)}")
    print(f"bloodforge: open http://{shown}:{port}/ in your browser (Ctrl+C stops the server)", flush=True)
    uvicorn.run(create_app(settings), host=host, port=port, ws_max_size=65536, log_level="warning")


def _redact(url: str) -> str:
    """Hide a password in a database URL before printing it."""
    if "@" not in url or "://" not in url:
        return url
    scheme, rest = url.split("://", 1)
    creds, host = rest.rsplit("@", 1)
    user = creds.split(":", 1)[0]
    return f"{scheme}://{user}:***@{host}"
