"""Weft as an MCP client: the SDK adapter (:mod:`.sdk`, the only module that imports ``mcp``'s client and types),
what an MCP client node is configured with (:mod:`.config`) and the sessions kept for an execution
(:mod:`.sessions`). The nodes are :mod:`weft.ai.tools.mcp_client_tool` and :mod:`weft.ai.nodes.mcp_client`.
"""
