"""Fixtures: every test runs on SQLite, and also on PostgreSQL when ``WEFT_TEST_DATABASE_URL`` is set.

``bash scripts/start_postgres.sh`` starts a throwaway server and prints a URL for that variable.
Each PostgreSQL test starts from an empty ``public`` schema.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from weft.db import Cipher, Database, Store
from weft.db.test_support import backends, empty_database_url

BACKENDS = [
    pytest.param(name, id=name, marks=[pytest.mark.postgres] if name == "postgresql" else []) for name in backends()
]

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


@pytest.fixture(params=BACKENDS)
def db_url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """An empty database's URL, one per backend."""
    return empty_database_url(request.param, tmp_path / "weft")


@pytest.fixture
def db(db_url: str) -> Iterator[Database]:
    """A migrated database."""
    database = Database(db_url)
    database.upgrade()
    yield database
    database.close()


@pytest.fixture
def cipher() -> Cipher:
    return Cipher("test-encryption-key")


@pytest.fixture
def store(db_url: str, cipher: Cipher) -> Iterator[Store]:
    opened = Store.open(db_url, cipher)
    yield opened
    opened.close()


@pytest.fixture
def make_workflow() -> Callable[..., dict[str, Any]]:
    """A factory of small valid workflows: Manual Trigger → Set."""
    return workflow_json


def workflow_json(name: str = "Test", **extra: Any) -> dict[str, Any]:
    data: dict[str, Any] = {
        "name": name,
        "nodes": [
            {"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Set", "type": "n8n-nodes-base.set", "typeVersion": 3.4, "parameters": {}},
        ],
        "connections": {"Start": {"main": [[{"node": "Set", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }
    data.update(extra)
    return data
