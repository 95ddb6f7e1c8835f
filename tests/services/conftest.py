"""Services against a real database: SQLite always, PostgreSQL too when ``WEFT_TEST_DATABASE_URL`` is set."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import text

from weft.db import Store, create_db_engine
from weft.services.import_export import open_store
from weft.services.instance import Instance
from weft.services.runner import WorkflowRunner
from weft.settings import Settings

PG_URL = os.environ.get("WEFT_TEST_DATABASE_URL", "")
BACKENDS = [pytest.param("sqlite", id="sqlite")]
if PG_URL:
    BACKENDS.append(pytest.param("postgresql", id="postgresql", marks=pytest.mark.postgres))


def _reset_postgres(url: str) -> None:
    engine = create_db_engine(url)
    try:
        with engine.begin() as connection:
            connection.execute(text("DROP SCHEMA IF EXISTS public CASCADE"))
            connection.execute(text("CREATE SCHEMA public"))
    finally:
        engine.dispose()


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'database.sqlite'}"
    else:
        _reset_postgres(PG_URL)
        url = PG_URL
    return Settings(user_folder=tmp_path, database_url=url, encryption_key="test-key")


@pytest.fixture
def store(settings: Settings) -> Iterator[Store]:
    opened = open_store(settings)
    yield opened
    opened.close()


@pytest.fixture
def runner(store: Store, settings: Settings) -> Iterator[WorkflowRunner]:
    made = WorkflowRunner(store, settings)
    yield made
    made.close()


@pytest.fixture
async def instance(settings: Settings) -> AsyncIterator[Instance]:
    opened = Instance.open(settings)
    await opened.start(background=False)
    yield opened
    await opened.close()
