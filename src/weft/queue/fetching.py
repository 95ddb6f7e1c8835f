"""A worker's fetch of a job and its claim of the job's execution, in one statement.

Procrastinate's worker fetches each job (``JobManager.fetch_job``) and then calls the job's task, whose first
step was to claim the execution (:func:`weft.db.worker_claims.claim_execution`): two round trips to PostgreSQL
before the execution can start, both on the path of a webhook's answer. :class:`ClaimingJobManager` (the manager
of every app :func:`weft.queue.tasks.task_app` makes) fetches with one statement that also takes the claim
(:func:`weft.db.worker_claims.fetch_and_claim`) once a worker installed its :class:`Claimant`; the task then finds
the claim taken (:meth:`Claimant.claim`). Everything else is as before: a job the fetch could not claim for (a
duplicate, an execution a live worker holds, a tool job, a race with the execution's storing) is claimed by the
task as before, and a worker that dies between the two leaves a stalled job (retried) and a lease that expires
(the execution is queued again), each harmless to the other (:mod:`weft.db.claims`).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from procrastinate.jobs import Job
from procrastinate.manager import JobManager

from weft.db.worker_claims import claim_execution, fetch_and_claim
from weft.queue.tasks import job_fetch

if TYPE_CHECKING:
    import procrastinate

    from weft.db.async_pg import AsyncStatements
    from weft.db.claims import Claim
    from weft.db.stored_executions import StoredExecution

Claimed = tuple["Claim", "StoredExecution"]


class Claimant:
    """One worker's claims: taken as its jobs are fetched, kept until the job's task asks for them."""

    def __init__(self, statements: AsyncStatements, worker: str, lease_seconds: float) -> None:
        self._statements = statements
        self._worker = worker
        self._lease_seconds = lease_seconds
        #: Execution id -> the claim its job's fetch took (``None``: the execution may not run).
        self._taken: dict[str, Claimed | None] = {}

    async def fetch(self, queues: Iterable[str] | None, worker_id: int) -> Job | None:
        """The next job (as ``JobManager.fetch_job``), its execution's claim taken when it could be."""
        names = None if queues is None else list(queues)
        fetched = await fetch_and_claim(
            self._statements, job_fetch(names, worker_id), self._worker, self._lease_seconds
        )
        if fetched is None:
            return None
        if fetched.claimed:
            self._taken[fetched.row["args"]["execution_id"]] = fetched.execution
        return Job.from_row(fetched.row)

    async def claim(self, execution_id: str) -> Claimed | None:
        """The claim of a job's execution and the execution: the one its fetch took, else one taken now; ``None``
        when it is not to be run (it ended, waits, was stopped, or a live worker holds it)."""
        if execution_id in self._taken:
            return self._taken.pop(execution_id)
        return await claim_execution(self._statements, execution_id, self._worker, self._lease_seconds)


class ClaimingJobManager(JobManager):
    """Procrastinate's job manager, whose fetch also claims the execution once a worker :func:`install`-ed its
    :class:`Claimant` (mains, which fetch nothing, leave it unset)."""

    claimant: Claimant | None = None

    async def fetch_job(self, queues: Iterable[str] | None, worker_id: int) -> Job | None:
        if self.claimant is None:
            return await super().fetch_job(queues=queues, worker_id=worker_id)
        return await self.claimant.fetch(queues, worker_id)


def install(app: procrastinate.App, claimant: Claimant) -> None:
    """Make the fetches of ``app`` (made by :func:`weft.queue.tasks.task_app`) claim for ``claimant``."""
    manager = app.job_manager
    assert isinstance(manager, ClaimingJobManager), "a task app made by weft.queue.tasks.task_app"
    manager.claimant = claimant


__all__ = ["Claimant", "ClaimingJobManager", "install"]
