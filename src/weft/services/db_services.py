""":class:`DbServices`: what a stored execution's nodes get from the host.

* credentials decrypted from the database, resolved by the id/name the node references;
* sub-workflows (Execute Workflow) run as their own stored executions (mode ``integrated``, linked to the
  parent execution), loaded from the database by id or given as JSON (``parameter``/``localFile``); a
  sub-workflow that waits makes its parent wait (:mod:`weft.services.subworkflows`);
* chat memory (``chat_memory``), kept in the database (:mod:`weft.services.chat_memory`);
* the webhook response channel (:class:`~weft.nodes.webhooks.WebhookResponder`) when the
  execution answers an HTTP request.

It needs of the runner only what :class:`ExecutionHost` names, so this module does not import the runner (which
imports it): the services modules import each other one way (``tests/test_services_graph.py``).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from weft.engine.services import (
    DEFAULT_MAX_DEPTH,
    returns_last_run_only,
    sub_workflow_output,
    subworkflow_start,
)
from weft.errors import NodeOperationError, WorkflowDefinitionError
from weft.nodes.contract import ChatMemoryStore, ExecuteContext
from weft.nodes.registry import NodeRegistry
from weft.nodes.webhooks import WebhookResponse
from weft.services.chat_memory import DbChatMemory
from weft.services.prepared import PreparedWorkflow, WorkflowCache, prepare
from weft.services.run_result import RunResult
from weft.services.subworkflows import note_sub_execution, parent_link, wait_for_child
from weft.workflow import Item, NodeOutput

if TYPE_CHECKING:
    from weft.db.store import Store
    from weft.services.write_lock import WriteLock

T = TypeVar("T")

#: Called with the response a Respond to Webhook node built (at most once per execution).
ResponseSink = Callable[[WebhookResponse], None]

#: The node that calls sub-workflows; others that do (the Workflow Tool) call them as tools.
EXECUTE_WORKFLOW = "n8n-nodes-base.executeWorkflow"


class ExecutionHost(Protocol):
    """What :class:`DbServices` uses of the :class:`~weft.services.runner.WorkflowRunner` that runs its execution."""

    @property
    def store(self) -> Store: ...
    @property
    def write_lock(self) -> WriteLock | None: ...
    @property
    def registry(self) -> NodeRegistry: ...
    @property
    def cache(self) -> WorkflowCache: ...

    async def db_write(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...

    def spawn(self, work: Coroutine[Any, Any, Any]) -> asyncio.Task[Any]: ...

    async def run(
        self,
        prepared: PreparedWorkflow,
        *,
        mode: str,
        start_node: str | None = None,
        trigger_items: list[Item] | None = None,
        parent_execution_id: str | None = None,
        depth: int = 0,
        parent_execution: dict[str, Any] | None = None,
    ) -> RunResult: ...


class DbServices:
    """The :class:`~weft.nodes.contract.ExecutionServices` of one stored execution."""

    def __init__(
        self,
        runner: ExecutionHost,
        *,
        execution_id: str | None = None,
        depth: int = 0,
        respond: ResponseSink | None = None,
    ) -> None:
        self.runner = runner
        self.execution_id = execution_id
        self.depth = depth
        self._respond = respond
        self.responded = False

    # ------------------------------------------------------------------ webhook responses

    def send_webhook_response(self, response: WebhookResponse) -> None:
        if self.responded or self._respond is None:
            return
        self.responded = True
        self._respond(response)

    # ------------------------------------------------------------------ chat memory

    @property
    def chat_memory(self) -> ChatMemoryStore:
        """Simple Memory's messages, kept in the database (``chat_memory`` table)."""
        return DbChatMemory(self.runner.store.memory, self.runner.write_lock)

    # ------------------------------------------------------------------ credentials

    async def get_credentials(self, ctx: ExecuteContext, credential_type: str) -> dict[str, Any]:
        reference = (ctx.node.credentials or {}).get(credential_type)
        ref = reference if isinstance(reference, Mapping) else None
        resolve = self.runner.store.credentials.resolve_credentials
        return await asyncio.to_thread(resolve, ctx.node.name, credential_type, ref)

    async def update_credential_oauth_token(
        self, ctx: ExecuteContext, credential_type: str, token: Mapping[str, Any]
    ) -> None:
        """Store a renewed OAuth2 token in the node's credential (:mod:`weft.nodes.oauth2`)."""
        reference = (ctx.node.credentials or {}).get(credential_type)
        ref = reference if isinstance(reference, Mapping) else None
        update = self.runner.store.credentials.update_oauth_token_data
        await self.runner.db_write(update, ctx.node.name, credential_type, ref, token)

    # ------------------------------------------------------------------ sub-workflows

    async def execute_workflow(
        self,
        ctx: ExecuteContext,
        workflow: Mapping[str, Any],
        items: list[Item],
        *,
        wait: bool = True,
    ) -> NodeOutput | None:
        """Run the sub-workflow as a stored child execution; its last node's output (``None`` when not waiting)."""
        if self.depth >= DEFAULT_MAX_DEPTH:
            raise NodeOperationError(
                ctx.node.name,
                f"Sub-workflow recursion limit reached: {DEFAULT_MAX_DEPTH} nested sub-workflow calls",
                description="A workflow keeps calling sub-workflows (probably itself). "
                "Stop the recursion with a condition before the Execute Workflow node.",
            )
        prepared = await self._load(ctx, workflow)
        start = subworkflow_start(ctx.node.name, prepared.workflow)
        calls_as_tool = ctx.node.type != EXECUTE_WORKFLOW
        child = self.runner.run(
            prepared,
            mode="integrated",
            start_node=start,
            trigger_items=[dict(i) for i in items],  # type: ignore[misc]
            parent_execution_id=self.execution_id,
            parent_execution=parent_link(self.execution_id, ctx.workflow, True if calls_as_tool else wait),
            depth=self.depth + 1,
        )
        if not wait:
            self.runner.spawn(child)
            return None
        result = await child
        note_sub_execution(ctx, result.execution_id, prepared.workflow.id or ctx.workflow.id)
        if result.run["status"] == "waiting":
            _check_can_wait(ctx, calls_as_tool)
            return wait_for_child(ctx, result.execution_id, result.run)
        return sub_workflow_output(ctx.node.name, result.run, last_run_only=returns_last_run_only(prepared.workflow))

    async def _load(self, ctx: ExecuteContext, workflow: Mapping[str, Any]) -> PreparedWorkflow:
        try:
            if "nodes" not in workflow and "id" in workflow:
                stored = await asyncio.to_thread(self.runner.store.workflows.get, str(workflow["id"]))
                if stored is None:
                    raise NodeOperationError(
                        ctx.node.name,
                        f"Workflow {workflow['id']!r} does not exist",
                        description="Check the 'Workflow' parameter: import the sub-workflow with "
                        "'weft import:workflow' or pick an existing one.",
                    )
                return self.runner.cache.get(stored)
            return prepare(dict(workflow), self.runner.registry)
        except WorkflowDefinitionError as exc:
            raise NodeOperationError(
                ctx.node.name, exc.message, description="Fix the sub-workflow, then run again."
            ) from exc


def _check_can_wait(ctx: ExecuteContext, calls_as_tool: bool) -> None:
    """A waiting sub-workflow can hold its parent only when it is the parent's one call (n8n would resume the parent
    with whichever child finished first), and a tool's only when the engine runs the tool (an agent of version 3),
    not when an older agent runs it inside its own run."""
    entry = getattr(ctx, "execute_data", None)
    run_by_engine = isinstance(entry, dict) and bool((entry.get("node") or {}).get("rewireOutputLogTo"))
    if calls_as_tool and not run_by_engine:
        raise NodeOperationError(
            ctx.node.name,
            "The sub-workflow went into a waiting state, which a tool run inside an agent before version 3 "
            "cannot wait for",
            description="Use an AI Agent of version 3 or later, or remove the Wait from the sub-workflow.",
        )
    each = not calls_as_tool and ctx.get_node_parameter("mode", 0, "once") == "each"  # a tool has no mode
    if each and len(ctx.get_input_data()) > 1:
        raise NodeOperationError(
            ctx.node.name,
            "A sub-workflow run for each item went into a waiting state",
            description="Only one sub-workflow can hold its parent while it waits: set 'Mode' to "
            "'Run once with all items', or send one item.",
        )


__all__ = ["DbServices", "ExecutionHost", "ResponseSink"]
