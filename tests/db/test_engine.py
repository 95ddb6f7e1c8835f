from pathlib import Path

import pytest
from sqlalchemy import inspect, text

from weft.db import Database, current_revision, head_revision, normalize_url, upgrade_database
from weft.db.orm import Base
from weft.errors import ConfigurationError

TABLES = {
    "workflow_entity",
    "execution_entity",
    "execution_data",
    "credentials_entity",
    "webhook_entity",
    "settings",
    "chat_memory",
}


def test_postgres_urls_get_the_psycopg_driver() -> None:
    assert normalize_url("postgresql://u:p@h/db").drivername == "postgresql+psycopg"
    assert normalize_url("postgres://u:p@h:5433/db").render_as_string(hide_password=False) == (
        "postgresql+psycopg://u:p@h:5433/db"
    )
    assert normalize_url("sqlite:////tmp/x.sqlite").drivername == "sqlite"


@pytest.mark.parametrize("url", ["mysql://u@h/db", "not a url"])
def test_unsupported_urls_are_configuration_errors(url: str) -> None:
    with pytest.raises(ConfigurationError, match=r"WEFT_DATABASE_URL|not supported"):
        normalize_url(url)


def test_sqlite_gets_wal_foreign_keys_and_its_folder(tmp_path: Path) -> None:
    db = Database(f"sqlite:///{tmp_path / 'new' / 'folder' / 'database.sqlite'}")
    try:
        with db.engine.connect() as connection:
            assert connection.execute(text("PRAGMA journal_mode")).scalar() == "wal"
            assert connection.execute(text("PRAGMA foreign_keys")).scalar() == 1
            assert connection.execute(text("PRAGMA busy_timeout")).scalar() == 10_000
        assert (tmp_path / "new" / "folder" / "database.sqlite").exists()
    finally:
        db.close()


def test_migrations_create_every_table(db: Database) -> None:
    assert TABLES <= set(inspect(db.engine).get_table_names())
    assert current_revision(db.engine) == head_revision()


def test_upgrade_twice_is_a_no_op(db: Database) -> None:
    upgrade_database(db.engine)
    assert current_revision(db.engine) == head_revision()


def test_models_and_migrations_agree(db: Database) -> None:
    from alembic.autogenerate import compare_metadata
    from alembic.runtime.migration import MigrationContext

    with db.engine.connect() as connection:
        context = MigrationContext.configure(connection, opts={"compare_type": True})
        assert compare_metadata(context, Base.metadata) == []


def test_downgrade_to_base_drops_the_tables(db: Database) -> None:
    from alembic import command

    from weft.db.migrate import alembic_config

    config = alembic_config()
    with db.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert not TABLES & set(inspect(db.engine).get_table_names())


def test_head_revision_constant_matches_the_migration_scripts() -> None:
    from weft.db.migrate import HEAD_REVISION

    assert head_revision() == HEAD_REVISION
