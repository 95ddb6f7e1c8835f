"""Node-as-tool: synthesize ``<type>Tool`` from a ``usableAsTool`` node type (n8n's ``convertNodeToAiTool``).

The new type inherits everything from the base type (its ``execute`` runs when the agent calls the tool) and
changes only its description: no inputs, one ``ai_tool`` output, a ``toolDescription`` parameter (and
``descriptionType`` auto/manual where the node has a resource or an operation: n8n's properties, derived in
:mod:`weft.nodes.node_properties`), and the versions n8n marks
``usableAsTool`` (a base type lists them in ``tool_versions`` when not all its versions are). Its
``supply_data`` gives the agent the tool (:mod:`weft.nodes.node_tool`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType, SupplyDataContext, ToolSpec
from weft.nodes.node_properties import ai_tool_properties, description_for, properties_for
from weft.nodes.node_tool import node_tool_spec
from weft.workflow import AI_TOOL


def _tool_properties(desc: NodeDescription) -> tuple[Mapping[str, Any], ...]:
    """The properties of ``desc``'s tool: n8n's derived ones, or for a type n8n does not describe its own with
    n8n's ``descriptionType``/``toolDescription`` added the same way."""
    if description_for(desc.name + "Tool", desc.default_version) is not None:
        return ()  # NodeDescription.properties reads the derived description
    return tuple(ai_tool_properties([dict(prop) for prop in desc.properties], desc.description))


def tool_description_of(base: type[NodeType]) -> NodeDescription:
    """The description of ``base``'s ``…Tool`` type; its defaults gain the added parameters' defaults."""
    desc = base.description
    properties = _tool_properties(desc)
    defaults: dict[str, Any] = {**desc.defaults}
    added = ("descriptionType", "toolDescription")
    if not any(prop.get("name") == "toolDescription" for prop in desc.properties):
        found = properties or properties_for(desc.name + "Tool", desc.default_version)
        defaults.update({str(prop["name"]): prop["default"] for prop in found if prop.get("name") in added})
    versions: tuple[float, ...] = getattr(base, "tool_versions", None) or desc.versions
    return replace(
        desc,
        name=desc.name + "Tool",
        display_name=desc.display_name + " Tool",
        versions=versions,
        inputs=(),
        outputs=(AI_TOOL,),
        usable_as_tool=False,
        defaults=defaults,
        properties=properties,
    )


async def _supply_tool(self: NodeType, ctx: SupplyDataContext, item_index: int) -> ToolSpec:
    """The tool the agent offers the model for this node (n8n's ``createNodeAsTool``)."""
    return node_tool_spec(self, ctx)


class _OwnErrorSetting:
    """The engine's context, except that ``continue_on_fail`` follows the node's own setting.

    The engine tells tool nodes to continue on failure, but a node used as a tool fails as the node would: its
    error is the tool's result (n8n 2.41.1: ``[{"error": "<message>"}]``, the run in error; cases a113, a114).
    """

    def __init__(self, ctx: ExecuteContext) -> None:
        self._ctx = ctx

    def __getattr__(self, name: str) -> Any:
        return getattr(self._ctx, name)

    def continue_on_fail(self) -> bool:
        node = self._ctx.node
        return bool(node.continueOnFail) or node.onError in ("continueRegularOutput", "continueErrorOutput")


def convert_node_to_tool(base: type[NodeType]) -> type[NodeType]:
    """A new type that runs ``base``'s ``execute`` but has no inputs, one ``ai_tool`` output and a tool definition."""

    async def execute(self: NodeType, ctx: ExecuteContext) -> Any:
        return await base.execute(self, _OwnErrorSetting(ctx))  # type: ignore[arg-type]

    namespace = {
        "description": tool_description_of(base),
        "supply_data": _supply_tool,
        "execute": execute,
        "converted_from": base,
        "__doc__": base.__doc__,
    }
    return type(base.__name__ + "Tool", (base,), namespace)


__all__ = ["convert_node_to_tool", "tool_description_of"]
