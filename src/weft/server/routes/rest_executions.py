"""``/rest/executions``: list with filters, get with data, delete, retry, stop."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Query

from weft.server.deps import InstanceDep
from weft.server.schemas import Deleted, Envelope, ExecutionOut, Page, StopResult
from weft.server.views import JSONAnswer, execution_view
from weft.services.errors import ExecutionConflictError, ExecutionNotFoundError

router = APIRouter(prefix="/executions", tags=["executions"])


@router.get("", summary="List executions, newest first")
async def list_executions(
    instance: InstanceDep,
    workflowId: str | None = None,
    status: Annotated[list[str] | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=250)] = 100,
    lastId: str | None = None,
    startedAfter: datetime | None = None,
    startedBefore: datetime | None = None,
) -> Page[ExecutionOut]:
    rows = await instance.runner.db(
        instance.store.executions.list,
        workflow_id=workflowId,
        statuses=status,
        limit=limit,
        last_id=lastId,
        started_after=startedAfter,
        started_before=startedBefore,
    )
    cursor = rows[-1].id if len(rows) == limit else None
    return Page(data=[ExecutionOut.of(r) for r in rows], nextCursor=cursor)


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
    if instance.runner.stop(execution_id):
        await instance.runner.drain(5)
    if not await instance.runner.delete_executions([execution_id]):
        raise ExecutionNotFoundError(execution_id)
    return Envelope(data=Deleted(id=execution_id, deleted=True))


@router.post("/{execution_id}/retry", summary="Run a failed execution's workflow again with the same input")
async def retry_execution(instance: InstanceDep, execution_id: str) -> Envelope[ExecutionOut]:
    stored = await instance.runner.db(instance.store.executions.get, execution_id)
    if stored is None:
        raise ExecutionNotFoundError(execution_id)
    if stored.status not in ("error", "crashed", "canceled"):
        raise ExecutionConflictError(
            f'The execution "{execution_id}" has status {stored.status!r}: only failed, crashed or canceled '
            "executions can be retried.",
            execution_id=execution_id,
        )
    result = await instance.runner.retry(stored)
    retried = await instance.runner.db(instance.store.executions.get, result.execution_id, include_data=False)
    if retried is None:  # not kept by the save settings
        raise ExecutionNotFoundError(result.execution_id)
    return Envelope(data=ExecutionOut.of(retried))


@router.post("/{execution_id}/stop", summary="Stop a running or waiting execution")
async def stop_execution(instance: InstanceDep, execution_id: str) -> Envelope[StopResult]:
    stored = await instance.runner.db(instance.store.executions.get, execution_id, include_data=False)
    if stored is None:
        raise ExecutionNotFoundError(execution_id)
    if instance.runner.stop(execution_id):
        return Envelope(data=StopResult(id=execution_id, status="canceled", stopped=True))
    stopped = await instance.runner.db(
        instance.store.executions.set_status, execution_id, "canceled", expected={"waiting", "new"}
    )
    if not stopped:
        raise ExecutionConflictError(
            f'The execution "{execution_id}" is not running in this server and is not waiting (status '
            f"{stored.status!r}): there is nothing to stop.",
            execution_id=execution_id,
        )
    return Envelope(data=StopResult(id=execution_id, status="canceled", stopped=True))
