"""The database handle: an SQLAlchemy Engine and its session factory.

Sync, not async: SQLAlchemy's asyncio extension needs ``aiosqlite`` for SQLite, which Weft does not
depend on, and the repositories run short transactions (a few milliseconds) that the asyncio server
calls through ``asyncio.to_thread``. One synchronous code path serves the CLI, the server and the
queue workers alike, and both SQLite and PostgreSQL (psycopg 3) behave the same way in it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from sqlalchemy import Connection, Engine, create_engine, event
from sqlalchemy.engine import URL, make_url
from sqlalchemy.orm import Session, sessionmaker

from weft.db.files import private_file, private_folder
from weft.db.migrate import upgrade_database
from weft.errors import ConfigurationError

#: Milliseconds a SQLite writer waits for the lock held by another writer before failing.
SQLITE_BUSY_TIMEOUT_MS = 10_000


def normalize_url(url: str) -> URL:
    """The URL with the driver Weft uses: ``postgresql://`` and ``postgres://`` become ``postgresql+psycopg://``."""
    if url.startswith("postgres://"):
        url = "postgresql://" + url.removeprefix("postgres://")
    try:
        parsed = make_url(url)
    except Exception as exc:  # sqlalchemy raises ArgumentError; keep the message
        raise ConfigurationError(
            f"WEFT_DATABASE_URL {url!r} is not a database URL ({exc}); "
            "use sqlite:///path/database.sqlite or postgresql://user:password@host:5432/db."
        ) from None
    if parsed.drivername == "postgresql":
        parsed = parsed.set(drivername="postgresql+psycopg")
    if parsed.get_backend_name() not in {"sqlite", "postgresql"}:
        raise ConfigurationError(
            f"Database {parsed.get_backend_name()!r} is not supported; use SQLite or PostgreSQL in WEFT_DATABASE_URL."
        )
    return parsed


def create_db_engine(url: str, *, echo: bool = False) -> Engine:
    """An Engine for ``url``; SQLite files get WAL, foreign keys, a busy timeout and their folder created."""
    parsed = normalize_url(url)
    if parsed.get_backend_name() != "sqlite":
        # No pool_pre_ping: it costs a round trip per transaction on the execution hot path;
        # connections older than pool_recycle seconds are replaced instead.
        return create_engine(parsed, echo=echo, pool_size=10, max_overflow=20, pool_recycle=1800)
    if parsed.database and parsed.database != ":memory:" and not parsed.database.startswith("file:"):
        database = Path(parsed.database).expanduser()
        if not database.parent.exists():
            private_folder(database.parent)
        private_file(database)
    engine = create_engine(parsed, echo=echo)
    event.listen(engine, "connect", _configure_sqlite)
    return engine


def _configure_sqlite(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    try:
        cursor.execute("PRAGMA journal_mode=WAL")
        # WAL + NORMAL is durable against process crashes; only an OS crash may lose the last commits.
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    finally:
        cursor.close()


class Database:
    """One database: the Engine, a session factory, and the migration entry point."""

    def __init__(self, url: str, *, echo: bool = False) -> None:
        self.engine = create_db_engine(url, echo=echo)
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)

    @property
    def dialect(self) -> str:
        """``sqlite`` or ``postgresql``."""
        return self.engine.dialect.name

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session inside one transaction: committed on success, rolled back on error."""
        with self.sessions.begin() as session:
            yield session

    @contextmanager
    def autocommit(self) -> Iterator[Connection]:
        """A connection on which each statement is its own transaction: one round trip per statement, no
        ``BEGIN``/``COMMIT`` (for hot-path writes that are one statement)."""
        with self.engine.connect().execution_options(isolation_level="AUTOCOMMIT") as connection:
            yield connection

    def upgrade(self) -> None:
        """Bring the schema to the newest migration (``alembic upgrade head``)."""
        upgrade_database(self.engine)

    def close(self) -> None:
        """Close every pooled connection."""
        self.engine.dispose()


__all__ = ["SQLITE_BUSY_TIMEOUT_MS", "Database", "create_db_engine", "normalize_url"]
