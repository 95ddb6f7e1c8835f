"""A queue worker's claim of the execution a task-engine job carries, and the execution it claimed.

Two ways, one claim statement (:func:`weft.db.claims.taking`):

* :func:`fetch_and_claim`: in the statement that fetches the job (the worker's hot path: one round trip for both);
* :func:`claim_execution`: on its own, when the fetch did not take the claim. Its statement started before the
  execution was stored (the job it fetched was stored since: the task engine's function reads with a snapshot of
  its own), or the claim was not free: a job delivered twice, an execution a live worker holds.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Select, select, true

from weft.db.async_pg import AsyncStatements
from weft.db.claims import Claim, claiming, settle_async, take_async, taking
from weft.db.execution_writes import parse_key
from weft.db.stored_executions import StoredExecution, stored_execution

#: The name of the column of :attr:`JobFetch.sql` that holds the id of the execution a fetched job claims.
CLAIM_KEY = "claim_key"
#: The prefix of the fetched job's columns in :func:`fetch_and_claim`'s row.
_JOB = "job_"


@dataclass(frozen=True)
class JobFetch:
    """The task engine's fetch of one job, as SQL: ``sql()`` (built once) is a SELECT of the fetched job's row (all
    null when none waits) with the column :data:`CLAIM_KEY`, the id of the execution the job claims (null for jobs
    that claim none); ``params``: its bind parameters."""

    sql: Callable[[], Select[Any]]
    params: Mapping[str, Any]


@dataclass(frozen=True)
class FetchedJob:
    """A job fetched by :func:`fetch_and_claim`. ``claimed``: its execution's claim was taken by the fetch;
    ``execution`` is then the claim and the execution (now ``running``), or ``None`` when the execution may not run
    (it ended, waits, was stopped: the claim was ended again)."""

    row: dict[str, Any]
    claimed: bool
    execution: tuple[Claim, StoredExecution] | None = None


async def fetch_and_claim(
    statements: AsyncStatements, fetch: JobFetch, worker: str, lease_seconds: float
) -> FetchedJob | None:
    """Fetch a job and, if it carries an execution, claim that execution for ``worker`` in the same statement;
    ``None`` when no job waits."""
    claim, params = claiming(worker, lease_seconds)
    row = await statements.first(_fetching(fetch.sql), {**params, **fetch.params})
    if row is None:
        return None
    columns = vars(row)
    job = {name[len(_JOB) :]: value for name, value in columns.items() if name.startswith(_JOB)}
    if job.get("id") is None:
        return None  # the task engine's function gives a row of nulls when no job waits
    if not columns["claim_taken"]:
        return FetchedJob(row=job, claimed=False)
    taken = await settle_async(statements, claim, {**params, "b_key": job[CLAIM_KEY]}, row)
    return FetchedJob(row=job, claimed=True, execution=None if taken is None else _claimed(taken))


@functools.cache
def _fetching(sql: Callable[[], Select[Any]]) -> Select[Any]:
    """The job's row (columns prefixed ``job_``) beside :func:`taking`'s row for its execution (whose column
    ``claim_taken`` says the claim was taken; all null when not)."""
    job = sql().cte("job")
    key = select(job.c[CLAIM_KEY]).scalar_subquery()
    claimed = taking(key).add_columns(true().label("claim_taken")).subquery("claimed")
    job_columns = [column.label(_JOB + column.name) for column in job.c]
    return select(*job_columns, claimed).select_from(job.outerjoin(claimed, true()))


async def claim_execution(
    statements: AsyncStatements, execution_id: str, worker: str, lease_seconds: float
) -> tuple[Claim, StoredExecution] | None:
    """A queue worker's claim (:func:`~weft.db.claims.take_async`) and the claimed execution with its data, in one
    statement; ``None`` when the execution is not to be run."""
    key = parse_key(execution_id)
    taken = None if key is None else await take_async(statements, key, worker, lease_seconds)
    return None if taken is None else _claimed(taken)


def _claimed(taken: tuple[Claim, Any]) -> tuple[Claim, StoredExecution]:
    claim, row = taken
    return claim, stored_execution(row, row)


__all__ = ["CLAIM_KEY", "FetchedJob", "JobFetch", "claim_execution", "fetch_and_claim"]
