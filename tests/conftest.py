"""What the whole test suite shares: Weft's demo and test models are on; a PostgreSQL store fixture; a runner as
the server makes it.

Tests build workflows on the Scripted Chat Model, the Demo Chat Model and Demo Embeddings everywhere; production
instances offer them only with ``WEFT_DEMO_NODES`` (``weft.settings.Settings.demo_nodes``). They are turned on here,
once, before any test module is imported: for this process (every registry that is not told otherwise) and, through
the environment, for the ``weft`` commands, servers and workers that tests start. Tests of the setting itself build
``NodeRegistry(demo_nodes=False)`` or run a command with the variable removed (``tests/nodes/test_demo_nodes.py``,
``tests/server/test_demo_node_types.py``, ``tests/cli/test_demo_command.py``).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from weft.db import Cipher, Store
from weft.db.test_support import TEST_DATABASE_URL, reset_schema
from weft.nodes.registry import allow_demo_nodes

if TYPE_CHECKING:
    from weft.services.runner import WorkflowRunner
    from weft.settings import Settings

os.environ["WEFT_DEMO_NODES"] = "true"
allow_demo_nodes()


@pytest.fixture
def postgres_store(request: pytest.FixtureRequest) -> Iterator[Store]:
    """A store on PostgreSQL (``WEFT_TEST_DATABASE_URL``; skipped without it), in a schema of its own named after the
    test module (``test_claims`` → ``weft_claims``), emptied first."""
    if not TEST_DATABASE_URL:
        pytest.skip("this test needs PostgreSQL: set WEFT_TEST_DATABASE_URL (bash scripts/start_postgres.sh)")
    schema = "weft_" + request.module.__name__.rsplit(".", 1)[-1].removeprefix("test_")
    opened = Store.open(reset_schema(TEST_DATABASE_URL, schema), Cipher("k"))
    yield opened
    opened.close()


@pytest.fixture
def inline_runner(settings: Settings) -> Iterator[WorkflowRunner]:
    """A runner on the ``settings`` fixture of the test's folder or module, as the server makes it: on SQLite the
    executions are created and saved inline, by the stdlib writer (``weft.db.lite``)."""
    from weft.services.import_export import open_store
    from weft.services.runner import WorkflowRunner

    store = open_store(settings)
    made = WorkflowRunner(store, settings, inline_db=settings.database_url.startswith("sqlite"))
    yield made
    made.close()
    store.close()
