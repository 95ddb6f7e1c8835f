"""A small MCP server with two tools, on the official ``mcp`` SDK (streamable HTTP on 127.0.0.1).

    .venv/bin/python examples/mcp_server.py --port 8765    # serves http://127.0.0.1:8765/mcp

``examples/mcp_agent.json`` is an agent that uses it through the MCP Client Tool.
"""

from __future__ import annotations

import argparse
from datetime import UTC, datetime

import uvicorn
from mcp.server.mcpserver import MCPServer

server = MCPServer("weather-example", version="1.0.0")


@server.tool(description="Current weather for a city.", structured_output=False)
def get_weather(city: str) -> str:
    """A made-up forecast: every city is sunny."""
    return f"Sunny, 22°C in {city}"


@server.tool(description="The current time in UTC.", structured_output=False)
def get_time() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    app = server.streamable_http_app(json_response=True)
    print(f"MCP server on http://127.0.0.1:{args.port}/mcp", flush=True)
    uvicorn.run(app, host="127.0.0.1", port=args.port, log_level="warning")


if __name__ == "__main__":
    main()
