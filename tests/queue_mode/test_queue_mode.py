"""Queue mode end to end: a main queues webhook executions, workers run them, answers come back."""

from __future__ import annotations

import json
import subprocess
import sys
import threading
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from tests.queue_mode.conftest import Cluster
from tests.server.conftest import example_workflow, unique_path, wait_for

from weft.services.import_export import open_store


def test_a_worker_runs_the_webhook_execution_and_the_main_answers(cluster: Cluster) -> None:
    cluster.start_main()
    cluster.start_worker()
    path = unique_path("queue")
    with cluster.client() as client:
        data = example_workflow("webhook_set_respond.json", path)
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        answer = client.post(f"/webhook/{path}", json={"a": 1, "b": 2, "name": "x", "tags": ["t"]})
        assert answer.status_code == 200, answer.text
        assert answer.json()["total"] == 3
    # answered by Respond to Webhook: the worker saves the execution just after
    done = wait_for(lambda: [e for e in _executions(cluster, data["id"]) if e.status == "success"])
    assert len(done) == 1 and done[0].mode == "webhook"


def test_an_execution_waits_in_the_queue_until_a_worker_comes(cluster: Cluster) -> None:
    cluster.start_main()
    path = unique_path("queued")
    with cluster.client() as client:
        data = example_workflow("webhook_set_respond.json", path)
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        result: dict[str, Any] = {}
        call = threading.Thread(
            target=lambda: result.update(
                answer=client.post(f"/webhook/{path}", json={"a": 2, "b": 3, "name": "y", "tags": []})
            )
        )
        call.start()
        queued = wait_for(lambda: _executions(cluster, data["id"]))
        assert [e.status for e in queued] == ["new"]  # stored, no worker has it
        cluster.start_worker()
        call.join(60)
    assert result["answer"].status_code == 200 and result["answer"].json()["total"] == 5
    wait_for(lambda: [e.status for e in _executions(cluster, data["id"])] == ["success"])


def _executions(cluster: Cluster, workflow_id: str) -> list[Any]:
    store = open_store(cluster.settings())
    try:
        return store.executions.list(workflow_id=workflow_id)
    finally:
        store.close()


class _Gate(BaseHTTPRequestHandler):
    """A local HTTP stub that holds each request until the test opens the gate."""

    opened = threading.Event()
    arrived = threading.Event()

    def do_GET(self) -> None:
        type(self).arrived.set()
        type(self).opened.wait(60)
        body = b'{"done": true}'
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def gate() -> Iterator[tuple[str, type[_Gate]]]:
    handler = type("Gate", (_Gate,), {"opened": threading.Event(), "arrived": threading.Event()})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/hold", handler
    finally:
        handler.opened.set()
        server.shutdown()
        server.server_close()


def _respond_then_hold(path: str, hold_url: str) -> dict[str, Any]:
    return {
        "id": uuid.uuid4().hex[:16],
        "name": "respond then hold",
        "nodes": [
            {"id": "w", "name": "Webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 2.1, "position": [0, 0],
             "webhookId": str(uuid.uuid4()),
             "parameters": {"httpMethod": "POST", "path": path, "responseMode": "responseNode"}},
            {"id": "r", "name": "Respond", "type": "n8n-nodes-base.respondToWebhook", "typeVersion": 1.4,
             "position": [200, 0],
             "parameters": {"respondWith": "json", "responseBody": "={{ { answered: $json.body.n } }}"}},
            {"id": "h", "name": "Hold", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [400, 0],
             "parameters": {"url": hold_url, "options": {}}},
        ],
        "connections": {
            "Webhook": {"main": [[{"node": "Respond", "type": "main", "index": 0}]]},
            "Respond": {"main": [[{"node": "Hold", "type": "main", "index": 0}]]},
        },
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip


def test_respond_to_webhook_answers_while_the_worker_still_runs(cluster: Cluster, gate: Any) -> None:
    hold_url, handler = gate
    cluster.start_main()
    cluster.start_worker()
    path = unique_path("respond")
    with cluster.client() as client:
        data = _respond_then_hold(path, hold_url)
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        answer = client.post(f"/webhook/{path}", json={"n": 7})
        assert answer.status_code == 200 and answer.json() == {"answered": 7}
        assert handler.arrived.wait(30)
        running = _executions(cluster, data["id"])
        assert [e.status for e in running] == ["running"]  # the answer came before the end
        handler.opened.set()
        wait_for(lambda: [e.status for e in _executions(cluster, data["id"])] == ["success"], timeout=30)


@pytest.mark.parametrize("command", ["worker", "webhook", "start"])
def test_queue_mode_refuses_sqlite_with_the_fix(command: str, tmp_path: Any) -> None:
    env = {"WEFT_USER_FOLDER": str(tmp_path), "WEFT_EXECUTIONS_MODE": "queue", "PATH": "/usr/bin:/bin"}
    done = subprocess.run(
        [sys.executable, "-m", "weft", command, *(["--port", "0"] if command != "worker" else [])],
        env=env, capture_output=True, text=True, timeout=60,
    )  # fmt: skip
    assert done.returncode != 0
    assert "Queue mode (WEFT_EXECUTIONS_MODE=queue) needs PostgreSQL" in done.stderr


def test_a_wait_resumes_on_a_worker_from_its_signed_link(cluster: Cluster) -> None:
    cluster.start_main()
    cluster.start_worker()
    path = unique_path("wait")
    with cluster.client() as client:
        data = example_workflow("wait_approval.json", path)
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        info = client.post(f"/webhook/{path}", json={"request": "queue"}).json()
        wait_for(lambda: client.get(f"/rest/executions/{info['executionId']}").json()["data"]["status"] == "waiting")
        resumed = client.post(info["resumeUrl"], json={"approved": True})
        assert resumed.status_code == 200, resumed.text
        done = wait_for(
            lambda: (
                (e := client.get(f"/rest/executions/{info['executionId']}").json()["data"])["status"] == "success" and e
            )
        )
    assert done["data"]["resultData"]["runData"]["Decision"][0]["data"]["main"][0][0]["json"]["approved"] is True


def test_stop_reaches_the_worker_that_runs_the_execution(cluster: Cluster, gate: Any) -> None:
    hold_url, handler = gate
    cluster.start_main()
    cluster.start_worker()
    path = unique_path("stop")
    with cluster.client() as client:
        data = _respond_then_hold(path, hold_url)
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        assert client.post(f"/webhook/{path}", json={"n": 1}).status_code == 200
        assert handler.arrived.wait(30)
        (running,) = _executions(cluster, data["id"])
        stopped = client.post(f"/rest/executions/{running.id}/stop")
        assert stopped.status_code == 200, stopped.text
        wait_for(lambda: [e.status for e in _executions(cluster, data["id"])] == ["canceled"], timeout=30)


def test_a_streaming_chat_streams_from_the_worker(cluster: Cluster) -> None:
    from tests.server.test_chat import chat_workflow, message

    cluster.start_main()
    cluster.start_worker()
    data, webhook_id = chat_workflow(["Hello there, Ada"], options={"responseMode": "streaming"})
    with cluster.client() as client:
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        response = client.post(f"/webhook/{webhook_id}/chat", json=message("Hi"))
    assert response.status_code == 200
    chunks = [json.loads(line) for line in response.text.splitlines() if line]
    assert (chunks[0]["type"], chunks[-1]["type"]) == ("begin", "end")
    items = [c["content"] for c in chunks if c["type"] == "item"]
    assert "".join(items) == "Hello there, Ada" and len(items) > 1  # token by token, relayed in order
    wait_for(lambda: [e.status for e in _executions(cluster, data["id"])] == ["success"])


def _agent_fetching(hold_url: str, answer: str) -> tuple[dict[str, Any], str]:
    """Chat Trigger → AI Agent (scripted: call Fetch, then ``answer``) with an HTTP Request Tool "Fetch"."""
    from tests.server.test_chat import chat_workflow

    from weft.testing.workflows import node

    data, webhook_id = chat_workflow([{"tool": "Fetch", "args": {}}, answer], memory=False)
    fetch = node("Fetch", "n8n-nodes-base.httpRequestTool", {"url": hold_url, "toolDescription": "Fetch"}, version=4.2)
    data["nodes"].append({**fetch, "id": str(uuid.uuid4())})
    data["connections"]["Fetch"] = {"ai_tool": [[{"node": "AI Agent", "type": "ai_tool", "index": 0}]]}
    return data, webhook_id


def test_a_tool_an_agent_requests_runs_on_another_worker(cluster: Cluster, gate: Any) -> None:
    from tests.server.test_chat import message

    hold_url, handler = gate
    cluster.env["WEFT_QUEUE_TOOLS_ON_WORKERS"] = "true"
    cluster.start_main()
    workers = [cluster.start_worker(concurrency=1) for _ in range(2)]
    data, webhook_id = _agent_fetching(hold_url, "The service said it is done.")
    with cluster.client() as client:
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        result: dict[str, Any] = {}
        call = threading.Thread(
            target=lambda: result.update(answer=client.post(f"/webhook/{webhook_id}/chat", json=message("Go")))
        )
        call.start()
        assert handler.arrived.wait(30)  # the tool node runs and holds
        # each worker has one slot: the agent's job holds one, the tool's job the other
        doing = _rows(cluster, "SELECT task_name, worker_id FROM procrastinate_jobs WHERE status = 'doing'")
        assert sorted(task for task, _ in doing) == ["weft.run_execution", "weft.run_tool"]
        assert len({worker for _, worker in doing}) == 2 and all(w.alive() for w in workers)
        handler.opened.set()
        call.join(60)
    assert result["answer"].status_code == 200, result["answer"].text
    assert result["answer"].json()["output"] == "The service said it is done."
    (done,) = wait_for(lambda: [e for e in _executions(cluster, data["id"]) if e.status == "success"])
    run_data = _full(cluster, done.id).data["resultData"]["runData"]
    assert [task["executionStatus"] for task in run_data["Fetch"]] == ["success"]  # one ordinary node run
    assert run_data["Fetch"][0]["data"]["ai_tool"][0][0]["json"] == {"done": True}
    assert len(run_data["AI Agent"]) == 1  # the agent keeps one run record


def _rows(cluster: Cluster, sql: str) -> list[tuple[Any, ...]]:
    import psycopg

    from weft.queue.tasks import libpq_url

    with psycopg.connect(libpq_url(cluster.settings().database_url)) as connection:
        return [tuple(row) for row in connection.execute(sql).fetchall()]


def _full(cluster: Cluster, execution_id: str) -> Any:
    store = open_store(cluster.settings())
    try:
        return store.executions.get(execution_id)
    finally:
        store.close()


def test_a_tool_no_other_worker_takes_runs_on_the_agents_worker(cluster: Cluster, gate: Any) -> None:
    from tests.server.test_chat import message

    hold_url, handler = gate
    handler.opened.set()
    cluster.env["WEFT_QUEUE_TOOLS_ON_WORKERS"] = "true"
    cluster.start_main()
    cluster.start_worker(concurrency=1)  # its one slot runs the agent: nobody else could take the tool
    data, webhook_id = _agent_fetching(hold_url, "Done anyway.")
    with cluster.client() as client:
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        answer = client.post(f"/webhook/{webhook_id}/chat", json=message("Go"))
    assert answer.status_code == 200 and answer.json()["output"] == "Done anyway."
    assert handler.arrived.is_set()
    assert _rows(cluster, "SELECT count(*) FROM procrastinate_jobs WHERE task_name = 'weft.run_tool'") == [(0,)]
