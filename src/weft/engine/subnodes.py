"""Sub-nodes (models, memory, tools, parsers) supplying data to the node they are connected to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from weft.engine.context import SupplyContext, _BaseContext

if TYPE_CHECKING:
    from weft.engine.loop import Execution


async def supply_sub_node_data(
    execution: Execution, parent: _BaseContext, connection_type: str, item_index: int
) -> list[Any]:
    """Ask every enabled sub-node connected to ``parent`` on ``connection_type`` for its data, in input order.

    A sub-node that supplies a list (a toolkit) contributes its elements.
    """
    supplied: list[Any] = []
    for sub_name in execution.workflow.sub_nodes(parent.node.name, connection_type):
        sub = execution.workflow.nodes[sub_name]
        if sub.disabled:
            continue
        node_type = execution.registry.get(sub.type, sub.typeVersion)
        value = await node_type.supply_data(SupplyContext(execution, sub, node_type, parent), item_index)
        if isinstance(value, list):
            supplied.extend(value)
        else:
            supplied.append(value)
    await execution.flush_hooks()
    return supplied
