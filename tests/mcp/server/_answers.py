"""The recorder's view of an HTTP answer, shared with the tests: status, the headers that matter, the body."""

from __future__ import annotations

from typing import Any

import httpx

KEEP = ("content-type", "www-authenticate", "mcp-session-id", "cache-control", "allow")
INIT: dict[str, Any] = {
    "jsonrpc": "2.0",
    "id": 0,
    "method": "initialize",
    "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": {"name": "rec", "version": "1"}},
}
INITIALIZED = {"jsonrpc": "2.0", "method": "notifications/initialized"}


def rpc(method: str, params: dict[str, Any] | None = None, id_: int = 1) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
    if params is not None:
        message["params"] = params
    return message


def sse_messages(text: str) -> list[Any]:
    """The JSON of each ``data:`` line of an event stream."""
    import json

    out = []
    for line in text.splitlines():
        if line.startswith("data:"):
            data = line[5:].strip()
            try:
                out.append(json.loads(data))
            except ValueError:
                out.append(data)
    return out


def answer(response: httpx.Response) -> dict[str, Any]:
    entry: dict[str, Any] = {"status": response.status_code}
    headers = {name: response.headers[name] for name in KEEP if name in response.headers}
    if "mcp-session-id" in headers:
        headers["mcp-session-id"] = "<any>"
    entry["headers"] = headers
    kind = response.headers.get("content-type", "")
    if kind.startswith("text/event-stream"):
        entry["events"] = sse_messages(response.text)
    else:
        try:
            entry["body"] = response.json()
        except ValueError:
            entry["body"] = response.text
    return entry
