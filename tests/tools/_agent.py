"""An AI Agent with one tool node, run against the scripted OpenAI-compatible model (the recorded-case format)."""

from __future__ import annotations

from typing import Any

from weft.ai.agent_catalog import agent_registry
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing import OracleOpenAIServer
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
CREDENTIAL = {"openAiApi": {"id": "fakeOpenAi000001", "name": "Fake OpenAI"}}


def http_tool(name: str, parameters: dict[str, Any], version: float = 4.2, **settings: Any) -> dict[str, Any]:
    return node(name, "n8n-nodes-base.httpRequestTool", parameters, version=version, **settings)


def agent_workflow(tool: dict[str, Any], agent_version: float = 3.1, question: str = "Go") -> dict[str, Any]:
    prompt = {"promptType": "define", "text": question, "options": {}}
    model = {
        "model": {"__rl": True, "value": "gpt-4o-mini", "mode": "list"},
        "responsesApiEnabled": False,
        "options": {},
    }
    return workflow(
        node("Manual Trigger", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", prompt, version=agent_version),
        node("Model", LC + "lmChatOpenAi", model, version=1.3, credentials=CREDENTIAL),
        tool,
        connect("Manual Trigger", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect(tool["name"], "AI Agent", type_="ai_tool"),
    )


def calls(name: str, arguments: dict[str, Any]) -> list[dict[str, Any]]:
    """A script: the model calls ``name`` once, then answers with the tool's result."""
    return [{"tool_calls": [{"name": name, "arguments": arguments}]}, {"content": "Got {last_tool}"}]


async def run_agent(
    tool: dict[str, Any],
    script: list[dict[str, Any]],
    agent_version: float = 3.1,
    credentials: dict[str, dict[str, Any]] | None = None,
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The run and the model requests (``request`` bodies) of an agent with ``tool`` (``credentials`` by name)."""
    with OracleOpenAIServer(script) as model:
        known = {"Fake OpenAI": {"apiKey": "sk-test", "url": model.base_url}, **(credentials or {})}
        services = LocalServices(credentials=known)
        run = await run_workflow(agent_workflow(tool, agent_version), registry=agent_registry(), services=services)
        return dict(run), [entry["request"] for entry in model.log]


def runs(run: dict[str, Any], name: str) -> list[dict[str, Any]]:
    result: list[dict[str, Any]] = run["data"]["resultData"]["runData"].get(name, [])
    return result
