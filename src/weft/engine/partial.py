"""Partial execution: run up to a destination node, reusing the run data of nodes that need not run again.

The steps follow n8n's ``runPartialWorkflow2`` (``partial-execution-utils``):

1. find the trigger to start from (or, without one, the closest parent that has run data);
2. keep the subgraph between it and the destination (disabled nodes left out);
3. delete the run data of dirty nodes and of everything after them;
4. find the start nodes: walking from the trigger, the first nodes that have no run data or pinned data, or are
   dirty — a start node inside a loop is replaced by the loop's first node;
5. rebuild the stack from the parents' existing output;
6. run, with the execution index continuing after the highest one recorded.
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from weft.errors import WorkflowOperationError
from weft.workflow import MAIN, ExecuteData, Item, RunData, Workflow

if TYPE_CHECKING:
    from weft.engine.loop import Execution
    from weft.workflow import Run


def _is_trigger(execution: Execution, name: str) -> bool:
    node = execution.workflow.nodes[name]
    cls = execution.registry.type_class(node.type)
    return cls is not None and cls.description.is_trigger


def find_trigger(execution: Execution, destination: str, run_data: RunData) -> str:
    workflow = execution.workflow
    candidates = [destination, *workflow.parents(destination)]
    enabled = [n for n in candidates if not workflow.nodes[n].disabled]
    for name in reversed(enabled):
        if _is_trigger(execution, name):
            return name
    for name in enabled[1:]:
        if name in run_data or name in workflow.pin_data:
            return name
    raise WorkflowOperationError("Connect a trigger and make sure it's enabled to run this node")


def subgraph(workflow: Workflow, trigger: str, destination: str) -> set[str]:
    """Nodes on some path ``trigger`` → ``destination`` (both included), skipping disabled nodes."""
    forward = {trigger, *workflow.children(trigger)}
    backward = {destination, *workflow.parents(destination)}
    return {n for n in forward & backward if not workflow.nodes[n].disabled or n in (trigger, destination)}


def clean_run_data(workflow: Workflow, run_data: RunData, dirty: list[str]) -> RunData:
    cleaned = copy.deepcopy(run_data)
    for name in dirty:
        for gone in (name, *workflow.children(name)):
            cleaned.pop(gone, None)
    return cleaned


def _cycles(workflow: Workflow, nodes: set[str]) -> list[set[str]]:
    """Strongly connected components (of size > 1, or self-loops) of the main graph restricted to ``nodes``."""
    comps: list[set[str]] = []
    seen: set[str] = set()
    for name in nodes:
        if name in seen:
            continue
        reach = {n for n in workflow.children(name) if n in nodes}
        comp = {name} | {n for n in reach if name in workflow.children(n)}
        seen |= comp
        if len(comp) > 1 or name in workflow.children(name, depth=1):
            comps.append(comp)
    return comps


def find_start_nodes(
    workflow: Workflow, trigger: str, graph: set[str], run_data: RunData, dirty: set[str]
) -> list[str]:
    starts: list[str] = []
    visited: set[str] = set()
    frontier = [trigger]
    while frontier:
        name = frontier.pop(0)
        if name in visited:
            continue
        visited.add(name)
        has_data = name in run_data or name in workflow.pin_data
        if name in dirty or not has_data:
            starts.append(name)
            continue
        for conns in workflow.outputs(name):
            frontier.extend(e.target for e in conns if e.target in graph)
    for comp in _cycles(workflow, graph):
        inside = [s for s in starts if s in comp]
        if inside:
            first = min(comp, key=lambda n: len(workflow.parents(n)))
            starts = [s for s in starts if s not in comp] + [first]
    return starts


def recreate_stack(workflow: Workflow, starts: list[str], run_data: RunData, trigger: str) -> list[ExecuteData]:
    stack: list[ExecuteData] = []
    for name in starts:
        inputs = workflow.inputs(name)
        if name == trigger or not inputs:
            stack.append({"node": workflow.node_json(name), "data": {"main": [[{"json": {}}]]}, "source": None})
            continue
        main: list[list[Item] | None] = []
        sources: list[Any] = []
        for edges in inputs:
            items, source = _parent_output(edges, run_data)
            main.append(items)
            sources.append(source)
        stack.append({"node": workflow.node_json(name), "data": {"main": main}, "source": {MAIN: sources}})
    return stack


def _parent_output(edges: Any, run_data: RunData) -> tuple[list[Item] | None, Any]:
    for edge in edges:
        runs = run_data.get(edge.source)
        if not runs:
            continue
        run_index = len(runs) - 1
        outputs = runs[run_index].get("data", {}).get(MAIN) or []
        if edge.source_index < len(outputs) and outputs[edge.source_index] is not None:
            source = {
                "previousNode": edge.source,
                "previousNodeOutput": edge.source_index,
                "previousNodeRun": run_index,
            }
            return list(outputs[edge.source_index] or []), source
    return None, None


async def run_partial(execution: Execution, *, run_data: RunData, dirty_nodes: list[str], destination: str) -> Run:
    """Run ``execution.workflow`` up to ``destination``, reusing ``run_data`` where it is still valid."""
    from weft.engine.state import next_execution_index_of

    workflow = execution.workflow
    if destination not in workflow.nodes:
        raise WorkflowOperationError(f"The destination node {destination!r} is not in the workflow.")
    if workflow.nodes[destination].disabled:
        raise WorkflowOperationError("Cannot execute a disabled node")
    trigger = find_trigger(execution, destination, run_data)
    graph = subgraph(workflow, trigger, destination)
    cleaned = clean_run_data(workflow, run_data, dirty_nodes)
    starts = find_start_nodes(workflow, trigger, graph, cleaned, set(dirty_nodes))
    data = execution.data
    data["resultData"]["runData"] = cleaned
    data["resultData"]["pinData"] = dict(workflow.pin_data)  # type: ignore[arg-type]
    data["executionData"]["nodeExecutionStack"] = recreate_stack(workflow, starts, cleaned, trigger)
    data["startData"] = {
        "destinationNode": {"nodeName": destination, "mode": "inclusive"},
        "runNodeFilter": sorted(graph),
    }
    original: Any = {"resultData": {"runData": run_data}}
    execution.reset_execution_index(next_execution_index_of(original))
    return await execution.start_prepared()
