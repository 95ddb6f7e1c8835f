"""Sub-nodes (models, memory, tools, parsers) supplying data to the node they are connected to."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from weft.engine.context import SupplyContext, _BaseContext
from weft.errors import NodeOperationError
from weft.nodes.node_tool import ToolSchemaError

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
        ctx = SupplyContext(execution, sub, node_type, parent)
        try:
            value = await node_type.supply_data(ctx, item_index)
        except (SubNodeError, ToolSchemaError):  # a tool's bad $fromAI() fails the parent itself (n8n)
            raise
        except Exception as error:
            raise _failed(ctx, connection_type, error, item_index) from error
        if isinstance(value, list):
            supplied.extend(value)
        else:
            supplied.append(value)
    await execution.flush_hooks()
    return supplied


class SubNodeError(NodeOperationError):
    """A sub-node could not supply its data (n8n: ``Error in sub-node <name>``, the cause as description)."""


def _failed(ctx: SupplyContext, connection_type: str, error: Exception, item_index: int) -> SubNodeError:
    """As n8n's ``getInputConnectionData``: the error becomes a run of the sub-node, and the parent fails with
    ``Error in sub-node <name>`` (recorded: cases a051, a055)."""
    run = ctx.add_input_data(connection_type, [])
    ctx.add_output_data(connection_type, run, error)
    message = getattr(error, "message", None) or str(error) or type(error).__name__
    return SubNodeError(ctx.node.name, f"Error in sub-node {ctx.node.name}", description=message, item_index=item_index)
