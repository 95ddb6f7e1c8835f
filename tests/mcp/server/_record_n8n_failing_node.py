"""Records what n8n answers to an MCP ``tools/call`` whose tool is a node that throws, and what it stores (by hand).

The tool is an HTTP Request Tool pointed at ``127.0.0.1:1`` (nothing listens there: the node fails with "The
service refused the connection"), served by a version 2 MCP Server Trigger (``_workflows.failing_node_workflow``)::

    .venv/bin/python tests/mcp/server/_record_n8n_failing_node.py --write /tmp/mcp-failing
    n8n import:workflow --input=/tmp/mcp-failing/workflow.json && n8n publish:workflow --id=mcpFailNode0001
    n8n start
    .venv/bin/python tests/mcp/server/_record_n8n_failing_node.py http://127.0.0.1:5798

It calls the tool with the official ``mcp`` SDK's client and writes ``n8n_mcp_failing_node_2.41.json``: the
result the client got, and the executions n8n stored (through its public API), ids, dates and stacks masked.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time
from pathlib import Path
from typing import Any

import httpx2
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client

sys.path.insert(0, str(Path(__file__).parent))
from _record_n8n_mcp import _no_stacks, execution_ids, public_client, record_executions
from _workflows import failing_node_workflow

WORKFLOW_ID = "mcpFailNode0001"
TOOL = "Fetch_Page"


async def _call(url: str) -> dict[str, Any]:
    async with (
        httpx2.AsyncClient(timeout=httpx2.Timeout(30, read=60)) as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        result = await session.call_tool(TOOL, {})
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)


def record(base: str) -> dict[str, Any]:
    pub = public_client(base)
    before = execution_ids(pub, WORKFLOW_ID)
    result = asyncio.run(_call(f"{base}/mcp/fail-node"))
    time.sleep(2)  # the execution is saved after the answer
    return _no_stacks({"call_result": result, "executions": record_executions(pub, WORKFLOW_ID, before)})


def main() -> None:
    if sys.argv[1] == "--write":
        folder = Path(sys.argv[2])
        folder.mkdir(parents=True, exist_ok=True)
        (folder / "workflow.json").write_text(json.dumps(failing_node_workflow(), indent=2))
        return
    out = Path(__file__).parent / "n8n_mcp_failing_node_2.41.json"
    out.write_text(json.dumps(record(sys.argv[1]), indent=2) + "\n")
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
