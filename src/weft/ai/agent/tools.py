"""The agent's tools: collected from the ``ai_tool`` sub-nodes, offered to the model, mapped back to nodes."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from weft.ai.messages import ToolCall, ToolDefinition
from weft.errors import NodeOperationError
from weft.nodes.contract import ActionMetadata, ExecuteContext, ExecuteNodeAction, ToolSpec
from weft.nodes.tool_names import node_name_to_tool_name
from weft.workflow import AI_TOOL


def _flatten(supplied: Iterable[Any]) -> list[Any]:
    flat: list[Any] = []
    for value in supplied:
        if isinstance(value, list | tuple):
            flat.extend(_flatten(value))
        elif value is not None:
            flat.append(value)
    return flat


def _nodes_reversed(specs: list[Any]) -> list[Any]:
    """``specs`` with the runs supplied by one node kept together and in order, the nodes reversed."""
    groups: list[list[Any]] = []
    for spec in specs:
        node = getattr(spec, "source_node_name", None)
        if groups and node is not None and getattr(groups[-1][0], "source_node_name", None) == node:
            groups[-1].append(spec)
        else:
            groups.append([spec])
    return [spec for group in reversed(groups) for spec in group]


@dataclass(frozen=True, kw_only=True)
class AgentTools:
    """The tools by the name the model calls them."""

    by_name: dict[str, ToolSpec] = field(default_factory=dict)
    definitions: list[ToolDefinition] = field(default_factory=list)

    @property
    def names(self) -> list[str]:
        return list(self.by_name)

    def replay_name(self, name: str) -> str:
        """The name n8n gives a call when it replays it to the model (its ``resolveToolName``): a toolkit's tool
        keeps its name, any other the tool name of its node (recorded: case a033, a Code Tool 1.1 named by hand)."""
        spec = self.by_name.get(name)
        if spec is None or spec.from_toolkit:
            return name
        return node_name_to_tool_name(spec.source_node_name)

    def replay_args(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """The arguments n8n replays for a call: its action's input, so a toolkit's tool has ``tool: <name>``
        added (recorded: case a140)."""
        spec = self.by_name.get(name)
        return {**args, "tool": name} if spec is not None and spec.from_toolkit else args

    def with_tool(self, spec: ToolSpec) -> AgentTools:
        """These tools and ``spec`` after them (the output parser's ``format_final_json_response``)."""
        definition = ToolDefinition(name=spec.name, description=spec.description, parameters=spec.parameters)
        return AgentTools(by_name={**self.by_name, spec.name: spec}, definitions=[*self.definitions, definition])

    def answered(self, calls: list[ToolCall]) -> ToolCall | None:
        """The first call of a tool the agent answers itself, if the model made one."""
        return next((c for c in calls if (s := self.by_name.get(c.name)) is not None and s.kind == "answered"), None)

    def unknown_tool_message(self, name: str) -> str:
        """The observation for a call to a tool the agent does not have (n8n drops such calls silently)."""
        available = ", ".join(self.names) or "none"
        return f"Tool '{name}' does not exist. Available tools: {available}"

    def action_for(self, call: ToolCall, item_index: int, timeout_ms: float | None) -> ExecuteNodeAction:
        """Ask the engine to run the node behind ``call`` (toolkit tools also get ``tool: <name>``)."""
        spec = self.by_name[call.name]
        arguments = dict(call.args)
        if spec.from_toolkit:
            arguments["tool"] = call.name
        metadata = ActionMetadata(item_index=item_index, timeout_ms=spec.timeout_ms or timeout_ms)
        return ExecuteNodeAction(
            node_name=spec.source_node_name, input=arguments, id=call.id, type=AI_TOOL, metadata=metadata
        )


async def collect_tools(ctx: ExecuteContext) -> AgentTools:
    """The connected tools (toolkits flattened); two tools with one name are refused as n8n does.

    n8n offers them in reverse connection order: its ``getParentNodes`` puts each parent in front
    (``unshift``), so the last tool node connected comes first (recorded: cases a007, a015); a toolkit's
    tools keep their own order.
    """
    specs = _nodes_reversed(_flatten(await ctx.get_input_connection_data(AI_TOOL, 0)))
    by_name: dict[str, ToolSpec] = {}
    for spec in specs:
        if not isinstance(spec, ToolSpec):
            raise NodeOperationError(
                ctx.node.name,
                f"A node connected as a tool supplied {type(spec).__name__}, not a tool definition.",
                description="Connect only tool nodes to the agent's Tool input.",
            )
        if spec.name in by_name:
            raise NodeOperationError(
                ctx.node.name,
                f"You have multiple tools with the same name: '{spec.name}', please rename them to avoid conflicts",
            )
        by_name[spec.name] = spec
    definitions = [ToolDefinition(name=s.name, description=s.description, parameters=s.parameters) for s in specs]
    return AgentTools(by_name=by_name, definitions=definitions)


__all__ = ["AgentTools", "collect_tools"]
