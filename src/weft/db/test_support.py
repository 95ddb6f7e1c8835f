"""Databases for test suites: SQLite always, PostgreSQL too when ``WEFT_TEST_DATABASE_URL`` is set.

``bash scripts/start_postgres.sh`` starts a throwaway PostgreSQL server and prints a URL for that variable.
Shared by the test suites of the persistence layer, the services and the server (it does not import pytest).
"""

from __future__ import annotations

import os
from pathlib import Path

from sqlalchemy import text

from weft.db.engine import create_db_engine

#: The PostgreSQL server the tests may use ("" when none).
TEST_DATABASE_URL = os.environ.get("WEFT_TEST_DATABASE_URL", "")


def backends() -> list[str]:
    """``["sqlite"]``, plus ``"postgresql"`` when a test server is configured."""
    return ["sqlite", "postgresql"] if TEST_DATABASE_URL else ["sqlite"]


def reset_schema(url: str, schema: str = "public") -> str:
    """Drop and recreate ``schema`` on ``url``; the URL to use it (another schema goes first in the search path)."""
    engine = create_db_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
            connection.execute(text(f'CREATE SCHEMA "{schema}"'))
    finally:
        engine.dispose()
    if schema == "public":
        return url
    return f"{url}{'&' if '?' in url else '?'}options=-csearch_path%3D{schema}"


def empty_database_url(backend: str, folder: Path, schema: str = "public") -> str:
    """The URL of an empty database of ``backend``: a SQLite file in ``folder``, or a fresh PostgreSQL schema."""
    if backend == "sqlite":
        return f"sqlite:///{folder / 'database.sqlite'}"
    return reset_schema(TEST_DATABASE_URL, schema)
