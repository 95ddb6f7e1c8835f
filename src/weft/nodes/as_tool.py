"""Node-as-tool: synthesize ``<type>Tool`` from a ``usableAsTool`` node type (n8n's ``convertNodeToAiTool``)."""

from __future__ import annotations

from dataclasses import replace

from weft.nodes.contract import NodeType
from weft.workflow import AI_TOOL


def convert_node_to_tool(base: type[NodeType]) -> type[NodeType]:
    """A new type that runs ``base``'s ``execute`` but has no inputs and one ``ai_tool`` output."""
    desc = base.description
    tool_desc = replace(
        desc,
        name=desc.name + "Tool",
        display_name=desc.display_name + " Tool",
        inputs=(),
        outputs=(AI_TOOL,),
        usable_as_tool=False,
        defaults={**desc.defaults, "toolDescription": desc.description},
    )
    return type(base.__name__ + "Tool", (base,), {"description": tool_desc})
