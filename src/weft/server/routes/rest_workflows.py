"""``/rest/workflows``: create, read, update, delete, activate, deactivate, import, run."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import APIRouter, Body
from pydantic import BaseModel, ConfigDict

from weft.db.base import NotFoundError
from weft.server.deps import InstanceDep
from weft.server.routes.rest_tags import import_tags, save_tags, tagged
from weft.server.schemas import Deleted, Envelope, RunStarted, WorkflowIn, WorkflowOut
from weft.services.listening_urls import listening_triggers
from weft.services.prepared import prepare
from weft.services.webhook_requests import BadRequestError

if TYPE_CHECKING:
    from weft.engine import Execution
    from weft.services.prepared import PreparedWorkflow
    from weft.services.runner import WorkflowRunner
    from weft.workflow import Run

router = APIRouter(prefix="/workflows", tags=["workflows"])


def _json(workflow: WorkflowIn) -> dict[str, Any]:
    data = workflow.model_dump(exclude_unset=True)
    data.pop("active", None)
    return data


@router.get("", summary="List workflows")
async def list_workflows(instance: InstanceDep, active: bool | None = None) -> Envelope[list[WorkflowOut]]:
    stored = await instance.runner.db(instance.store.workflows.list, active=active)
    return Envelope(data=await tagged(instance, stored))


@router.post("", status_code=201, summary="Create a workflow (inactive)")
async def create_workflow(instance: InstanceDep, workflow: WorkflowIn) -> Envelope[WorkflowOut]:
    data = _json(workflow)
    data.pop("versionId", None)  # the server's, as n8n's
    wanted = data.pop("tags", None)  # n8n's editor sends tag ids
    stored = await instance.runner.db(instance.store.workflows.create, data, active=False)
    if isinstance(wanted, list) and wanted:
        data["tags"] = wanted
        await save_tags(instance, stored.id, data, None)
        stored = await instance.runner.db(instance.store.workflows.update, stored.id, data)
    return Envelope(data=(await tagged(instance, [stored]))[0])


@router.post("/import", status_code=201, summary="Import n8n workflow JSON (an object or an array)")
async def import_workflows(
    instance: InstanceDep, body: Annotated[dict[str, Any] | list[dict[str, Any]], Body()], activate: bool = False
) -> Envelope[list[WorkflowOut]]:
    items = body if isinstance(body, list) else [body]
    imported = []
    for item in items:
        stored = await instance.runner.db(instance.store.workflows.import_workflow, item, activate=False)
        await import_tags(instance, stored.id, item)
        if activate:
            stored = await instance.active.activate(stored.id)
        imported.append(WorkflowOut.of(stored))
    return Envelope(data=imported)


@router.get("/{workflow_id}", summary="Get a workflow")
async def get_workflow(instance: InstanceDep, workflow_id: str) -> Envelope[WorkflowOut]:
    stored = await instance.runner.db(instance.store.workflows.get, workflow_id)
    if stored is None:
        raise NotFoundError(f"Workflow {workflow_id!r} does not exist.", workflow_id=workflow_id)
    return Envelope(data=(await tagged(instance, [stored]))[0])


#: Fields of a workflow's answer that are the server's: a save does not change them in the workflow's JSON.
SERVER_FIELDS = ("versionId", "createdAt", "updatedAt")
#: n8n's answer to a save based on an older version (``WorkflowService.update``, n8n 1.x: 400).
CONFLICT = (
    "Your most recent changes may be lost, because someone else just updated this workflow. "
    "Open this workflow in a new tab to see those new updates."
)


@router.patch("/{workflow_id}", summary="Update a workflow (an active one is re-activated with the new version)")
@router.put("/{workflow_id}", include_in_schema=False)
async def update_workflow(
    instance: InstanceDep, workflow_id: str, workflow: WorkflowIn, forceSave: bool = False
) -> Envelope[WorkflowOut]:
    """A ``versionId`` other than the stored one is refused (400, n8n's message) unless ``forceSave=true``; the
    workflow's JSON keeps the ``versionId``, ``createdAt``, ``updatedAt`` and ``tags`` it had (unless the tags
    change)."""
    data = _json(workflow)
    sent = data.pop("versionId", None)
    current = await instance.runner.db(instance.store.workflows.get, workflow_id)
    if current is None:
        raise NotFoundError(f"Workflow {workflow_id!r} does not exist.", workflow_id=workflow_id)
    if sent and sent != current.version_id and not forceSave:
        raise BadRequestError(CONFLICT, workflow_id=workflow_id)
    for key in SERVER_FIELDS:  # the server's in its answers; the imported export's kept in its JSON
        data.pop(key, None)
        if key in current.data:
            data[key] = current.data[key]
    await save_tags(instance, workflow_id, data, current.data.get("tags"))
    stored = await instance.runner.db(instance.store.workflows.update, workflow_id, data)
    if stored.active:
        stored = await instance.active.activate(workflow_id)
    return Envelope(data=(await tagged(instance, [stored]))[0])


@router.delete("/{workflow_id}", summary="Delete a workflow with its webhooks and executions")
async def delete_workflow(instance: InstanceDep, workflow_id: str) -> Envelope[Deleted]:
    stored = await instance.runner.db(instance.store.workflows.get, workflow_id)
    if stored is not None and stored.active:  # its trigger webhooks are deleted at the services, as n8n does
        await instance.active.deactivate(workflow_id)
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


class RunIn(BaseModel):
    """n8n's manual-run body (``ManualRunPayload``), every field optional; no body runs the whole workflow.

    ``destinationNode`` runs up to that node; with ``runData`` (or ``baseExecutionId``, Weft: the run data of an
    execution of this workflow) it is a partial execution that reuses the data of the nodes not in
    ``dirtyNodeNames``. ``triggerToStartFrom.name`` picks the trigger of a workflow with several. ``workflowData``
    runs that JSON (the editor's unsaved state) instead of the saved one."""

    model_config = ConfigDict(extra="allow")  # startNodes, agentRequest, ...: n8n sends more

    workflowData: dict[str, Any] | None = None
    runData: dict[str, list[dict[str, Any]]] | None = None
    destinationNode: str | dict[str, Any] | None = None
    dirtyNodeNames: list[str] | None = None
    baseExecutionId: str | None = None
    triggerToStartFrom: dict[str, Any] | None = None

    def trigger(self) -> str | None:
        """The trigger to start from, when named."""
        name = (self.triggerToStartFrom or {}).get("name")
        return str(name) if name else None

    def destination(self) -> str | None:
        """The node name (n8n ≥ 1.9x sends ``{nodeName, mode}``, earlier a name)."""
        if isinstance(self.destinationNode, dict):
            name = self.destinationNode.get("nodeName")
            return str(name) if name else None
        return self.destinationNode or None


@router.post("/{workflow_id}/run", summary="Run once: manually (whole, or up to a node), or listen for a test call")
async def run_workflow(
    instance: InstanceDep, workflow_id: str, wait: bool = True, body: Annotated[RunIn | None, Body()] = None
) -> Envelope[RunStarted]:
    """``wait=false``: answer as soon as the execution exists (status ``running``) and let it run on; follow it
    with ``GET /rest/push?executionId=``. Pinned data (``pinData``) stands in for the pinned nodes' output."""
    request = body or RunIn()
    stored = await instance.runner.db(instance.store.workflows.get, workflow_id)
    if stored is None:
        raise NotFoundError(f"Workflow {workflow_id!r} does not exist.", workflow_id=workflow_id)
    if request.workflowData is not None:
        prepared = prepare({**request.workflowData, "id": workflow_id}, instance.runner.registry)
    else:
        prepared = instance.runner.cache.get(stored)
    run_data = await _run_data(instance.runner, workflow_id, request)
    start = request.trigger()
    listening = _listening_triggers(prepared, start, request.destination(), run_data)
    if listening:
        urls = await instance.test_webhooks.listen(prepared, triggers=listening)
        return Envelope(data=RunStarted(waitingForWebhook=True, testUrls=urls))
    begin = _begin(start, request.destination(), run_data, request.dirtyNodeNames or [])
    if not wait:
        execution_id = await _run_in_background(instance.runner, prepared, begin)
        return Envelope(data=RunStarted(executionId=execution_id, status="running"))
    result = await instance.runner.run(prepared, mode="manual", begin=begin)
    return Envelope(data=RunStarted(executionId=result.execution_id, status=result.run["status"]))


def _listening_triggers(
    prepared: PreparedWorkflow, start: str | None, destination: str | None, run_data: dict[str, Any] | None
) -> list[str]:
    """The triggers whose test URLs the run listens on instead of running now (n8n's ``needsWebhook``): those with
    a test URL (Webhook, Form, public Chat, MCP Server) and not pinned; the one executed as a step ("Execute step"
    on it), else the one to start from, else all of them, when no run data is reused."""
    triggers = [name for name in listening_triggers(prepared) if name not in prepared.workflow.pin_data]
    if destination in triggers:
        return [str(destination)]
    if run_data:
        return []
    return triggers if start is None else [name for name in triggers if name == start]


async def _run_data(runner: WorkflowRunner, workflow_id: str, request: RunIn) -> dict[str, Any] | None:
    """The run data to reuse: sent, or that of ``baseExecutionId`` (an execution of this workflow only)."""
    if request.runData is not None or request.baseExecutionId is None:
        return request.runData
    base = await runner.db(runner.store.executions.get, request.baseExecutionId)
    if base is None or base.workflow_id != workflow_id:
        raise NotFoundError(f"Execution {request.baseExecutionId!r} does not exist.")
    data: dict[str, Any] = dict(base.data or {})
    run_data: dict[str, Any] = (data.get("resultData") or {}).get("runData") or {}
    return run_data


def _begin(
    start: str | None, destination: str | None, run_data: dict[str, Any] | None, dirty: list[str]
) -> Callable[[Execution], Awaitable[Run]] | None:
    """How the execution starts: up to ``destination`` reusing ``run_data`` (n8n's partial execution), from the
    trigger ``start`` (default: the workflow's) up to ``destination`` or to the end; ``None``: the whole workflow."""
    if destination is not None and run_data:
        return lambda execution: execution.run_partial(run_data=run_data, dirty_nodes=dirty, destination=destination)
    if destination is None and start is None:
        return None
    return lambda execution: execution.run(start_node=start, destination_node=destination)


async def _run_in_background(
    runner: WorkflowRunner, prepared: PreparedWorkflow, begin: Callable[[Execution], Awaitable[Run]] | None
) -> str:
    created: asyncio.Future[str] = asyncio.get_running_loop().create_future()
    task = runner.spawn(runner.run(prepared, mode="manual", started=created.set_result, begin=begin))
    await asyncio.wait([created, task], return_when=asyncio.FIRST_COMPLETED)
    if not created.done():  # it failed before its row existed
        created.cancel()
        task.result()
    return created.result()
