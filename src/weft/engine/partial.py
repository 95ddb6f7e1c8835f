"""Partial execution: run up to a destination node, reusing the run data of nodes that need not run again.

The steps follow n8n's ``runPartialWorkflow2`` (``partial-execution-utils``):

1. find the trigger: the destination or a parent trigger (enabled); without one, the first parent with run data
   in ``getParentNodes`` order; a destination without parents starts on its own;
2. find the subgraph between trigger and destination, disabled nodes bridged (parents wired to children);
3. clean the run data of the dirty nodes and their children, then find the start nodes: walking from the
   trigger along outputs that have data, the first dirty node of each branch, the destination, or a loop
   (Split in Batches) whose ``done`` output is empty on its last run;
4. replace a start node inside a cycle by the cycle's first node, found depth-first from the trigger;
5. clean the run data again (start nodes and their children; nodes outside the subgraph);
6. recreate the stack from the first run of each parent that has data (pinned data first); a start node
   missing an input waits for it in ``waitingExecution``;
7. run, the execution index continuing after the highest index of the run data given (n8n restarts after
   the highest index left after cleaning; Weft never repeats an index).
"""

from __future__ import annotations

import copy
from typing import TYPE_CHECKING, Any

from weft.engine.partial_graph import DirectedGraph, filter_disabled_nodes, find_subgraph, handle_cycles
from weft.engine.scheduling import n8n_parent_nodes
from weft.engine.state import next_execution_index_of, to_item
from weft.errors import WorkflowOperationError
from weft.workflow import MAIN, Edge, ExecuteData, Item, RunData, SourceData, Workflow

if TYPE_CHECKING:
    from weft.engine.loop import Execution
    from weft.workflow import Run

SPLIT_IN_BATCHES = "n8n-nodes-base.splitInBatches"
NO_TRIGGER = "Connect a trigger and make sure it's enabled to run this node"

Waiting = dict[str, dict[int, dict[str, list[Any]]]]


# ---------------------------------------------------------------------- 1. the trigger


def _is_trigger(execution: Execution, name: str) -> bool:
    node = execution.workflow.nodes[name]
    cls = execution.registry.type_class(node.type)
    return cls is not None and cls.description.is_trigger


def _webhooks_first(names: list[str], workflow: Workflow) -> list[str]:
    return sorted(names, key=lambda name: not workflow.nodes[name].type.endswith("webhook"))


def find_trigger(execution: Execution, destination: str, run_data: RunData) -> str | None:
    """n8n ``findTriggerForPartialExecution``: prefer triggers with run data, then pinned (webhooks first)."""
    workflow = execution.workflow
    if _is_trigger(execution, destination) and not workflow.nodes[destination].disabled:
        return destination
    parents = n8n_parent_nodes(workflow, destination)
    triggers = [n for n in parents if _is_trigger(execution, n) and not workflow.nodes[n].disabled]
    for name in triggers:
        if name in run_data:
            return name
    pinned = _webhooks_first([n for n in triggers if workflow.pin_data.get(n)], workflow)
    if pinned:
        return pinned[0]
    webhooks = [n for n in triggers if workflow.nodes[n].type.endswith("webhook")]
    first: list[str | None] = [*webhooks, *triggers, None]
    return first[0]


def find_start(execution: Execution, destination: str, run_data: RunData) -> str:
    """The trigger, else the first enabled parent with run data, else a destination without parents."""
    trigger = find_trigger(execution, destination, run_data)
    if trigger is not None:
        return trigger
    workflow = execution.workflow
    parents = n8n_parent_nodes(workflow, destination)
    for name in parents:
        if not workflow.nodes[name].disabled and name in run_data:
            return name
    if not parents:
        return destination
    raise WorkflowOperationError(NO_TRIGGER)


# ---------------------------------------------------------------------- 3. start nodes


def _incoming(run_data: RunData, name: str, run_index: int, ctype: str, output: int) -> list[Item] | None:
    """n8n ``getIncomingData``: output ``output`` of run ``run_index`` (negative counts from the end)."""
    runs = run_data.get(name) or []
    if not -len(runs) <= run_index < len(runs):
        return None
    outputs = (runs[run_index].get("data") or {}).get(ctype) or []
    return outputs[output] if -len(outputs) <= output < len(outputs) else None


def _incoming_any_run(run_data: RunData, name: str, ctype: str, output: int) -> tuple[list[Item], int] | None:
    """n8n ``getIncomingDataFromAnyRun``: the first run whose output ``output`` has items, and its index."""
    for run_index in range(len(run_data.get(name) or [])):
        data = _incoming(run_data, name, run_index, ctype, output)
        if data:
            return data, run_index
    return None


def is_dirty(name: str, run_data: RunData, pin_data: dict[str, Any]) -> bool:
    """n8n ``isDirty``: a node with an error, or without run data and pinned data, must run again."""
    if any(task.get("error") is not None for task in run_data.get(name) or []):
        return True
    return name not in pin_data and not run_data.get(name)


def _loop_not_done(graph: DirectedGraph, workflow: Workflow, name: str, run_data: RunData) -> bool:
    """A Split in Batches whose last run has no ``done`` data (output 1 when it is not in a loop) restarts."""
    if workflow.nodes[name].type != SPLIT_IN_BATCHES:
        return False
    output = 0 if name in graph.children(name) else 1
    return not _incoming(run_data, name, -1, MAIN, output)


def find_start_nodes(
    graph: DirectedGraph, workflow: Workflow, trigger: str, destination: str, run_data: RunData
) -> dict[str, None]:
    """n8n ``findStartNodes``: walking from the trigger, the first node of each branch that must run."""
    starts: dict[str, None] = {}
    _find_starts(graph, workflow, trigger, destination, run_data, starts, frozenset())
    return starts


def _find_starts(
    graph: DirectedGraph,
    workflow: Workflow,
    current: str,
    destination: str,
    run_data: RunData,
    starts: dict[str, None],
    seen: frozenset[str],
) -> None:
    pin_data = workflow.pin_data
    if is_dirty(current, run_data, pin_data) or current == destination:
        starts.setdefault(current)
        return
    if _loop_not_done(graph, workflow, current, run_data):
        starts.setdefault(current)
        return
    if current in seen:
        return
    for edge in graph.child_edges(current):
        has_run_data = _incoming_any_run(run_data, edge.source, edge.type, edge.source_index) is not None
        if has_run_data or edge.source in pin_data:
            _find_starts(graph, workflow, edge.target, destination, run_data, starts, seen | {current})


# ---------------------------------------------------------------------- 5. cleaning run data


def clean_run_data(run_data: RunData, graph: DirectedGraph, start_nodes: dict[str, None]) -> RunData:
    """n8n ``cleanRunData``: drop start nodes, their children and nodes outside ``graph`` (a new dict)."""
    gone: set[str] = set()
    for name in start_nodes:
        gone |= {name, *graph.children(name)}
    return {name: runs for name, runs in run_data.items() if name not in gone and graph.has(name)}


# ---------------------------------------------------------------------- 6. the stack


def source_data_groups(
    graph: DirectedGraph, name: str, run_data: RunData, pin_data: dict[str, Any]
) -> list[tuple[bool, list[Edge]]]:
    """n8n ``getSourceDataGroups``: ``(complete, connections)`` groups of one main connection per input,
    connections with data first (each list sorted by input index, then parent name)."""
    edges = [e for e in graph.parent_edges(name) if e.type == MAIN]
    with_data = sorted((e for e in edges if e.source in run_data or e.source in pin_data), key=_by_input)
    without = sorted((e for e in edges if e not in with_data), key=_by_input)
    groups: list[tuple[bool, list[Edge]]] = []
    while with_data or without:
        groups.append(_next_group(with_data, without))
    return groups


def _by_input(edge: Edge) -> tuple[int, str]:
    return edge.target_index, edge.source


def _next_group(with_data: list[Edge], without: list[Edge]) -> tuple[bool, list[Edge]]:
    """Take one connection per consecutive input index, from the lowest one left (mutates both lists)."""
    complete, group = True, list[Edge]()
    index = min(e.target_index for e in [*with_data, *without])
    while True:
        pick = next((e for e in with_data if e.target_index == index), None)
        if pick is not None:
            with_data.remove(pick)
        else:
            pick = next((e for e in without if e.target_index == index), None)
            if pick is None:
                return complete, group
            without.remove(pick)
            complete = False
        group.append(pick)
        index += 1


def _source(edge: Edge, run_index: int) -> SourceData:
    return {"previousNode": edge.source, "previousNodeOutput": edge.source_index, "previousNodeRun": run_index}


def _complete_entry(
    workflow: Workflow, name: str, group: list[Edge], run_data: RunData, pin_data: dict[str, Any]
) -> ExecuteData:
    main: list[list[Item] | None] = []
    sources: list[SourceData | None] = []
    for edge in group:
        run_index = 0
        if pin_data.get(edge.source):
            main.append([to_item(i) for i in pin_data[edge.source]])
        else:
            found = _incoming_any_run(run_data, edge.source, edge.type, edge.source_index)
            if found is not None:
                main.append(found[0])
                run_index = found[1]
        sources.append(_source(edge, run_index))
    return {"node": workflow.node_json(name), "data": {"main": main}, "source": {MAIN: sources}}


def _add_waiting(
    workflow: Workflow, waiting: Waiting, sources: Waiting, name: str, group: list[Edge], run_data: RunData
) -> None:
    """An incomplete group: the inputs that have data wait in ``waitingExecution`` for the others.

    As n8n, ``previousNodeRun`` is the waiting slot's index, not the parent's run index.
    """
    slot = len(waiting.get(name, {}))
    for edge in group:
        found = _incoming_any_run(run_data, edge.source, edge.type, edge.source_index)
        if found is None:
            continue
        size = max(workflow.input_count(name), edge.target_index + 1)
        data_slot = waiting.setdefault(name, {}).setdefault(slot, {MAIN: [None] * size})
        source_slot = sources.setdefault(name, {}).setdefault(slot, {MAIN: [None] * size})
        data_slot[MAIN][edge.target_index] = found[0]
        source_slot[MAIN][edge.target_index] = _source(edge, slot)


def recreate_stack(
    graph: DirectedGraph, workflow: Workflow, start_nodes: dict[str, None], run_data: RunData
) -> tuple[list[ExecuteData], Waiting, Waiting]:
    """n8n ``recreateNodeExecutionStack``: the stack, ``waitingExecution`` and ``waitingExecutionSource``."""
    pin_data: dict[str, Any] = workflow.pin_data
    stack: list[ExecuteData] = []
    waiting: Waiting = {}
    waiting_source: Waiting = {}
    for name in start_nodes:
        if not any(e.type == MAIN for e in graph.parent_edges(name)):
            stack.append({"node": workflow.node_json(name), "data": {MAIN: [[{"json": {}}]]}, "source": None})
            continue
        for complete, group in source_data_groups(graph, name, run_data, pin_data):
            if complete:
                stack.append(_complete_entry(workflow, name, group, run_data, pin_data))
            else:
                _add_waiting(workflow, waiting, waiting_source, name, group, run_data)
    return stack, waiting, waiting_source


# ---------------------------------------------------------------------- entry point


async def run_partial(execution: Execution, *, run_data: RunData, dirty_nodes: list[str], destination: str) -> Run:
    """Run ``execution.workflow`` up to ``destination``, reusing ``run_data`` where it is still valid."""
    workflow = execution.workflow
    if destination not in workflow.nodes:
        raise WorkflowOperationError(f"The destination node {destination!r} is not in the workflow.")
    # 1. the trigger (or the node standing in for it)
    trigger = find_start(execution, destination, run_data)
    # 2. the subgraph, disabled nodes bridged
    if workflow.nodes[destination].disabled:
        raise WorkflowOperationError("Cannot execute a disabled node")
    graph = find_subgraph(filter_disabled_nodes(DirectedGraph.from_workflow(workflow), workflow), trigger, destination)
    # 3. the start nodes, after the dirty nodes' run data is gone
    dirty = {name: None for name in dirty_nodes if graph.has(name)}
    cleaned = clean_run_data(copy.deepcopy(run_data), graph, dirty)
    starts = find_start_nodes(graph, workflow, trigger, destination, cleaned)
    # 4. a start node inside a cycle: the cycle runs whole
    starts = handle_cycles(graph, starts, trigger)
    # 5. what runs again has no run data
    cleaned = clean_run_data(cleaned, graph, starts)
    # 6. the stack and the waiting inputs
    stack, waiting, waiting_source = recreate_stack(graph, workflow, starts, cleaned)
    # 7. run
    _prepare(execution, graph, destination, cleaned, stack, waiting, waiting_source)
    original: Any = {"resultData": {"runData": run_data}}
    execution.reset_execution_index(next_execution_index_of(original))
    return await execution.start_prepared()


def _prepare(
    execution: Execution,
    graph: DirectedGraph,
    destination: str,
    run_data: RunData,
    stack: list[ExecuteData],
    waiting: Waiting,
    waiting_source: Waiting,
) -> None:
    data = execution.data
    data["startData"] = {
        "destinationNode": {"nodeName": destination, "mode": "inclusive"},
        "runNodeFilter": list(graph.nodes),
    }
    data["resultData"]["runData"] = run_data
    data["resultData"]["pinData"] = dict(execution.workflow.pin_data)  # type: ignore[arg-type]
    stack_data: Any = data["executionData"]
    stack_data["nodeExecutionStack"] = stack
    stack_data["waitingExecution"] = waiting
    stack_data["waitingExecutionSource"] = waiting_source
