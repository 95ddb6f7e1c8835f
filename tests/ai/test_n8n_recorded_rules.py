"""Small rules the recorded n8n cases (``tests/recorded/cases/a*``) showed, checked without a model."""

from __future__ import annotations

from weft.ai.agent.prompt import SYSTEM_MESSAGE, system_message
from weft.ai.memory.lc_json import lc_message
from weft.ai.messages import AIMessage, HumanMessage, ToolCall, ToolMessage
from weft.ai.tools._schema import closed_objects


def test_system_message_only_when_set_or_before_v1_9() -> None:
    assert system_message({}, 3.1) is None
    assert system_message({"systemMessage": ""}, 3.1) is None
    assert system_message({"systemMessage": "Be brief."}, 2.2) == "Be brief."
    assert system_message({}, 1.8) == SYSTEM_MESSAGE


def test_hand_written_schemas_are_closed_like_zod_leaves_them() -> None:
    schema = {"type": "object", "properties": {"who": {"type": "object", "properties": {}}, "n": {"type": "integer"}}}
    assert closed_objects(schema) == {
        "type": "object",
        "properties": {
            "who": {"type": "object", "properties": {}, "additionalProperties": False},
            "n": {"type": "integer"},
        },
        "additionalProperties": False,
    }


def test_chat_history_is_logged_as_langchain_objects() -> None:
    call = ToolCall(id="c1", name="Calculator", args={"input": "1+1"})
    logged = [lc_message(m) for m in (HumanMessage(content="hi"), AIMessage(tool_calls=[call]))]
    assert logged[0] == {
        "lc": 1,
        "type": "constructor",
        "id": ["langchain_core", "messages", "HumanMessage"],
        "kwargs": {"content": "hi", "additional_kwargs": {}, "response_metadata": {}},
    }
    assert logged[1]["kwargs"]["tool_calls"] == [
        {"name": "Calculator", "args": {"input": "1+1"}, "id": "c1", "type": "tool_call"}
    ]
    tool = lc_message(ToolMessage(tool_call_id="c1", name="Calculator", content="2"))
    assert tool["id"][-1] == "ToolMessage" and tool["kwargs"]["tool_call_id"] == "c1"
