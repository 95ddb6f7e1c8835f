"""Live execution status (n8n's push): ``POST /rest/workflows/{id}/run?wait=false`` answers with the execution's id
at once, ``GET /rest/push?executionId=`` streams its node events as they happen (Server-Sent Events), and the
editor's canvas shows each node's status while the run goes on. Every browser test fails on any console error."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from tests.editor._browser import chromium, console_errors, skip_without_browser
from tests.editor._pages import node, open_workflow, row, sign_in, status
from tests.server.conftest import LiveServer, wait_for


@pytest.fixture
def browser() -> Iterator[Any]:
    skip_without_browser()
    yield from chromium()


def _workflow(wait_seconds: int = 1, fail_last: bool = False) -> dict[str, Any]:
    """Manual Trigger → Wait ``wait_seconds`` → Set (or a Stop and Error that fails)."""
    last: dict[str, Any] = {"name": "Done", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}}
    if fail_last:
        last = {
            "name": "Done",
            "type": "n8n-nodes-base.stopAndError",
            "typeVersion": 1,
            "parameters": {"errorMessage": "it broke on purpose"},
        }
    nodes = [
        {"name": "Start", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
        {
            "name": "Pause",
            "type": "n8n-nodes-base.wait",
            "typeVersion": 1.1,
            "parameters": {"amount": wait_seconds, "unit": "seconds"},
        },
        last,
    ]
    for index, each in enumerate(nodes):
        each["id"] = str(uuid.uuid4())
        each["position"] = [index * 220, 0]
    main = lambda target: {"main": [[{"node": target, "type": "main", "index": 0}]]}  # noqa: E731
    return {
        "name": f"Push {uuid.uuid4().hex[:8]}",
        "nodes": nodes,
        "connections": {"Start": main("Pause"), "Pause": main("Done")},
        "settings": {},
    }


def _start(live: LiveServer, workflow: dict[str, Any]) -> str:
    workflow_id = live.import_workflow(workflow, activate=False)
    answer = live.client.post(f"/rest/workflows/{workflow_id}/run", params={"wait": "false"})
    assert answer.status_code == 200, answer.text
    started = answer.json()["data"]
    assert started["status"] == "running"
    execution_id: str = started["executionId"]
    return execution_id


def _events(live: LiveServer, execution_id: str, on_event: Any = None) -> list[dict[str, Any]]:
    events: list[dict[str, Any]] = []
    with live.client.stream("GET", "/rest/push", params={"executionId": execution_id}, timeout=20) as response:
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        for line in response.iter_lines():
            if line.startswith("data: "):
                events.append(json.loads(line[len("data: ") :]))
                if on_event is not None:
                    on_event(events[-1])
    return events


def test_the_stream_shows_each_node_as_it_runs_before_the_execution_ends(live: LiveServer) -> None:
    execution_id = _start(live, _workflow(wait_seconds=1))
    status_when: dict[str, str] = {}

    def seen(event: dict[str, Any]) -> None:
        data = event["data"]
        if event["type"] == "nodeExecuteAfter" and data["nodeName"] == "Start":
            status_when["Start done"] = live.execution(execution_id)["status"]

    events = _events(live, execution_id, seen)
    assert status_when == {"Start done": "running"}  # the event came while the Wait still held the run
    order = [(e["type"], e["data"].get("nodeName")) for e in events]
    assert order == [
        ("nodeExecuteBefore", "Start"),
        ("nodeExecuteAfter", "Start"),
        ("nodeExecuteBefore", "Pause"),
        ("nodeExecuteAfter", "Pause"),
        ("nodeExecuteBefore", "Done"),
        ("nodeExecuteAfter", "Done"),
        ("executionFinished", None),
    ]
    after = [e["data"] for e in events if e["type"] == "nodeExecuteAfter"]
    assert [(a["status"], a["itemCountByConnectionType"]) for a in after] == [("success", {"main": [1]})] * 3
    assert all(e["data"]["executionId"] == execution_id for e in events)
    assert events[-1]["data"]["status"] == "success"
    assert "json" not in json.dumps(events)  # counts only: no item data goes down the stream
    assert live.execution(execution_id)["status"] == "success"


def test_a_failing_node_is_pushed_with_its_error_message(live: LiveServer) -> None:
    execution_id = _start(live, _workflow(wait_seconds=0, fail_last=True))
    events = _events(live, execution_id)
    failed = [e["data"] for e in events if e["type"] == "nodeExecuteAfter" and e["data"]["nodeName"] == "Done"]
    assert failed[0]["status"] == "error"
    assert failed[0]["error"]["message"] == "it broke on purpose"
    assert events[-1] == {
        "type": "executionFinished",
        "data": {"executionId": execution_id, "workflowId": events[-1]["data"]["workflowId"], "status": "error"},
    }


def test_a_finished_execution_the_hub_no_longer_holds_gets_its_stored_status(live: LiveServer) -> None:
    workflow_id = live.import_workflow(_workflow(wait_seconds=0), activate=False)
    done = live.client.post(f"/rest/workflows/{workflow_id}/run").json()["data"]  # the existing, waiting call
    assert done["status"] == "success"
    live.instance.runner.push._channels.pop(done["executionId"], None)  # as a minute after the run
    events = _events(live, done["executionId"])
    assert events == [
        {
            "type": "executionFinished",
            "data": {"executionId": done["executionId"], "workflowId": workflow_id, "status": "success"},
        }
    ]


def test_the_stream_needs_the_login_and_a_known_execution(live: LiveServer) -> None:
    execution_id = _start(live, _workflow(wait_seconds=0))
    with httpx.Client(base_url=live.url, timeout=10) as anonymous:
        assert anonymous.get("/rest/push", params={"executionId": execution_id}).status_code == 401
    assert live.client.get("/rest/push", params={"executionId": "999999999"}).status_code == 404
    wait_for(lambda: live.execution(execution_id)["status"] == "success")


@pytest.mark.parametrize("wait", ["true", None])
def test_the_run_route_still_waits_for_the_end_by_default(live: LiveServer, wait: str | None) -> None:
    workflow_id = live.import_workflow(_workflow(wait_seconds=0), activate=False)
    params = {"wait": wait} if wait else {}
    answer = live.client.post(f"/rest/workflows/{workflow_id}/run", params=params).json()["data"]
    assert answer["status"] == "success"
    assert live.execution(answer["executionId"])["status"] == "success"


def _classes(browser: Any, name: str) -> str:
    from selenium.webdriver.common.by import By

    return node(browser, name).find_element(By.CSS_SELECTOR, ".canvas-node").get_attribute("class") or ""


def test_the_canvas_shows_the_first_node_green_while_the_run_still_waits(live: LiveServer, browser: Any) -> None:
    from selenium.webdriver.common.by import By

    workflow = _workflow(wait_seconds=2)
    workflow_id = live.import_workflow(workflow, activate=False)
    sign_in(browser, live)
    wait_for(lambda: row(browser, workflow["name"]))  # the list loads after the page
    open_workflow(browser, workflow["name"], node_count=3)
    browser.find_element(By.ID, "run").click()
    wait_for(lambda: status(browser, "Pause") == "running", timeout=10)
    assert status(browser, "Start") == "1 item" and "status-success" in _classes(browser, "Start")
    assert "status-running" in _classes(browser, "Pause")
    assert status(browser, "Done") is None
    [execution] = live.executions(workflow_id)
    assert execution["status"] == "running"  # seen live: the execution has not ended
    wait_for(lambda: status(browser, "Done") == "1 item", timeout=15)
    assert [status(browser, n) for n in ("Start", "Pause", "Done")] == ["1 item"] * 3
    assert all("status-success" in _classes(browser, n) for n in ("Start", "Pause", "Done"))
    done = f"Execution {execution['id']}: success"
    wait_for(lambda: [m for m in browser.find_elements(By.ID, "message") if m.text == done])
    assert live.execution(execution["id"])["status"] == "success"
    assert console_errors(browser) == []
