"""The MCP Server Trigger workflows the recordings were made with, shared by the recorder and the tests.

Each workflow has one MCP Server Trigger on its own path with tools connected to its ``ai_tool`` input; the
credentials are the ones :data:`CREDENTIALS` lists (imported into n8n and into Weft alike).
"""

from __future__ import annotations

import copy
from typing import Any

LC = "@n8n/n8n-nodes-langchain."
BEARER_TOKEN = "tok-bearer-123"
HEADER = ("X-Api-Key", "hdr-secret-456")

CREDENTIALS: list[dict[str, Any]] = [
    {"id": "mcpBearerCred001", "name": "mcp bearer", "type": "httpBearerAuth", "data": {"token": BEARER_TOKEN}},
    {
        "id": "mcpHeaderCred001",
        "name": "mcp header",
        "type": "httpHeaderAuth",
        "data": {"name": HEADER[0], "value": HEADER[1]},
    },
]

_CODE_SCHEMA = '{\n  "a": 2,\n  "b": "x"\n}'

#: The tool nodes (name, type, version, parameters), connected in this order.
TOOLS: list[tuple[str, str, float, dict[str, Any]]] = [
    ("Calculator", LC + "toolCalculator", 1, {}),
    (
        "Code Tool",
        LC + "toolCode",
        1.3,
        {
            "description": "Repeats b a times",
            "jsCode": "return query.b.repeat(query.a);",
            "specifyInputSchema": True,
            "jsonSchemaExample": _CODE_SCHEMA,
        },
    ),
    ("Think", LC + "toolThink", 1.1, {}),
    ("Failing Tool", LC + "toolCode", 1.3, {"description": "Always fails", "jsCode": "throw new Error('boom');"}),
]


def mcp_workflow(
    workflow_id: str,
    path: str,
    *,
    version: float = 2,
    authentication: str = "none",
    tools: list[str] | None = None,
) -> dict[str, Any]:
    """A workflow serving ``tools`` (default: all of :data:`TOOLS`) on ``path`` through an MCP Server Trigger."""
    chosen = [t for t in TOOLS if tools is None or t[0] in tools]
    trigger: dict[str, Any] = {
        "parameters": {"authentication": authentication, "path": path},
        "id": f"{workflow_id}-trigger",
        "name": "MCP Server Trigger",
        "type": LC + "mcpTrigger",
        "typeVersion": version,
        "position": [0, 0],
        "webhookId": f"{workflow_id}-hook",
    }
    if authentication == "bearerAuth":
        trigger["credentials"] = {"httpBearerAuth": {"id": "mcpBearerCred001", "name": "mcp bearer"}}
    elif authentication == "headerAuth":
        trigger["credentials"] = {"httpHeaderAuth": {"id": "mcpHeaderCred001", "name": "mcp header"}}
    nodes = [trigger]
    for index, (name, node_type, node_version, parameters) in enumerate(chosen):
        nodes.append(
            {
                "parameters": copy.deepcopy(parameters),
                "id": f"{workflow_id}-tool{index}",
                "name": name,
                "type": node_type,
                "typeVersion": node_version,
                "position": [index * 200, 200],
            }
        )
    connections = {
        name: {"ai_tool": [[{"node": "MCP Server Trigger", "type": "ai_tool", "index": 0}]]} for name, *_ in chosen
    }
    return {
        "id": workflow_id,
        "name": f"mcp {path}",
        "nodes": nodes,
        "connections": connections,
        "settings": {"executionOrder": "v1"},
        "active": False,
    }


def failing_node_workflow(workflow_id: str = "mcpFailNode0001", path: str = "fail-node") -> dict[str, Any]:
    """A version 2 trigger serving one node used as a tool that always fails: an HTTP Request Tool pointed at
    ``127.0.0.1:1``, where nothing listens (``_record_n8n_failing_node.py`` recorded n8n with it)."""
    data = mcp_workflow(workflow_id, path, tools=[])
    data["nodes"].append(
        {
            "parameters": {"toolDescription": "Fetches the page", "url": "http://127.0.0.1:1/", "options": {}},
            "id": f"{workflow_id}-tool0",
            "name": "Fetch Page",
            "type": "n8n-nodes-base.httpRequestTool",
            "typeVersion": 4.2,
            "position": [0, 200],
        }
    )
    data["connections"] = {"Fetch Page": {"ai_tool": [[{"node": "MCP Server Trigger", "type": "ai_tool", "index": 0}]]}}
    return data


#: ``name → workflow``: what the recordings were made with.
WORKFLOWS: dict[str, dict[str, Any]] = {
    "v2": mcp_workflow("mcpRecV2000001", "rec-v2"),
    "v1": mcp_workflow("mcpRecV1000001", "rec-v1", version=1, tools=["Calculator", "Failing Tool"]),
    "v11": mcp_workflow("mcpRecV1100001", "rec-v11", version=1.1, tools=["Calculator"]),
    "bearer": mcp_workflow("mcpRecBearer01", "rec-bearer", authentication="bearerAuth", tools=["Calculator"]),
    "header": mcp_workflow("mcpRecHeader01", "rec-header", authentication="headerAuth", tools=["Calculator"]),
    "bearer_v1": mcp_workflow(
        "mcpRecBearerV1", "rec-bearer-v1", version=1, authentication="bearerAuth", tools=["Calculator"]
    ),
}
