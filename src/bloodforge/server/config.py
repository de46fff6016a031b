"""Server settings: one frozen object built from arguments and the environment."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA_DIR = Path("bloodforge-data")


def default_db_url(data_dir: Path = DEFAULT_DATA_DIR) -> str:
    """`$DATABASE_URL` if set, else a SQLite file in `data_dir` (created when missing)."""
    env = os.environ.get("DATABASE_URL")
    if env:
        return normalise_db_url(env)
    data_dir.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{(data_dir / 'bloodforge.sqlite3').resolve()}"


def normalise_db_url(url: str) -> str:
    """Accept the usual `postgres://` / `postgresql://` spellings and use the psycopg 3 driver."""
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


@dataclass(frozen=True)
class Settings:
    db_url: str
    #: Seconds an AI seat may think before the server plays a random legal action for it.
    ai_time_budget: float = 10.0
    #: Pause before each AI action, so that people can follow an AI's turn move by move.
    ai_delay: float = 0.0
    #: Worker processes that run AI agents (never the event loop nor this process's threads);
    #: 0: threads of this process instead, `ai_workers` of them.
    ai_processes: int = 2
    ai_workers: int = 2
    #: Live tables kept in memory; idle ones beyond this are dropped and rebuilt on demand.
    max_live_tables: int = 2000
    #: Run Alembic migrations to head on startup.
    migrate: bool = True
    #: Resume AI seats whose turn it is when the server starts.
    resume_ai: bool = True
    #: HTTP request bodies over this are refused (413); a scenario text is at most 200 000 chars.
    max_body_bytes: int = 1024 * 1024
    #: New tables per minute per client address (a token bucket of `table_burst`), else 429.
    tables_per_minute: float = 20.0
    table_burst: int = 10
    #: Seconds a request body may take to arrive in full, else 408 `request/timeout`.
    body_seconds: float = 20.0
    #: Websockets plus HTTP requests in flight one client address may have at once, else 429
    #: (a websocket is refused in its handshake).
    max_connections_per_client: int = 64
    #: Replays and histories per client address: a token bucket (per second, burst), else 429.
    replays_per_second: float = 10.0
    replay_burst: int = 40
    #: Unfinished tables with AI seats one client address may have at once, else 429. Tables
    #: with a turn clock count too (the AI takes a seat over when its clock runs out).
    max_ai_tables_per_client: int = 10
    #: The shortest `turn_clock` a table may be created with (seconds), else 422.
    min_turn_clock: float = 5.0
    #: With several processes (PostgreSQL): every `sweep_interval` seconds, take up tables whose
    #: clock ran out over `stall_seconds` ago or whose AI turn has not moved for that long (the
    #: process that held them may have died).
    sweep_interval: float = 5.0
    stall_seconds: float = 25.0  # + the sweep's 5 s: taken up within 30 s
    #: The designer's workbench (`serve --lab`): off by default, every /lab route is then a 404.
    lab: bool = False
    #: The operator token every /api/lab call needs; None: $BLOODFORGE_LAB_TOKEN, else a new one printed at start.
    lab_token: str | None = None
    #: Lab worker processes per experiment, and experiments one operator may run at once.
    lab_workers: int = 2
    lab_jobs_per_operator: int = 2
    #: `serve --lab --ray ADDRESS`: run the workbench's games on this Ray cluster (the lab's Ray
    #: backend) instead of the local process pool; None: the pool.
    lab_ray: str | None = None
    #: How the lab's process pool starts workers: jobs run from a server thread, where a plain
    #: fork could copy a lock another thread holds into the child.
    lab_start_method: str = "forkserver"
