from __future__ import annotations

import json

import pytest

from weft.ai.errors import MessageFormatError
from weft.ai.messages import (
    AIMessage,
    HumanMessage,
    ImagePart,
    Message,
    ModelResponse,
    SystemMessage,
    TextPart,
    ToolCall,
    ToolDefinition,
    ToolMessage,
    Usage,
    buffer_string,
    last_human_text,
    message_from_json,
    messages_from_json,
    messages_to_json,
    trailing_tool_messages,
)

CONVERSATION: list[Message] = [
    SystemMessage(content="You are a helpful assistant."),
    HumanMessage(content=[TextPart(text="What is on this picture?"), ImagePart(url="data:image/png;base64,iVBO")]),
    AIMessage(content="", tool_calls=[ToolCall(id="call_1", name="Calculator", args={"input": "12345 * 6789"})]),
    ToolMessage(tool_call_id="call_1", name="Calculator", content='[{"response":"83810205"}]'),
    AIMessage(content="It is 83810205."),
]


def test_every_message_round_trips_through_json_text() -> None:
    stored = json.loads(json.dumps(messages_to_json(CONVERSATION)))
    assert messages_from_json(stored) == CONVERSATION


def test_json_carries_the_kind_discriminator() -> None:
    assert [m["kind"] for m in messages_to_json(CONVERSATION)] == ["system", "human", "ai", "tool", "ai"]
    assert CONVERSATION[2].to_json() == {
        "kind": "ai",
        "content": "",
        "tool_calls": [{"id": "call_1", "name": "Calculator", "args": {"input": "12345 * 6789"}}],
    }
    assert CONVERSATION[1].to_json()["content"][1] == {
        "kind": "image",
        "url": "data:image/png;base64,iVBO",
        "detail": "auto",
    }


def test_model_response_and_tool_definition_round_trip() -> None:
    response = ModelResponse(
        message=AIMessage(content="hi"),
        usage=Usage(input_tokens=3, output_tokens=1),
        raw_model_name="m",
        finish_reason="stop",
    )
    assert ModelResponse.from_json(json.loads(json.dumps(response.to_json()))) == response
    assert response.usage.total_tokens == 4
    tool = ToolDefinition(
        name="t", description="d", parameters={"type": "object", "properties": {"a": {"type": "string"}}}
    )
    assert ToolDefinition.from_json(tool.to_json()) == tool


def test_unknown_kind_is_a_clear_error() -> None:
    with pytest.raises(MessageFormatError, match="Unknown message kind 'robot'"):
        message_from_json({"kind": "robot", "content": "beep"})
    with pytest.raises(MessageFormatError, match="holds an 'ai' message"):
        ModelResponse.from_json({"message": {"kind": "human", "content": "x"}})


def test_helpers_read_the_conversation() -> None:
    assert last_human_text(CONVERSATION) == "What is on this picture?"
    assert trailing_tool_messages(CONVERSATION[:4]) == [CONVERSATION[3]]
    assert trailing_tool_messages(CONVERSATION) == []
    assert buffer_string([*CONVERSATION[:1], HumanMessage(content="hi")]) == (
        "System: You are a helpful assistant.\nHuman: hi"
    )
