"""examples/mcp_server.py serves its two tools and examples/mcp_agent.json's agent uses them, with no API key."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from weft.engine import run_workflow
from weft.nodes.registry import default_registry

ROOT = Path(__file__).resolve().parents[3]


def _free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def _listening(port: int) -> bool:
    with socket.socket() as sock:
        return sock.connect_ex(("127.0.0.1", port)) == 0


@pytest.fixture
def example_server() -> Iterator[int]:
    port = _free_port()
    process = subprocess.Popen(
        [sys.executable, str(ROOT / "examples" / "mcp_server.py"), "--port", str(port)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 30
        while not _listening(port):
            assert process.poll() is None, "examples/mcp_server.py exited"
            assert time.monotonic() < deadline, "examples/mcp_server.py did not listen within 30 s"
            time.sleep(0.05)
        yield port
    finally:
        process.terminate()
        process.wait(timeout=10)


async def test_the_agent_example_uses_the_example_server(example_server: int) -> None:
    text = (ROOT / "examples" / "mcp_agent.json").read_text(encoding="utf-8")
    assert "http://127.0.0.1:8765/mcp" in text
    data = json.loads(text.replace("127.0.0.1:8765", f"127.0.0.1:{example_server}"))
    run = await run_workflow(data, registry=default_registry())
    assert run["status"] == "success"
    output = run["data"]["resultData"]["runData"]["AI Agent"][0]["data"]["main"][0][0]["json"]["output"]
    assert output.startswith("Based on the tools: Weather_Server_get_weather returned ")
    assert "Sunny, 22°C in Paris weather" in output
