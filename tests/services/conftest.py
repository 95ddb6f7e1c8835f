"""Services against a real database: SQLite always, PostgreSQL too when ``WEFT_TEST_DATABASE_URL`` is set."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from weft.db import Store
from weft.db.test_support import backends, empty_database_url
from weft.services.import_export import open_store
from weft.services.instance import Instance
from weft.services.runner import WorkflowRunner
from weft.settings import Settings

BACKENDS = [
    pytest.param(name, id=name, marks=[pytest.mark.postgres] if name == "postgresql" else []) for name in backends()
]


@pytest.fixture(params=BACKENDS)
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    url = empty_database_url(request.param, tmp_path)
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
