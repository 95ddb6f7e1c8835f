"""The recorded cases' scripted model: its queues, templates, tool-name matching, ids and request log."""

from __future__ import annotations

import httpx

from weft.testing import OracleOpenAIServer


def _ask(server: OracleOpenAIServer, body: dict) -> httpx.Response:
    return httpx.post(f"{server.base_url}/chat/completions", json=body, timeout=5)


def test_turns_in_order_then_the_last_repeats_with_templates_filled() -> None:
    call = {"name": "~weather", "arguments": {"city": "{last_user}"}}
    script = [{"tool_calls": [call]}, {"content": "got {last_tool}"}]
    tools = [{"type": "function", "function": {"name": "MCP_get_weather", "parameters": {}}}]
    with OracleOpenAIServer(script) as server:
        first = _ask(server, {"model": "m", "messages": [{"role": "user", "content": "Oslo"}], "tools": tools}).json()
        call = first["choices"][0]["message"]["tool_calls"][0]
        assert (call["id"], call["function"]["name"], call["function"]["arguments"]) == (
            "call_1_0",
            "MCP_get_weather",
            '{"city": "Oslo"}',
        )
        messages = [{"role": "user", "content": "Oslo"}, {"role": "tool", "tool_call_id": "call_1_0", "content": "9C"}]
        for _ in range(2):  # the last turn repeats
            reply = _ask(server, {"model": "m", "messages": messages}).json()
            assert reply["choices"][0]["message"] == {"role": "assistant", "content": "got 9C"}
        assert [entry["n"] for entry in server.log] == [1, 2, 3]
        assert server.log[0]["request"]["tools"] == tools


def test_one_queue_per_model_and_404_for_other_paths() -> None:
    script = {"by_model": {"big": [{"content": "big {request_no}"}]}, "default": [{"content": "small {request_no}"}]}
    with OracleOpenAIServer(script) as server:
        texts = [_ask(server, {"model": m}).json()["choices"][0]["message"]["content"] for m in ("big", "x", "big")]
        assert texts == ["big 1", "small 1", "big 2"]
        missing = httpx.post(f"{server.base_url}/responses", json={"model": "x"}, timeout=5)
        assert missing.status_code == 404
        assert server.log[-1] == {"n": None, "path": "/v1/responses", "request": {"model": "x"}, "reply": "404"}
