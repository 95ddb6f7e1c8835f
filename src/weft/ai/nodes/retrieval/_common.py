"""What the retrieval nodes share: reading their options and the sub-node they need."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import NodeContext


def options_of(ctx: NodeContext, item_index: int) -> dict[str, Any]:
    options = ctx.get_node_parameter("options", item_index, {})
    return dict(options) if isinstance(options, Mapping) else {}


async def one_sub_node(ctx: NodeContext, connection_type: str, what: str, item_index: int = 0) -> Any:
    """The data of the (first) sub-node connected on ``connection_type``, or an error saying to connect one."""
    supplied = await ctx.get_input_connection_data(connection_type, item_index)
    if not supplied:
        raise NodeOperationError(
            ctx.node.name,
            f"No {what} connected",
            description=f"Connect {what} node to the '{connection_type}' input of '{ctx.node.name}'.",
        )
    return supplied[0]


def whole_number(ctx: NodeContext, name: str, item_index: int, default: int) -> int:
    """A number parameter as an integer (n8n passes numbers through; fractions are cut as JavaScript would)."""
    value = ctx.get_node_parameter(name, item_index, default)
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise NodeOperationError(
            ctx.node.name, f"The parameter '{name}' must be a number", description=f"It is {value!r}; give a number."
        )
    return int(value)


__all__ = ["one_sub_node", "options_of", "whole_number"]
