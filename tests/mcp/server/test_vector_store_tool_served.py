"""A Simple Vector Store in ``retrieve-as-tool`` mode served through the MCP Server Trigger: ``tools/list`` offers
it with its description and a client's ``tools/call`` answers the nearest documents."""

from __future__ import annotations

import asyncio
import json
import uuid
from typing import Any

import httpx

from weft.engine import run_workflow
from weft.nodes.registry import default_registry
from weft.testing.workflows import connect, node, workflow

from ._answers import INIT, answer, rpc
from .conftest import ACCEPT, McpServer

LC = "@n8n/n8n-nodes-langchain."
TEXTS = ["Rockets launch satellites into orbit.", "Owls hunt mice at night.", "Bread rises with yeast."]


def _insert(key: str) -> None:
    """Fill the process's Simple Vector Store ``key`` (the server shares the test's process)."""
    items = ", ".join(f"{{json: {{text: {t!r}}}}}" for t in TEXTS)
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Data", "n8n-nodes-base.code", {"jsCode": f"return [{items}];"}, version=2),
        node(
            "Insert",
            LC + "vectorStoreInMemory",
            {"mode": "insert", "memoryKey": {"__rl": True, "mode": "id", "value": key}, "clearStore": True},
            version=1.3,
        ),
        node("Embeddings", "weft.embeddingsDemo", {}),
        node("Loader", LC + "documentDefaultDataLoader", {"options": {}}, version=1.1),
        connect("Start", "Data"),
        connect("Data", "Insert"),
        connect("Embeddings", "Insert", type_="ai_embedding"),
        connect("Loader", "Insert", type_="ai_document"),
    )
    result = asyncio.run(run_workflow(wf, registry=default_registry()))
    assert result["status"] == "success", result["data"]["resultData"].get("error")


def _served(key: str) -> dict[str, Any]:
    store = {
        "mode": "retrieve-as-tool",
        "memoryKey": {"__rl": True, "mode": "id", "value": key},
        "toolDescription": "Facts about rockets, owls and bread",
        "topK": 1,
    }
    served = workflow(
        node("MCP Server Trigger", LC + "mcpTrigger", {"path": "facts"}, version=2),
        node("Facts", LC + "vectorStoreInMemory", store, version=1.3),
        node("Embeddings", "weft.embeddingsDemo", {}),
        connect("Facts", "MCP Server Trigger", type_="ai_tool"),
        connect("Embeddings", "Facts", type_="ai_embedding"),
    )
    served["nodes"][0]["webhookId"] = str(uuid.uuid4())
    return served


def test_a_simple_vector_store_tool_is_listed_and_answers(mcp: McpServer) -> None:
    key = "mcp-" + uuid.uuid4().hex[:8]
    _insert(key)
    mcp.serve("facts", _served(key))
    url = mcp.mcp_url("facts")
    with httpx.Client(timeout=20) as client:
        sid = client.post(url, json=INIT, headers=ACCEPT).headers["mcp-session-id"]
        headers = {**ACCEPT, "mcp-session-id": sid}
        listed = answer(client.post(url, json=rpc("tools/list"), headers=headers))["events"][0]["result"]["tools"]
        call = rpc("tools/call", {"name": "Facts", "arguments": {"input": TEXTS[1]}}, 2)
        result = answer(client.post(url, json=call, headers=headers))["events"][0]["result"]
    [tool] = listed
    assert tool["name"] == "Facts" and tool["description"] == "Facts about rockets, owls and bread"
    assert "input" in tool["inputSchema"]["properties"]
    assert not result.get("isError"), result
    text = result["content"][0]["text"]
    assert TEXTS[1] in text and TEXTS[0] not in text, text
    json.loads(text)  # the documents as JSON
