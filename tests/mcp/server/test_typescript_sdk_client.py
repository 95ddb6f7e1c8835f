"""The official TypeScript SDK's client (``@modelcontextprotocol/sdk`` 1.25.2, n8n 2.8.4's own) against a real Weft
server over streamable HTTP, with and without authentication.

The test installs the SDK itself from the npm registry (``npm ci`` with ``ts_client/package-lock.json``) into
``.cache/mcp-ts-client`` at the top of the checkout, once; it is skipped only when Node.js or npm is absent.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from ._workflows import BEARER_TOKEN
from .conftest import McpServer

HERE = Path(__file__).resolve().parent
SOURCE = HERE / "ts_client"
CACHE = HERE.parents[2] / ".cache" / "mcp-ts-client"
FILES = ("package.json", "package-lock.json", "client.mjs")

pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("npm") is None,
    reason="Node.js and npm are needed to run the TypeScript MCP SDK client (apt-get install nodejs npm)",
)


@pytest.fixture(scope="module")
def ts_client() -> Path:
    """The client folder with the SDK installed (``npm ci`` when the lockfile changed or nothing is installed)."""
    CACHE.mkdir(parents=True, exist_ok=True)
    changed = False
    for name in FILES:
        source, target = SOURCE / name, CACHE / name
        if not target.exists() or target.read_bytes() != source.read_bytes():
            shutil.copyfile(source, target)
            changed = changed or name != "client.mjs"
    if changed or not (CACHE / "node_modules" / "@modelcontextprotocol" / "sdk" / "package.json").exists():
        done = subprocess.run(
            ["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"],
            cwd=CACHE,
            capture_output=True,
            text=True,
            timeout=300,
        )
        assert done.returncode == 0, f"npm ci failed in {CACHE}: {done.stderr[-2000:]}"
    return CACHE


def run_client(
    folder: Path, url: str, headers: dict[str, str], tool: str, arguments: dict[str, Any]
) -> tuple[int, dict[str, Any]]:
    done = subprocess.run(
        ["node", "client.mjs", url, json.dumps(headers), tool, json.dumps(arguments)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=60,
    )
    lines = done.stdout.strip().splitlines()
    assert lines, f"the client printed nothing: {done.stderr[-2000:]}"
    result: dict[str, Any] = json.loads(lines[-1])
    return done.returncode, result


def test_lists_and_calls_tools(ts_client: Path, mcp: McpServer, golden: dict[str, Any]) -> None:
    code, result = run_client(ts_client, mcp.mcp_url("v2"), {}, "Code_Tool", {"a": 2, "b": "ok"})
    assert code == 0, result
    recorded = golden["streamable"]["initialize"]["events"][0]["result"]["serverInfo"]
    assert result["server"] == recorded
    names = [t["name"] for t in golden["streamable"]["tools_list"]["events"][0]["result"]["tools"]]
    assert [t["name"] for t in result["tools"]] == names
    assert result["called"] == {"content": [{"type": "text", "text": "okok"}]}


def test_bearer_auth(ts_client: Path, mcp: McpServer) -> None:
    good = {"authorization": f"Bearer {BEARER_TOKEN}"}
    code, result = run_client(ts_client, mcp.mcp_url("bearer"), good, "Calculator", {"input": "7*6"})
    assert code == 0, result
    assert result["called"]["content"][0]["text"] == "42"
    before = len(mcp.executions("bearer"))
    for headers in ({"authorization": "Bearer wrong"}, {}):
        code, result = run_client(ts_client, mcp.mcp_url("bearer"), headers, "Calculator", {"input": "1"})
        assert code == 1
        refusal = "Streamable HTTP error: Error POSTing to endpoint: Authorization data is wrong!"
        assert result == {"error": refusal, "code": 403}
    assert len(mcp.executions("bearer")) == before
