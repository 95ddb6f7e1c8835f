"""The agent's tools: collected from the ``ai_tool`` sub-nodes, offered to the model, mapped back to nodes."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from weft.ai.hitl.core import hitl_action_input, hitl_metadata
from weft.ai.messages import ToolCall, ToolDefinition
from weft.errors import NodeOperationError
from weft.nodes.connected_tools import connected_tools
from weft.nodes.contract import ActionMetadata, ExecuteContext, ExecuteNodeAction, ToolSpec
from weft.nodes.tool_names import node_name_to_tool_name
from weft.workflow import AI_TOOL


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
        if spec is None or spec.from_toolkit or spec.kind == "gated":
            return name
        return node_name_to_tool_name(spec.source_node_name)

    def replay_args(self, name: str, args: dict[str, Any]) -> dict[str, Any]:
        """The arguments n8n replays for a call: its action's input, so a toolkit's tool has ``tool: <name>``
        added (recorded: case a140)."""
        spec = self.by_name.get(name)
        if spec is not None and spec.kind == "gated":
            return hitl_action_input(name, args)
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
        if spec.kind == "gated":  # the human's gate runs first (n8n's ``hitl`` action metadata)
            arguments = hitl_action_input(call.name, call.args)
            metadata = ActionMetadata(item_index=item_index, extra=hitl_metadata(spec, call.name, call.args))
        return ExecuteNodeAction(
            node_name=spec.source_node_name, input=arguments, id=call.id, type=AI_TOOL, metadata=metadata
        )


async def collect_tools(ctx: ExecuteContext) -> AgentTools:
    """The connected tools (toolkits flattened, last connected first); two tools with one name are refused as n8n
    does."""
    specs = await connected_tools(ctx, "the agent's Tool input")
    by_name: dict[str, ToolSpec] = {}
    for spec in specs:
        if spec.name in by_name:
            raise NodeOperationError(
                ctx.node.name,
                f"You have multiple tools with the same name: '{spec.name}', please rename them to avoid conflicts",
            )
        by_name[spec.name] = spec
    definitions = [ToolDefinition(name=s.name, description=s.description, parameters=s.parameters) for s in specs]
    return AgentTools(by_name=by_name, definitions=definitions)


__all__ = ["AgentTools", "collect_tools"]
