"""Queue mode, beyond n8n (chapter 19's promise): the tool nodes an agent requests may run on other workers.

An agent does not call its tools: it asks the engine to run them (an engine request), and the engine runs each as an
ordinary node of the execution. With ``WEFT_QUEUE_TOOLS_ON_WORKERS=true`` the worker that runs the execution hands a
requested tool node that is a converted node (an HTTP Request Tool, a Postgres Tool, …: ``usableAsTool`` types) to the
task engine instead of running it itself (:class:`ToolOffload`, the engine's ``offload``): it saves the execution's
data first (its claim checked), any worker loads it and runs that one node (:func:`run_tool_job`), and its output
comes back as a message. The run is recorded by the execution's own worker, in the same run data, with the same
retries, errors and timeouts as a local run. Tools that are agents, workflows or MCP clients (they make requests of
their own) always run where the agent runs. A tool job no worker takes within :data:`LOCAL_AFTER_S` (every worker busy,
or one worker with one slot: the agent's) is taken back and run locally, so offloading never deadlocks.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from typing import TYPE_CHECKING, Any

from weft.db.async_pg import AsyncStatements
from weft.engine import Execution
from weft.engine.run_node import run_node
from weft.engine.state import restore_waiting_keys
from weft.errors import NodeOperationError, WeftError
from weft.nodes.contract import EngineRequest, NodeType
from weft.queue import messages, tasks
from weft.services.db_services import DbServices
from weft.services.prepared import prepare
from weft.workflow import ExecuteData, Item, NodeOutput
from weft.workflow.items import empty_run_data

if TYPE_CHECKING:
    import procrastinate

    from weft.services.runner import WorkflowRunner

log = logging.getLogger("weft.worker")

#: Seconds a tool job may wait for a worker before the agent's worker takes it back and runs it itself.
LOCAL_AFTER_S = 5.0


def runs_elsewhere(node_type: NodeType, entry: ExecuteData) -> bool:
    """A requested tool node that is a converted node (it makes no engine request of its own)."""
    converted = getattr(type(node_type), "converted_from", None) is not None
    return converted and entry["node"].get("rewireOutputLogTo") == "ai_tool"


class ToolOffload:
    """The engine's ``offload`` in a worker: requested tool nodes go to the task engine."""

    def __init__(self, runner: WorkflowRunner, app: procrastinate.App, mailbox: messages.Mailbox) -> None:
        self.runner = runner
        self.app = app
        self.mailbox = mailbox
        self._waiting: dict[str, asyncio.Future[dict[str, Any]]] = {}
        """The results awaited, by request."""
        self._pumps: dict[str, tuple[asyncio.Task[None], set[str]]] = {}
        """Per execution with tool runs elsewhere: the task passing its results on, and its requests awaited."""

    def __call__(
        self, execution: Execution, entry: ExecuteData, node_type: NodeType, run_index: int, inputs: list[Item]
    ) -> Any:
        execution_id = execution.execution_id or ""
        if execution_id not in self.runner.claims or not runs_elsewhere(node_type, entry):
            return None
        return self._elsewhere(execution, entry, node_type, run_index, inputs)

    async def _elsewhere(
        self, execution: Execution, entry: ExecuteData, node_type: NodeType, run_index: int, inputs: list[Item]
    ) -> NodeOutput | None:
        execution_id = execution.execution_id or ""
        store = self.runner.store
        claim = self.runner.claims[execution_id]
        await self.runner.db(store.executions.save_progress, execution_id, execution.data, claim=claim)
        request = uuid.uuid4().hex
        answer = asyncio.get_running_loop().create_future()
        self._waiting[request] = answer
        self._pump(execution_id).add(request)
        try:
            arguments = {"execution_id": execution_id, "request": request, "entry": entry, "run_index": run_index}
            job_id = await tasks.defer_tool(self.app, **arguments, inputs=inputs)
            done, _ = await asyncio.wait({answer}, timeout=LOCAL_AFTER_S)
            if not done and await tasks.cancel_if_waiting(self.app, job_id):
                log.info("No worker took tool %r in %s s: run here", entry["node"]["name"], LOCAL_AFTER_S)
                return await _local(execution, entry, node_type, run_index, inputs)
            return _output(entry, await answer)
        finally:
            self._waiting.pop(request, None)
            self._done(execution_id, request)

    def _pump(self, execution_id: str) -> set[str]:
        """The requests of the execution awaited; its results' pump started with the first."""
        if execution_id not in self._pumps:
            task = asyncio.ensure_future(self._deliver(self.mailbox.expect(execution_id)))
            self._pumps[execution_id] = (task, set())
        return self._pumps[execution_id][1]

    def _done(self, execution_id: str, request: str) -> None:
        """The request is answered; the pump stops with the execution's last one."""
        task, requests = self._pumps[execution_id]
        requests.discard(request)
        if not requests:
            task.cancel()
            del self._pumps[execution_id]
            self.mailbox.forget(execution_id)

    async def _deliver(self, inbox: asyncio.Queue[tuple[str, Any]]) -> None:
        while True:
            _, payload = await inbox.get()
            future = self._waiting.get(str(payload.get("request")))
            if future is not None and not future.done():
                future.set_result(payload)


async def _local(
    execution: Execution, entry: ExecuteData, node_type: NodeType, run_index: int, inputs: list[Item]
) -> NodeOutput | None:
    output = await run_node(execution, entry, node_type, run_index, inputs, None)
    if isinstance(output, EngineRequest):
        raise NodeOperationError(entry["node"]["name"], "A tool node run for an agent made an engine request")
    return output


def _output(entry: ExecuteData, payload: dict[str, Any]) -> NodeOutput | None:
    """The node's output, or its error raised here as the node's (the engine records it as a local one's)."""
    error = payload.get("error")
    if error is not None:
        raise NodeOperationError(entry["node"]["name"], str(error.get("message")), description=error.get("description"))
    output: NodeOutput | None = payload.get("output")
    return output


async def run_tool_job(
    runner: WorkflowRunner,
    statements: AsyncStatements,
    execution_id: str,
    request: str,
    entry: ExecuteData,
    run_index: int,
    inputs: list[Item],
) -> None:
    """Run one tool node of another worker's execution, on the data it saved, and send it the output."""
    stored = await runner.db(runner.store.executions.get, execution_id)
    payload: dict[str, Any] = {"request": request}
    if stored is None or stored.status != "running":
        payload["error"] = {"message": f"Execution {execution_id} no longer runs: its tool was not run"}
    else:
        prepared = prepare(stored.workflow_data or {}, runner.registry)
        execution = Execution(
            prepared.workflow,
            registry=runner.registry,
            mode=stored.mode,
            services=DbServices(runner, execution_id=execution_id),
            execution_id=execution_id,
            options=runner.options,
            data=restore_waiting_keys(stored.data or empty_run_data()),
        )
        node = prepared.workflow.nodes[entry["node"]["name"]]
        try:
            node_type = runner.registry.get(node.type, node.typeVersion)
            payload["output"] = await _local(execution, entry, node_type, run_index, inputs)
        except WeftError as error:
            payload["error"] = {"message": error.message, "description": error.description}
        except Exception as error:  # a node's own failure: the agent's worker records it as the node's error
            payload["error"] = {"message": str(error) or type(error).__name__, "description": None}
        finally:
            await execution.resources.aclose()
    await messages.publish(statements, execution_id, messages.TOOL_RESULT, payload)


__all__ = ["LOCAL_AFTER_S", "ToolOffload", "run_tool_job", "runs_elsewhere"]
