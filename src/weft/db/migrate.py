"""Run Alembic migrations programmatically, from the migration scripts shipped in the package."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config() -> Config:
    """An Alembic config pointing at Weft's migrations; no ``alembic.ini`` is needed."""
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    config.set_main_option("path_separator", "os")
    return config


def upgrade_database(engine: Engine, revision: str = "head") -> None:
    """``alembic upgrade <revision>`` on ``engine``, in one transaction."""
    config = alembic_config()
    with engine.begin() as connection:
        config.attributes["connection"] = connection
        command.upgrade(config, revision)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at, or ``None`` for an empty database."""
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def head_revision() -> str | None:
    """The newest revision shipped with this version of Weft."""
    return ScriptDirectory.from_config(alembic_config()).get_current_head()


__all__ = ["MIGRATIONS_DIR", "alembic_config", "current_revision", "head_revision", "upgrade_database"]
