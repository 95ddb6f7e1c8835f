"""Running one node once: disabled pass-through, pinned data, ``executeOnce``, the node's ``execute``."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from weft.engine.context import ExecuteContext
from weft.engine.entry_metadata import EntryMetadata
from weft.engine.runaway import check_item_cap
from weft.engine.state import to_item
from weft.errors import NodeOperationError
from weft.expressions.offload import cooperate, drive
from weft.nodes.contract import EngineRequest, EngineResponse, NodeType
from weft.workflow import ExecuteData, Item, NodeOutput

if TYPE_CHECKING:
    from weft.engine.loop import Execution


async def run_node(
    execution: Execution,
    entry: ExecuteData,
    node_type: NodeType,
    run_index: int,
    connection_input: list[Item],
    response: EngineResponse | None,
) -> NodeOutput | EngineRequest | None:
    node_json = entry["node"]
    if node_json.get("disabled"):
        main = entry["data"].get("main") or []
        if EntryMetadata.of(entry).forward_all_outputs:
            return [list(items or []) for items in main]
        return [list(main[0] or [])] if main else None
    pinned = _pinned(execution, node_json["name"])
    if pinned is not None:
        return [pinned]
    node = execution.workflow.nodes[node_json["name"]]
    if node.executeOnce:
        entry = {**entry, "data": {k: [i[:1] if i else i for i in v] for k, v in entry["data"].items()}}
        connection_input = connection_input[:1]
    ctx = ExecuteContext(
        execution,
        node,
        node_type,
        entry,
        run_index=run_index,
        connection_input=connection_input,
        engine_response=response,
    )
    timeout_ms = EntryMetadata.of(entry).timeout_ms
    # driven: an expression that runs long moves to a worker thread instead of holding the event loop
    run = _execute(node_type, ctx, execution.options.max_items)
    if timeout_ms:
        return await with_timeout(drive(run), timeout_ms, node.name)  # type: ignore[no-any-return]
    return await drive(run)


async def _execute(
    node_type: NodeType, ctx: ExecuteContext, max_items: int | None
) -> NodeOutput | EngineRequest | None:
    """The node's ``execute``, its output checked against ``WEFT_EXECUTION_ITEMS_MAX`` and made of items."""
    result = await node_type.execute(ctx)
    if isinstance(result, EngineRequest) or result is None:
        return result
    check_item_cap(max_items, ctx.node.name, result)
    return [_as_items(items) for items in result]


_SLICE = 4096


def _as_items(values: list[Any] | None) -> list[Item]:
    values = values if isinstance(values, list) else list(values or ())
    items: list[Item] = []
    for start in range(0, len(values), _SLICE):
        cooperate()  # 500,000 items take a while: other requests go on meanwhile
        items += [_as_item(value) for value in values[start : start + _SLICE]]
    return items


def _as_item(value: Any) -> Item:
    if type(value) is dict and type(value.get("json")) is dict:  # already an item: the common case, at once
        return value  # type: ignore[return-value]
    return to_item(value)


def _pinned(execution: Execution, name: str) -> list[Item] | None:
    pin_data = execution.data["resultData"].get("pinData") or {}
    node = execution.workflow.nodes.get(name)
    if name not in pin_data or node is None or node.disabled:
        return None
    # copies: later stages write pairedItem into items, and the pin data must stay as the workflow has it
    return [dict(to_item(item)) for item in pin_data[name]]  # type: ignore[misc]


async def with_timeout(call: Any, timeout_ms: float, node_name: str) -> Any:
    """A requested node with ``timeoutMs`` fails with a clear error instead of holding the execution."""
    try:
        return await asyncio.wait_for(call, timeout_ms / 1000)
    except TimeoutError:
        raise NodeOperationError(
            node_name,
            f"Error: timed out after {timeout_ms:g} ms",
            description="The tool did not answer in time; raise the tool call's timeout or make the tool faster.",
        ) from None
