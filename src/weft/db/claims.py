"""Queue mode's claims: which worker runs an execution, with what token, until when.

A claim row (``execution_claim``) exists while an execution is queued or running on a worker:

* **queued**: ``lease_until IS NULL``, waiting for a worker;
* **claimed**: a worker took it with :meth:`ClaimRepository.claim`, a conditional update that succeeds only for a
  queued claim or an expired lease and sets a fresh random ``token``; the worker renews ``lease_until`` while it runs;
* **gone**: the worker's last write of the execution (it ended, or waits) deletes the row.

Every write a worker makes to a claimed execution first checks its token in the same transaction
(:func:`check_claim`): ``UPDATE execution_claim SET lease_until = … WHERE token = :token``. That statement locks the
row, so a take-over (which needs an expired lease) and a write of the holder are serialized; a worker whose lease
expired and was taken over finds its token gone and its write is refused with :class:`StaleClaimError`. Times are
the database's (``now()``), so machines with different clocks agree.
"""

from __future__ import annotations

import functools
import secrets
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from sqlalchemy import (
    ARRAY,
    ColumnElement,
    Connection,
    Interval,
    Row,
    Select,
    String,
    and_,
    any_,
    bindparam,
    delete,
    func,
    insert,
    or_,
    select,
    update,
)

from weft.db.async_pg import AsyncStatements
from weft.db.engine import Database
from weft.db.orm import Base, ExecutionClaimEntity, ExecutionData, ExecutionEntity
from weft.db.transitions import START
from weft.errors import WeftError

_CLAIMS = Base.metadata.tables[ExecutionClaimEntity.__tablename__]
_EXECUTIONS = Base.metadata.tables[ExecutionEntity.__tablename__]
_DATA = Base.metadata.tables[ExecutionData.__tablename__]


class StaleClaimError(WeftError):
    """A worker wrote an execution it no longer holds: its lease expired and another worker took it over."""

    def __init__(self, execution_id: str) -> None:
        super().__init__(
            f"Execution {execution_id} is no longer held by this worker: its lease expired and another worker "
            "resumed it. This worker's writes are refused; the other worker's run is the one kept.",
            execution_id=execution_id,
        )
        self.execution_id = execution_id


@dataclass(frozen=True, kw_only=True)
class Claim:
    """A worker's hold on an execution: its token and how long each write extends the lease."""

    token: int
    lease_seconds: float


def new_token() -> int:
    """A claim token: random, so a token of an execution's earlier life never matches a later one."""
    return secrets.randbits(62) + 1


_MATCH = and_(_CLAIMS.c.execution_id == bindparam("b_key"), _CLAIMS.c.token == bindparam("b_token"))
_LEASE = func.now() + bindparam("b_lease", type_=Interval())
_RENEW = update(_CLAIMS).where(_MATCH).values(lease_until=_LEASE)
_END = delete(_CLAIMS).where(_MATCH)
#: The claim ended (parameters ``b_key``, ``b_token``), as a part of a worker's last write of the execution: the
#: ids of the executions whose claim it ended (none: it was taken over).
ENDED = _END.returning(_CLAIMS.c.execution_id).cte("ended")


def check_claim(connection: Connection, key: int, claim: Claim, *, final: bool = False) -> bool:
    """Whether ``claim`` still holds execution ``key``; renews its lease (``final``: ends the claim instead)."""
    params = {"b_key": key, "b_token": claim.token, "b_lease": timedelta(seconds=claim.lease_seconds)}
    return connection.execute(_END if final else _RENEW, params).rowcount > 0


def mark_queued(connection: Connection, key: int, job_id: int | None = None) -> None:
    """The execution waits for a worker: a new claim row, or its existing one released (a new token)."""
    values = {"token": new_token(), "worker": None, "lease_until": None, "job_id": job_id}
    changed = connection.execute(update(_CLAIMS).where(_CLAIMS.c.execution_id == key).values(values))
    if changed.rowcount == 0:
        connection.execute(insert(_CLAIMS).values(execution_id=key, **values))


#: SQL that queues a task-engine job for the execution whose id is the given SQL expression and evaluates to the
#: job's id; its bind parameters' values come with it (queue mode's :func:`weft.queue.tasks.queued_job`).
JobSql = Callable[[ColumnElement[int]], ColumnElement[int]]


@dataclass(frozen=True)
class QueuedJob:
    sql: JobSql
    params: Mapping[str, Any]


async def insert_queued(
    statements: AsyncStatements, row: Mapping[str, Any], payload: Mapping[str, Any], job: QueuedJob
) -> int:
    """Store a new execution (``row``: its columns, ``payload``: its ``workflow_data`` and ``data``) queued for a
    worker, with the job that carries it: one statement (a main's hot path), so none of the three exists without
    the others. Its id."""
    params = {f"b_{name}": value for name, value in {**row, **payload}.items()}
    params["b_token"] = new_token()
    inserted = await statements.first(_inserting(job.sql, tuple(row)), {**params, **job.params})
    assert inserted is not None  # an INSERT … RETURNING of one row
    return int(inserted.execution_id)


@functools.cache
def _inserting(job: JobSql, columns: tuple[str, ...]) -> Select[Any]:
    values = {name: bindparam(f"b_{name}", type_=_EXECUTIONS.c[name].type) for name in columns}
    entity = insert(_EXECUTIONS).values(values).returning(_EXECUTIONS.c.id).cte("entity")
    workflow = bindparam("b_workflow_data", type_=_DATA.c.workflow_data.type)
    data = (
        insert(_DATA)
        .from_select(["execution_id", "workflow_data", "data"], select(entity.c.id, workflow, bindparam("b_data")))
        .returning(_DATA.c.execution_id)
        .cte("data")
    )
    claim = (
        insert(_CLAIMS)
        .from_select(
            ["execution_id", "token", "job_id"],
            select(entity.c.id, bindparam("b_token", type_=_CLAIMS.c.token.type), job(entity.c.id)),
        )
        .returning(_CLAIMS.c.execution_id)
        .cte("claim")
    )
    return select(claim.c.execution_id).add_cte(data)


def take(connection: Connection, key: int, worker: str, lease_seconds: float) -> tuple[Claim, Row[Any]] | None:
    """:meth:`ClaimRepository.claim` in the caller's connection (see :func:`take_async`)."""
    claim, params = claiming(worker, lease_seconds, key)
    row = connection.execute(_TAKE, params).first()
    if row is not None and row.id is None:
        connection.execute(_END, params)
    return _taken(claim, row)


async def take_async(
    statements: AsyncStatements, key: int, worker: str, lease_seconds: float
) -> tuple[Claim, Any] | None:
    """A worker's claim in one statement (its hot path): the claim, and the execution's row with its
    ``workflow_data`` and ``data`` as it became ``running``; ``None`` when it is not to be run."""
    claim, params = claiming(worker, lease_seconds, key)
    return await settle_async(statements, claim, params, await statements.first(_TAKE, params))


def claiming(worker: str, lease_seconds: float, key: int | None = None) -> tuple[Claim, dict[str, Any]]:
    """A new claim for ``worker`` and the parameters of :func:`taking`'s statement (``b_key``: ``key``, when the
    statement takes it as a parameter)."""
    claim = Claim(token=new_token(), lease_seconds=lease_seconds)
    params = {"b_token": claim.token, "b_worker": worker, "b_lease": timedelta(seconds=lease_seconds)}
    return claim, params if key is None else {**params, "b_key": key}


async def settle_async(
    statements: AsyncStatements, claim: Claim, params: Mapping[str, Any], row: Any
) -> tuple[Claim, Any] | None:
    """The outcome of :func:`taking`'s statement run with ``params`` (with ``b_key``, the execution's id) and
    giving ``row`` (its row, or ``None``): as :func:`take_async`. A claim taken for an execution that may not start
    is ended here (a second statement, off the hot path)."""
    if row is not None and row.id is None:
        await statements.execute(_END, params)
    return _taken(claim, row)


def _taken(claim: Claim, row: Any) -> tuple[Claim, Any] | None:
    """No row: the claim was not taken. A row without an execution: taken, but the execution ended (or was
    stopped) meanwhile; the caller deleted the leftover claim row."""
    return None if row is None or row.id is None else (claim, row)


_STARTABLE = bindparam("b_startable", value=sorted(START.sources), type_=ARRAY(String()))


def taking(key: ColumnElement[Any]) -> Select[Any]:
    """Take the claim of the execution whose id is the SQL expression ``key`` if it is queued or its lease expired,
    make the execution ``running`` if it may start, and read it: one row when the claim was taken (the execution's
    columns null when it may not start), none when not. Its other parameters: :func:`claiming`. The one claim
    statement: a worker's own (:func:`take`), or a part of the task engine's fetch of the job
    (:mod:`weft.db.worker_claims`)."""
    free = or_(_CLAIMS.c.lease_until.is_(None), _CLAIMS.c.lease_until < func.now())
    taken = (
        update(_CLAIMS)
        .where(_CLAIMS.c.execution_id == key, free)
        .values(token=bindparam("b_token"), worker=bindparam("b_worker"), lease_until=_LEASE)
        .returning(_CLAIMS.c.execution_id)
        .cte("taken")
    )
    running = (
        update(_EXECUTIONS)
        .where(_EXECUTIONS.c.id.in_(select(taken.c.execution_id)), _EXECUTIONS.c.status == any_(_STARTABLE))
        .values(status="running", started_at=func.coalesce(_EXECUTIONS.c.started_at, func.now()))
        .returning(*_EXECUTIONS.c)
        .cte("running")
    )
    joined = taken.outerjoin(running, running.c.id == taken.c.execution_id).outerjoin(
        _DATA, _DATA.c.execution_id == running.c.id
    )
    return select(running, _DATA.c.workflow_data, _DATA.c.data).select_from(joined)


_TAKE = taking(bindparam("b_key"))


class ClaimRepository:
    """Claims in one (PostgreSQL) database. Methods are synchronous; call them through ``asyncio.to_thread``."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def queue(self, execution_id: str, job_id: int | None = None) -> None:
        """Mark the execution queued for a worker (a new claim row, or an existing one released)."""
        with self._db.engine.begin() as connection:
            mark_queued(connection, int(execution_id), job_id)

    def set_job(self, execution_id: str, job_id: int) -> None:
        """Note the task-engine job that carries the queued execution."""
        with self._db.engine.begin() as connection:
            connection.execute(update(_CLAIMS).where(_CLAIMS.c.execution_id == int(execution_id)).values(job_id=job_id))

    def claim(self, execution_id: str, worker: str, lease_seconds: float) -> Claim | None:
        """Take the execution for ``worker`` if it is queued or its lease expired; ``None`` otherwise (it ended,
        waits, or another worker holds it). The execution becomes ``running`` in the same transaction."""
        with self._db.engine.begin() as connection:
            taken = take(connection, int(execution_id), worker, lease_seconds)
        return None if taken is None else taken[0]

    def renew(self, execution_id: str, claim: Claim) -> bool:
        """Extend the lease; False when the claim was taken over (the worker must stop that execution)."""
        with self._db.engine.begin() as connection:
            return check_claim(connection, int(execution_id), claim)

    def release_expired(self, limit: int = 100) -> list[tuple[str, int | None]]:
        """Claims whose lease expired become queued again, each with a new token (the old holder's writes are
        refused from now on); returns ``(execution id, old job id)`` of each, for the caller to queue again.
        Concurrent callers never release one claim twice (``FOR UPDATE SKIP LOCKED``)."""
        with self._db.engine.begin() as connection:
            rows = connection.execute(
                select(_CLAIMS.c.execution_id, _CLAIMS.c.job_id)
                .where(_CLAIMS.c.lease_until < func.now())
                .order_by(_CLAIMS.c.lease_until)
                .limit(limit)
                .with_for_update(skip_locked=True)
            ).all()
            for key, _ in rows:
                connection.execute(
                    update(_CLAIMS)
                    .where(_CLAIMS.c.execution_id == key)
                    .values(token=new_token(), worker=None, lease_until=None)
                )
        return [(str(key), job_id) for key, job_id in rows]

    def orphans(self, older_than_s: float, limit: int = 100) -> list[str]:
        """Executions stored ``new`` more than ``older_than_s`` ago that no job carries: the main that created them
        stopped before it queued them. The leader queues them."""
        claimed = select(_CLAIMS.c.execution_id).where(_CLAIMS.c.job_id.is_not(None))
        query = (
            select(_EXECUTIONS.c.id)
            .where(
                _EXECUTIONS.c.status == "new",
                _EXECUTIONS.c.created_at < func.now() - timedelta(seconds=older_than_s),
                _EXECUTIONS.c.id.not_in(claimed),
            )
            .order_by(_EXECUTIONS.c.id)
            .limit(limit)
        )
        with self._db.engine.connect() as connection:
            return [str(key) for key in connection.scalars(query)]

    def holder(self, execution_id: str) -> str | None:
        """The worker that holds the execution now, if any."""
        with self._db.engine.connect() as connection:
            row = connection.execute(
                select(_CLAIMS.c.worker).where(_CLAIMS.c.execution_id == int(execution_id))
            ).first()
        return None if row is None else row[0]


__all__ = [
    "ENDED",
    "Claim",
    "ClaimRepository",
    "JobSql",
    "QueuedJob",
    "StaleClaimError",
    "check_claim",
    "claiming",
    "insert_queued",
    "mark_queued",
    "new_token",
    "settle_async",
    "take",
    "take_async",
    "taking",
]
