"""What becomes of a node's result: record its run, then route its output to the children, put the requested nodes
on the stack, or stop the loop on an error, a cancel or a wait (the part of n8n's ``processRunExecutionData`` after
``runNode``).

Invariants:

* A node's run record is written once per run index (``upsert``), in the slot the node's run reserved.
* Stopping (error, wait, cancel) puts the stopped node back at the head of the stack, so the saved state can be
  resumed or retried from there.
* An error a node continued on is the execution's error only while no other node runs after it.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from weft.engine import outcomes, scheduling
from weft.engine.node_shape import main_output_count
from weft.engine.requests import handle_request
from weft.engine.tasks import StartedRun, task_finished, upsert_task
from weft.errors import CancelSignal, WeftError
from weft.nodes.contract import EngineRequest
from weft.workflow import MAIN, ExecuteData, NodeOutput, TaskData

if TYPE_CHECKING:
    from weft.engine.loop import Execution


class Step(Enum):
    CONTINUE = "continue"
    STOP = "stop"


async def finish(
    ex: Execution, started: StartedRun, output: NodeOutput | EngineRequest | None, error: BaseException | None
) -> Step:
    """Record the run of ``started`` and route its output (or its error, or the nodes it requested)."""
    entry, run_index = started.entry, started.run_index
    if isinstance(output, EngineRequest):
        try:
            _handle_request(ex, entry, output, run_index)
            return Step.CONTINUE
        except WeftError as exc:  # an unknown node or an empty request: the requester fails
            output, error = None, exc
    # 3. record the outcome and route the output
    task = task_finished(started.task, entry, ex.data)
    if error is not None:
        return await _handle_error(ex, entry, task, error, run_index)
    return await _handle_success(ex, entry, task, output, run_index)


async def _handle_success(
    ex: Execution, entry: ExecuteData, task: TaskData, output: NodeOutput | EngineRequest | None, run_index: int
) -> Step:
    name = entry["node"]["name"]
    node = ex.workflow.nodes[name]
    data: NodeOutput | None = output if not isinstance(output, EngineRequest) else None
    if data is not None and node.onError == "continueErrorOutput":
        outcomes.route_error_output(data, entry, main_output_count(ex.workflow, ex.registry, name))
    data = outcomes.assign_paired_items(data, entry)
    if data is not None:
        ex.data["resultData"]["lastNodeExecuted"] = name
    if node.alwaysOutputData:
        data = outcomes.ensure_always_output_data(data, entry)
    if data is None and not ex.data.get("waitTill"):
        return Step.CONTINUE  # the node succeeded with no data: the branch ends
    return await _record_and_route(ex, entry, task, data or [], run_index)


async def _handle_error(
    ex: Execution, entry: ExecuteData, task: TaskData, error: BaseException, run_index: int
) -> Step:
    name = entry["node"]["name"]
    node = ex.workflow.nodes[name]
    if isinstance(error, CancelSignal):
        return await _handle_cancel(ex, entry, task, error, run_index)
    error_json = outcomes.error_to_json(error, name)
    task["error"] = error_json
    task["executionStatus"] = "error"
    ex.data["resultData"]["lastNodeExecuted"] = name
    await ex.hooks.run("sendChunk", outcomes.error_chunk(node.id, name, run_index, error_json))
    rewire = entry["node"].get("rewireOutputLogTo")
    is_tool = rewire == "ai_tool"
    if outcomes.continues_on_error(node) or (is_tool and node.onError != "stopWorkflow"):
        main = entry["data"].get("main") or []
        if is_tool:
            passthrough: NodeOutput = [[{"json": {"error": error_json["message"]}}]]
        else:
            passthrough = [list(main[0])] if main and main[0] is not None else []
        ex.execution_error = error_json  # the execution ends in this error if no node runs after it
        return await _record_and_route(ex, entry, task, passthrough, run_index)
    if rewire:
        task["data"] = {rewire: [[{"json": {"error": error_json["message"]}}]]}
    upsert_task(ex.run_data, name, run_index, task)
    ex.stack.insert(0, entry)
    ex.execution_error = error_json
    await ex.hooks.run("nodeExecuteAfter", name, task, ex.data)
    return Step.STOP


async def _handle_cancel(
    ex: Execution, entry: ExecuteData, task: TaskData, signal: CancelSignal, run_index: int
) -> Step:
    name = entry["node"]["name"]
    task["executionStatus"] = "canceled"
    task["error"] = signal.reason.to_json()
    upsert_task(ex.run_data, name, run_index, task)
    ex.stack.insert(0, entry)
    ex.cancel_reason = ex.cancel_reason or signal.reason
    return Step.STOP


async def _record_and_route(
    ex: Execution, entry: ExecuteData, task: TaskData, data: NodeOutput, run_index: int
) -> Step:
    name = entry["node"]["name"]
    outcomes.normalize_node_errors(data)
    rewire = entry["node"].get("rewireOutputLogTo")
    task["data"] = {rewire or MAIN: data}  # type: ignore[dict-item]
    upsert_task(ex.run_data, name, run_index, task)
    if ex.data.get("waitTill"):
        task["executionStatus"] = "waiting"
        await ex.hooks.run("nodeExecuteAfter", name, task, ex.data)
        ex.stack.insert(0, {**entry, "runIndex": run_index})
        return Step.STOP
    destination = (ex.data["startData"].get("destinationNode") or {}).get("nodeName")
    if not rewire and destination != name:
        for edge in scheduling.children_to_schedule(ex.workflow, name, data):  # type: ignore[arg-type]
            scheduling.add_node_to_be_executed(
                ex.workflow,
                ex.data["executionData"],
                ex.run_data,
                target=edge.target,
                target_index=edge.target_index,
                output_index=edge.source_index,
                parent=name,
                parent_output=data,  # type: ignore[arg-type]
                run_index=run_index,
            )
    await ex.hooks.run("nodeExecuteAfter", name, task, ex.data)
    return Step.CONTINUE


def _handle_request(ex: Execution, entry: ExecuteData, request: EngineRequest, run_index: int) -> None:
    entries = handle_request(
        ex.workflow,
        requester=entry["node"]["name"],
        request=request,
        run_index=run_index,
        execute_data=entry,
        run_data=ex.run_data,
    )
    # the list is in pop order (requested nodes in request order, then the requester): put it on top as is
    ex.stack[0:0] = entries


__all__ = ["Step", "finish"]
