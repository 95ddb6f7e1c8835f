"""SSE (trigger versions 1 and 1.1) and authentication, answer by answer as n8n 2.8.4 gave them."""

from __future__ import annotations

import contextlib
import json
import queue
import socket
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from ._answers import INIT, INITIALIZED, answer, rpc
from ._workflows import BEARER_TOKEN, HEADER
from .conftest import ACCEPT, McpServer


class Stream:
    """An open SSE ``GET`` over a plain socket, read in a thread; :meth:`next` gives its events.

    A socket, not httpx: shutting it down ends the reading thread at once, so the server sees the client leave.
    """

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.events: queue.Queue[tuple[str, Any]] = queue.Queue()
        self.status = 0
        self.headers: dict[str, str] = {}
        parsed = httpx.URL(url)
        self._sock = socket.create_connection((parsed.host, parsed.port or 80), timeout=10)
        lines = [f"GET {parsed.raw_path.decode()} HTTP/1.1", f"Host: {parsed.host}", "Accept: text/event-stream"]
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        self._sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode())
        self._file = self._sock.makefile("rb")
        self.status = int(self._file.readline().split()[1])
        while (line := self._file.readline().decode().strip()) != "":
            name, _, value = line.partition(":")
            self.headers[name.lower()] = value.strip()
        self._thread = threading.Thread(target=self._read, daemon=True)
        self._thread.start()

    def _read(self) -> None:
        event = "message"
        try:
            for raw in self._file:
                line = raw.decode().rstrip("\r\n")
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data = line[5:].strip()
                    self.events.put((event, json.loads(data) if data.startswith("{") else data))
                    event = "message"
        except (OSError, ValueError):
            return

    def next(self) -> tuple[str, Any]:
        return self.events.get(timeout=10)

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._sock.shutdown(socket.SHUT_RDWR)
        self._thread.join(5)
        self._file.close()
        self._sock.close()


@pytest.fixture
def stream(mcp: McpServer) -> Iterator[Stream]:
    opened = Stream(mcp.mcp_url("v1") + "/sse")
    yield opened
    opened.close()


def _headers(stream: Stream) -> dict[str, str]:
    return {k: stream.headers[k] for k in ("content-type", "cache-control") if k in stream.headers}


def test_sse_session(mcp: McpServer, stream: Stream, golden: dict[str, Any]) -> None:
    recorded = golden["sse_v1"]
    assert stream.status == 200
    assert _headers(stream) == recorded["get"]["headers"]
    event, endpoint = stream.next()
    assert {"event": event, "data": endpoint.split("?")[0].replace(mcp.paths["v1"], "rec-v1") + "?sessionId=<any>"} == (
        recorded["endpoint_event"]
    )
    with httpx.Client(timeout=10) as client:
        for key, message in [
            ("initialize", INIT),
            ("initialized", INITIALIZED),
            ("tools_list", rpc("tools/list", id_=1)),
            ("call_calculator", rpc("tools/call", {"name": "Calculator", "arguments": {"input": "6*7"}}, 2)),
            ("call_failing", rpc("tools/call", {"name": "Failing_Tool", "arguments": {"input": "x"}}, 3)),
            ("call_unknown", rpc("tools/call", {"name": "Nope", "arguments": {}}, 4)),
        ]:
            entry: dict[str, Any] = {"post": answer(client.post(mcp.url + endpoint, json=message, headers=ACCEPT))}
            if "id" in message:
                entry["event"] = list(stream.next())
            assert entry == recorded[key], key
        session_id = endpoint.split("sessionId=")[-1]
        deleted = client.delete(f"{mcp.mcp_url('v1')}?sessionId={session_id}")
        assert answer(deleted) == recorded["delete"]


def test_sse_refusals(mcp: McpServer, golden: dict[str, Any]) -> None:
    recorded = golden["sse_v1"]
    with httpx.Client(timeout=10) as client:
        unknown = client.post(mcp.mcp_url("v1") + "/messages?sessionId=bogus", json=INIT, headers=ACCEPT)
        assert answer(unknown) == recorded["unknown_session"]
        missing = client.post(mcp.mcp_url("v1") + "/messages", json=rpc("tools/list", id_=9), headers=ACCEPT)
        assert answer(missing) == recorded["no_session"]


def test_version_1_1_names_the_server_after_the_node(mcp: McpServer, golden: dict[str, Any]) -> None:
    opened = Stream(mcp.mcp_url("v11") + "/sse")
    try:
        _, endpoint = opened.next()
        httpx.post(mcp.url + endpoint, json=INIT, headers=ACCEPT, timeout=10)
        assert list(opened.next()) == golden["sse_v11"]["initialize"]["event"]
    finally:
        opened.close()


def test_version_2_also_opens_an_sse_session_on_get(mcp: McpServer, golden: dict[str, Any]) -> None:
    opened = Stream(mcp.mcp_url("v2"))
    try:
        assert _headers(opened) == golden["get_v2"]["headers"]
        event, endpoint = opened.next()
        assert event == golden["get_v2"]["first"][0]
        assert endpoint.startswith(f"/mcp/{mcp.paths['v2']}?sessionId=")
        httpx.post(mcp.url + endpoint, json=rpc("tools/list", id_=1), headers=ACCEPT, timeout=10)
        assert opened.next()[1]["result"]["tools"]
    finally:
        opened.close()


AUTH = {
    "bearer": ({"authorization": f"Bearer {BEARER_TOKEN}"}, {"authorization": "Bearer nope"}),
    "header": ({HEADER[0]: HEADER[1]}, {HEADER[0]: "nope"}),
}


@pytest.mark.parametrize("name", list(AUTH))
def test_refused_without_the_right_credentials(mcp: McpServer, golden: dict[str, Any], name: str) -> None:
    good, wrong = AUTH[name]
    recorded = golden["auth"]
    url = mcp.mcp_url(name)
    before = len(mcp.executions(name))
    with httpx.Client(timeout=10) as client:
        assert answer(client.post(url, json=INIT, headers=ACCEPT)) == recorded[f"{name}_missing"]
        assert answer(client.post(url, json=INIT, headers={**ACCEPT, **wrong})) == recorded[f"{name}_wrong"]
        assert answer(client.delete(url)) == recorded[f"{name}_delete_missing"]
        refused = client.get(url, headers={"accept": "text/event-stream"})
        assert answer(refused) == recorded[f"{name}_get_missing"]
        init = client.post(url, json=INIT, headers={**ACCEPT, **good})
        listed = client.post(
            url, json=rpc("tools/list"), headers={**ACCEPT, **good, "mcp-session-id": init.headers["mcp-session-id"]}
        )
        assert answer(listed) == recorded[f"{name}_ok"]
        call = rpc("tools/call", {"name": "Calculator", "arguments": {"input": "1+1"}}, 2)
        sid = {"mcp-session-id": init.headers["mcp-session-id"]}
        assert client.post(url, json=call, headers={**ACCEPT, **wrong, **sid}).status_code == 403
    assert len(mcp.executions(name)) == before  # a refused call runs nothing


def test_sse_with_bearer_auth(mcp: McpServer, golden: dict[str, Any]) -> None:
    recorded = golden["auth"]
    refused = Stream(mcp.mcp_url("bearer_v1") + "/sse")
    assert refused.status == 403
    refused.close()
    messages = httpx.post(mcp.mcp_url("bearer_v1") + "/messages?sessionId=x", json=INIT, headers=ACCEPT, timeout=10)
    assert answer(messages) == recorded["bearer_v1_messages_missing"]
    good = AUTH["bearer"][0]
    opened = Stream(mcp.mcp_url("bearer_v1") + "/sse", good)
    try:
        _, endpoint = opened.next()
        posted = httpx.post(mcp.url + endpoint, json=rpc("tools/list"), headers={**ACCEPT, **good}, timeout=10)
        assert {"post": answer(posted), "event": list(opened.next())} == recorded["bearer_v1_sse_ok"]
    finally:
        opened.close()
