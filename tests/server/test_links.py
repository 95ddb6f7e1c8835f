"""Links follow the server: a real ``weft start`` on a port other than 5678, without ``WEFT_PUBLIC_URL``, hands out
resume and approval links to itself, and following them resumes the waiting executions (before, they pointed at
127.0.0.1:5678 and an approver's click failed with "Failed to fetch")."""

from __future__ import annotations

import os
import signal
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
from tests.hitl._workflows import message, refund_call, refund_workflow

from .conftest import TIMEOUT, database_url, example_workflow, free_port, log_in, unique_path, wait_for
from .test_restart import WeftProcess


@pytest.fixture
def weft_on_another_port(tmp_path: Path) -> Iterator[WeftProcess]:
    port = free_port()
    env = {name: value for name, value in os.environ.items() if name != "WEFT_PUBLIC_URL"}
    env.update(
        WEFT_USER_FOLDER=str(tmp_path),
        WEFT_PORT=str(port),
        WEFT_DATABASE_URL=database_url("sqlite", tmp_path, "weft_links"),
        WEFT_WORKERS="1",
    )
    process = WeftProcess(env, f"http://127.0.0.1:{port}")
    process.start()
    yield process
    process.stop(signal.SIGKILL)


def _status(client: httpx.Client, execution_id: str) -> str:
    status: str = client.get(f"/rest/executions/{execution_id}").json()["data"]["status"]
    return status


def test_a_resume_url_names_the_port_the_server_listens_on(weft_on_another_port: WeftProcess) -> None:
    with httpx.Client(base_url=weft_on_another_port.url, timeout=TIMEOUT) as client:
        log_in(client)
        path = unique_path("links")
        data: dict[str, Any] = example_workflow("wait_approval.json", path)
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        info = client.post(f"/webhook/{path}", json={"request": "a boat"}).json()
        resume = urlsplit(info["resumeUrl"])
        assert f"{resume.scheme}://{resume.netloc}" == weft_on_another_port.url
        wait_for(lambda: _status(client, info["executionId"]) == "waiting")
        resumed = httpx.post(info["resumeUrl"], json={"approved": True}, timeout=TIMEOUT)  # the link as given
        assert resumed.status_code == 200, resumed.text
        wait_for(lambda: _status(client, info["executionId"]) == "success")


def test_an_approval_button_of_a_server_on_another_port_approves(weft_on_another_port: WeftProcess) -> None:
    with httpx.Client(base_url=weft_on_another_port.url, timeout=TIMEOUT) as client:
        log_in(client)
        data, webhook_id = refund_workflow([{"toolCalls": [refund_call()]}, "Result: {{last_tool_result}}"])
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        answer: dict[str, Any] = client.post(f"/webhook/{webhook_id}/chat", json=message("Refund order 42")).json()
        buttons = {b["text"]: b["link"] for b in answer["message"]["buttons"]}
        assert all(link.startswith(weft_on_another_port.url + "/webhook-waiting/") for link in buttons.values())
        execution_id = client.get("/rest/executions", params={"workflowId": data["id"]}).json()["data"][0]["id"]
        waiting = client.get(f"/rest/executions/{execution_id}/waiting").json()["data"]
        assert waiting["resumeUrl"].startswith(weft_on_another_port.url + "/webhook-waiting/")
        approved = httpx.post(buttons["Approve"], timeout=TIMEOUT)  # the approver's click
        assert approved.status_code == 200, approved.text
        assert approved.json() == {"output": 'Result: [{"response":"refunded order 42"}]'}
        wait_for(lambda: _status(client, execution_id) == "success")
