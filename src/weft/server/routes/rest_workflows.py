"""``/rest/workflows``: create, read, update, delete, activate, deactivate, import, run."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Body

from weft.db.base import NotFoundError
from weft.server.deps import InstanceDep
from weft.server.schemas import Deleted, Envelope, RunStarted, WorkflowIn, WorkflowOut
from weft.services.activation import webhook_nodes

if TYPE_CHECKING:
    from weft.services.prepared import PreparedWorkflow
    from weft.services.runner import WorkflowRunner

router = APIRouter(prefix="/workflows", tags=["workflows"])


def _json(workflow: WorkflowIn) -> dict[str, Any]:
    data = workflow.model_dump(exclude_unset=True)
    data.pop("active", None)
    return data


@router.get("", summary="List workflows")
async def list_workflows(instance: InstanceDep, active: bool | None = None) -> Envelope[list[WorkflowOut]]:
    stored = await instance.runner.db(instance.store.workflows.list, active=active)
    return Envelope(data=[WorkflowOut.of(w) for w in stored])


@router.post("", status_code=201, summary="Create a workflow (inactive)")
async def create_workflow(instance: InstanceDep, workflow: WorkflowIn) -> Envelope[WorkflowOut]:
    stored = await instance.runner.db(instance.store.workflows.create, _json(workflow), active=False)
    return Envelope(data=WorkflowOut.of(stored))


@router.post("/import", status_code=201, summary="Import n8n workflow JSON (an object or an array)")
async def import_workflows(
    instance: InstanceDep, body: Annotated[dict[str, Any] | list[dict[str, Any]], Body()], activate: bool = False
) -> Envelope[list[WorkflowOut]]:
    items = body if isinstance(body, list) else [body]
    imported = []
    for item in items:
        stored = await instance.runner.db(instance.store.workflows.import_workflow, item, activate=False)
        if activate:
            stored = await instance.active.activate(stored.id)
        imported.append(WorkflowOut.of(stored))
    return Envelope(data=imported)


@router.get("/{workflow_id}", summary="Get a workflow")
async def get_workflow(instance: InstanceDep, workflow_id: str) -> Envelope[WorkflowOut]:
    stored = await instance.runner.db(instance.store.workflows.get, workflow_id)
    if stored is None:
        raise NotFoundError(f"Workflow {workflow_id!r} does not exist.", workflow_id=workflow_id)
    return Envelope(data=WorkflowOut.of(stored))


@router.patch("/{workflow_id}", summary="Update a workflow (an active one is re-activated with the new version)")
@router.put("/{workflow_id}", include_in_schema=False)
async def update_workflow(instance: InstanceDep, workflow_id: str, workflow: WorkflowIn) -> Envelope[WorkflowOut]:
    stored = await instance.runner.db(instance.store.workflows.update, workflow_id, _json(workflow))
    if stored.active:
        stored = await instance.active.activate(workflow_id)
    return Envelope(data=WorkflowOut.of(stored))


@router.delete("/{workflow_id}", summary="Delete a workflow with its webhooks and executions")
async def delete_workflow(instance: InstanceDep, workflow_id: str) -> Envelope[Deleted]:
    await instance.runner.db(instance.store.webhooks.unregister, workflow_id)
    deleted = await instance.runner.delete_workflow(workflow_id)
    if not deleted:
        raise NotFoundError(f"Workflow {workflow_id!r} does not exist.", workflow_id=workflow_id)
    await instance.active.refresh()
    return Envelope(data=Deleted(id=workflow_id, deleted=True))


@router.post("/{workflow_id}/activate", summary="Activate: register its webhooks and schedules")
async def activate_workflow(instance: InstanceDep, workflow_id: str) -> Envelope[WorkflowOut]:
    return Envelope(data=WorkflowOut.of(await instance.active.activate(workflow_id)))


@router.post("/{workflow_id}/deactivate", summary="Deactivate: unregister its webhooks and schedules")
async def deactivate_workflow(instance: InstanceDep, workflow_id: str) -> Envelope[WorkflowOut]:
    return Envelope(data=WorkflowOut.of(await instance.active.deactivate(workflow_id)))


@router.post("/{workflow_id}/run", summary="Run once: manually, or listen for one test webhook call")
async def run_workflow(instance: InstanceDep, workflow_id: str, wait: bool = True) -> Envelope[RunStarted]:
    """``wait=false``: answer as soon as the execution exists (status ``running``) and let it run on; follow it
    with ``GET /rest/push?executionId=``."""
    stored = await instance.runner.db(instance.store.workflows.get, workflow_id)
    if stored is None:
        raise NotFoundError(f"Workflow {workflow_id!r} does not exist.", workflow_id=workflow_id)
    prepared = instance.runner.cache.get(stored)
    if webhook_nodes(prepared):
        urls = await instance.test_webhooks.listen(stored.data)
        return Envelope(data=RunStarted(waitingForWebhook=True, testUrls=urls))
    if not wait:
        execution_id = await _run_in_background(instance.runner, prepared)
        return Envelope(data=RunStarted(executionId=execution_id, status="running"))
    result = await instance.runner.run(prepared, mode="manual")
    return Envelope(data=RunStarted(executionId=result.execution_id, status=result.run["status"]))


async def _run_in_background(runner: WorkflowRunner, prepared: PreparedWorkflow) -> str:
    created: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = runner.spawn(runner.run(prepared, mode="manual", started=created.set_result))
    await asyncio.wait([created, task], return_when=asyncio.FIRST_COMPLETED)
    if not created.done():  # it failed before its row existed
        created.cancel()
        task.result()
    return created.result()
