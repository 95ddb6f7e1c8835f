"""``/rest/executions``: list with filters, get with data, delete, retry, stop."""

from __future__ import annotations

import dataclasses
from typing import Annotated

from fastapi import APIRouter, Query
from pydantic import BaseModel

from weft.db.base import NotFoundError
from weft.db.executions import StoredExecution
from weft.db.transitions import CANCEL
from weft.server.deps import InstanceDep
from weft.server.routes.execution_filter import ExecutionFilter, parse_filter
from weft.server.schemas import Deleted, Envelope, ExecutionOut, StopResult
from weft.server.views import JSONAnswer, execution_view
from weft.services.errors import ExecutionConflictError, ExecutionNotFoundError
from weft.services.instance import Instance

router = APIRouter(prefix="/executions", tags=["executions"])


class ExecutionSummary(ExecutionOut):
    """A row of the list: the execution without its data, with its workflow's name (n8n's ``workflowName``)."""

    workflowName: str | None = None
    """``None`` when the workflow was deleted since."""


class ExecutionsPage(BaseModel):
    """One page of executions, newest first, and how many match the filter over all pages.

    n8n nests these under ``data`` (``{"data": {"results", "count", "estimated"}}``); Weft's ``data`` stays the
    list it always was and ``count`` / ``estimated`` sit beside it."""

    data: list[ExecutionSummary]
    nextCursor: str | None = None
    """Pass it as ``lastId`` to get the next page; ``None`` on the last page."""
    count: int
    """How many executions match the filter (all pages)."""
    estimated: bool = False
    """Always ``False``: Weft counts exactly (n8n estimates on very large PostgreSQL tables)."""


class RetryIn(BaseModel):
    """n8n's retry body: ``loadWorkflow`` runs the workflow as saved now instead of as it ran."""

    loadWorkflow: bool = False


@router.get("", summary="List executions, newest first (n8n's filter JSON or plain query parameters)")
async def list_executions(
    instance: InstanceDep,
    filter: str | None = None,  # n8n's name
    workflowId: str | None = None,
    status: Annotated[list[str] | None, Query()] = None,
    startedAfter: str | None = None,
    startedBefore: str | None = None,
    limit: str | None = None,
    lastId: str | None = None,
    firstId: str | None = None,
) -> ExecutionsPage:
    plain = {"workflowId": workflowId, "status": status, "startedAfter": startedAfter, "startedBefore": startedBefore}
    query = parse_filter(filter, plain, {"limit": limit, "lastId": lastId, "firstId": firstId})
    rows, count, names = await instance.runner.db(_page, instance, query)
    cursor = rows[-1].id if len(rows) == query.limit else None
    data = [ExecutionSummary(**ExecutionOut.of(r).model_dump(), workflowName=names.get(r.workflow_id)) for r in rows]
    return ExecutionsPage(data=data, nextCursor=cursor, count=count)


def _page(instance: Instance, query: ExecutionFilter) -> tuple[list[StoredExecution], int, dict[str | None, str]]:
    """The page, the count over all pages and the names of the page's workflows (one worker-thread call)."""
    executions = instance.store.executions
    rows = executions.list(
        workflow_id=query.workflow_id,
        statuses=query.statuses,
        started_after=query.started_after,
        started_before=query.started_before,
        limit=query.limit,
        last_id=query.last_id,
        first_id=query.first_id,
    )
    names: dict[str | None, str] = {}
    for workflow_id in {r.workflow_id for r in rows if r.workflow_id}:
        stored = instance.store.workflows.get(workflow_id)
        if stored is not None:
            names[workflow_id] = stored.name
    count = executions.count(
        workflow_id=query.workflow_id,
        statuses=query.statuses,
        started_after=query.started_after,
        started_before=query.started_before,
    )
    return rows, count, names


@router.get(
    "/{execution_id}",
    summary="Get an execution (with its workflow and run data by default)",
    response_model=Envelope[ExecutionOut],
    response_class=JSONAnswer,
)
async def get_execution(instance: InstanceDep, execution_id: str, includeData: bool = True) -> JSONAnswer:
    stored = await instance.runner.db(instance.store.executions.get, execution_id, include_data=includeData)
    if stored is None:
        raise ExecutionNotFoundError(execution_id)
    return JSONAnswer({"data": execution_view(ExecutionOut.of(stored))})


@router.delete("/{execution_id}", summary="Delete an execution and its data")
async def delete_execution(instance: InstanceDep, execution_id: str) -> Envelope[Deleted]:
    if await instance.runner.stop_anywhere(execution_id):
        await instance.runner.drain(5)
    if not await instance.runner.delete_executions([execution_id]):
        raise ExecutionNotFoundError(execution_id)
    return Envelope(data=Deleted(id=execution_id, deleted=True))


@router.post("/{execution_id}/retry", summary="Run a failed execution's workflow again with the same input")
async def retry_execution(
    instance: InstanceDep, execution_id: str, body: RetryIn | None = None
) -> Envelope[ExecutionOut]:
    stored = await instance.runner.db(instance.store.executions.get, execution_id)
    if stored is None:
        raise ExecutionNotFoundError(execution_id)
    if stored.status not in ("error", "crashed", "canceled"):
        raise ExecutionConflictError(
            f'The execution "{execution_id}" has status {stored.status!r}: only failed, crashed or canceled '
            "executions can be retried.",
            execution_id=execution_id,
        )
    if body is not None and body.loadWorkflow:
        stored = await _with_saved_workflow(instance, stored)
    result = await instance.runner.retry(stored)
    retried = await instance.runner.db(instance.store.executions.get, result.execution_id, include_data=False)
    if retried is None:  # not kept by the save settings
        raise ExecutionNotFoundError(result.execution_id)
    return Envelope(data=ExecutionOut.of(retried))


async def _with_saved_workflow(instance: Instance, stored: StoredExecution) -> StoredExecution:
    """The execution to retry with its workflow as saved now (n8n's "Retry with currently saved workflow")."""
    saved = await instance.runner.db(instance.store.workflows.get, stored.workflow_id) if stored.workflow_id else None
    if saved is None:
        raise NotFoundError(
            f'The workflow of the execution "{stored.id}" no longer exists: retry it with its original workflow.'
        )
    return dataclasses.replace(stored, workflow_data=saved.data)


@router.post("/{execution_id}/stop", summary="Stop a running or waiting execution")
async def stop_execution(instance: InstanceDep, execution_id: str) -> Envelope[StopResult]:
    stored = await instance.runner.db(instance.store.executions.get, execution_id, include_data=False)
    if stored is None:
        raise ExecutionNotFoundError(execution_id)
    if await instance.runner.stop_anywhere(execution_id):
        return Envelope(data=StopResult(id=execution_id, status="canceled", stopped=True))
    stopped = await instance.runner.db(instance.store.executions.move, execution_id, CANCEL)
    if not stopped:
        raise ExecutionConflictError(
            f'The execution "{execution_id}" is not running in this server and is not waiting (status '
            f"{stored.status!r}): there is nothing to stop.",
            execution_id=execution_id,
        )
    return Envelope(data=StopResult(id=execution_id, status="canceled", stopped=True))
