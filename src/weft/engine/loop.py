"""The execution loop: pop the stack, run the node, route its output, repeat (n8n's ``processRunExecutionData``).

Invariants:

* All state of an execution is the plain-JSON :class:`~weft.workflow.RunExecutionData` in ``self.data``; the
  loop keeps nothing else that a resume would need (the execution index is recomputed from run data).
* A node's run record is written once per run index (``upsert``): a tool's placeholder, a resumed requester and
  a node resumed after a wait all land in the slot they reserved, so each keeps a single run record.
* Stopping (error, wait, cancel) leaves the stopped node at the head of the stack, so the saved state can be
  resumed or retried from there.

This module starts a node's run and runs it (with its retries); :mod:`weft.engine.node_results` records the result
and routes it.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from functools import partial
from typing import Any

from weft.engine import inputs, outcomes, scheduling
from weft.engine.concurrent import pop_group, run_together
from weft.engine.context import _BaseContext, wrap_node_error
from weft.engine.entry_metadata import EntryMetadata
from weft.engine.hooks import ExecutionHooks, HookName
from weft.engine.irun import build_run
from weft.engine.node_results import Step, finish
from weft.engine.node_shape import declared_inputs, required_inputs
from weft.engine.options import EngineOptions
from weft.engine.requests import collect_action_responses
from weft.engine.run_node import run_node
from weft.engine.runaway import check_node_run_cap, yield_between_nodes
from weft.engine.state import clear_wait, initial_run_execution_data, next_execution_index_of
from weft.engine.tasks import StartedRun, task_started
from weft.errors import (
    CancelSignal,
    EngineSignal,
    ExecutionCancelledError,
    TimeoutExecutionCancelledError,
    WorkflowOperationError,
)
from weft.nodes.contract import EngineRequest, ExecutionServices, NodeType
from weft.nodes.registry import NodeRegistry, default_registry
from weft.nodes.resources import ExecutionResources
from weft.workflow import ExecuteData, Item, NodeOutput, Run, RunData, RunExecutionData, Workflow


class Execution:
    """One run of one workflow. Create it, then ``await run()`` (or ``resume()``); ``cancel()`` from anywhere."""

    def __init__(
        self,
        workflow: Workflow,
        *,
        registry: NodeRegistry | None = None,
        mode: str = "manual",
        hooks: ExecutionHooks | None = None,
        services: ExecutionServices | None = None,
        execution_id: str | None = None,
        options: EngineOptions | None = None,
        data: RunExecutionData | None = None,
    ) -> None:
        self.workflow = workflow
        self.registry = registry or default_registry()
        self.mode = mode
        self.hooks = hooks or ExecutionHooks()
        self.services = services
        self.execution_id = execution_id
        self.options = options or EngineOptions()
        self.data: RunExecutionData = data if data is not None else initial_run_execution_data()
        self.custom_data: dict[str, str] = {}
        self.cancel_reason: ExecutionCancelledError | None = None
        self.started_at = datetime.now(UTC)
        self._execution_index = next_execution_index_of(self.data)
        self.execution_error: dict[str, Any] | None = None
        self._task: asyncio.Task[Any] | None = None
        self._pending_hooks: list[asyncio.Future[Any]] = []
        self._last_skipped: str | None = None
        self.resources = ExecutionResources()
        """What nodes opened for this execution (MCP sessions); closed when a drive of the loop ends."""

    # ------------------------------------------------------------------ public API

    @property
    def run_data(self) -> RunData:
        return self.data["resultData"]["runData"]

    @property
    def stack(self) -> list[ExecuteData]:
        return self.data["executionData"]["nodeExecutionStack"]

    async def run(
        self,
        *,
        start_node: str | None = None,
        trigger_items: list[Item] | None = None,
        destination_node: str | None = None,
        pin_data: dict[str, list[Any]] | None = None,
    ) -> Run:
        """Run from ``start_node`` (default: the workflow's trigger) with ``trigger_items`` as its input."""
        from weft.engine.start import prepare_start

        prepare_start(self, start_node, trigger_items, destination_node, pin_data)
        return await self._drive(resumed=False)

    async def resume(self) -> Run:
        """Continue ``self.data`` (a waiting or interrupted execution) from its stack."""
        clear_wait(self.data)
        return await self._drive(resumed=True)

    async def run_partial(self, *, run_data: RunData, dirty_nodes: list[str], destination: str) -> Run:
        """Run up to ``destination``, reusing ``run_data`` of nodes before it that are not dirty."""
        from weft.engine.partial import run_partial

        return await run_partial(self, run_data=run_data, dirty_nodes=dirty_nodes, destination=destination)

    async def start_prepared(self) -> Run:
        """Run ``self.data`` as prepared by the caller (stack, pin data, start data)."""
        return await self._drive(resumed=False)

    def reset_execution_index(self, index: int) -> None:
        self._execution_index = index

    def cancel(self, reason: ExecutionCancelledError | None = None) -> None:
        """Stop the execution: the running node is interrupted and the execution ends ``canceled``."""
        if self.cancel_reason is not None:
            return
        self.cancel_reason = reason or ExecutionCancelledError()
        if self._task is not None and not self._task.done():
            self._task.cancel()

    def resume_url(self) -> str | None:
        return self.options.resume_url(self.execution_id)

    async def supply_sub_node_data(self, parent: _BaseContext, connection_type: str, item_index: int) -> list[Any]:
        from weft.engine.subnodes import supply_sub_node_data

        return await supply_sub_node_data(self, parent, connection_type, item_index)

    def next_execution_index(self) -> int:
        index = self._execution_index
        self._execution_index += 1
        return index

    def fire(self, name: HookName, *args: Any) -> None:
        """Run a hook from synchronous code; async handlers are awaited before the current node ends."""
        if not self.hooks.has(name):
            return
        self._pending_hooks.append(asyncio.ensure_future(self.hooks.run(name, *args)))

    # ------------------------------------------------------------------ the loop

    async def _drive(self, *, resumed: bool) -> Run:
        timeout = self.workflow.settings.executionTimeout
        timer = None
        if timeout is not None and timeout > 0:
            timer = asyncio.get_running_loop().call_later(timeout, self.cancel, TimeoutExecutionCancelledError(timeout))
        task: asyncio.Task[Run] = asyncio.ensure_future(self._run_loop(resumed))
        self._task = task
        try:
            return await task
        finally:
            if timer is not None:
                timer.cancel()
            await self.resources.aclose()

    async def _run_loop(self, resumed: bool) -> Run:
        await self.hooks.run("workflowExecuteResume" if resumed else "workflowExecuteBefore", self.workflow, self.data)
        try:
            runs = 0
            while self.stack and self.cancel_reason is None:
                group = pop_group(self.stack)
                step = await (self._step(group[0]) if len(group) == 1 else self._step_together(group))
                if step is Step.STOP:
                    break
                runs += len(group)
                check_node_run_cap(self.options.max_node_runs, runs, bool(self.stack))
                await yield_between_nodes(lambda: self.cancel_reason is not None)
                if not self.stack and self.data["executionData"]["waitingExecution"]:
                    scheduling.release_waiting_node(
                        self.workflow,
                        self.data["executionData"],
                        partial(required_inputs, self.workflow, self.registry),
                        partial(declared_inputs, self.workflow, self.registry),
                    )
        except Exception as exc:
            self.execution_error = outcomes.error_to_json(exc, self.data["resultData"].get("lastNodeExecuted", ""))
        run = build_run(self)
        await self.hooks.run("workflowExecuteAfter", run, None)
        return run

    async def _step(self, entry: ExecuteData) -> Step:
        """Run one stack entry: prepare, execute (with retries), record, route."""
        started = await self._start(entry)
        if started is None:
            return Step.CONTINUE
        output, error = await self._run_with_retries(entry, started.node_type, started.run_index, started.inputs)
        return await finish(self, started, output, error)

    async def _step_together(self, entries: list[ExecuteData]) -> Step:
        """The requested nodes of one concurrent request (:mod:`weft.engine.concurrent`)."""

        async def run(s: StartedRun) -> tuple[Any, BaseException | None]:
            return await self._run_with_retries(s.entry, s.node_type, s.run_index, s.inputs)

        async def record(s: StartedRun, output: Any, error: BaseException | None) -> bool:
            return await finish(self, s, output, error) is Step.STOP

        stopped = await run_together(entries, self._start, run, record, lambda: self.cancel_reason)
        return Step.STOP if stopped else Step.CONTINUE

    async def _start(self, entry: ExecuteData) -> StartedRun | None:
        """Begin the entry's run; ``None`` when there is nothing to run (filtered out, or no input yet)."""
        name = entry["node"]["name"]
        # n8n keeps the error of a node that continued on failure only while no other node runs after it
        self.execution_error = None
        # 1. bookkeeping known before the node runs
        outcomes.add_paired_item_lineage(entry)
        run_index = entry.get("runIndex", len(self.run_data.get(name, [])))
        if self._filtered_out(name):
            return None
        node_type = self._node_type(entry)
        connection_input = inputs.connection_input(self.workflow, entry, node_type)
        if connection_input is None:
            self._skip(f"{name}:{run_index}")
            return None
        task = task_started(entry, self.next_execution_index())
        if not EntryMetadata.of(entry).node_was_resumed:
            await self.hooks.run("nodeExecuteBefore", name, task)
        return StartedRun(entry=entry, node_type=node_type, run_index=run_index, inputs=connection_input, task=task)

    # ------------------------------------------------------------------ running a node

    async def _run_with_retries(
        self, entry: ExecuteData, node_type: NodeType, run_index: int, connection_input: list[Item]
    ) -> tuple[NodeOutput | EngineRequest | None, BaseException | None]:
        node = self.workflow.nodes[entry["node"]["name"]]
        tries, wait_s = outcomes.retry_params(node, entry)
        response = collect_action_responses(entry, self.run_data)
        output: NodeOutput | EngineRequest | None = None
        error: BaseException | None = None
        for attempt in range(tries):
            if attempt:
                await asyncio.sleep(wait_s)
            error = None
            try:
                elsewhere = self.options.offload and self.options.offload(
                    self, entry, node_type, run_index, connection_input
                )
                if elsewhere:
                    output = await elsewhere
                else:
                    output = await run_node(self, entry, node_type, run_index, connection_input, response)
            except asyncio.CancelledError:
                if self.cancel_reason is None:
                    raise
                return None, CancelSignal(self.cancel_reason)
            except CancelSignal as signal:
                return None, signal
            except EngineSignal:
                raise
            except Exception as exc:
                error = wrap_node_error(exc, node.name)
                continue
            finally:
                await self.flush_hooks()
            if isinstance(output, EngineRequest) or not outcomes.output_failed(output):
                break
        return output, error

    # ------------------------------------------------------------------ helpers

    def _node_type(self, entry: ExecuteData) -> NodeType:
        node = self.workflow.nodes[entry["node"]["name"]]
        return self.registry.get(node.type, node.typeVersion)

    def _skip(self, key: str) -> None:
        if key == self._last_skipped:
            raise WorkflowOperationError("Stopped execution because it seems to be in an endless loop")
        self._last_skipped = key

    def _filtered_out(self, name: str) -> bool:
        node_filter = self.data["startData"].get("runNodeFilter")
        return node_filter is not None and name not in node_filter

    async def flush_hooks(self) -> None:
        if self._pending_hooks:
            pending, self._pending_hooks = self._pending_hooks, []
            await asyncio.gather(*pending)
