"""A tool call is a stored execution with the run data n8n 2.41.1 stores for it (``executions_v2`` of the golden
file): mode ``webhook``, status ``success``, the trigger's run with the call as its output item, the tool's run
under ``ai_tool`` with ``inputOverride`` ``{query}`` and output ``{response}``, re-parented to the trigger."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from ._answers import INIT, rpc
from .conftest import ACCEPT, McpServer, wait_for

VOLATILE = {"startTime", "executionTime", "timestamp", "stack", "mcpMessageId"}
#: Deliberate differences (docs/differences.md): n8n runs the tool before the execution exists, so both runs
#: have ``executionIndex`` 0 and the tool's run notes itself as a ``subRun``; Weft runs it inside the trigger's run.
DIFFERENT = {"executionIndex", "metadata"}


def _shape(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: ("<any>" if k in VOLATILE else _shape(v)) for k, v in value.items() if k not in DIFFERENT}
    if isinstance(value, list):
        return [_shape(v) for v in value]
    return value


def _call(mcp: McpServer, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    url = mcp.mcp_url("v2")
    with httpx.Client(timeout=10) as client:
        sid = client.post(url, json=INIT, headers=ACCEPT).headers["mcp-session-id"]
        before = {e["id"] for e in mcp.executions("v2")}
        headers = {**ACCEPT, "mcp-session-id": sid}
        client.post(url, json=rpc("tools/call", {"name": name, "arguments": arguments}, 9), headers=headers)
    new = wait_for(lambda: [e for e in mcp.executions("v2") if e["id"] not in before and e["status"] != "running"])
    assert len(new) == 1
    return mcp.execution(new[0]["id"])


def _recorded(golden: dict[str, Any], tool: str) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in golden["executions_v2"] if tool in e["data"]["resultData"]["runData"])
    return found


@pytest.mark.parametrize(
    ("tool", "name", "arguments"),
    [("Calculator", "Calculator", {"input": "2 + 3 * 4"}), ("Code Tool", "Code_Tool", {"a": 3, "b": "ab"})],
)
def test_a_call_is_stored_as_n8n_stores_it(
    mcp: McpServer, golden: dict[str, Any], tool: str, name: str, arguments: dict[str, Any]
) -> None:
    ours, theirs = _call(mcp, name, arguments), _recorded(golden, tool)
    assert (ours["status"], ours["mode"]) == (theirs["status"], theirs["mode"]) == ("success", "webhook")
    run_data, recorded = ours["data"]["resultData"]["runData"], theirs["data"]["resultData"]["runData"]
    assert sorted(run_data) == sorted(recorded)
    for node in recorded:
        assert _shape(run_data[node]) == _shape(recorded[node]), node
    assert ours["data"]["resultData"]["lastNodeExecuted"] == "MCP Server Trigger"
    assert [run_data[n][0]["executionIndex"] for n in ("MCP Server Trigger", tool)] == [0, 1]


def test_a_failing_tool_is_a_failed_run_in_a_successful_execution(mcp: McpServer, golden: dict[str, Any]) -> None:
    ours, theirs = _call(mcp, "Failing_Tool", {"input": "x"}), _recorded(golden, "Failing Tool")
    assert ours["status"] == theirs["status"] == "success"
    run, recorded = (
        ours["data"]["resultData"]["runData"]["Failing Tool"][0],
        theirs["data"]["resultData"]["runData"]["Failing Tool"][0],
    )
    assert run["executionStatus"] == recorded["executionStatus"] == "error"
    assert run["error"]["message"] == recorded["error"]["message"]
    assert run["inputOverride"] == recorded["inputOverride"]


def test_an_unknown_tool_is_an_execution_of_the_trigger_alone(mcp: McpServer, golden: dict[str, Any]) -> None:
    ours = _call(mcp, "Nope", {"input": "x"})
    theirs = next(
        e for e in golden["executions_v2"] if list(e["data"]["resultData"]["runData"]) == ["MCP Server Trigger"]
    )
    assert ours["status"] == theirs["status"] == "success"
    assert list(ours["data"]["resultData"]["runData"]) == ["MCP Server Trigger"]
    trigger = ours["data"]["resultData"]["runData"]["MCP Server Trigger"]
    assert _shape(trigger) == _shape(theirs["data"]["resultData"]["runData"]["MCP Server Trigger"])
