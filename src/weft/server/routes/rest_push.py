"""``/rest/push``: the live events of a manual execution as Server-Sent Events (n8n's push, one execution per
stream). Behind the login like every ``/rest`` route.

Each event is one ``data:`` line of JSON, ``{"type": "nodeExecuteBefore" | "nodeExecuteAfter" |
"executionFinished", "data": {...}}`` (:mod:`weft.services.push`); the stream ends after ``executionFinished``.
An execution the hub no longer holds (finished a while ago, or not a manual run) gets its ``executionFinished``
from its stored row at once; an unknown id is a 404.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated

from fastapi import APIRouter, Query
from fastapi.responses import StreamingResponse

from weft.db.base import NotFoundError
from weft.server.deps import InstanceDep
from weft.services.push import Event, PushHub

router = APIRouter(prefix="/push", tags=["executions"])

_HEADERS = {"cache-control": "no-cache", "x-accel-buffering": "no"}


@router.get("", summary="Live events of a running manual execution (Server-Sent Events)")
async def push_stream(
    instance: InstanceDep,
    executionId: Annotated[str, Query(description="The execution to follow", max_length=64)],
) -> StreamingResponse:
    hub = instance.runner.push
    if hub.knows(executionId):
        return _stream(_live(hub, executionId))
    stored = await instance.runner.db(instance.store.executions.get, executionId, include_data=False)
    if stored is None:
        raise NotFoundError(f"Execution {executionId!r} does not exist.", execution_id=executionId)
    finished = {"executionId": stored.id, "workflowId": stored.workflow_id, "status": stored.status}
    return _stream(_once({"type": "executionFinished", "data": finished}))


def _stream(events: AsyncIterator[str]) -> StreamingResponse:
    return StreamingResponse(events, media_type="text/event-stream", headers=_HEADERS)


async def _live(hub: PushHub, execution_id: str) -> AsyncIterator[str]:
    yield ": connected\n\n"
    async for event in hub.subscribe(execution_id):
        yield ": keep-alive\n\n" if event is None else _frame(event)


async def _once(event: Event) -> AsyncIterator[str]:
    yield _frame(event)


def _frame(event: Event) -> str:
    return f"data: {json.dumps(event, separators=(',', ':'), default=str)}\n\n"
