"""Chat Memory Manager (``memoryManager``) over Simple Memory: insert, get, delete, as n8n's node does."""

from __future__ import annotations

from typing import Any

from weft.ai.agent_catalog import agent_registry
from weft.ai.memory import InMemoryChatMemoryStore
from weft.ai.messages import AIMessage, HumanMessage, SystemMessage
from weft.ai.nodes.memory_manager import simplify_messages
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
INSERT = {
    "mode": "insert",
    "messages": {
        "messageValues": [
            {"type": "system", "message": "Be brief"},
            {"type": "user", "message": "Hi"},
            {"type": "ai", "message": "Hello!"},
        ]
    },
}


class MemoryServices(LocalServices):
    def __init__(self) -> None:
        super().__init__()
        self.chat_memory = InMemoryChatMemoryStore()


async def _run(steps: list[dict[str, Any]], version: float = 1.1) -> tuple[dict[str, Any], MemoryServices]:
    names = [f"M{n}" for n in range(len(steps))]
    nodes = [node("Start", "n8n-nodes-base.manualTrigger")]
    nodes += [
        node(name, LC + "memoryManager", params, version=version) for name, params in zip(names, steps, strict=True)
    ]
    nodes.append(
        node("Memory", LC + "memoryBufferWindow", {"sessionIdType": "customKey", "sessionKey": "k"}, version=1.3)
    )
    links = [connect(a, b) for a, b in zip(["Start", *names], names, strict=False)]
    links += [connect("Memory", name, type_="ai_memory") for name in names]
    services = MemoryServices()
    run = await run_workflow(workflow(*nodes, *links), registry=agent_registry(), services=services)
    assert run["status"] == "success", run
    return run, services


def _json(run: dict[str, Any], name: str) -> list[Any]:
    return [item["json"] for item in run["data"]["resultData"]["runData"][name][0]["data"]["main"][0]]


async def test_insert_then_get_simplified_and_grouped() -> None:
    run, services = await _run([INSERT, {"mode": "load", "simplifyOutput": True}])
    assert _json(run, "M0") == [{"success": True}]
    assert _json(run, "M1") == [
        {"messages": [{"system": "Be brief", "human": "Hi", "ai": "Hello!"}], "messagesCount": 1}
    ]
    assert len(services.chat_memory.load("workflow__k")) == 3


async def test_get_unsimplified_ungrouped_gives_langchain_messages() -> None:
    load = {"mode": "load", "simplifyOutput": False, "options": {"groupMessages": False}}
    run, _ = await _run([INSERT, load])
    rows = _json(run, "M1")
    assert [r["id"][-1] for r in rows] == ["SystemMessage", "HumanMessage", "AIMessage"]
    assert rows[1]["kwargs"]["content"] == "Hi"


async def test_delete_last_n_then_all() -> None:
    run, _ = await _run([INSERT, {"mode": "delete", "lastMessagesCount": 2}, {"mode": "load"}])
    assert _json(run, "M2") == [{"messages": [{"system": "Be brief"}], "messagesCount": 1}]
    run, _ = await _run([INSERT, {"mode": "delete", "deleteMode": "all"}, {"mode": "load"}])
    assert _json(run, "M2") == [{"messages": [], "messagesCount": 0}]


async def test_override_and_version_1_outputs_the_messages() -> None:
    override = {
        "mode": "insert",
        "insertMode": "override",
        "messages": {"messageValues": [{"type": "user", "message": "x"}]},
    }
    run, services = await _run([INSERT, override], version=1)
    assert len(_json(run, "M0")) == 3  # version 1 outputs the messages: the next node runs once per message
    assert [r["kwargs"]["content"] for r in _json(run, "M1")] == ["x", "x", "x"]
    assert len(services.chat_memory.load("workflow__k")) == 1


def test_simplify_starts_a_group_when_a_type_repeats() -> None:
    messages = [
        HumanMessage(content="a"),
        HumanMessage(content="b"),
        AIMessage(content="c"),
        SystemMessage(content="s"),
    ]
    assert simplify_messages(messages) == [{"human": "a"}, {"human": "b", "ai": "c", "system": "s"}]
