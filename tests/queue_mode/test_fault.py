"""The fault test of queue mode (issue 22): one main, three workers, 500 webhook executions of a workflow that
calls a slow local HTTP stub and inserts a row into a table with a primary key; two workers are killed with SIGKILL
mid-run. Every execution ends, none is left running or queued, no row is written twice, and the executions the
killed workers held finish on the surviving worker within 15 s."""

from __future__ import annotations

import signal
import threading
import time
import uuid
from collections.abc import Iterator
from datetime import UTC, datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import httpx
import psycopg
import pytest
from tests.queue_mode.conftest import SCHEMA, Cluster
from tests.server.conftest import wait_for

from weft.queue.tasks import libpq_url
from weft.services.import_export import open_store

EXECUTIONS = 500
STUB_DELAY_S = 0.05
RECOVERY_S = 15.0


class _Slow(BaseHTTPRequestHandler):
    def do_GET(self) -> None:
        time.sleep(STUB_DELAY_S)
        self.send_response(200)
        self.send_header("content-type", "application/json")
        self.send_header("content-length", "2")
        self.end_headers()
        self.wfile.write(b"{}")

    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def slow_stub() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Slow)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/slow"
    finally:
        server.shutdown()
        server.server_close()


def _workflow(path: str, stub: str, credential_id: str) -> dict[str, Any]:
    insert = "={{ \"INSERT INTO weft_queue.queue_fault (key) VALUES ('\" + $('Webhook').item.json.body.key + \"')\" }}"
    return {
        "id": uuid.uuid4().hex[:16],
        "name": "queue fault",
        "nodes": [
            {"id": "w", "name": "Webhook", "type": "n8n-nodes-base.webhook", "typeVersion": 2.1, "position": [0, 0],
             "webhookId": str(uuid.uuid4()), "parameters": {"httpMethod": "POST", "path": path}},
            {"id": "h", "name": "Slow", "type": "n8n-nodes-base.httpRequest", "typeVersion": 4.2, "position": [200, 0],
             "parameters": {"url": stub, "options": {}}},
            {"id": "p", "name": "Insert", "type": "n8n-nodes-base.postgres", "typeVersion": 2.6, "position": [400, 0],
             "parameters": {"operation": "executeQuery", "query": insert, "options": {}},
             "credentials": {"postgres": {"id": credential_id, "name": "queue pg"}}},
        ],
        "connections": {
            "Webhook": {"main": [[{"node": "Slow", "type": "main", "index": 0}]]},
            "Slow": {"main": [[{"node": "Insert", "type": "main", "index": 0}]]},
        },
        "settings": {"executionOrder": "v1", "saveExecutionProgress": True},
    }  # fmt: skip


def _credential(url: str) -> dict[str, Any]:
    parsed = httpx.URL(url)
    return {
        "host": parsed.host, "port": parsed.port or 5432, "database": parsed.path.lstrip("/"),
        "user": parsed.username, "password": parsed.password, "ssl": "disable",
    }  # fmt: skip


def test_two_workers_killed_mid_run_lose_nothing_and_write_nothing_twice(cluster: Cluster, slow_stub: str) -> None:
    conninfo = libpq_url(cluster.settings().database_url)
    with psycopg.connect(conninfo, autocommit=True) as db:
        db.execute(f"CREATE TABLE {SCHEMA}.queue_fault (key text PRIMARY KEY)")
        cluster.start_main()
        workers = [cluster.start_worker(concurrency=10) for _ in range(3)]
        path = f"fault-{uuid.uuid4().hex[:8]}"
        with cluster.client() as client:
            created = client.post(
                "/rest/credentials",
                json={"name": "queue pg", "type": "postgres", "data": _credential(_database(cluster))},
            )
            assert created.status_code == 201, created.text
            data = _workflow(path, slow_stub, created.json()["data"]["id"])
            assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
            began = time.monotonic()
            for n in range(EXECUTIONS):
                assert client.post(f"/webhook/{path}", json={"key": f"k{n}"}).status_code == 200
            print(f"queued {EXECUTIONS} in {time.monotonic() - began:.1f} s")
        wait_for(lambda: _count(db, "SELECT count(*) FROM queue_fault") >= EXECUTIONS // 3, timeout=120)
        killed = [f"{w.popen.pid}" for w in workers[:2]]
        for worker in workers[:2]:
            worker.kill(signal.SIGKILL)
        killed_at = datetime.now(UTC)
        held = [
            str(row[0])
            for row in db.execute("SELECT execution_id, worker FROM execution_claim WHERE lease_until IS NOT NULL")
            if str(row[1]).rsplit(":", 1)[-1] in killed
        ]
        wait_for(lambda: _count(db, _UNFINISHED) == 0, timeout=300)
        print(f"all ended {time.monotonic() - began:.1f} s after the first call; {len(held)} held by the killed")
        rows = _count(db, "SELECT count(*) FROM queue_fault")
        distinct = _count(db, "SELECT count(DISTINCT key) FROM queue_fault")
    store = open_store(cluster.settings())
    try:
        executions = store.executions.list(workflow_id=data["id"], limit=EXECUTIONS * 2)
        resumed = [store.executions.get(e, include_data=True) for e in held]
    finally:
        store.close()
    assert len(executions) == EXECUTIONS
    assert rows == distinct == EXECUTIONS  # every key once: the primary key refuses a second write
    statuses = {e.status for e in executions}
    assert statuses <= {"success", "error"}, statuses
    failed = [e for e in executions if e.status == "error"]
    # at-least-once: only an execution killed after its insert and before its progress was saved runs the
    # insert again, and the primary key makes that run fail instead of writing twice
    assert {e.id for e in failed} <= set(held)
    assert held, "the kill came when the killed workers held no execution"
    for execution in resumed:
        assert execution is not None and execution.stopped_at is not None
        assert (execution.stopped_at - killed_at).total_seconds() <= RECOVERY_S, execution.id


_UNFINISHED = "SELECT count(*) FROM execution_entity WHERE status IN ('new', 'running')"


def _count(db: psycopg.Connection[Any], sql: str) -> int:
    row = db.execute(sql).fetchone()
    return int(row[0]) if row else 0


def _database(cluster: Cluster) -> str:
    """The database the Postgres node inserts into (the table is named with its schema)."""
    return libpq_url(cluster.settings().database_url).split("?", 1)[0]
