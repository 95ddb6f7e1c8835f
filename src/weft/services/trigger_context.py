"""A trigger node's context outside an execution (n8n's ``PollContext`` / ``HookContext`` / ``WebhookContext``),
and the workflow's static data it reads and changes, kept in the database (n8n's ``WorkflowStaticDataService``).

The context is the engine's node context on an execution that never runs: parameters, expressions, credentials
and the HTTP layer work as in a run. Its workflow's ``static_data`` is read from the database when the context is
made, and :func:`save_static_data` writes the node's part back when the node changed it.
"""

from __future__ import annotations

import asyncio
import copy
from typing import Any

from weft.engine.context import ExecuteContext
from weft.engine.loop import Execution
from weft.errors import WeftError
from weft.nodes.contract import NodeType
from weft.nodes.triggers import trigger_webhook_path
from weft.services.db_services import DbServices
from weft.services.prepared import PreparedWorkflow
from weft.services.runner import WorkflowRunner
from weft.workflow import Workflow

_locks: dict[str, asyncio.Lock] = {}


class StandaloneTriggerContext(ExecuteContext):
    """The engine's node context, plus what hooks and webhooks offer (``activation``, the node's webhook URL)."""

    def __init__(
        self, execution: Execution, prepared: PreparedWorkflow, node: str, *, base_url: str, activation: str
    ) -> None:
        model = execution.workflow.nodes[node]
        node_type = execution.registry.get(model.type, model.typeVersion)
        execute_data: Any = {"node": execution.workflow.node_json(node), "data": {"main": [[]]}, "source": None}
        super().__init__(
            execution, model, node_type, execute_data, run_index=0, connection_input=[], engine_response=None
        )
        self.activation = activation
        self.prepared = prepared
        self._base_url = base_url.rstrip("/")
        self.static_before = copy.deepcopy(self.workflow.static_data)

    @property
    def node_type_instance(self) -> NodeType:
        return self.node_type

    def get_node_webhook_url(self, name: str = "default") -> str:
        return f"{self._base_url}/webhook/{trigger_webhook_path(self.node)}"


async def trigger_context(
    runner: WorkflowRunner, prepared: PreparedWorkflow, node: str, *, mode: str, activation: str
) -> StandaloneTriggerContext:
    """A context for ``node`` of ``prepared``, its workflow's static data read from the database."""
    workflow = Workflow(prepared.workflow.model)
    workflow.static_data = await load_static_data(runner, prepared.id)
    execution = Execution(
        workflow, registry=runner.registry, mode=mode, services=DbServices(runner), options=runner.options
    )
    return StandaloneTriggerContext(execution, prepared, node, base_url=runner.settings.base_url, activation=activation)


async def load_static_data(runner: WorkflowRunner, workflow_id: str | None) -> dict[str, Any]:
    if not workflow_id:
        return {}
    stored = await runner.db(runner.store.workflows.get, workflow_id)
    static = None if stored is None else stored.data.get("staticData")
    return dict(static) if isinstance(static, dict) else {}


async def save_static_data(runner: WorkflowRunner, ctx: StandaloneTriggerContext) -> bool:
    """Store the node's static data (``node:<name>``, and ``global``) when the node changed it; True if stored.

    The other nodes' parts are read again first, so two triggers of one workflow do not undo each other's."""
    workflow_id = ctx.prepared.id
    keys = [f"node:{ctx.node.name}", "global"]
    changed = [k for k in keys if ctx.workflow.static_data.get(k) != ctx.static_before.get(k)]
    if not workflow_id or not changed:
        return False
    async with _locks.setdefault(workflow_id, asyncio.Lock()):
        current = await load_static_data(runner, workflow_id)
        for key in changed:
            if key in ctx.workflow.static_data:
                current[key] = copy.deepcopy(ctx.workflow.static_data[key])
            else:
                current.pop(key, None)
        try:
            await runner.db_write(runner.store.workflows.set_static_data, workflow_id, current)
        except WeftError:  # the workflow was deleted meanwhile
            return False
    ctx.static_before = copy.deepcopy(ctx.workflow.static_data)
    return True


__all__ = ["StandaloneTriggerContext", "load_static_data", "save_static_data", "trigger_context"]
