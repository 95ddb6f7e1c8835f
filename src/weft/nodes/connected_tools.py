"""The tools connected to a node's ``ai_tool`` input, as n8n collects them: each a :class:`ToolSpec`, a toolkit's
tools flattened in its own order, the nodes in reverse connection order (n8n's ``getParentNodes`` puts each
parent in front, so the last tool node connected comes first; recorded: cases a007, a015). The agent, the MCP
Server Trigger and a sub-agent run inline all read them here."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import NodeContext, ToolSpec
from weft.workflow import AI_TOOL


async def connected_tools(ctx: NodeContext, input_label: str) -> list[ToolSpec]:
    """The tools of ``ctx``'s node; anything else supplied there is an error naming ``input_label``."""
    groups: list[list[ToolSpec]] = []
    for spec in flatten_supplied(await ctx.get_input_connection_data(AI_TOOL, 0)):
        if not isinstance(spec, ToolSpec):
            raise NodeOperationError(
                ctx.node.name,
                f"A node connected as a tool supplied {type(spec).__name__}, not a tool definition.",
                description=f"Connect only tool nodes to {input_label}.",
            )
        if groups and groups[-1][0].source_node_name == spec.source_node_name:
            groups[-1].append(spec)
        else:
            groups.append([spec])
    return [spec for group in reversed(groups) for spec in group]


def flatten_supplied(supplied: Iterable[Any]) -> list[Any]:
    """What sub-nodes supplied, a toolkit's list of tools flattened into it, nothing left out but ``None``."""
    flat: list[Any] = []
    for value in supplied:
        if isinstance(value, list | tuple):
            flat.extend(flatten_supplied(value))
        elif value is not None:
            flat.append(value)
    return flat


__all__ = ["connected_tools", "flatten_supplied"]
