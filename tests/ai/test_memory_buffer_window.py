"""Simple Memory (``memoryBufferWindow``): sessions, windows, saved only when the agent answers."""

from __future__ import annotations

from typing import Any

from weft.ai.agent_catalog import agent_registry
from weft.ai.memory import InMemoryChatMemoryStore, window_by_turns
from weft.ai.messages import AIMessage, HumanMessage, ToolCall, ToolMessage, messages_from_json
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."


class MemoryServices(LocalServices):
    """A host that keeps chat memory (as the server does, in its database)."""

    def __init__(self) -> None:
        super().__init__()
        self.chat_memory = InMemoryChatMemoryStore()


def chat_wf(turns: list[Any], chat_input: str, *, memory: dict[str, Any] | None = None, session: str = "s1") -> Any:
    wf = workflow(
        node("Chat", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "auto"}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        node("Simple Memory", LC + "memoryBufferWindow", memory or {}, version=1.3),
        node("Calculator", LC + "toolCalculator"),
        connect("Chat", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Simple Memory", "AI Agent", type_="ai_memory"),
        connect("Calculator", "AI Agent", type_="ai_tool"),
    )
    wf["pinData"] = {"Chat": [{"sessionId": session, "chatInput": chat_input}]}
    return wf


TURNS = [{"tool": "Calculator", "args": {"input": "2+2"}}, "four", "you asked about 2+2"]


def _prompt(run: dict[str, Any], index: int) -> str:
    model = run["data"]["resultData"]["runData"]["Model"][index]
    return str(model["inputOverride"]["ai_languageModel"][0][0]["json"]["messages"][0])


async def test_memory_across_two_chat_turns_of_one_session() -> None:
    services = MemoryServices()
    registry = agent_registry()
    first = await run_workflow(chat_wf(TURNS, "What is 2+2?"), registry=registry, services=services)
    assert first["status"] == "success"
    stored = messages_from_json(services.chat_memory.load("workflow__s1"))
    assert stored == [
        HumanMessage(content="What is 2+2?"),
        AIMessage(content="", tool_calls=[ToolCall(id="call_1", name="Calculator", args={"input": "2+2"})]),
        ToolMessage(tool_call_id="call_1", name="Calculator", content='[{"response":"4"}]'),
        AIMessage(content="four"),
    ]

    second = await run_workflow(chat_wf(TURNS, "What did I ask?"), registry=registry, services=services)
    assert second["data"]["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0][0]["json"] == {
        "output": "you asked about 2+2"
    }
    prompt = _prompt(second, 0)
    assert prompt.startswith("Human: What is 2+2?\nAI: ")
    assert 'Tool: [{"response":"4"}]\nAI: four\nHuman: What did I ask?' in prompt
    assert "Used tools" not in prompt


async def test_memory_is_saved_only_when_the_agent_answers() -> None:
    services = MemoryServices()
    run = await run_workflow(chat_wf(TURNS, "What is 2+2?"), registry=agent_registry(), services=services)
    memory_runs = run["data"]["resultData"]["runData"]["Simple Memory"]
    actions = [r["inputOverride"]["ai_memory"][0][0]["json"]["action"] for r in memory_runs]
    # a turn that used tools is stored without a saveContext run, as n8n's chatHistory.addMessages does
    assert actions == ["loadMemoryVariables", "loadMemoryVariables"]
    assert all(r["source"][0]["previousNode"] == "AI Agent" for r in memory_runs)
    assert [m["kind"] for m in services.chat_memory.load("workflow__s1")] == ["human", "ai", "tool", "ai"]


async def test_sessions_are_kept_apart() -> None:
    services = MemoryServices()
    registry = agent_registry()
    await run_workflow(chat_wf(TURNS, "What is 2+2?", session="a"), registry=registry, services=services)
    other = await run_workflow(chat_wf(["hello b"], "hi", session="b"), registry=registry, services=services)
    assert _prompt(other, 0) == "Human: hi"


async def test_custom_session_key_and_window() -> None:
    services = MemoryServices()
    registry = agent_registry()
    memory = {"sessionIdType": "customKey", "sessionKey": "fixed", "contextWindowLength": 1}
    for text in ("one", "two"):
        await run_workflow(chat_wf(["a", "b", "c"], text, memory=memory), registry=registry, services=services)
    third = await run_workflow(chat_wf(["a", "b", "c"], "three", memory=memory), registry=registry, services=services)
    assert _prompt(third, 0) == "Human: two\nAI: b\nHuman: three"


async def test_missing_session_id_fails_like_n8n() -> None:
    wf = chat_wf(["x"], "hi")
    wf["pinData"]["Chat"] = [{"chatInput": "hi"}]
    run = await run_workflow(wf, registry=agent_registry(), services=MemoryServices())
    error = run["data"]["resultData"]["error"]
    assert (error["message"], error["description"]) == ("Error in sub-node Simple Memory", "No session ID found")
    [memory_run] = run["data"]["resultData"]["runData"]["Simple Memory"]
    assert "'sessionId'" in memory_run["error"]["description"]


def test_window_keeps_whole_turns() -> None:
    call = ToolCall(id="c", name="t", args={})
    messages = [
        HumanMessage(content="1"),
        AIMessage(content="a"),
        HumanMessage(content="2"),
        AIMessage(tool_calls=[call]),
        ToolMessage(tool_call_id="c", name="t", content="r"),
        AIMessage(content="b"),
    ]
    assert window_by_turns(messages, 1) == messages[2:]
    assert window_by_turns(messages, 5) == messages
    assert window_by_turns(messages, 0) == []
