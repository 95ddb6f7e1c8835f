"""``/api/v1``: n8n's public API, with an ``X-N8N-API-KEY`` whose scopes each route checks.

n8n's shapes: objects are answered bare (no ``{"data": …}`` envelope), lists as ``{"data": [...], "nextCursor"}``,
errors as ``{"message": …}`` (``Not Found``, ``Forbidden``). Workflows: list, create, get, ``PUT`` (update),
delete, activate, deactivate, tags. Executions: list, get, delete, retry. Credentials: list, create, delete.
Tags: list, create, get, update, delete.
"""

from __future__ import annotations

import base64
import json
from typing import Annotated, Any, TypeVar

from fastapi import APIRouter, Depends, Query, Request
from pydantic import BaseModel, ConfigDict, Field

from weft.db.base import NotFoundError
from weft.db.users import StoredApiKey
from weft.errors import WeftError
from weft.server.deps import InstanceDep
from weft.server.schemas import CredentialIn, CredentialOut, ExecutionOut, WorkflowOut
from weft.server.views import execution_view
from weft.services.instance import Instance

router = APIRouter(tags=["public API"])

EXECUTION_FIELDS = (
    "id",
    "finished",
    "mode",
    "retryOf",
    "retrySuccessId",
    "startedAt",
    "stoppedAt",
    "waitTill",
    "workflowId",
    "status",
)


class PublicApiError(WeftError):
    """An answer of the public API: ``status`` and ``{"message": …}`` (its own handler, before WeftError's)."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def require(scope: str) -> Any:
    """A dependency refusing keys without ``scope``: 403 ``Forbidden`` as n8n, and which scope is missing."""

    def check(request: Request) -> None:
        key: StoredApiKey | None = getattr(request.state, "api_key", None)
        if key is None:
            raise PublicApiError(403, "Forbidden")
        if scope not in key.scopes:
            raise PublicApiError(403, f"Forbidden: this API key lacks the scope '{scope}'; create a key that has it.")

    return Depends(check)


class PublicWorkflowIn(BaseModel):
    """n8n's public workflow body: ``name``, ``nodes``, ``connections`` and ``settings`` are required."""

    model_config = ConfigDict(extra="allow")

    name: str
    nodes: list[dict[str, Any]]
    connections: dict[str, Any]
    settings: dict[str, Any]


T = TypeVar("T")


class TagIn(BaseModel):
    name: str = Field(min_length=1, max_length=24)


class TagRef(BaseModel):
    id: str


def _page(items: list[T], offset: int, limit: int) -> tuple[list[T], str | None]:
    """The page of ``items`` at ``offset``, and the cursor of the next page (``None`` when this is the last)."""
    if offset + limit >= len(items):
        return items[offset:], None
    cursor = base64.b64encode(json.dumps({"offset": offset + limit, "limit": limit}).encode()).decode()
    return items[offset : offset + limit], cursor


def _offset(cursor: str | None) -> int:
    if not cursor:
        return 0
    try:
        return int(json.loads(base64.b64decode(cursor))["offset"])
    except (ValueError, KeyError, TypeError):
        raise PublicApiError(400, "An invalid cursor was provided") from None


async def _workflow(instance: Instance, workflow_id: str) -> dict[str, Any]:
    stored = await instance.runner.db(instance.store.workflows.get, workflow_id)
    if stored is None:
        raise PublicApiError(404, "Not Found")
    return await _with_tags(instance, WorkflowOut.of(stored).model_dump())


async def _with_tags(instance: Instance, workflow: dict[str, Any]) -> dict[str, Any]:
    tags = await instance.runner.db(instance.store.tags.of_workflow, workflow["id"])
    return {**workflow, "tags": [t.to_json() for t in tags]}


def _body(workflow: PublicWorkflowIn) -> dict[str, Any]:
    data = workflow.model_dump()
    for read_only in ("id", "active", "tags", "createdAt", "updatedAt", "versionId"):
        data.pop(read_only, None)
    return data


# -- workflows ------------------------------------------------------------------------------------------------


@router.get("/workflows", dependencies=[require("workflow:list")])
async def list_workflows(
    instance: InstanceDep,
    active: bool | None = None,
    limit: Annotated[int, Query(ge=1, le=250)] = 100,
    cursor: str | None = None,
) -> dict[str, Any]:
    offset = _offset(cursor)
    stored = await instance.runner.db(instance.store.workflows.list, active=active)
    page, next_cursor = _page(stored, offset, limit)
    data = [await _with_tags(instance, WorkflowOut.of(w).model_dump()) for w in page]
    return {"data": data, "nextCursor": next_cursor}


@router.post("/workflows", dependencies=[require("workflow:create")])
async def create_workflow(instance: InstanceDep, workflow: PublicWorkflowIn) -> dict[str, Any]:
    stored = await instance.runner.db(instance.store.workflows.create, _body(workflow), active=False)
    return await _with_tags(instance, WorkflowOut.of(stored).model_dump())


@router.get("/workflows/{workflow_id}", dependencies=[require("workflow:read")])
async def get_workflow(instance: InstanceDep, workflow_id: str) -> dict[str, Any]:
    return await _workflow(instance, workflow_id)


@router.put("/workflows/{workflow_id}", dependencies=[require("workflow:update")])
async def update_workflow(instance: InstanceDep, workflow_id: str, workflow: PublicWorkflowIn) -> dict[str, Any]:
    if await instance.runner.db(instance.store.workflows.get, workflow_id) is None:
        raise PublicApiError(404, "Not Found")
    stored = await instance.runner.db(instance.store.workflows.update, workflow_id, _body(workflow))
    if stored.active:
        stored = await instance.active.activate(workflow_id)
    return await _with_tags(instance, WorkflowOut.of(stored).model_dump())


@router.delete("/workflows/{workflow_id}", dependencies=[require("workflow:delete")])
async def delete_workflow(instance: InstanceDep, workflow_id: str) -> dict[str, Any]:
    workflow = await _workflow(instance, workflow_id)
    await instance.runner.db(instance.store.webhooks.unregister, workflow_id)
    await instance.runner.delete_workflow(workflow_id)
    await instance.active.refresh()
    return workflow


@router.post("/workflows/{workflow_id}/activate", dependencies=[require("workflow:activate")])
async def activate_workflow(instance: InstanceDep, workflow_id: str) -> dict[str, Any]:
    await _workflow(instance, workflow_id)
    try:
        stored = await instance.active.activate(workflow_id)
    except NotFoundError:
        raise PublicApiError(404, "Not Found") from None
    except Exception as error:
        raise PublicApiError(400, getattr(error, "message", str(error))) from None
    return await _with_tags(instance, WorkflowOut.of(stored).model_dump())


@router.post("/workflows/{workflow_id}/deactivate", dependencies=[require("workflow:deactivate")])
async def deactivate_workflow(instance: InstanceDep, workflow_id: str) -> dict[str, Any]:
    await _workflow(instance, workflow_id)
    stored = await instance.active.deactivate(workflow_id)
    return await _with_tags(instance, WorkflowOut.of(stored).model_dump())


@router.get("/workflows/{workflow_id}/tags", dependencies=[require("workflowTags:list")])
async def workflow_tags(instance: InstanceDep, workflow_id: str) -> list[dict[str, Any]]:
    return list((await _workflow(instance, workflow_id))["tags"])


@router.put("/workflows/{workflow_id}/tags", dependencies=[require("workflowTags:update")])
async def set_workflow_tags(instance: InstanceDep, workflow_id: str, tags: list[TagRef]) -> list[dict[str, Any]]:
    await _workflow(instance, workflow_id)
    try:
        stored = await instance.runner.db(instance.store.tags.set_workflow_tags, workflow_id, [t.id for t in tags])
    except NotFoundError as error:
        raise PublicApiError(404, error.message) from None
    return [t.to_json() for t in stored]


# -- executions -----------------------------------------------------------------------------------------------


def _execution(stored: Any, include_data: bool) -> dict[str, Any]:
    full = execution_view(ExecutionOut.of(stored))
    shown = {key: full.get(key) for key in EXECUTION_FIELDS}
    if include_data:
        shown["data"] = full.get("data")
        shown["workflowData"] = full.get("workflowData")
    return shown


@router.get("/executions", dependencies=[require("execution:list")])
async def list_executions(
    instance: InstanceDep,
    status: str | None = None,
    workflowId: str | None = None,
    includeData: bool = False,
    limit: Annotated[int, Query(ge=1, le=250)] = 100,
    cursor: str | None = None,
) -> dict[str, Any]:
    last_id = None
    if cursor:
        try:
            last_id = str(json.loads(base64.b64decode(cursor))["lastId"])
        except (ValueError, KeyError, TypeError):
            raise PublicApiError(400, "An invalid cursor was provided") from None
    rows = await instance.runner.db(
        instance.store.executions.list,
        workflow_id=workflowId,
        statuses=[status] if status else None,
        limit=limit,
        last_id=last_id,
    )
    if includeData:
        full = [await instance.runner.db(instance.store.executions.get, r.id) for r in rows]
        rows = [f for f in full if f is not None]
    next_cursor = None
    if len(rows) == limit:
        next_cursor = base64.b64encode(json.dumps({"lastId": rows[-1].id, "limit": limit}).encode()).decode()
    return {"data": [_execution(r, includeData) for r in rows], "nextCursor": next_cursor}


@router.get("/executions/{execution_id}", dependencies=[require("execution:read")])
async def get_execution(instance: InstanceDep, execution_id: str, includeData: bool = False) -> dict[str, Any]:
    stored = await instance.runner.db(instance.store.executions.get, execution_id, include_data=includeData)
    if stored is None:
        raise PublicApiError(404, "Not Found")
    return _execution(stored, includeData)


@router.delete("/executions/{execution_id}", dependencies=[require("execution:delete")])
async def delete_execution(instance: InstanceDep, execution_id: str) -> dict[str, Any]:
    stored = await instance.runner.db(instance.store.executions.get, execution_id, include_data=False)
    if stored is None:
        raise PublicApiError(404, "Not Found")
    if await instance.runner.stop_anywhere(execution_id):
        await instance.runner.drain(5)
    await instance.runner.delete_executions([execution_id])
    return _execution(stored, False)


@router.post("/executions/{execution_id}/retry", dependencies=[require("execution:retry")])
async def retry_execution(instance: InstanceDep, execution_id: str) -> dict[str, Any]:
    stored = await instance.runner.db(instance.store.executions.get, execution_id)
    if stored is None:
        raise PublicApiError(404, "Not Found")
    if stored.status not in ("error", "crashed", "canceled"):
        raise PublicApiError(409, "The execution succeeded, so it cannot be retried.")
    result = await instance.runner.retry(stored)
    retried = await instance.runner.db(instance.store.executions.get, result.execution_id, include_data=False)
    if retried is None:
        raise PublicApiError(404, "Not Found")
    return _execution(retried, False)


# -- credentials ----------------------------------------------------------------------------------------------


@router.get("/credentials", dependencies=[require("credential:list")])
async def list_credentials(instance: InstanceDep) -> dict[str, Any]:
    infos = await instance.runner.db(instance.store.credentials.list)
    return {"data": [CredentialOut.of(i).model_dump() for i in infos], "nextCursor": None}


@router.post("/credentials", dependencies=[require("credential:create")])
async def create_credential(instance: InstanceDep, credential: CredentialIn) -> dict[str, Any]:
    info = await instance.runner.db(
        instance.store.credentials.create, credential.name, credential.type, credential.data
    )
    return CredentialOut.of(info).model_dump()


@router.delete("/credentials/{credential_id}", dependencies=[require("credential:delete")])
async def delete_credential(instance: InstanceDep, credential_id: str) -> dict[str, Any]:
    found = await instance.runner.db(instance.store.credentials.get, credential_id)
    if found is None:
        raise PublicApiError(404, "Not Found")
    await instance.runner.db(instance.store.credentials.delete, credential_id)
    return CredentialOut.of(found).model_dump()


# -- tags -----------------------------------------------------------------------------------------------------


@router.get("/tags", dependencies=[require("tag:list")])
async def list_tags(
    instance: InstanceDep, limit: Annotated[int, Query(ge=1, le=250)] = 100, cursor: str | None = None
) -> dict[str, Any]:
    offset = _offset(cursor)
    tags = await instance.runner.db(instance.store.tags.list, limit=offset + limit + 1)
    page, next_cursor = _page(tags, offset, limit)
    return {"data": [t.to_json() for t in page], "nextCursor": next_cursor}


@router.post("/tags", status_code=201, dependencies=[require("tag:create")])
async def create_tag(instance: InstanceDep, tag: TagIn) -> dict[str, Any]:
    created = await instance.runner.db(instance.store.tags.create, tag.name)
    return created.to_json()


@router.get("/tags/{tag_id}", dependencies=[require("tag:read")])
async def get_tag(instance: InstanceDep, tag_id: str) -> dict[str, Any]:
    found = await instance.runner.db(instance.store.tags.get, tag_id)
    if found is None:
        raise PublicApiError(404, "Not Found")
    return found.to_json()


@router.put("/tags/{tag_id}", dependencies=[require("tag:update")])
async def update_tag(instance: InstanceDep, tag_id: str, tag: TagIn) -> dict[str, Any]:
    try:
        updated = await instance.runner.db(instance.store.tags.update, tag_id, tag.name)
    except NotFoundError:
        raise PublicApiError(404, "Not Found") from None
    return updated.to_json()


@router.delete("/tags/{tag_id}", dependencies=[require("tag:delete")])
async def delete_tag(instance: InstanceDep, tag_id: str) -> dict[str, Any]:
    deleted = await instance.runner.db(instance.store.tags.delete, tag_id)
    if deleted is None:
        raise PublicApiError(404, "Not Found")
    return deleted.to_json()


__all__ = ["PublicApiError", "router"]
