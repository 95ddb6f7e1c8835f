"""Paired-item resolution: which item of an earlier node an input item derives from.

A port of n8n's ``getPairedItem`` (``WorkflowDataProxy``): start at the input item's ``pairedItem``, follow
each hop's ``pairedItem`` and ``source`` back through the run data until the referenced node is reached.
Several paths are fine as long as they all end at the same item.
"""

from __future__ import annotations

from typing import Any

from weft.expressions.context import ExpressionContext
from weft.expressions.rundata import DataError, pinned_items, run_data
from weft.workflow import MAIN, Item, PairedItem, SourceData, TaskData, paired_items_of

_MAX_DEPTH = 1000


def resolve_paired_item(ctx: ExpressionContext, node_name: str, item_index: int, method: str) -> Item:
    """The item of ``node_name`` that input item ``item_index`` of the active node derives from."""
    items = ctx.connection_input
    if not items:
        pinned = pinned_items(ctx, node_name)
        if pinned is not None and 0 <= item_index < len(pinned):
            return pinned[item_index]
    if not 0 <= item_index < len(items):
        raise DataError(
            "Can’t get data for expression",
            f"Some intermediate nodes between ‘{node_name}‘ and ‘{ctx.node_name}‘ have not executed yet.",
        )
    paired = paired_items_of(items[item_index])
    if not paired:
        raise missing_paired_item(ctx.node_name, method)
    sources = (ctx.input_source or {}).get(MAIN)
    if not sources:
        raise DataError(
            "Can’t get data for expression",
            "Apologies, this is an internal error: the input of the node has no source data.",
        )
    first = paired[0]
    source = sources[first.get("input", 0)] if first.get("input", 0) < len(sources) else sources[0]
    return _walk(ctx, node_name, source, first, method, None, 0)


def missing_paired_item(node_name: str, method: str) -> DataError:
    return DataError(
        f"Paired item data for {method} from node '{node_name}' is unavailable. "
        f"Ensure '{node_name}' is providing the required output.",
        f"Missing pairedItem data (node '{node_name}' probably didn't supply it)",
    )


def _task(ctx: ExpressionContext, source: SourceData) -> TaskData | None:
    runs = (run_data(ctx) or {}).get(source["previousNode"]) or []
    run = source.get("previousNodeRun") or 0
    if run < len(runs):
        return runs[run]
    pinned = pinned_items(ctx, source["previousNode"])
    if pinned is None:
        return None
    return {"startTime": 0, "executionIndex": 0, "executionTime": 0, "source": [], "data": {MAIN: [pinned]}}


def _output(task: TaskData | None, source: SourceData) -> list[Item]:
    index = source.get("previousNodeOutput") or 0
    task_data: dict[str, Any] = dict(task or {})
    data: dict[str, Any] = dict(task_data.get("data") or {})
    outputs = data.get(MAIN) or []
    if index >= len(outputs) or outputs[index] is None:
        raise DataError("Can’t get data for expression", f"Expected output #{index} from node {source['previousNode']}")
    return outputs[index] or []


def _walk(
    ctx: ExpressionContext,
    destination: str,
    source: SourceData | None,
    paired: PairedItem,
    method: str,
    node_before: str | None,
    depth: int,
) -> Item:
    source = paired.get("sourceOverwrite") or source  # type: ignore[assignment]
    if source is None or depth > _MAX_DEPTH:
        raise DataError("Paired item resolution failed", f"Could not trace back to node '{destination}'")
    task = _task(ctx, source)
    output = _output(task, source)
    index = paired["item"]
    if source["previousNode"] == destination:
        if index >= len(output):  # n8n's wording when the pairing points past the destination's items (c066)
            raise DataError(
                missing_paired_item(destination, method).message,
                f"Node '{destination}' has no item {index}: the paired item data of a node after it is wrong.",
            )
        return output[index]
    if index >= len(output):
        raise DataError("Can’t get data for expression", f"Node '{source['previousNode']}' has no item {index}")
    next_paired = paired_items_of(output[index])
    if not next_paired:
        raise missing_paired_item(source["previousNode"], method)
    return _follow(ctx, destination, task, source, next_paired, method, index, depth)


def _follow(
    ctx: ExpressionContext,
    destination: str,
    task: TaskData | None,
    source: SourceData,
    next_paired: list[PairedItem],
    method: str,
    index: int,
    depth: int,
) -> Item:
    task_data: dict[str, Any] = dict(task or {})
    sources: list[Any] = list(task_data.get("source") or [])
    results: list[Item] = []
    errors: list[DataError] = []
    for hop in next_paired:
        input_index = hop.get("input", 0)
        if input_index >= len(sources):
            continue
        next_source = hop.get("sourceOverwrite") or sources[input_index]
        try:
            results.append(_walk(ctx, destination, next_source, hop, method, source["previousNode"], depth + 1))
        except DataError as exc:
            errors.append(exc)
    if not results:
        if errors:
            raise errors[0]
        if not sources:
            raise DataError("Invalid expression", f"No path back to referenced node '{destination}'")
        raise DataError(
            "Branch not found",
            f"Item {index} in node {source['previousNode']} references a branch that doesn't exist.",
        )
    first = results[0]
    if any(r is not first for r in results[1:]):
        raise DataError("Multiple matches found", f"Multiple matching items for item [{index}]")
    return first
