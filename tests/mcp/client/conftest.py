"""The MCP client tests' server (``weft.testing.mcp_server`` on 127.0.0.1) and workflows around it."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import pytest

from weft.ai.agent_catalog import agent_registry
from weft.engine import run_workflow
from weft.engine.hooks import ExecutionHooks
from weft.engine.services import LocalServices
from weft.testing.mcp_server import McpTestServer
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Run

LC = "@n8n/n8n-nodes-langchain."
#: Every run here is bounded: a stuck execution fails the test instead of hanging the suite.
BOUND_S = 60


@pytest.fixture
def server() -> Iterator[McpTestServer]:
    with McpTestServer(extras=True) as running:
        yield running


def mcp_tool(url: str, version: float = 1.2, name: str = "MCP Client", **parameters: Any) -> dict[str, Any]:
    """An MCP Client Tool node on ``url`` (``sseEndpoint`` for version 1)."""
    endpoint = {"sseEndpoint": url} if version == 1 else {"endpointUrl": url}
    return node(name, LC + "mcpClientTool", {**endpoint, **parameters}, version=version)


def agent_workflow(tool: dict[str, Any], turns: list[Any], agent_version: float = 3.1) -> dict[str, Any]:
    """Start -> AI Agent with a scripted model and ``tool``."""
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "define", "text": "go"}, version=agent_version),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        tool,
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect(tool["name"], "AI Agent", type_="ai_tool"),
    )


async def run(
    wf: dict[str, Any], credentials: dict[str, Any] | None = None, hooks: ExecutionHooks | None = None
) -> Run:
    registry = agent_registry()
    services = LocalServices(credentials=credentials or {}, registry=registry)
    return await asyncio.wait_for(run_workflow(wf, registry=registry, services=services, hooks=hooks), BOUND_S)


def runs_of(result: Run, name: str) -> list[dict[str, Any]]:
    return list(result["data"]["resultData"]["runData"].get(name, []))


def answer(result: Run) -> str:
    """The agent's output text."""
    last = result["data"]["resultData"]["runData"]["AI Agent"][-1]
    assert "data" in last, last.get("error")
    items = last["data"]["main"][0]
    return str(items[0]["json"]["output"])
