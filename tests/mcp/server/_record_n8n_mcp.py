"""Records what n8n answers on the MCP Server Trigger's URLs, and what it stores for a tool call (run by hand).

Write the workflows and credentials, import them into a fresh n8n, publish the workflows, start it::

    .venv/bin/python tests/mcp/server/_record_n8n_mcp.py --write /tmp/mcp-import
    n8n import:credentials --input=/tmp/mcp-import/creds.json
    n8n import:workflow --separate --input=/tmp/mcp-import/workflows   # then publish:workflow --id=<each id>
    n8n start
    .venv/bin/python tests/mcp/server/_record_n8n_mcp.py http://127.0.0.1:5781 [tag]

It writes ``tests/mcp/server/n8n_mcp_answers[_<tag>].json``: for each exchange the HTTP status, the headers that
matter, and the body (JSON-RPC messages parsed out of server-sent events); and the executions n8n stored
(through its public API), with ids and dates masked.
"""

from __future__ import annotations

import json
import queue
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).parent))
from _answers import INIT, INITIALIZED, answer, rpc
from _workflows import BEARER_TOKEN, CREDENTIALS, HEADER, WORKFLOWS

OWNER = {"email": "owner@example.com", "firstName": "Ada", "lastName": "Owner", "password": "Passw0rd-long"}
ACCEPT = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
KEEP = ("content-type", "www-authenticate", "mcp-session-id", "cache-control", "allow")
VOLATILE = {"id", "startedAt", "stoppedAt", "createdAt", "startTime", "executionTime", "waitTill", "workflowId"}


def write_import(folder: Path) -> None:
    (folder / "workflows").mkdir(parents=True, exist_ok=True)
    for name, workflow in WORKFLOWS.items():
        (folder / "workflows" / f"{name}.json").write_text(json.dumps(workflow, indent=2))
    (folder / "creds.json").write_text(json.dumps(CREDENTIALS, indent=2))


def record_streamable(base: str, path: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    url = f"{base}/mcp/{path}"
    extra = headers or {}
    out: dict[str, Any] = {}
    c = httpx.Client(timeout=30)
    init = c.post(url, json=INIT, headers={**ACCEPT, **extra})
    out["initialize"] = answer(init)
    sid = init.headers.get("mcp-session-id", "")
    h = {**ACCEPT, **extra, "mcp-session-id": sid}
    out["initialized"] = answer(c.post(url, json=INITIALIZED, headers=h))
    out["tools_list"] = answer(c.post(url, json=rpc("tools/list", id_=1), headers=h))
    calls = {
        "call_calculator": ("Calculator", {"input": "2 + 3 * 4"}),
        "call_code": ("Code_Tool", {"a": 3, "b": "ab"}),
        "call_think": ("Think", {"input": "a thought"}),
        "call_failing": ("Failing_Tool", {"input": "x"}),
        "call_calculator_bad": ("Calculator", {"input": "2 +* 3"}),
        "call_unknown": ("Nope", {"input": "x"}),
    }
    for index, (key, (name, arguments)) in enumerate(calls.items(), start=2):
        out[key] = answer(c.post(url, json=rpc("tools/call", {"name": name, "arguments": arguments}, index), headers=h))
        time.sleep(0.3)
    out["call_no_arguments"] = answer(c.post(url, json=rpc("tools/call", {"name": "Calculator"}, 20), headers=h))
    out["ping"] = answer(c.post(url, json=rpc("ping", id_=21), headers=h))
    out["unknown_method"] = answer(c.post(url, json=rpc("resources/list", id_=22), headers=h))
    out["not_json"] = answer(c.post(url, content=b"{nope", headers=h))
    out["unknown_session"] = answer(
        c.post(url, json=rpc("tools/list", id_=23), headers={**ACCEPT, **extra, "mcp-session-id": "bogus"})
    )
    out["no_session_not_initialize"] = answer(c.post(url, json=rpc("tools/list", id_=24), headers={**ACCEPT, **extra}))
    out["json_accept_only"] = answer(
        c.post(url, json=INIT, headers={**extra, "accept": "application/json", "content-type": "application/json"})
    )
    out["delete_no_session"] = answer(c.delete(url, headers=extra))
    out["delete"] = answer(c.delete(url, headers={**extra, "mcp-session-id": sid}))
    out["delete_again"] = answer(c.delete(url, headers={**extra, "mcp-session-id": sid}))
    out["after_delete"] = answer(c.post(url, json=rpc("tools/list", id_=25), headers=h))
    out["put"] = answer(c.put(url, json={}, headers=extra))
    return out


class SseStream:
    """An open ``GET …/sse`` stream read in a thread; :meth:`next` returns its events one by one."""

    def __init__(self, url: str, headers: dict[str, str] | None = None) -> None:
        self.events: queue.Queue[tuple[str, str]] = queue.Queue()
        self.status: int | None = None
        self.headers: dict[str, str] = {}
        self.body = ""
        self._ready = threading.Event()
        self._client = httpx.Client(timeout=httpx.Timeout(30, read=60))
        self._thread = threading.Thread(target=self._read, args=(url, headers or {}), daemon=True)
        self._thread.start()
        self._ready.wait(30)

    def _read(self, url: str, headers: dict[str, str]) -> None:
        with self._client.stream("GET", url, headers={"accept": "text/event-stream", **headers}) as response:
            self.status = response.status_code
            self.headers = {k: response.headers[k] for k in KEEP if k in response.headers}
            self._ready.set()
            if not response.headers.get("content-type", "").startswith("text/event-stream"):
                self.body = response.read().decode()
                return
            event = "message"
            for line in response.iter_lines():
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    self.events.put((event, line[5:].strip()))
                    event = "message"

    def next(self, timeout: float = 30) -> tuple[str, Any]:
        try:
            event, data = self.events.get(timeout=timeout)
        except queue.Empty:
            return "<none>", None
        try:
            return event, json.loads(data)
        except ValueError:
            return event, data

    def close(self) -> None:
        self._client.close()


def record_sse(base: str, path: str, headers: dict[str, str] | None = None) -> dict[str, Any]:
    extra = headers or {}
    out: dict[str, Any] = {}
    stream = SseStream(f"{base}/mcp/{path}/sse", extra)
    out["get"] = {"status": stream.status, "headers": stream.headers}
    if stream.status != 200:
        out["get"]["body"] = stream.body
        return out
    event, endpoint = stream.next()
    out["endpoint_event"] = {"event": event, "data": str(endpoint).split("?")[0] + "?sessionId=<any>"}
    post = f"{base}{endpoint}"
    c = httpx.Client(timeout=30)
    h = {**ACCEPT, **extra}
    for key, message in [
        ("initialize", INIT),
        ("initialized", INITIALIZED),
        ("tools_list", rpc("tools/list", id_=1)),
        ("call_calculator", rpc("tools/call", {"name": "Calculator", "arguments": {"input": "6*7"}}, 2)),
        ("call_failing", rpc("tools/call", {"name": "Failing_Tool", "arguments": {"input": "x"}}, 3)),
        ("call_unknown", rpc("tools/call", {"name": "Nope", "arguments": {}}, 4)),
    ]:
        posted = answer(c.post(post, json=message, headers=h))
        entry: dict[str, Any] = {"post": posted}
        if "id" in message:
            entry["event"] = stream.next()
        out[key] = entry
    out["unknown_session"] = answer(c.post(f"{base}/mcp/{path}/messages?sessionId=bogus", json=INIT, headers=h))
    out["no_session"] = answer(c.post(f"{base}/mcp/{path}/messages", json=rpc("tools/list", id_=9), headers=h))
    sid = str(endpoint).split("sessionId=")[-1]
    out["delete"] = answer(c.delete(f"{base}/mcp/{path}?sessionId={sid}", headers=extra))
    stream.close()
    return out


def record_auth(base: str) -> dict[str, Any]:
    c = httpx.Client(timeout=30)
    out: dict[str, Any] = {}
    for name, path, good, wrong in [
        ("bearer", "rec-bearer", {"authorization": f"Bearer {BEARER_TOKEN}"}, {"authorization": "Bearer nope"}),
        ("header", "rec-header", {HEADER[0]: HEADER[1]}, {HEADER[0]: "nope"}),
    ]:
        url = f"{base}/mcp/{path}"
        out[f"{name}_missing"] = answer(c.post(url, json=INIT, headers=ACCEPT))
        out[f"{name}_wrong"] = answer(c.post(url, json=INIT, headers={**ACCEPT, **wrong}))
        out[f"{name}_delete_missing"] = answer(c.delete(url))
        out[f"{name}_get_missing"] = answer(c.get(url, headers={"accept": "text/event-stream"}))
        out[f"{name}_ok"] = record_streamable(base, path, good)["tools_list"]
    stream = SseStream(f"{base}/mcp/rec-bearer-v1/sse")
    out["bearer_v1_sse_missing"] = {"status": stream.status, "headers": stream.headers, "body": stream.body}
    stream.close()
    out["bearer_v1_messages_missing"] = answer(
        c.post(f"{base}/mcp/rec-bearer-v1/messages?sessionId=x", json=INIT, headers=ACCEPT)
    )
    sse_ok = record_sse(base, "rec-bearer-v1", {"authorization": f"Bearer {BEARER_TOKEN}"})
    out["bearer_v1_sse_ok"] = sse_ok.get("tools_list")
    return out


def _mask(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: ("<any>" if k in VOLATILE and v is not None else _mask(v)) for k, v in value.items()}
    if isinstance(value, list):
        return [_mask(v) for v in value]
    return value


def public_client(base: str) -> httpx.Client:
    """A public-API client of the live n8n (the owner is set up on first use, an API key created)."""
    c = httpx.Client(base_url=base, timeout=30)
    if c.post("/rest/owner/setup", json=OWNER).status_code != 200:
        c.post("/rest/login", json={"emailOrLdapLoginId": OWNER["email"], "password": OWNER["password"]})
    scopes = c.get("/rest/api-keys/scopes").json()["data"]
    key = c.post("/rest/api-keys", json={"label": f"rec{time.time()}", "expiresAt": None, "scopes": scopes})
    return httpx.Client(base_url=base, timeout=30, headers={"X-N8N-API-KEY": key.json()["data"]["rawApiKey"]})


def execution_ids(pub: httpx.Client, workflow_id: str) -> list[int]:
    listed = pub.get("/api/v1/executions", params={"workflowId": workflow_id, "limit": 250}).json()["data"]
    return sorted(int(row["id"]) for row in listed)


def record_executions(pub: httpx.Client, workflow_id: str, before: list[int]) -> list[dict[str, Any]]:
    """The executions n8n stored for the workflow since ``before``, oldest first, with their data."""
    out = []
    for execution_id in execution_ids(pub, workflow_id):
        if execution_id not in before:
            full = pub.get(f"/api/v1/executions/{execution_id}", params={"includeData": "true"}).json()
            out.append(_mask(full))
    return out


def _no_stacks(value: Any) -> Any:
    """Stack traces name paths of the recording machine: kept as a placeholder."""
    if isinstance(value, dict):
        return {
            k: ("<n8n's stack trace>" if k in ("stacktrace", "stack") and isinstance(v, str) else _no_stacks(v))
            for k, v in value.items()
        }
    if isinstance(value, list):
        return [_no_stacks(v) for v in value]
    return value


def main() -> None:
    if sys.argv[1] == "--write":
        write_import(Path(sys.argv[2]))
        return
    base = sys.argv[1].rstrip("/")
    tag = f"_{sys.argv[2]}" if len(sys.argv) > 2 else ""
    answers: dict[str, Any] = {}
    pub = public_client(base)
    before = {name: execution_ids(pub, WORKFLOWS[name]["id"]) for name in ("v2", "v1")}
    answers["streamable"] = record_streamable(base, "rec-v2")
    answers["get_v2"] = {}
    stream = SseStream(f"{base}/mcp/rec-v2")
    answers["get_v2"] = {
        "status": stream.status,
        "headers": stream.headers,
        "first": stream.next(5),
        "body": stream.body,
    }
    stream.close()
    answers["sse_v1"] = record_sse(base, "rec-v1")
    answers["sse_v11"] = record_sse(base, "rec-v11")
    answers["test_url"] = answer(httpx.post(f"{base}/mcp-test/rec-v2", json=INIT, headers=ACCEPT, timeout=30))
    answers["auth"] = record_auth(base)
    time.sleep(2)
    answers["executions_v2"] = record_executions(pub, WORKFLOWS["v2"]["id"], before["v2"])
    answers["executions_v1"] = record_executions(pub, WORKFLOWS["v1"]["id"], before["v1"])
    target = Path(__file__).with_name(f"n8n_mcp_answers{tag}.json")
    target.write_text(json.dumps(_no_stacks(answers), indent=2, sort_keys=True) + "\n")
    print("wrote", target)


if __name__ == "__main__":
    main()
