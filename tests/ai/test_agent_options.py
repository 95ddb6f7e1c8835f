"""Agent options: binary images passed to the model, the fallback model, batching."""

from __future__ import annotations

from typing import Any

import pytest

from weft.ai.agent_catalog import agent_registry
from weft.ai.messages import HumanMessage, ImagePart, Message, ToolDefinition
from weft.ai.models.traced import TracedChatModel
from weft.engine import run_workflow
from weft.nodes.contract import NodeDescription, NodeType, SupplyDataContext
from weft.nodes.registry import NodeRegistry
from weft.testing import FunctionChatModel
from weft.testing.workflows import connect, node, output_json, workflow

LC = "@n8n/n8n-nodes-langchain."
SEEN: list[list[Message]] = []


def recording(messages: list[Message], tools: list[ToolDefinition]) -> Any:
    SEEN.append(list(messages))
    return "seen"


class RecordingModel(NodeType):
    description = NodeDescription(
        name="weft.test.recModel", display_name="Rec", inputs=(), outputs=("ai_languageModel",)
    )

    async def supply_data(self, ctx: SupplyDataContext, item_index: int) -> Any:
        return TracedChatModel(FunctionChatModel(recording), ctx)


@pytest.fixture
def registry() -> NodeRegistry:
    SEEN.clear()
    registry = agent_registry()
    registry.register(RecordingModel)
    return registry


def wf(agent: dict[str, Any], *models: dict[str, Any], items: list[dict[str, Any]] | None = None) -> Any:
    models = models or (node("Model", "weft.test.recModel"),)
    data = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", LC + "agent", {"promptType": "auto", **agent}, version=3.1),
        *models,
        connect("Start", "AI Agent"),
        *(connect(m["name"], "AI Agent", type_="ai_languageModel", input=i) for i, m in enumerate(models)),
    )
    data["pinData"] = {"Start": items or [{"json": {"chatInput": "hi"}}]}
    return data


async def test_image_binaries_go_to_the_model_as_data_urls(registry: NodeRegistry) -> None:
    image = {"data": "iVBORw0KGgo=", "mimeType": "image/png", "fileName": "a.png"}
    text = {"data": "aGk=", "mimeType": "text/plain"}
    items = [{"json": {"chatInput": "what is this?"}, "binary": {"data": image, "notes": text}}]
    await run_workflow(wf({}, items=items), registry=registry)
    # as n8n: the text, then the images as a second human message (recorded: case a073)
    assert SEEN[0][:2] == [
        HumanMessage(content="what is this?"),
        HumanMessage(content=[ImagePart(url="data:image/png;base64,iVBORw0KGgo=")]),
    ]


async def test_images_stay_out_when_passthrough_is_off(registry: NodeRegistry) -> None:
    image = {"data": "iVBORw0KGgo=", "mimeType": "image/png"}
    items = [{"json": {"chatInput": "what?"}, "binary": {"data": image}}]
    await run_workflow(wf({"options": {"passthroughBinaryImages": False}}, items=items), registry=registry)
    assert SEEN[0][0] == HumanMessage(content="what?")


async def test_fallback_model_answers_when_the_first_fails(registry: NodeRegistry) -> None:
    failing = node("Primary", "weft.lmChatScripted", {"turns": [{"error": 500}]})
    fallback = node("Fallback", "weft.test.recModel")
    run = await run_workflow(wf({"needsFallback": True}, failing, fallback), registry=registry)
    assert run["status"] == "success"
    assert output_json(run, "AI Agent") == [{"output": "seen"}]
    assert run["data"]["resultData"]["runData"]["Primary"][0]["executionStatus"] == "error"


async def test_fallback_needs_a_second_model(registry: NodeRegistry) -> None:
    run = await run_workflow(wf({"needsFallback": True}), registry=registry)
    assert run["data"]["resultData"]["error"]["message"] == (
        "Please connect a model to the Fallback Model input or disable the fallback option"
    )


async def test_batches_keep_item_order(registry: NodeRegistry) -> None:
    items = [{"json": {"chatInput": f"q{i}"}} for i in range(5)]
    run = await run_workflow(wf({"options": {"batching": {"batchSize": 2}}}, items=items), registry=registry)
    assert [m[0].text for m in SEEN] == ["q0", "q1", "q2", "q3", "q4"]  # type: ignore[union-attr]
    assert [i["pairedItem"] for i in run["data"]["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0]] == [
        {"item": i} for i in range(5)
    ]


async def test_model_error_fails_the_agent_or_becomes_an_error_item(registry: NodeRegistry) -> None:
    failing = node("Primary", "weft.lmChatScripted", {"turns": [{"error": 401}]})
    run = await run_workflow(wf({}, failing), registry=registry)
    assert run["status"] == "error"
    data = wf({}, failing)
    data["nodes"][1]["onError"] = "continueRegularOutput"
    run = await run_workflow(data, registry=registry)
    assert run["status"] == "success"
    assert "error" in output_json(run, "AI Agent")[0]


async def test_streams_chunks_when_the_host_streams(registry: NodeRegistry, monkeypatch: pytest.MonkeyPatch) -> None:
    from weft.engine import ExecutionHooks
    from weft.engine.context import ExecuteContext

    monkeypatch.setattr(ExecuteContext, "is_streaming", lambda self: True, raising=False)
    chunks: list[dict[str, Any]] = []
    hooks = ExecutionHooks()
    hooks.on("sendChunk", chunks.append)
    model = node("Model", "weft.lmChatScripted", {"turns": ["Hello there"]})
    await run_workflow(wf({}, model), registry=registry, hooks=hooks)
    kinds = [c["type"] for c in chunks]
    assert kinds[0] == "begin" and kinds[-1] == "end" and "item" in kinds
    assert "".join(c["content"] for c in chunks if c["type"] == "item") == "Hello there"


async def test_no_chunks_when_streaming_is_off(registry: NodeRegistry, monkeypatch: pytest.MonkeyPatch) -> None:
    from weft.engine import ExecutionHooks
    from weft.engine.context import ExecuteContext

    monkeypatch.setattr(ExecuteContext, "is_streaming", lambda self: True, raising=False)
    chunks: list[dict[str, Any]] = []
    hooks = ExecutionHooks()
    hooks.on("sendChunk", chunks.append)
    model = node("Model", "weft.lmChatScripted", {"turns": ["Hello there"]})
    await run_workflow(wf({"options": {"enableStreaming": False}}, model), registry=registry, hooks=hooks)
    assert chunks == []
