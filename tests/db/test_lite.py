"""``weft.db.lite`` writes exactly the rows ``ExecutionRepository`` writes (read back through the repository)."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text

from weft.db import Cipher, Store, StoredExecution, empty_run_data
from weft.db.lite import SQLITE_PRAGMAS, LiteExecutions, sqlite_path
from weft.db.lite import empty_run_data as lite_empty_run_data
from weft.db.save_policy import SaveDefaults
from weft.db.transitions import CRASH, RESUME, START
from weft.workflow.items import Run

WORKFLOW = {"id": "wf1", "name": "Ünïcode “wf”", "nodes": [], "connections": {}, "settings": {"a": 1}}
T0 = datetime(2026, 1, 1, 12, 0, 0, 123000, tzinfo=UTC)


def _iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def _run(status: str, *, wait_till: str | None = None) -> Run:
    data = empty_run_data()
    data["resultData"]["runData"] = {
        "Ä": [
            {"startTime": 1, "executionIndex": 0, "executionTime": 2, "source": [], "data": {"main": [[{"json": {}}]]}}
        ]
    }
    if wait_till:
        data["waitTill"] = wait_till
    run: Run = {
        "data": data,
        "mode": "cli",
        "startedAt": _iso(T0),
        "stoppedAt": _iso(T0 + timedelta(seconds=1)),
        "status": status,  # type: ignore[typeddict-item]
        "finished": status == "success",
    }
    return run


@pytest.fixture
def url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'weft' / 'database.sqlite'}"


@pytest.fixture
def store(url: str) -> Iterator[Store]:
    opened = Store.open(url, Cipher("k"))
    yield opened
    opened.close()


@pytest.fixture
def lite(store: Store, url: str) -> Iterator[LiteExecutions]:
    writer = LiteExecutions.open(url)
    assert writer is not None
    yield writer
    writer.close()


def _raw(url: str, execution_id: str) -> tuple[Any, ...]:
    path = sqlite_path(url)
    assert path is not None
    with sqlite3.connect(path) as connection:
        row = connection.execute(
            "SELECT e.workflow_id, e.mode, e.status, e.finished, e.stopped_at, e.wait_till, e.retry_of,"
            " e.parent_execution_id, e.deleted_at, typeof(e.created_at), length(e.created_at), d.workflow_data, d.data"
            " FROM execution_entity e JOIN execution_data d ON d.execution_id = e.id WHERE e.id = ?",
            (int(execution_id),),
        ).fetchone()
    assert row is not None
    return tuple(row)


def _same(a: StoredExecution | None, b: StoredExecution | None) -> None:
    assert a is not None and b is not None
    assert a.created_at.tzinfo is not None and b.created_at.tzinfo is not None
    assert replace(a, id="", created_at=T0, started_at=None) == replace(b, id="", created_at=T0, started_at=None)


def test_create_writes_the_rows_the_repository_writes(store: Store, lite: LiteExecutions, url: str) -> None:
    kwargs: dict[str, Any] = {"parent_execution_id": "7", "retry_of": "3"}
    by_repository = store.executions.create(WORKFLOW, "cli", "running", **kwargs)
    by_lite = lite.create(WORKFLOW, "cli", "running", **kwargs)
    assert int(by_lite) == int(by_repository) + 1
    _same(store.executions.get(by_repository), store.executions.get(by_lite))
    assert _raw(url, by_repository) == _raw(url, by_lite)
    new = store.executions.get(lite.create(WORKFLOW, "cli"))
    assert new is not None and new.status == "new" and new.started_at is None


@pytest.mark.parametrize(("status", "wait_till"), [("success", None), ("error", None), ("waiting", _iso(T0))])
def test_finish_writes_the_rows_the_repository_writes(
    store: Store, lite: LiteExecutions, url: str, status: str, wait_till: str | None
) -> None:
    by_repository = store.executions.create(WORKFLOW, "cli", "running")
    by_lite = lite.create(WORKFLOW, "cli", "running")
    assert store.executions.finish(by_repository, _run(status, wait_till=wait_till), workflow_settings={})
    assert lite.finish(by_lite, _run(status, wait_till=wait_till), workflow_settings={})
    stored = store.executions.get(by_lite)
    assert stored is not None and stored.started_at == T0 and stored.status == status
    _same(store.executions.get(by_repository), stored)
    assert _raw(url, by_repository) == _raw(url, by_lite)


def test_finish_deletes_what_the_save_settings_drop(store: Store, lite: LiteExecutions) -> None:
    execution_id = lite.create(WORKFLOW, "cli", "running")
    dropped = lite.finish(execution_id, _run("success"), defaults=SaveDefaults(success="none"))
    assert dropped is False and store.executions.get(execution_id) is None
    assert lite.delete(["x", "0"]) == 0


def test_a_move_happens_only_from_its_sources(store: Store, lite: LiteExecutions) -> None:
    execution_id = lite.create(WORKFLOW, "cli", "new")
    assert lite.move(execution_id, CRASH) is False
    assert lite.move(execution_id, RESUME) is False
    assert lite.move(execution_id, START) is True
    stored = store.executions.get(execution_id)
    assert stored is not None and stored.status == "running" and stored.started_at is not None


def test_open_falls_back_unless_sqlite_at_head(tmp_path: Path, store: Store, url: str) -> None:
    assert LiteExecutions.open("postgresql://u:p@localhost/db") is None
    assert LiteExecutions.open("sqlite:///:memory:") is None
    assert LiteExecutions.open(f"sqlite:///{tmp_path / 'missing.sqlite'}") is None
    assert LiteExecutions.open(url + "?timeout=3") is None
    with store.db.engine.begin() as connection:
        connection.execute(text("UPDATE alembic_version SET version_num = 'older'"))
    assert LiteExecutions.open(url) is None


def test_connection_matches_the_engine(store: Store, lite: LiteExecutions, url: str) -> None:
    assert lite_empty_run_data is empty_run_data  # one definition
    pragmas = [p.split("=")[0] for p in SQLITE_PRAGMAS]
    with store.db.engine.connect() as connection:
        expected = [str(connection.execute(text(f"PRAGMA {p}")).scalar()) for p in pragmas]
    assert [str(lite._connection.execute(f"PRAGMA {p}").fetchone()[0]) for p in pragmas] == expected
