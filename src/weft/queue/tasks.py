"""The task engine of queue mode: Procrastinate, its jobs and schema in the instance's PostgreSQL database.

One kind of job: ``weft.run_execution(execution_id)``, on the queue ``executions``. A job only says *which*
execution to run; the execution's data, its claim and its outcome live in Weft's own tables. Procrastinate
delivers each job at least once; :mod:`weft.db.claims` makes a second delivery harmless.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    ColumnElement,
    Integer,
    Select,
    String,
    and_,
    bindparam,
    case,
    cast,
    column,
    func,
    null,
    select,
)
from sqlalchemy.dialects import postgresql
from sqlalchemy.types import UserDefinedType

from weft.db.async_pg import AsyncStatements
from weft.db.claims import QueuedJob
from weft.db.worker_claims import CLAIM_KEY, JobFetch
from weft.errors import ConfigurationError

if TYPE_CHECKING:
    import procrastinate

TASK = "weft.run_execution"
#: A tool node an agent requested, run by any worker for the worker that runs the agent's execution.
TOOL_TASK = "weft.run_tool"
QUEUE = "executions"
#: Priority of an execution taken back from a worker that died: ahead of new work (higher runs first).
RESUMED_PRIORITY = 10


def libpq_url(database_url: str) -> str:
    """The ``postgresql://`` URL libpq reads, from Weft's database URL (a SQLAlchemy URL)."""
    for prefix in ("postgresql+psycopg://", "postgresql+psycopg2://", "postgres://"):
        if database_url.startswith(prefix):
            return "postgresql://" + database_url[len(prefix) :]
    if database_url.startswith("postgresql://"):
        return database_url
    raise ConfigurationError(
        "Queue mode (WEFT_EXECUTIONS_MODE=queue) needs PostgreSQL: every process reads and writes the same "
        f"executions. WEFT_DATABASE_URL is {database_url.split(':', 1)[0]}:…; set it to a postgresql:// URL "
        "(SQLite is one file on one machine), or leave WEFT_EXECUTIONS_MODE unset to run executions in-process."
    )


def task_app(database_url: str) -> procrastinate.App:
    """A Procrastinate app on the instance's database (not opened). Its queries are one statement each (calls of
    its SQL functions): its connections commit each one (no ``BEGIN``/``COMMIT`` round trips), and a pooled
    connection is tested with a round trip only after it sat idle (:func:`_pool`)."""
    import procrastinate

    from weft.queue.fetching import ClaimingJobManager

    connector = procrastinate.PsycopgConnector(conninfo=libpq_url(database_url), pool_factory=_pool)
    app = procrastinate.App(connector=connector)
    app.job_manager = ClaimingJobManager(connector)  # before any task is registered: they keep the manager
    return app


#: Connections of a process's asyncio pool (the task engine's queries and the hot path's statements).
POOL_MIN, POOL_MAX = 2, 16
#: Seconds a pooled connection may sit idle and still be handed out untested.
IDLE_CHECK_SECONDS = 10.0


def _pool(**arguments: Any) -> Any:
    """Procrastinate's pool, with its test of every connection at each use (a round trip per query) replaced by
    one of connections idle for :data:`IDLE_CHECK_SECONDS` (those a restarted server may have closed)."""
    import time
    import weakref

    import psycopg_pool

    last_used: weakref.WeakKeyDictionary[Any, float] = weakref.WeakKeyDictionary()

    async def check_if_idle(connection: Any) -> None:
        now = time.monotonic()
        idle = now - last_used.get(connection, float("-inf"))
        last_used[connection] = now
        if idle > IDLE_CHECK_SECONDS:
            await psycopg_pool.AsyncConnectionPool.check_connection(connection)

    async def autocommit(connection: Any) -> None:
        await connection.set_autocommit(True)

    sizes = {"min_size": POOL_MIN, "max_size": POOL_MAX}  # grown on demand: a worker's executions write here too
    return psycopg_pool.AsyncConnectionPool(**{**sizes, **arguments, "check": check_if_idle, "configure": autocommit})


def statements(app: procrastinate.App) -> AsyncStatements:
    """The hot path's statements (:mod:`weft.db.async_pg`) on the app's asyncio pool (open once the app is)."""
    return AsyncStatements(lambda: app.connector.pool)  # type: ignore[attr-defined]


async def ensure_schema(app: procrastinate.App) -> None:
    """Create Procrastinate's tables once (its schema is not versioned with Weft's migrations)."""
    exists = await app.connector.execute_query_one_async(
        "SELECT to_regclass('procrastinate_jobs') IS NOT NULL AS present"
    )
    if not exists["present"]:
        await app.schema_manager.apply_schema_async()


class _JobToDefer(UserDefinedType[Any]):
    """Procrastinate's composite type of a job to queue (its SQL API, versioned with its schema)."""

    cache_ok = True

    def get_col_spec(self, **kw: Any) -> str:
        return "procrastinate_job_to_defer_v1"


def job_sql(execution_id: ColumnElement[Any]) -> ColumnElement[int]:
    """SQL that queues the job :func:`defer` would, for the execution whose id is the SQL expression
    ``execution_id``, and evaluates to the job's id: Procrastinate's own function (``procrastinate_defer_jobs_v1``,
    which also wakes the workers), called inside the statement that stores the execution. Its parameters:
    :func:`queued_job`."""
    stream = bindparam("b_job_stream", type_=Boolean())
    arguments = func.jsonb_build_object("execution_id", cast(execution_id, String), "stream", stream)
    priority = bindparam("b_job_priority", type_=Integer())
    job = cast(func.row(QUEUE, TASK, priority, null(), null(), arguments, null()), _JobToDefer())
    return func.unnest(func.procrastinate_defer_jobs_v1(postgresql.array([job])))


def queued_job(*, priority: int = 0, stream: bool = False) -> QueuedJob:
    """The job of a new execution, queued in the statement that stores it (:meth:`ExecutionRepository.create`)."""
    return QueuedJob(sql=job_sql, params={"b_job_priority": priority, "b_job_stream": stream})


#: The columns of a fetched job, as Procrastinate's own ``fetch_job`` query reads them.
_JOB_COLUMNS = (
    "id",
    "status",
    "task_name",
    "priority",
    "lock",
    "queueing_lock",
    "args",
    "scheduled_at",
    "queue_name",
    "attempts",
    "worker_id",
)
#: Execution ids a job may claim in the fetch (larger ones, which no execution has, are left to the worker).
_KEY_PATTERN = "^[0-9]{1,18}$"


def job_fetch(queues: list[str] | None, worker_id: int) -> JobFetch:
    """The fetch Procrastinate's worker makes (its ``fetch_job`` query: ``procrastinate_fetch_job_v2``, its
    versioned SQL API), as SQL a claim joins (:func:`weft.db.worker_claims.fetch_and_claim`): a job of
    :data:`TASK` claims its execution, a tool job (:data:`TOOL_TASK`) none."""
    return JobFetch(sql=_fetch_sql, params={"b_job_queues": queues, "b_job_worker_id": worker_id})


def _fetch_sql() -> Select[Any]:
    queues = bindparam("b_job_queues", type_=postgresql.ARRAY(String()))
    worker_id = bindparam("b_job_worker_id", type_=BigInteger())
    columns = [column(name, postgresql.JSONB() if name == "args" else None) for name in _JOB_COLUMNS]
    job = func.procrastinate_fetch_job_v2(queues, worker_id).table_valued(*columns)
    execution_id = job.c.args["execution_id"].astext
    ours = and_(job.c.task_name == TASK, execution_id.regexp_match(_KEY_PATTERN))
    key = case((ours, cast(execution_id, BigInteger)))
    return select(*job.c, key.label(CLAIM_KEY))


async def defer(app: procrastinate.App, execution_id: str, *, priority: int = 0, stream: bool = False) -> int:
    """Queue a job that runs the execution (``stream``: its nodes' chunks are relayed to the caller); its job id."""
    task = app.configure_task(TASK, queue=QUEUE, priority=priority)
    job_id: Any = await task.defer_async(execution_id=execution_id, stream=stream)
    return int(job_id)


async def defer_tool(app: procrastinate.App, **arguments: Any) -> int:
    """Queue a job that runs one tool node of a running execution (ahead of new executions); its job id."""
    task = app.configure_task(TOOL_TASK, queue=QUEUE, priority=RESUMED_PRIORITY)
    job_id: Any = await task.defer_async(**arguments)
    return int(job_id)


async def cancel_if_waiting(app: procrastinate.App, job_id: int) -> bool:
    """Cancel a job no worker has fetched yet; False when one has (it runs, or ran)."""
    return bool(await app.job_manager.cancel_job_by_id_async(job_id, delete_job=True))


async def fail_job(app: procrastinate.App, job_id: int) -> None:
    """Close the job of an execution taken back from a dead worker (it stays ``doing`` otherwise)."""
    from procrastinate.jobs import Status

    await app.job_manager.finish_job_by_id_async(job_id, status=Status.FAILED, delete_job=True)


async def retry_stalled(app: procrastinate.App, seconds_since_heartbeat: float) -> list[int]:
    """Queue again, ahead of new work, the jobs that workers silent for ``seconds_since_heartbeat`` had fetched:
    one that died after fetching a job and before claiming its execution leaves no lease to expire."""
    from datetime import UTC, datetime

    retried = []
    manager = app.job_manager
    for job in await manager.get_stalled_jobs(queue=QUEUE, seconds_since_heartbeat=seconds_since_heartbeat):
        if job.id is not None:
            await manager.retry_job_by_id_async(job.id, retry_at=datetime.now(UTC), priority=RESUMED_PRIORITY)
            retried.append(job.id)
    return retried


__all__ = [
    "QUEUE",
    "RESUMED_PRIORITY",
    "TASK",
    "TOOL_TASK",
    "cancel_if_waiting",
    "defer",
    "defer_tool",
    "ensure_schema",
    "fail_job",
    "job_fetch",
    "job_sql",
    "libpq_url",
    "queued_job",
    "retry_stalled",
    "statements",
    "task_app",
]
