"""The Anthropic adapter over real HTTP against FakeAnthropicServer."""

from __future__ import annotations

from typing import Any

import pytest

from weft.ai.errors import ChatModelAuthError, ChatModelRateLimitError, ChatModelServerError, ChatModelTimeoutError
from weft.ai.messages import AIMessage, HumanMessage, Message, SystemMessage, ToolCall, ToolDefinition, ToolMessage
from weft.ai.models.anthropic import AnthropicChatModel, AnthropicSettings
from weft.ai.models.base import RetryPolicy
from weft.testing import FakeAnthropicServer

PROMPT: list[Message] = [SystemMessage(content="Be brief."), HumanMessage(content="What is 2+2 and 3+3?")]


def model_for(server: FakeAnthropicServer, **settings: Any) -> AnthropicChatModel:
    settings.setdefault("retry", RetryPolicy(max_retries=0))
    return AnthropicChatModel(
        AnthropicSettings(model="claude-test", api_key="sk-ant", base_url=server.base_url, **settings)
    )


async def test_request_bodies_use_system_tool_use_and_tool_result_blocks(
    fake_anthropic_server: FakeAnthropicServer, calculator: ToolDefinition
) -> None:
    fake_anthropic_server.add_turns(
        {
            "text": "Checking.",
            "tool_calls": [
                {"name": "Calculator", "args": {"input": "2+2"}},
                {"name": "Calculator", "args": {"input": "3+3"}},
            ],
        },
        "2+2={{last_tool_result}}",
    )
    model = model_for(fake_anthropic_server, temperature=0.5)
    first = await model.generate(PROMPT, [calculator])
    assert first.message == AIMessage(
        content="Checking.",
        tool_calls=[
            ToolCall(id="toolu_1", name="Calculator", args={"input": "2+2"}),
            ToolCall(id="toolu_2", name="Calculator", args={"input": "3+3"}),
        ],
    )
    assert first.finish_reason == "tool_calls"
    results = [
        ToolMessage(tool_call_id=c.id, name=c.name, content=v)
        for c, v in zip(first.message.tool_calls, ["4", "6"], strict=True)
    ]
    second = await model.generate([*PROMPT, first.message, *results], [calculator])
    assert second.message.content == "2+2=6"

    assert fake_anthropic_server.requests[0].path == "/v1/messages"
    assert fake_anthropic_server.bodies[0] == {
        "model": "claude-test",
        "max_tokens": 4096,
        "stream": False,
        "system": "Be brief.",
        "messages": [{"role": "user", "content": "What is 2+2 and 3+3?"}],
        "tools": [
            {
                "name": "Calculator",
                "description": "Useful for getting the result of a math expression.",
                "input_schema": calculator.parameters,
            }
        ],
        "temperature": 0.5,
    }
    assert fake_anthropic_server.bodies[1]["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_1", "name": "Calculator", "input": {"input": "2+2"}},
                {"type": "tool_use", "id": "toolu_2", "name": "Calculator", "input": {"input": "3+3"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "4"},
                {"type": "tool_result", "tool_use_id": "toolu_2", "content": "6"},
            ],
        },
    ]


async def test_streaming_text_and_tool_use(fake_anthropic_server: FakeAnthropicServer) -> None:
    fake_anthropic_server.add_turns(
        {"text": "one two three", "tool": "Calculator", "args": {"input": "1"}, "usage": [9, 4]}
    )
    deltas: list[str] = []

    async def on_delta(text: str) -> None:
        deltas.append(text)

    response = await model_for(fake_anthropic_server).generate(PROMPT, [], stream_callback=on_delta)
    assert deltas == ["one", " two", " three"]
    assert response.message == AIMessage(
        content="one two three", tool_calls=[ToolCall(id="toolu_1", name="Calculator", args={"input": "1"})]
    )
    assert (response.usage.input_tokens, response.usage.output_tokens) == (9, 4)
    assert fake_anthropic_server.bodies[0]["stream"] is True


@pytest.mark.parametrize(
    ("status", "error_type"),
    [(401, ChatModelAuthError), (429, ChatModelRateLimitError), (529, ChatModelServerError)],
)
async def test_errors_are_mapped(
    fake_anthropic_server: FakeAnthropicServer, status: int, error_type: type[Exception]
) -> None:
    fake_anthropic_server.add_turns({"error": status, "message": "nope"})
    with pytest.raises(error_type, match="Anthropic"):
        await model_for(fake_anthropic_server).generate(PROMPT, [])


async def test_timeout_and_retry(fake_anthropic_server: FakeAnthropicServer) -> None:
    fake_anthropic_server.add_turns({"delay": 5}, {"error": 529}, "recovered")
    with pytest.raises(ChatModelTimeoutError):
        await model_for(fake_anthropic_server, timeout=0.2).generate(PROMPT, [])
    model = model_for(fake_anthropic_server, retry=RetryPolicy(max_retries=1, initial_delay=0))
    assert (await model.generate(PROMPT, [])).message.content == "recovered"


async def test_anthropic_node_reads_credential_and_options(
    fake_anthropic_server: FakeAnthropicServer, make_ctx: Any
) -> None:
    from weft.ai.nodes.lm_chat_anthropic import LmChatAnthropic

    fake_anthropic_server.add_turns("hello")
    ctx = make_ctx(
        "@n8n/n8n-nodes-langchain.lmChatAnthropic",
        {"model": {"__rl": True, "value": "claude-node-test"}, "options": {"maxTokensToSample": 256, "topK": -1}},
        version=1.3,
        credentials={"anthropicApi": {"apiKey": "sk-ant", "url": fake_anthropic_server.base_url}},
    )
    model = await LmChatAnthropic().supply_data(ctx, 0)
    assert (await model.generate(PROMPT, [])).message.content == "hello"
    body = fake_anthropic_server.bodies[0]
    assert (body["model"], body["max_tokens"], "top_k" in body) == ("claude-node-test", 256, False)
    assert ctx.runs[0]["output"][0][0]["json"]["response"]["generations"][0][0]["text"] == "hello"
