"""Fixtures: a database URL per backend (SQLite file, real PostgreSQL), app clients, servers."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from bloodforge.server.app import create_app
from bloodforge.server.config import Settings

from .support import PgCluster, ServerThread, fresh_pg_database


@pytest.fixture(scope="session")
def pg_admin_url() -> Iterator[str]:
    """$BLOODFORGE_TEST_PG_URL, or a throwaway cluster started for this test session."""
    env = os.environ.get("BLOODFORGE_TEST_PG_URL")
    if env:
        yield env.replace("postgresql://", "postgresql+psycopg://", 1) if env.startswith("postgresql://") else env
        return
    cluster = PgCluster()
    try:
        yield cluster.start()
    finally:
        cluster.stop()


@pytest.fixture(params=["sqlite", "postgresql"])
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.sqlite3'}"
    admin: str = request.getfixturevalue("pg_admin_url")
    return fresh_pg_database(admin)


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'test.sqlite3'}"


ClientFactory = Callable[..., AbstractContextManager[TestClient]]


@pytest.fixture
def make_client() -> ClientFactory:
    """`with make_client(db_url, **settings) as client:` — the app with its lifespan running."""

    @contextmanager
    def factory(url: str, **options: Any) -> Iterator[TestClient]:
        options.setdefault("ai_delay", 0.0)
        options.setdefault("min_turn_clock", 0.05)  # clock tests run on short clocks
        with TestClient(create_app(Settings(db_url=url, **options))) as client:
            yield client

    return factory


@pytest.fixture
def client(make_client: ClientFactory, db_url: str) -> Iterator[TestClient]:
    with make_client(db_url) as c:
        yield c


@pytest.fixture
def sqlite_client(make_client: ClientFactory, sqlite_url: str) -> Iterator[TestClient]:
    with make_client(sqlite_url) as c:
        yield c


@pytest.fixture
def live_server(sqlite_url: str) -> Iterator[ServerThread]:
    with ServerThread(Settings(db_url=sqlite_url, ai_delay=0.0)) as server:
        yield server
