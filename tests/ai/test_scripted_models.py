"""ScriptedChatModel, FunctionChatModel, the weft.lmChatScripted node and the tracing wrapper."""

from __future__ import annotations

from typing import Any

import pytest

from weft.ai.errors import ChatModelRateLimitError, ScriptExhaustedError
from weft.ai.messages import AIMessage, HumanMessage, Message, ModelResponse, ToolCall, ToolDefinition, ToolMessage
from weft.ai.models.base import ChatModel
from weft.testing import FunctionChatModel, ScriptedChatModel, ScriptedToolCall, ScriptedTurn

PROMPT: list[Message] = [HumanMessage(content="What is 2+2?")]
SCRIPT: list[Any] = [{"tool": "Calculator", "args": {"input": "2+2"}}, "It is {{last_tool_result}}."]


def with_result(response: ModelResponse, content: str) -> list[Message]:
    call = response.message.tool_calls[0]
    return [*PROMPT, response.message, ToolMessage(tool_call_id=call.id, name=call.name, content=content)]


async def test_conversation_mode_picks_the_turn_from_the_history() -> None:
    first = await ScriptedChatModel(SCRIPT).generate(PROMPT, [])
    assert first.message == AIMessage(tool_calls=[ToolCall(id="call_1", name="Calculator", args={"input": "2+2"})])
    # A fresh model (as after the engine resumes the agent) continues where the conversation is.
    second = await ScriptedChatModel(SCRIPT).generate(with_result(first, "4"), [])
    assert second.message == AIMessage(content="It is 4.")
    assert second.finish_reason == "stop" and second.usage.input_tokens > 0


async def test_sequential_mode_counts_calls_and_runs_out_clearly() -> None:
    model = ScriptedChatModel(["one", ScriptedTurn(text="two")], mode="sequential")
    assert [(await model.generate(PROMPT, [])).message.content for _ in range(2)] == ["one", "two"]
    with pytest.raises(ScriptExhaustedError, match="has 2 turn\\(s\\) but was asked for turn 3"):
        await model.generate(PROMPT, [])
    assert len(model.calls) == 3


async def test_turn_forms_errors_and_streaming() -> None:
    model = ScriptedChatModel(
        [
            ScriptedTurn(tool_calls=(ScriptedToolCall(name="search", args={"q": "{{last_human_message}}"}, id="x1"),)),
            {"error": 429, "message": "slow down"},
        ],
        mode="sequential",
    )
    first = await model.generate(PROMPT, [])
    assert first.message.tool_calls == [ToolCall(id="x1", name="search", args={"q": "What is 2+2?"})]
    with pytest.raises(ChatModelRateLimitError, match="Rate limit reached"):
        await model.generate(PROMPT, [])
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    await ScriptedChatModel(["a b c"]).generate(PROMPT, [], stream_callback=on_delta)
    assert deltas == ["a", " b", " c"]


async def test_function_model_lets_a_function_reply() -> None:
    def reply(messages: list[Message], tools: list[ToolDefinition]) -> Any:
        return (
            {"tool": tools[0].name, "args": {"n": len(messages)}} if len(messages) == 1 else AIMessage(content="done")
        )

    async def areply(messages: list[Message], tools: list[ToolDefinition]) -> Any:
        return "async " + messages[-1].content  # type: ignore[union-attr,operator]

    tool = ToolDefinition(name="count", description="counts")
    model = FunctionChatModel(reply)
    assert (await model.generate(PROMPT, [tool])).message.tool_calls == [
        ToolCall(id="call_1", name="count", args={"n": 1})
    ]
    assert (await model.generate([*PROMPT, AIMessage(content="x")], [tool])).message.content == "done"
    assert (await FunctionChatModel(areply).generate(PROMPT, [])).message.content == "async What is 2+2?"
    assert isinstance(model, ChatModel)


async def test_scripted_node_plays_the_workflow_script_and_traces_each_call(make_ctx: Any) -> None:
    from weft.ai.nodes.lm_chat_scripted import LmChatScripted

    ctx = make_ctx(
        "weft.lmChatScripted",
        {
            "turns": '[{"toolCalls": [{"name": "Calculator", "arguments": {"input": "2+2"}}]}, '
            '"= {{ last_tool_result }}"]'
        },
    )
    model = await LmChatScripted().supply_data(ctx, 0)
    first = await model.generate(PROMPT, [])
    second = await model.generate(with_result(first, "4"), [])
    assert second.message.content == "= 4"
    assert [run["input"][0][0]["json"]["messages"] for run in ctx.runs] == [
        ["Human: What is 2+2?"],
        ['Human: What is 2+2?\nAI: [{"id": "call_1", "name": "Calculator", "args": {"input": "2+2"}}]\nTool: 4'],
    ]
    info = ctx.runs[0]["output"][0][0]["json"]["response"]["generations"][0][0]["generationInfo"]
    assert info == {"finish_reason": "tool_calls"}  # n8n logs no tool calls here
    with pytest.raises(ScriptExhaustedError) as caught:
        await model.generate([*with_result(first, "4"), second.message, HumanMessage(content="again")], [])
    assert caught.value.node_name == "Chat Model" and ctx.runs[2]["output"] is caught.value


async def test_scripted_node_rejects_a_bad_script(make_ctx: Any) -> None:
    from weft.ai.nodes.lm_chat_scripted import LmChatScripted
    from weft.errors import NodeOperationError

    with pytest.raises(NodeOperationError, match="not valid JSON"):
        await LmChatScripted().supply_data(make_ctx("weft.lmChatScripted", {"turns": "[oops"}), 0)
    with pytest.raises(NodeOperationError, match="must be a list of turns"):
        await LmChatScripted().supply_data(make_ctx("weft.lmChatScripted", {"turns": [1, 2]}), 0)
