"""The agent, memory and tool node types, for the lead to merge into ``weft.ai.nodes:CATALOG``.

Until then :func:`agent_registry` gives a registry with them (tests, examples, the bench).
"""

from __future__ import annotations

import importlib

from weft.nodes.contract import NodeType
from weft.nodes.registry import NodeRegistry

_LC = "@n8n/n8n-nodes-langchain."

#: ``{type name: "module:Class"}`` (imported on first use).
AGENT_CATALOG: dict[str, str] = {
    _LC + "agent": "weft.ai.agent.node:Agent",
    _LC + "agentTool": "weft.ai.agent.agent_tool:AgentTool",
    _LC + "mcpTrigger": "weft.ai.nodes.mcp_trigger:McpTrigger",
    _LC + "memoryBufferWindow": "weft.ai.memory.buffer_window:MemoryBufferWindow",
    _LC + "memoryPostgresChat": "weft.ai.memory.postgres_chat:MemoryPostgresChat",
    _LC + "memoryManager": "weft.ai.nodes.memory_manager:MemoryManager",
    _LC + "outputParserAutofixing": "weft.ai.parsers.fixing:OutputParserAutofixing",
    _LC + "outputParserItemList": "weft.ai.parsers.item_list:OutputParserItemList",
    _LC + "outputParserStructured": "weft.ai.parsers.structured:OutputParserStructured",
    _LC + "mcpClient": "weft.ai.nodes.mcp_client:McpClient",
    _LC + "mcpClientTool": "weft.ai.tools.mcp_client_tool:McpClientTool",
    _LC + "toolCalculator": "weft.ai.tools.calculator:ToolCalculator",
    _LC + "toolCode": "weft.ai.tools.code:ToolCode",
    _LC + "toolThink": "weft.ai.tools.think:ToolThink",
    _LC + "toolWikipedia": "weft.ai.tools.wikipedia:ToolWikipedia",
    _LC + "toolWorkflow": "weft.ai.tools.workflow_tool:ToolWorkflow",
    _LC + "toolHttpRequest": "weft.ai.tools.http_request_tool:ToolHttpRequest",
    "n8n-nodes-base.emailSendHitlTool": "weft.ai.tools.email_hitl:EmailSendHitlTool",
}


def agent_registry(registry: NodeRegistry | None = None) -> NodeRegistry:
    """``registry`` (default: the built-ins and entry points) with the node types of :data:`AGENT_CATALOG`."""
    registry = registry or NodeRegistry()
    for name, target in AGENT_CATALOG.items():
        module_name, _, attr = target.partition(":")
        node_type: type[NodeType] = getattr(importlib.import_module(module_name), attr)
        registry.register(node_type, name=name)
    return registry


__all__ = ["AGENT_CATALOG", "agent_registry"]
