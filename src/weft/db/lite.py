"""Writing one execution to a SQLite database with the standard library, for ``weft execute`` start-up.

``weft execute`` records its run in the instance database (mode ``cli``). Through SQLAlchemy that costs its
import (about 0.16 s) before the first node runs, more than a small workflow takes. When the database is a
plain SQLite file already at the newest migration, :class:`LiteExecutions` writes exactly the rows
:class:`~weft.db.executions.ExecutionRepository` writes (``create``, ``finish``, ``move``) with
:mod:`sqlite3`; ``tests/db/test_lite.py`` reads both back through the repository and compares them.

Anything else (PostgreSQL, a database to create or migrate, a URL with options) returns ``None`` from
:meth:`LiteExecutions.open`, and the caller opens the full :class:`~weft.db.store.Store`.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import AbstractContextManager, contextmanager, nullcontext
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from weft.db.base import NotFoundError, dumps
from weft.db.execution_writes import DEFAULT_SAVE, key_of, parse_key, run_state, store_or_drop
from weft.db.migrate import HEAD_REVISION
from weft.db.save_policy import SaveDefaults
from weft.db.transitions import Transition
from weft.db.wal_checkpoints import WalCheckpointer
from weft.workflow.items import Run, RunExecutionData, empty_run_data

#: The PRAGMAs :func:`weft.db.engine.create_db_engine` sets on every SQLite connection.
SQLITE_PRAGMAS = ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON", "busy_timeout=10000")
_PREFIX = "sqlite:///"
#: The stored data of an execution that has not run yet.
_EMPTY_DATA = dumps(empty_run_data())


def sqlite_path(url: str) -> Path | None:
    """The file of a plain ``sqlite:///<path>`` URL; ``None`` for other URLs (they need SQLAlchemy to be read)."""
    if not url.startswith(_PREFIX):
        return None
    path = url[len(_PREFIX) :]
    if not path or path == ":memory:" or any(ch in path for ch in "?%~#"):
        return None
    return Path(path)


def _timestamp(value: datetime | None) -> str | None:
    """A timestamp as SQLAlchemy's ``DateTime`` stores it in SQLite: naive UTC with microseconds."""
    if value is None:
        return None
    utc = value.astimezone(UTC).replace(tzinfo=None) if value.tzinfo else value
    return utc.isoformat(" ", "microseconds")


class LiteExecutions:
    """``create``, ``finish`` and ``move`` of :class:`~weft.db.executions.ExecutionRepository`, on sqlite3.

    Methods are synchronous and must be called from the thread that opened the database, unless it was opened with
    ``same_thread=False``: then from one thread at a time (the server's event loop, and a worker thread for the
    write of a large execution's data while the loop's writes wait: ``WorkflowRunner.db_write_large``).
    """

    takes_workflow_text = True
    """:meth:`create` takes the snapshot's JSON text (``workflow_text``) from a caller that keeps it."""

    def __init__(self, connection: sqlite3.Connection, checkpointer: WalCheckpointer | None = None) -> None:
        self._connection = connection
        self._checkpointer = checkpointer
        self._batched = False

    @classmethod
    def open(
        cls,
        url: str,
        *,
        same_thread: bool = True,
        write_lock: Callable[[], AbstractContextManager[object]] | None = None,
    ) -> LiteExecutions | None:
        """The writer for ``url``, or ``None`` unless it is an existing SQLite file at the head revision.

        ``same_thread=False`` lets another thread than the opener use it (one at a time: the caller serialises).
        ``write_lock`` (the instance's, held around each write by the caller) moves the WAL checkpoints out of the
        commits into a thread of their own (:mod:`weft.db.wal_checkpoints`).
        """
        path = sqlite_path(url)
        if path is None or not path.is_file():
            return None
        connection = sqlite3.connect(path, check_same_thread=same_thread)
        try:
            row = connection.execute("SELECT version_num FROM alembic_version").fetchone()
            if row is None or row[0] != HEAD_REVISION:
                connection.close()
                return None
            for pragma in SQLITE_PRAGMAS:
                connection.execute(f"PRAGMA {pragma}")
            if write_lock is not None:
                connection.execute("PRAGMA wal_autocheckpoint=0")
        except sqlite3.Error:
            connection.close()
            return None
        return cls(connection, None if write_lock is None else WalCheckpointer(path, write_lock))

    def close(self) -> None:
        if self._checkpointer is not None:
            self._checkpointer.close()
        self._connection.close()

    @contextmanager
    def batch(self) -> Iterator[None]:
        """The writes made inside, in one transaction: one commit (and one lock) for several executions' writes
        (:class:`weft.services.write_batch.WriteBatch`). An error inside rolls all of them back."""
        self._batched = True
        try:
            with self._connection:
                yield
        finally:
            self._batched = False
        self._committed()

    def _writing(self) -> AbstractContextManager[Any]:
        """A write's transaction: its own, or the batch's it is part of."""
        return nullcontext() if self._batched else self._connection

    def _committed(self) -> None:
        if self._checkpointer is not None and not self._batched:
            self._checkpointer.committed()

    def create(
        self,
        workflow: Mapping[str, Any],
        mode: str,
        status: str = "new",
        *,
        data: RunExecutionData | None = None,
        parent_execution_id: str | None = None,
        retry_of: str | None = None,
        workflow_text: str | None = None,
    ) -> str:
        """Store a new execution of ``workflow`` (its JSON is snapshotted) and return its id.

        ``workflow_text`` is that snapshot's text when the caller has it already (``json.dumps(dict(workflow))``)."""
        now = _timestamp(datetime.now(UTC))
        with self._writing():
            cursor = self._connection.execute(
                "INSERT INTO execution_entity (workflow_id, mode, status, finished, started_at, parent_execution_id,"
                " retry_of, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    workflow.get("id") or None,
                    mode,
                    status,
                    False,
                    now if status == "running" else None,
                    parent_execution_id,
                    retry_of,
                    now,
                ),
            )
            key = cursor.lastrowid
            self._connection.execute(
                "INSERT INTO execution_data (execution_id, workflow_data, data) VALUES (?, ?, ?)",
                (
                    key,
                    json.dumps(dict(workflow)) if workflow_text is None else workflow_text,
                    _EMPTY_DATA if data is None else dumps(data),
                ),
            )
        self._committed()
        return str(key)

    def update(self, execution_id: str, run: Run, *, data_text: str | None = None) -> None:
        """Store a finished or paused run: status, ``finished``, timestamps, ``waitTill`` and the data
        (``data_text``: its JSON text when the caller made it already, see :mod:`weft.db.large_json`)."""
        key = key_of(execution_id)
        state = run_state(run)
        with self._writing():
            cursor = self._connection.execute(
                "UPDATE execution_entity SET status=?, finished=?, started_at=coalesce(?, started_at),"
                " stopped_at=?, wait_till=? WHERE id = ?",
                (
                    state.status,
                    state.finished,
                    _timestamp(state.started_at),
                    _timestamp(state.stopped_at),
                    _timestamp(state.wait_till),
                    key,
                ),
            )
            if cursor.rowcount == 0:
                raise NotFoundError(f"Execution {execution_id!r} does not exist.", execution_id=execution_id)
            self._connection.execute(
                "UPDATE execution_data SET data=? WHERE execution_id = ?",
                (dumps(run["data"]) if data_text is None else data_text, key),
            )
        self._committed()

    def finish(
        self,
        execution_id: str,
        run: Run,
        *,
        workflow_settings: Mapping[str, Any] | None = None,
        defaults: SaveDefaults = DEFAULT_SAVE,
        data_text: str | None = None,
    ) -> bool:
        """Store ``run``, or delete the execution when the save settings say not to keep it; True if kept.

        ``data_text`` is the JSON text of ``run["data"]`` when the caller made it already (large data is encoded
        in a worker thread: :func:`weft.db.large_json.dumps_off_loop`)."""
        return store_or_drop(
            lambda: self.update(execution_id, run, data_text=data_text),
            lambda: self.delete([execution_id]),
            run,
            workflow_settings,
            defaults,
        )

    def delete(self, execution_ids: Iterable[str]) -> int:
        """Delete executions and their data; returns how many existed."""
        keys = [k for k in map(parse_key, execution_ids) if k is not None]
        if not keys:
            return 0
        marks = ", ".join("?" * len(keys))
        with self._writing():
            self._connection.execute(f"DELETE FROM execution_data WHERE execution_id IN ({marks})", keys)
            sources = [str(k) for k in keys]  # the database mode's files (weft.db.binary_data)
            files = f"SELECT file_id FROM binary_data WHERE source_id IN ({marks})"
            self._connection.execute(f"DELETE FROM binary_data_chunk WHERE file_id IN ({files})", sources)
            self._connection.execute(f"DELETE FROM binary_data WHERE source_id IN ({marks})", sources)
            cursor = self._connection.execute(f"DELETE FROM execution_entity WHERE id IN ({marks})", keys)
        self._committed()
        return cursor.rowcount

    def move(self, execution_id: str, transition: Transition) -> bool:
        """:meth:`~weft.db.executions.ExecutionRepository.move`: ``transition`` if the status is one of its sources."""
        sql = "UPDATE execution_entity SET status=?"
        params: list[Any] = [transition.to]
        if transition.to == "running":
            sql += ", started_at=coalesce(started_at, ?)"
            params.append(_timestamp(datetime.now(UTC)))
        sources = sorted(transition.sources)
        sql += f" WHERE id = ? AND status IN ({', '.join('?' * len(sources))})"
        params.append(key_of(execution_id))
        params.extend(sources)
        with self._writing():
            moved = self._connection.execute(sql, params).rowcount > 0
        self._committed()
        return moved


__all__ = ["SQLITE_PRAGMAS", "LiteExecutions", "empty_run_data", "sqlite_path"]
