"""Run Alembic migrations programmatically, from the migration scripts shipped in the package."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # SQLAlchemy is imported lazily: weft.db.lite reads HEAD_REVISION without it
    from alembic.config import Config
    from sqlalchemy import Engine

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"
#: The newest revision shipped; a test checks it against the migration scripts. Opening a database that is
#: already at this revision does not import Alembic (about 0.3 s of start-up).
HEAD_REVISION = "0004_queue_mode"


def alembic_config() -> Config:
    """An Alembic config pointing at Weft's migrations; no ``alembic.ini`` is needed."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("path_separator", "os")
    return config


def upgrade_database(engine: Engine, revision: str = "head") -> None:
    """``alembic upgrade <revision>`` on ``engine``, in one transaction (nothing to do at the head revision)."""
    if revision == "head" and _stored_revision(engine) == HEAD_REVISION:
        return
    from alembic import command

    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def _stored_revision(engine: Engine) -> str | None:
    from sqlalchemy import text

    try:
        with engine.connect() as connection:
            row = connection.execute(text("SELECT version_num FROM alembic_version")).first()
    except Exception:
        return None
    return str(row[0]) if row else None


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or ``None`` for an empty database."""
    from alembic.runtime.migration import MigrationContext

    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    """The newest revision shipped with this version of Weft."""
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config()).get_current_head()


__all__ = ["MIGRATIONS_DIR", "alembic_config", "current_revision", "head_revision", "upgrade_database"]
