"""Pure scheduling: which nodes go on the execution stack after a node finished (n8n's ``addNodeToBeExecuted``).

Nothing here does I/O or touches asyncio: every function reads and mutates the plain-JSON execution state it is
given. Order ``v1`` puts children at the front of the stack (depth-first), ``v0`` at the back (breadth-first).
Multi-input nodes collect their inputs in ``waitingExecution`` until every input has data, or until the stack
runs dry (:func:`release_waiting_node`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from weft.workflow import Edge, ExecuteData, Item, RunData, SourceData, Workflow
from weft.workflow.items import ExecutionStackData

#: Returns the inputs a node requires (n8n ``requiredInputs``): a count, input indexes, or ``None``.
RequiredInputs = Callable[[str], int | tuple[int, ...] | list[int] | None]


def _enqueue(stack_data: ExecutionStackData, entry: ExecuteData, order: str) -> None:
    if order == "v1":
        stack_data["nodeExecutionStack"].insert(0, entry)
    else:
        stack_data["nodeExecutionStack"].append(entry)


def _source(parent: str, output_index: int, run_index: int) -> SourceData:
    return {"previousNode": parent, "previousNodeOutput": output_index, "previousNodeRun": run_index}


def children_to_schedule(workflow: Workflow, node_name: str, output: list[list[Item] | None]) -> list[Edge]:
    """The main edges out of ``node_name`` whose output has items, in the order they are enqueued.

    Under ``v1`` the result is sorted so that, after each child is put at the front of the stack, the
    top-most then left-most child ends up first (n8n sorts by larger y first, then larger x).
    """
    edges: list[Edge] = []
    legacy = workflow.settings.executionOrder != "v1"
    for out_index, conns in enumerate(workflow.outputs(node_name)):
        data = output[out_index] if out_index < len(output) else None
        if data is None:
            continue
        for edge in conns:
            if data or (legacy and edge.target_index > 0):
                edges.append(edge)
    if not legacy:
        # stable sort on (-y, -x) reproduces n8n's comparator (ties keep connection order)
        def key(edge: Edge) -> tuple[float, float]:
            pos = workflow.nodes[edge.target].position
            return (-pos[1] if len(pos) > 1 else 0, -pos[0] if pos else 0)

        edges.sort(key=key)
    return edges


def _prepare_waiting(stack_data: ExecutionStackData, node: str, inputs: int, index: int) -> None:
    stack_data["waitingExecution"].setdefault(node, {})[index] = {"main": [None] * inputs}
    stack_data["waitingExecutionSource"].setdefault(node, {})[index] = {"main": [None] * inputs}


def add_node_to_be_executed(
    workflow: Workflow,
    stack_data: ExecutionStackData,
    run_data: RunData,
    *,
    target: str,
    target_index: int,
    output_index: int,
    parent: str,
    parent_output: list[list[Item] | None] | None,
    run_index: int,
    new_run_index: int | None = None,
    metadata: dict[str, Any] | None = None,
    source_override: dict[str, list[SourceData | None]] | None = None,
) -> None:
    """Schedule ``target`` (input ``target_index``) with output ``output_index`` of ``parent``."""
    order = workflow.settings.executionOrder
    data = parent_output[output_index] if parent_output is not None and output_index < len(parent_output) else None
    n_inputs = workflow.input_count(target)
    if n_inputs > 1:
        _add_to_waiting(workflow, stack_data, run_data, target, target_index, output_index, parent, data, run_index)
        return
    main: list[list[Item] | None] = [None] * (target_index + 1)
    main[target_index] = data
    entry: ExecuteData = {
        "node": workflow.node_json(target),
        "data": {"main": main},
        "source": source_override or {"main": [_source(parent, output_index, run_index)]},
    }
    if new_run_index is not None:
        entry["runIndex"] = new_run_index
    if metadata is not None:
        entry["metadata"] = metadata
    _enqueue(stack_data, entry, order)


def _add_to_waiting(
    workflow: Workflow,
    stack_data: ExecutionStackData,
    run_data: RunData,
    target: str,
    target_index: int,
    output_index: int,
    parent: str,
    data: list[Item] | None,
    run_index: int,
) -> None:
    waiting = stack_data["waitingExecution"]
    waiting_source = stack_data["waitingExecutionSource"]
    n_inputs = workflow.input_count(target)
    node_was_waiting = target in waiting
    waiting.setdefault(target, {})
    waiting_source.setdefault(target, {})
    # 1. join an existing entry that still misses this input, else open a new one
    index: int | None = None
    for key, entry in waiting[target].items():
        # n8n tests `!main[index]`: only a missing input (null) is free; `[]` is data (an empty JS array is truthy)
        if entry["main"][target_index] is None:
            index = key
            break
    if index is None:
        index = len(waiting[target])
        _prepare_waiting(stack_data, target, n_inputs, index)
    waiting[target][index]["main"][target_index] = data
    waiting_source[target][index]["main"][target_index] = (
        None if data is None else _source(parent, output_index, run_index)
    )
    # 2. all inputs present: move it to the stack
    if all(d is not None for d in waiting[target][index]["main"]):
        entry_data = waiting[target].pop(index)
        entry_source = waiting_source[target].pop(index)
        if not waiting[target]:
            del waiting[target]
            del waiting_source[target]
        _enqueue(
            stack_data,
            {"node": workflow.node_json(target), "data": entry_data, "source": entry_source},
            workflow.settings.executionOrder,
        )
        return
    if not node_was_waiting and workflow.settings.executionOrder != "v1":
        _force_legacy_parents(workflow, stack_data, run_data, target, parent, data, output_index, run_index)


def _force_legacy_parents(
    workflow: Workflow,
    stack_data: ExecutionStackData,
    run_data: RunData,
    target: str,
    parent: str,
    data: list[Item] | None,
    output_index: int,
    run_index: int,
) -> None:
    """``v0`` only: enqueue parents of ``target`` that have not run and would otherwise never run."""
    siblings = {e.target for conns in workflow.outputs(parent) for e in conns}
    for conns in workflow.inputs(target):
        for edge in conns:
            other = edge.source
            # n8n re-reads the stack for every input: a node forced onto it just now counts
            stack_names = {entry["node"]["name"] for entry in stack_data["nodeExecutionStack"]}
            if other == parent or other in stack_names or other in run_data:
                continue
            if other in siblings and not _incoming_empty(workflow, run_data, other, run_index):
                continue
            # n8n walks from the input node itself up its ancestors (`getParentNodes(..).push(node).reverse()`)
            chain = [other, *reversed(n8n_parent_nodes(workflow, other))]
            node_to_add: str | None = other
            for candidate in chain:
                if (candidate != other and candidate in siblings) or candidate in stack_names:
                    node_to_add = None
                    break
                if candidate in run_data:
                    break
                node_to_add = candidate
            if node_to_add is None or (parent in workflow.parents(node_to_add) and not data):
                continue
            if not workflow.inputs(node_to_add) or _incoming_empty(workflow, run_data, node_to_add, run_index):
                stack_data["nodeExecutionStack"].append(
                    {
                        "node": workflow.node_json(node_to_add),
                        "data": {"main": [[{"json": {}}]]},
                        "source": {"main": [_source(parent, output_index, run_index)]},
                    }
                )


def n8n_parent_nodes(workflow: Workflow, name: str, checked: tuple[str, ...] = ()) -> list[str]:
    """All main ancestors of ``name`` in n8n's ``getParentNodes`` order (``getConnectedNodes``: each parent is
    put in front, then its own ancestors in front of it, so the list runs from the roots down to ``name``)."""
    if name in checked:
        return []
    checked = (*checked, name)
    result: list[str] = []
    for conns in workflow.inputs(name):
        for edge in conns:
            if edge.source in checked:
                continue
            result.insert(0, edge.source)
            for ancestor in reversed(n8n_parent_nodes(workflow, edge.source, checked)):
                if ancestor in result:
                    result.remove(ancestor)
                result.insert(0, ancestor)
    return result


def _incoming_empty(workflow: Workflow, run_data: RunData, node: str, run_index: int) -> bool:
    inputs = workflow.inputs(node)
    for edge in inputs[0] if inputs else []:
        runs = run_data.get(edge.source, [])
        if run_index < len(runs):
            main = runs[run_index].get("data", {}).get("main") or []
            if edge.source_index < len(main) and main[edge.source_index]:
                return False
    return True


def release_waiting_node(
    workflow: Workflow,
    stack_data: ExecutionStackData,
    required_inputs: RequiredInputs,
    input_count: Callable[[str], int],
) -> None:
    """The stack is empty: start the first waiting node whose parents are not waiting themselves.

    Missing inputs become ``[]``. A node whose inputs are all empty is dropped and the search starts again
    (n8n: "Merge with one input never arriving" still runs when the other input has data).
    """
    waiting = stack_data["waitingExecution"]
    waiting_source = stack_data["waitingExecutionSource"]
    restart = True
    while restart and waiting:
        restart = False
        names = list(waiting)
        for name in names:
            required = required_inputs(name) if workflow.settings.executionOrder == "v1" else None
            n_declared = input_count(name)
            if required is not None and _all_required(required, n_declared):
                continue
            if any(parent in names for parent in workflow.parents(name)):
                continue
            first = min(waiting[name])
            main = waiting[name][first]["main"]
            with_data = [i for i, d in enumerate(main) if d is not None]
            if required is not None and not _required_present(required, with_data):
                continue
            task_main: list[list[Item] | None] = [[] if d is None else d for d in main]
            has_items = any(task_main)
            if has_items:
                while len(task_main) < n_declared:
                    task_main.append([])
                stack_data["nodeExecutionStack"].append(
                    {
                        "node": workflow.node_json(name),
                        "data": {"main": task_main},
                        "source": waiting_source[name][first],
                    }
                )
            del waiting[name][first]
            del waiting_source[name][first]
            if not waiting[name]:
                del waiting[name]
                del waiting_source[name]
            if has_items:
                return
            restart = True
            break


def _all_required(required: int | tuple[int, ...] | list[int], n_declared: int) -> bool:
    if isinstance(required, int):
        return required == n_declared
    return len(required) == n_declared


def _required_present(required: int | tuple[int, ...] | list[int], with_data: list[int]) -> bool:
    if isinstance(required, int):
        return len(with_data) >= required
    return all(r in with_data for r in required)
