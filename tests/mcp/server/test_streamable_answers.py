"""Streamable HTTP (trigger version 2), request by request as n8n 2.41.1 answered (``n8n_mcp_answers_2.41.json``;
2.8.4's answers, ``n8n_mcp_answers.json``, differ only where ``docs/differences.md`` says).

The same requests the recorder sent go to a real Weft server; status, the headers that matter and the JSON-RPC
messages must be n8n's, except the Calculator's answer to a bad expression and the parse error's hint text.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ._answers import INIT, INITIALIZED, answer, rpc
from .conftest import ACCEPT, McpServer

CALLS = {
    "call_calculator": ("Calculator", {"input": "2 + 3 * 4"}, 2),
    "call_code": ("Code_Tool", {"a": 3, "b": "ab"}, 3),
    "call_think": ("Think", {"input": "a thought"}, 4),
    "call_failing": ("Failing_Tool", {"input": "x"}, 5),
    "call_unknown": ("Nope", {"input": "x"}, 7),
}


@pytest.fixture(scope="module")
def session(mcp: McpServer) -> Iterator[tuple[httpx.Client, str, dict[str, Any]]]:
    url = mcp.mcp_url("v2")
    with httpx.Client(timeout=10) as client:
        init = client.post(url, json=INIT, headers=ACCEPT)
        yield client, url, {**ACCEPT, "mcp-session-id": init.headers["mcp-session-id"], "_init": answer(init)}


def _post(session: tuple[httpx.Client, str, dict[str, Any]], message: Any) -> dict[str, Any]:
    client, url, headers = session
    return answer(client.post(url, json=message, headers={k: v for k, v in headers.items() if k != "_init"}))


def test_initialize(session: tuple[httpx.Client, str, dict[str, Any]], golden: dict[str, Any]) -> None:
    assert session[2]["_init"] == golden["streamable"]["initialize"]


def test_initialized_notification(session: tuple[httpx.Client, str, dict[str, Any]], golden: dict[str, Any]) -> None:
    assert _post(session, INITIALIZED) == golden["streamable"]["initialized"]


def test_tools_list(session: tuple[httpx.Client, str, dict[str, Any]], golden: dict[str, Any]) -> None:
    ours = _post(session, rpc("tools/list", id_=1))
    theirs = golden["streamable"]["tools_list"]
    assert ours["status"] == theirs["status"] and ours["headers"] == theirs["headers"]
    tools, expected = ours["events"][0]["result"]["tools"], theirs["events"][0]["result"]["tools"]
    assert [t["name"] for t in tools] == [t["name"] for t in expected]
    assert tools == expected


@pytest.mark.parametrize("key", list(CALLS))
def test_tool_calls(session: tuple[httpx.Client, str, dict[str, Any]], golden: dict[str, Any], key: str) -> None:
    name, arguments, id_ = CALLS[key]
    assert _post(session, rpc("tools/call", {"name": name, "arguments": arguments}, id_)) == golden["streamable"][key]


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("call_no_arguments", rpc("tools/call", {"name": "Calculator"}, 20)),
        ("ping", rpc("ping", id_=21)),
        ("unknown_method", rpc("resources/list", id_=22)),
    ],
)
def test_other_requests(
    session: tuple[httpx.Client, str, dict[str, Any]], golden: dict[str, Any], key: str, message: dict[str, Any]
) -> None:
    assert _post(session, message) == golden["streamable"][key]


def test_refusals_outside_a_session(mcp: McpServer, golden: dict[str, Any]) -> None:
    url = mcp.mcp_url("v2")
    with httpx.Client(timeout=10) as client:
        unknown = client.post(url, json=rpc("tools/list", id_=23), headers={**ACCEPT, "mcp-session-id": "bogus"})
        assert answer(unknown) == golden["streamable"]["unknown_session"]
        no_session = client.post(url, json=rpc("tools/list", id_=24), headers=ACCEPT)
        assert answer(no_session) == golden["streamable"]["no_session_not_initialize"]
        json_only = client.post(
            url, json=INIT, headers={"accept": "application/json", "content-type": "application/json"}
        )
        assert answer(json_only) == golden["streamable"]["json_accept_only"]
        assert answer(client.delete(url)) == golden["streamable"]["delete_no_session"]
        put = answer(client.put(url, json={}))
        assert put["status"] == 404 and put["body"]["message"] == golden["streamable"]["put"]["body"]["message"]


def test_not_json_is_refused_before_anything(mcp: McpServer, golden: dict[str, Any]) -> None:
    ours = answer(httpx.post(mcp.mcp_url("v2"), content=b"{nope", headers=ACCEPT, timeout=10))
    theirs = golden["streamable"]["not_json"]
    assert ours["status"] == theirs["status"] == 422
    assert ours["body"]["message"] == theirs["body"]["message"]


def test_delete_ends_the_session(mcp: McpServer, golden: dict[str, Any]) -> None:
    url = mcp.mcp_url("v2")
    with httpx.Client(timeout=10) as client:
        sid = client.post(url, json=INIT, headers=ACCEPT).headers["mcp-session-id"]
        headers = {**ACCEPT, "mcp-session-id": sid}
        assert answer(client.delete(url, headers={"mcp-session-id": sid})) == golden["streamable"]["delete"]
        assert answer(client.delete(url, headers={"mcp-session-id": sid})) == golden["streamable"]["delete_again"]
        after = client.post(url, json=rpc("tools/list", id_=25), headers=headers)
        assert answer(after) == golden["streamable"]["after_delete"]


def test_where_weft_differs(
    session: tuple[httpx.Client, str, dict[str, Any]], golden: dict[str, Any], expected_weft: dict[str, Any]
) -> None:
    """The Calculator's answer to an expression it cannot evaluate (docs/differences.md: Calculator)."""
    ours = _post(session, rpc("tools/call", {"name": "Calculator", "arguments": {"input": "2 +* 3"}}, 6))
    assert ours != golden["streamable"]["call_calculator_bad"]
    assert ours == expected_weft["streamable"]["call_calculator_bad"]
