"""Tool nodes (``ai_tool`` sub-nodes): Calculator, Think and Code Tool, each usable by an agent and on its own."""

from weft.nodes.tool_names import node_name_to_tool_name

__all__ = ["node_name_to_tool_name"]
