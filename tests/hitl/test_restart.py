"""A waiting approval survives a SIGKILL of a real ``weft start``: after the restart the signed link from the chat
approves, the refund runs and the execution finishes; reusing the link gets 409, a tampered one 401."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from tests.hitl._workflows import message, refund_call, refund_workflow
from tests.server.conftest import TIMEOUT, database_url, free_port, log_in, wait_for
from tests.server.test_restart import WeftProcess


@pytest.fixture
def weft_process(tmp_path: Path) -> Iterator[WeftProcess]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "WEFT_USER_FOLDER": str(tmp_path),
        "WEFT_PORT": str(port),
        "WEFT_PUBLIC_URL": url + "/",
        "WEFT_DATABASE_URL": database_url("sqlite", tmp_path, "weft_hitl_restart"),
        "WEFT_WORKERS": "1",
    }
    process = WeftProcess(env, url)
    yield process
    process.stop(signal.SIGKILL)


def _status(client: httpx.Client, execution_id: str) -> str:
    status: str = client.get(f"/rest/executions/{execution_id}").json()["data"]["status"]
    return status


def test_a_waiting_approval_survives_sigkill(weft_process: WeftProcess) -> None:
    weft_process.start()
    client = log_in(httpx.Client(base_url=weft_process.url, timeout=TIMEOUT))
    try:
        data, webhook_id = refund_workflow([{"toolCalls": [refund_call()]}, "Result: {{last_tool_result}}"])
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        asked = client.post(f"/webhook/{webhook_id}/chat", json=message("Please refund order 42"))
        answer: dict[str, Any] = asked.json()
        approve = next(b["link"] for b in answer["message"]["buttons"] if b["text"] == "Approve")
        rows = wait_for(lambda: client.get("/rest/executions", params={"workflowId": data["id"]}).json()["data"])
        execution_id = rows[0]["id"]
        wait_for(lambda: _status(client, execution_id) == "waiting")

        weft_process.stop(signal.SIGKILL)  # the waiting approval lives only in the database now
        weft_process.start()
        signature = approve.split("signature=")[1].split("&")[0]
        tampered = approve.replace(signature, signature[::-1])
        assert httpx.post(tampered, timeout=TIMEOUT).status_code == 401
        resumed = httpx.post(approve, timeout=TIMEOUT)
        assert resumed.status_code == 200, resumed.text
        assert resumed.json() == {"output": 'Result: [{"response":"refunded order 42"}]'}
        wait_for(lambda: _status(client, execution_id) == "success")
        assert httpx.post(approve, timeout=TIMEOUT).status_code == 409
    finally:
        client.close()
