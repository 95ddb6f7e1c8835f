"""The JSON-RPC side without a server: version negotiation, result formatting, n8n's error detection."""

from __future__ import annotations

from typing import Any

import pytest

from weft.ai.nodes.mcp_trigger import format_tool_result, input_schema, is_error_result
from weft.server.mcp.protocol import dispatch, initialize_result, valid_message


def _init(version: str) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": version}}


@pytest.mark.parametrize(("asked", "agreed"), [("2024-11-05", "2024-11-05"), ("2099-01-01", "2025-11-25")])
def test_initialize_agrees_on_a_version(asked: str, agreed: str) -> None:
    result = initialize_result(_init(asked), "srv")
    assert result == {
        "protocolVersion": agreed,
        "capabilities": {"tools": {}},
        "serverInfo": {"name": "srv", "version": "0.1.0"},
    }


def test_instructions_go_to_the_client() -> None:
    assert initialize_result(_init("2025-06-18"), "srv", "Use the calculator")["instructions"] == "Use the calculator"


@pytest.mark.parametrize(
    ("message", "valid"),
    [
        ({"jsonrpc": "2.0", "id": 1, "method": "ping"}, True),
        ({"jsonrpc": "2.0", "method": "notifications/initialized"}, True),
        ({"jsonrpc": "2.0", "id": 1, "result": {}}, True),
        ({"jsonrpc": "1.0", "id": 1, "method": "ping"}, False),
        ({"jsonrpc": "2.0", "id": 1}, False),
        (["not", "an", "object"], False),
    ],
)
def test_messages_are_checked_as_the_sdk_checks_them(message: Any, valid: bool) -> None:
    assert valid_message(message) is valid


@pytest.mark.parametrize(
    ("result", "text"),
    [("14", "14"), ({"a": 1.0}, '{"a":1}'), ([1, "x"], '[1,"x"]'), (None, "null"), (True, "true"), (2.5, "2.5")],
)
def test_results_become_text_as_n8n_formats_them(result: Any, text: str) -> None:
    assert format_tool_result(result) == text


@pytest.mark.parametrize(
    ("result", "error"),
    [
        ('There was an error: "boom"', True),
        ("TypeError: x is undefined", True),
        ("HTTP 500 There was an error: down", True),
        ({"error": {"message": "no"}}, True),
        ("all fine", False),
        ({"error": "no message"}, False),
    ],
)
def test_error_answers_are_recognised_as_n8n_2_41_does(result: Any, error: bool) -> None:
    assert is_error_result(result) is error


def test_schemas_are_open_objects_in_json_schema_2020_12() -> None:
    schema = {"type": "object", "properties": {"o": {"type": "object", "additionalProperties": False}}}
    assert input_schema(schema) == {
        "type": "object",
        "properties": {"o": {"type": "object", "additionalProperties": True}},
        "additionalProperties": True,
        "$schema": "https://json-schema.org/draft/2020-12/schema",
    }


async def test_unknown_methods_and_notifications() -> None:
    async def tools() -> list[dict[str, Any]]:
        return []

    async def call(name: str, arguments: dict[str, Any], message_id: str) -> dict[str, Any]:
        return {"error": "unused"}

    unknown = await dispatch(
        {"jsonrpc": "2.0", "id": 7, "method": "prompts/list"}, server_name="s", list_tools=tools, call_tool=call
    )
    assert unknown == {"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": "Method not found"}}
    note = {"jsonrpc": "2.0", "method": "notifications/cancelled"}
    assert await dispatch(note, server_name="s", list_tools=tools, call_tool=call) is None
