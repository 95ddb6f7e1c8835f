"""Stored executions: their state in ``execution_entity``, their ``IRunExecutionData`` in ``execution_data``.

Ids are integers in the database and strings everywhere else, as in n8n. Deletes are hard deletes
(``deleted_at`` exists for n8n's schema but is not used yet); the data row goes with its execution.
"""

from __future__ import annotations

import builtins
from collections.abc import Collection, Iterable, Mapping
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import CursorResult, Select, bindparam, delete, func, insert, literal, or_, select, update

from weft.db.base import NotFoundError, dumps, rowcount
from weft.db.binary_data import delete_binary_rows
from weft.db.claims import ENDED, Claim, StaleClaimError, check_claim
from weft.db.engine import Database
from weft.db.execution_writes import DEFAULT_SAVE, key_of, parse_key, run_state, store_or_drop
from weft.db.orm import Base, ExecutionData, ExecutionEntity, UtcDateTime, utcnow
from weft.db.save_policy import SaveDefaults
from weft.db.stored_executions import StoredExecution, stored_execution
from weft.db.transitions import CRASH, UNFINISHED, Transition
from weft.errors import EngineError
from weft.workflow.items import Run, RunExecutionData, empty_run_data

_EXECUTIONS = Base.metadata.tables[ExecutionEntity.__tablename__]
_DATA = Base.metadata.tables[ExecutionData.__tablename__]
_INSERT_EXECUTION = insert(_EXECUTIONS)
_INSERT_DATA = insert(_DATA)
_UPDATE_EXECUTION = (
    update(_EXECUTIONS)
    .where(_EXECUTIONS.c.id == bindparam("b_key"))
    .values(
        status=bindparam("b_status"),
        finished=bindparam("b_finished"),
        started_at=func.coalesce(bindparam("b_started_at", type_=UtcDateTime()), _EXECUTIONS.c.started_at),
        stopped_at=bindparam("b_stopped_at", type_=UtcDateTime()),
        wait_till=bindparam("b_wait_till", type_=UtcDateTime()),
    )
)
_UPDATE_DATA = update(_DATA).where(_DATA.c.execution_id == bindparam("b_key")).values(data=bindparam("b_data"))


def _updating_claimed() -> Select[bool, bool]:
    """:data:`_UPDATE_EXECUTION` and :data:`_UPDATE_DATA` if the claim ``b_token`` holds the execution, which it
    ends (PostgreSQL): whether it held (``held``), whether the execution exists (``found``)."""
    entity = _UPDATE_EXECUTION.where(_EXECUTIONS.c.id.in_(select(ENDED.c.execution_id)))
    entity_ids = entity.returning(_EXECUTIONS.c.id).cte("entity")
    data = _UPDATE_DATA.where(_DATA.c.execution_id.in_(select(entity_ids.c.id))).returning(_DATA.c.execution_id)
    held = select(func.count()).select_from(ENDED).scalar_subquery()
    found = select(func.count()).select_from(entity_ids).scalar_subquery()
    return select(held > 0, found > 0).add_cte(data.cte("data"))


_UPDATE_CLAIMED = _updating_claimed()

#: Statuses of executions that are not over; they are never pruned.
UNFINISHED_STATUSES = tuple(sorted(UNFINISHED))


class ExecutionRepository:
    """Executions in one database. Methods are synchronous; call them through ``asyncio.to_thread``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def create(
        self,
        workflow: Mapping[str, Any],
        mode: str,
        status: str = "new",
        *,
        data: RunExecutionData | None = None,
        parent_execution_id: str | None = None,
        retry_of: str | None = None,
    ) -> str:
        """Store a new execution of ``workflow`` (its JSON is snapshotted) and return its id."""
        row, payload = new_execution(workflow, mode, status, data, parent_execution_id, retry_of)
        # Core statements, not ORM units of work: this and update() run once per execution (hot path).
        with self._db.engine.begin() as connection:
            key = _inserted_id(connection.execute(_INSERT_EXECUTION, row))
            connection.execute(_INSERT_DATA, {"execution_id": key, **payload})
        return str(key)

    def update(self, execution_id: str, run: Run, *, data_text: str | None = None, claim: Claim | None = None) -> None:
        """Store a finished or paused run: status, ``finished``, timestamps, ``waitTill`` and the data
        (``data_text``: its JSON text when the caller made it already, see :mod:`weft.db.large_json`).
        ``claim``: a queue worker's hold on the execution, checked and ended in the same transaction."""
        key = key_of(execution_id)
        state = run_state(run)
        params = {
            "b_key": key,
            "b_status": state.status,
            "b_finished": state.finished,
            "b_started_at": state.started_at,
            "b_stopped_at": state.stopped_at,
            "b_wait_till": state.wait_till,
            "b_data": dumps(run["data"]) if data_text is None else data_text,
        }
        if claim is not None:  # a queue worker's last write: one statement
            with self._db.autocommit() as connection:
                held, found = connection.execute(_UPDATE_CLAIMED, {**params, "b_token": claim.token}).one()
            if not held:
                raise StaleClaimError(execution_id)
            if not found:
                raise NotFoundError(f"Execution {execution_id!r} does not exist.", execution_id=execution_id)
            return
        with self._db.engine.begin() as connection:
            if rowcount(connection.execute(_UPDATE_EXECUTION, params)) == 0:
                raise NotFoundError(f"Execution {execution_id!r} does not exist.", execution_id=execution_id)
            connection.execute(_UPDATE_DATA, params)

    def save_progress(self, execution_id: str, data: RunExecutionData, *, claim: Claim | None = None) -> None:
        """Store the data of a running execution (n8n's ``saveExecutionProgress``); ``claim`` renews its lease."""
        key = key_of(execution_id)
        params = {"b_key": key, "b_data": dumps(data)}
        with self._db.engine.begin() as connection:
            _check(connection, key, claim, execution_id)
            if rowcount(connection.execute(_UPDATE_DATA, params)) == 0:
                raise NotFoundError(f"Execution {execution_id!r} does not exist.", execution_id=execution_id)

    def finish(
        self,
        execution_id: str,
        run: Run,
        *,
        workflow_settings: Mapping[str, Any] | None = None,
        defaults: SaveDefaults = DEFAULT_SAVE,
        data_text: str | None = None,
        claim: Claim | None = None,
    ) -> bool:
        """Store ``run``, or delete the execution when the save settings say not to keep it; True if kept.

        ``data_text`` is the JSON text of ``run["data"]`` when the caller made it already (large data is encoded
        in a worker thread: :func:`weft.db.large_json.dumps_off_loop`)."""
        return store_or_drop(
            lambda: self.update(execution_id, run, data_text=data_text, claim=claim),
            lambda: self.delete([execution_id], claim=claim),
            run,
            workflow_settings,
            defaults,
        )

    def set_retry_success(self, execution_id: str, retry_id: str) -> None:
        """Note on a failed execution that its retry ``retry_id`` succeeded (n8n's ``retrySuccessId``)."""
        query = update(ExecutionEntity).where(ExecutionEntity.id == key_of(execution_id))
        with self._db.transaction() as session:
            session.execute(query.values(retry_success_id=retry_id))

    def move(self, execution_id: str, transition: Transition, *, claim: Claim | None = None) -> bool:
        """Make ``transition`` (:mod:`weft.db.transitions`) if the execution's status is one of its sources; True if
        it moved. Two processes that race for one execution (two resume links, a stop and a claim) never both win.
        ``claim``: a queue worker's hold, checked (and ended unless the execution keeps running) in the same
        transaction."""
        query = update(ExecutionEntity).where(
            ExecutionEntity.id == key_of(execution_id), ExecutionEntity.status.in_(sorted(transition.sources))
        )
        values: dict[str, Any] = {"status": transition.to}
        if transition.to == "running":
            values["started_at"] = func.coalesce(ExecutionEntity.started_at, literal(utcnow(), UtcDateTime()))
        with self._db.transaction() as session:
            _check(session.connection(), key_of(execution_id), claim, execution_id, final=transition.to != "running")
            return rowcount(session.execute(query.values(values))) > 0

    def get(self, execution_id: str, *, include_data: bool = True) -> StoredExecution | None:
        key = parse_key(execution_id)
        if key is None:
            return None
        with self._db.sessions() as session:
            row = session.get(ExecutionEntity, key)
            if row is None:
                return None
            data_row = session.get(ExecutionData, row.id) if include_data else None
            return stored_execution(row, data_row)

    def list(
        self,
        *,
        workflow_id: str | None = None,
        statuses: Collection[str] | None = None,
        limit: int = 100,
        last_id: str | None = None,
        started_after: datetime | None = None,
        started_before: datetime | None = None,
        first_id: str | None = None,
    ) -> builtins.list[StoredExecution]:
        """Executions newest first, without data; page with ``last_id`` (the last id of the previous page);
        ``first_id`` keeps only newer ones (n8n's ``firstId``: what came since the list was loaded)."""
        query = select(ExecutionEntity).order_by(ExecutionEntity.id.desc()).limit(limit)
        query = _filtered(query, workflow_id, statuses, started_after, started_before)
        if last_id is not None:
            query = query.where(ExecutionEntity.id < key_of(last_id))
        if first_id is not None:
            query = query.where(ExecutionEntity.id > key_of(first_id))
        with self._db.sessions() as session:
            return [stored_execution(row, None) for row in session.scalars(query)]

    def count(
        self,
        *,
        workflow_id: str | None = None,
        statuses: Collection[str] | None = None,
        started_after: datetime | None = None,
        started_before: datetime | None = None,
    ) -> int:
        """How many executions match the filters of :meth:`list` (all pages)."""
        query = _filtered(select(func.count(ExecutionEntity.id)), workflow_id, statuses, started_after, started_before)
        with self._db.sessions() as session:
            return int(session.scalar(query) or 0)

    def delete(self, execution_ids: Iterable[str], *, claim: Claim | None = None) -> int:
        """Delete executions and their data; returns how many existed (``claim``: of the one execution a queue
        worker holds, checked in the same transaction)."""
        keys = [k for k in map(parse_key, execution_ids) if k is not None]
        if not keys:
            return 0
        with self._db.transaction() as session:
            if claim is not None:
                _check(session.connection(), keys[0], claim, str(keys[0]), final=True)
            # Explicit, so it does not depend on the database enforcing ON DELETE CASCADE.
            session.execute(delete(ExecutionData).where(ExecutionData.execution_id.in_(keys)))
            delete_binary_rows(session, [str(k) for k in keys])
            return rowcount(session.execute(delete(ExecutionEntity).where(ExecutionEntity.id.in_(keys))))

    def mark_crashed(self) -> builtins.list[str]:
        """On start: executions left ``running`` by a process that died become ``crashed``; returns their ids."""
        with self._db.transaction() as session:
            running = ExecutionEntity.status.in_(sorted(CRASH.sources))
            ids = builtins.list(session.scalars(select(ExecutionEntity.id).where(running)))
            if ids:
                session.execute(
                    update(ExecutionEntity)
                    .where(ExecutionEntity.id.in_(ids), running)
                    .values(status=CRASH.to, finished=False, stopped_at=utcnow())
                )
        return [str(i) for i in ids]

    def find_waiting(self, until: datetime) -> builtins.list[StoredExecution]:
        """Waiting executions due by ``until`` (``wait_till <= until``), soonest first, without data."""
        query = (
            select(ExecutionEntity)
            .where(ExecutionEntity.status == "waiting", ExecutionEntity.wait_till <= until)
            .order_by(ExecutionEntity.wait_till, ExecutionEntity.id)
        )
        with self._db.sessions() as session:
            return [stored_execution(row, None) for row in session.scalars(query)]

    def prune(self, max_age_hours: int, max_count: int, *, now: datetime | None = None) -> builtins.list[str]:
        """Delete finished executions older than ``max_age_hours`` or beyond the newest ``max_count``.

        Like n8n, the count covers all executions, but ``new``, ``running`` and ``waiting`` ones are never
        deleted. ``0`` disables either limit. Returns the deleted ids.
        """
        cutoff = (now or utcnow()) - timedelta(hours=max_age_hours)
        with self._db.sessions() as session:
            conditions = []
            if max_age_hours > 0:
                conditions.append(func.coalesce(ExecutionEntity.stopped_at, ExecutionEntity.created_at) <= cutoff)
            if max_count > 0:
                newest_pruned = session.scalar(
                    select(ExecutionEntity.id).order_by(ExecutionEntity.id.desc()).offset(max_count).limit(1)
                )
                if newest_pruned is not None:
                    conditions.append(ExecutionEntity.id <= newest_pruned)
            if not conditions:
                return []
            query = select(ExecutionEntity.id).where(
                ExecutionEntity.status.not_in(UNFINISHED_STATUSES), or_(*conditions)
            )
            ids = [str(i) for i in session.scalars(query)]
        self.delete(ids)
        return ids


def new_execution(
    workflow: Mapping[str, Any],
    mode: str,
    status: str,
    data: RunExecutionData | None,
    parent_execution_id: str | None,
    retry_of: str | None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The columns of a new execution (``execution_entity``) and its ``workflow_data`` and (JSON text) ``data``."""
    now = utcnow()
    row = {
        "workflow_id": workflow.get("id") or None,
        "mode": mode,
        "status": status,
        "finished": False,
        "started_at": now if status == "running" else None,
        "parent_execution_id": parent_execution_id,
        "retry_of": retry_of,
        "created_at": now,
    }
    return row, {"workflow_data": dict(workflow), "data": dumps(data if data is not None else empty_run_data())}


def _check(connection: Any, key: int, claim: Claim | None, execution_id: str, *, final: bool = False) -> None:
    """Refuse the write of a queue worker whose claim on the execution was taken over."""
    if claim is not None and not check_claim(connection, key, claim, final=final):
        raise StaleClaimError(execution_id)


def _inserted_id(result: CursorResult[Any]) -> int:
    # lastrowid on SQLite (no RETURNING needed, so SQLite < 3.35 works), RETURNING on PostgreSQL.
    primary_key = result.inserted_primary_key
    if primary_key is None:
        raise EngineError("The database returned no id for the new execution.")
    return int(primary_key[0])


def _filtered(
    query: Select[Any],
    workflow_id: str | None,
    statuses: Collection[str] | None,
    started_after: datetime | None,
    started_before: datetime | None,
) -> Select[Any]:
    if workflow_id is not None:
        query = query.where(ExecutionEntity.workflow_id == workflow_id)
    if statuses:
        query = query.where(ExecutionEntity.status.in_(builtins.list(statuses)))
    if started_after is not None:
        query = query.where(ExecutionEntity.started_at >= started_after)
    if started_before is not None:
        query = query.where(ExecutionEntity.started_at <= started_before)
    return query


__all__ = [
    "UNFINISHED_STATUSES",
    "ExecutionRepository",
    "StoredExecution",
    "empty_run_data",
    "new_execution",
]
