"""Alembic environment: runs on the connection that :func:`weft.db.migrate.upgrade_database` passes in.

There is no ``alembic.ini``: the configuration is built in code, so the migrations run from the
installed package. With the ``alembic`` command line, set ``sqlalchemy.url`` in the config yourself.
"""

from __future__ import annotations

from alembic import context
from sqlalchemy import Connection, create_engine

from weft.db.orm import Base
from weft.errors import ConfigurationError

target_metadata = Base.metadata


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    """Run the migrations on the given connection, or on ``sqlalchemy.url``."""
    connection = context.config.attributes.get("connection")
    if connection is not None:
        _run(connection)
        return
    url = context.config.get_main_option("sqlalchemy.url")
    if url is None:
        raise ConfigurationError("Set sqlalchemy.url in the Alembic config or pass a connection.")
    engine = create_engine(url)
    try:
        with engine.begin() as conn:
            _run(conn)
    finally:
        engine.dispose()


run_migrations_online()
