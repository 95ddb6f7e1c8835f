"""Form flows beyond the recorded ones: test URLs (while the editor listens), a Form page defined as JSON (with
expressions), a version 2.1 form answered by Respond to Webhook, n8n's configuration errors, and a waiting form that
survives a SIGKILL of a real ``weft start``."""

from __future__ import annotations

import base64
import itertools
import os
import re
import signal
import uuid
from collections.abc import Iterator
from datetime import datetime
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import httpx
import pytest
from tests.forms._record_n8n import multipart
from tests.server.conftest import TIMEOUT, LiveServer, database_url, free_port, log_in, wait_for
from tests.server.test_restart import WeftProcess


def _node(name: str, kind: str, version: float, parameters: dict[str, Any]) -> dict[str, Any]:
    return {
        "parameters": parameters,
        "name": name,
        "type": f"n8n-nodes-base.{kind}",
        "typeVersion": version,
        "position": [0, 0],
        "id": uuid.uuid4().hex,
        "webhookId": uuid.uuid4().hex,
    }


def _chain(*nodes: dict[str, Any]) -> dict[str, Any]:
    connections = {
        a["name"]: {"main": [[{"node": b["name"], "type": "main", "index": 0}]]} for a, b in itertools.pairwise(nodes)
    }
    return {
        "id": uuid.uuid4().hex[:16],
        "name": f"flow {uuid.uuid4().hex[:6]}",
        "nodes": list(nodes),
        "connections": connections,
        "settings": {"executionOrder": "v1"},
    }


def _post(url: str, fields: list[tuple[str, str]]) -> httpx.Response:
    body, content_type = multipart(fields, [])
    return httpx.post(url, content=body, headers={"content-type": content_type}, timeout=TIMEOUT)


def _trigger(path: str, version: float = 2.3, **parameters: Any) -> dict[str, Any]:
    fields = {"values": [{"fieldLabel": "Name"}]}
    return _node("Form", "formTrigger", version, {"formFields": fields, "options": {"path": path}, **parameters})


def _output(live: LiveServer, workflow_id: str, node: str) -> list[dict[str, Any]]:
    rows = wait_for(lambda: [r for r in live.executions(workflow_id) if r["status"] in ("success", "error")])
    data = live.client.get(f"/rest/executions/{rows[0]['id']}", params={"includeData": True}).json()["data"]
    items: list[dict[str, Any]] = data["data"]["resultData"]["runData"][node][0]["data"]["main"][0]
    return items


def _listen(live: LiveServer, workflow_id: str) -> list[str]:
    """The editor's "Execute workflow": the form's test URL listens for one submission."""
    started = live.client.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    assert started["waitingForWebhook"] is True
    urls: list[str] = started["testUrls"]
    return urls


def test_a_test_url_serves_the_listening_form_in_test_mode(live: LiveServer) -> None:
    path = f"t-{uuid.uuid4().hex[:8]}"
    workflow_id = live.import_workflow(_chain(_trigger(path)), activate=False)
    assert httpx.get(f"{live.url}/form/{path}").status_code == 404  # not active
    assert httpx.get(f"{live.url}/form-test/{path}").status_code == 404  # nobody listens
    assert _listen(live, workflow_id) == [f"{live.url}/form-test/{path}"]
    page = httpx.get(f"{live.url}/form-test/{path}")
    assert page.status_code == 200 and "This is a test version of your form" in page.text
    assert _post(f"{live.url}/form-test/{path}", [("field-0", "Tess")]).json() == {"status": 200}
    item = _output(live, workflow_id, "Form")[0]["json"]
    assert (item["Name"], item["formMode"]) == ("Tess", "test")


def test_a_json_page_with_expressions(live: LiveServer) -> None:
    path = f"j-{uuid.uuid4().hex[:8]}"
    page = _node(
        "Page",
        "form",
        2.5,
        {"defineForm": "json", "jsonOutput": '=[{"fieldLabel": "Hi {{ $json.Name }}", "fieldName": "hi"}]'},
    )
    workflow_id = live.import_workflow(_chain(_trigger(path), page))
    waiting = _post(f"{live.url}/form/{path}", [("field-0", "Ada")]).json()["formWaitingUrl"]
    shown = httpx.get(waiting, timeout=TIMEOUT)
    assert shown.status_code == 200 and "Hi Ada" in shown.text
    assert _post(waiting, [("field-0", "there")]).status_code == 200
    assert _output(live, workflow_id, "Page")[0]["json"]["hi"] == "there"


def test_a_v2_1_form_answered_by_respond_to_webhook(live: LiveServer) -> None:
    path = f"r-{uuid.uuid4().hex[:8]}"
    respond = _node(
        "Respond",
        "respondToWebhook",
        1.1,
        {"respondWith": "json", "responseBody": '={"formSubmittedText": "Hello {{ $json.Name }}"}'},
    )
    live.import_workflow(_chain(_trigger(path, 2.1, responseMode="responseNode"), respond))
    page = httpx.get(f"{live.url}/form/{path}")
    assert "value=true" in page.text  # the page reads the answer
    assert _post(f"{live.url}/form/{path}", [("field-0", "Bo")]).json() == {"formSubmittedText": "Hello Bo"}


@pytest.mark.parametrize(
    ("version", "mode", "message"),
    [
        (2.1, "responseNode", "No Respond to Webhook node found in the workflow"),
        (
            2.3,
            "onReceived",
            'The "Respond to Webhook" node is not supported in workflows initiated by the "n8n Form Trigger"',
        ),
    ],
)
def test_n8ns_configuration_errors(live: LiveServer, version: float, mode: str, message: str) -> None:
    path = f"c-{uuid.uuid4().hex[:8]}"
    nodes = [_trigger(path, version, responseMode=mode)]
    if mode != "responseNode":
        nodes.append(_node("Respond", "respondToWebhook", 1.1, {"respondWith": "noData"}))
    live.import_workflow(_chain(*nodes))
    answer = httpx.get(f"{live.url}/form/{path}")
    assert answer.status_code == 500 and answer.json()["message"] == message


@pytest.fixture
def weft_process(tmp_path: Path) -> Iterator[WeftProcess]:
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "WEFT_USER_FOLDER": str(tmp_path),
        "WEFT_PORT": str(port),
        "WEFT_PUBLIC_URL": url + "/",
        "WEFT_DATABASE_URL": database_url("sqlite", tmp_path, "weft_forms_restart"),
        "WEFT_WORKERS": "1",
    }
    process = WeftProcess(env, url)
    yield process
    process.stop(signal.SIGKILL)


def test_a_waiting_form_page_survives_sigkill(weft_process: WeftProcess) -> None:
    weft_process.start()
    client = log_in(httpx.Client(base_url=weft_process.url, timeout=TIMEOUT))
    try:
        path = f"k-{uuid.uuid4().hex[:8]}"
        page = _node("Page", "form", 2.3, {"formFields": {"values": [{"fieldLabel": "Age", "fieldType": "number"}]}})
        data = _chain(_trigger(path), page)
        assert client.post("/rest/workflows/import", json=data, params={"activate": True}).status_code == 201
        waiting = _post(f"{weft_process.url}/form/{path}", [("field-0", "Ada")]).json()["formWaitingUrl"]
        weft_process.stop(signal.SIGKILL)  # the waiting form lives only in the database now
        weft_process.start()
        shown = httpx.get(waiting, timeout=TIMEOUT)
        assert shown.status_code == 200 and ">Age<" in shown.text
        assert _post(waiting, [("field-0", "36")]).status_code == 200
        rows = client.get("/rest/executions", params={"workflowId": data["id"]}).json()["data"]
        execution = wait_for(
            lambda: (
                (e := client.get(f"/rest/executions/{rows[0]['id']}", params={"includeData": True}).json()["data"])[
                    "status"
                ]
                == "success"
                and e
            )
        )
        assert execution["data"]["resultData"]["runData"]["Page"][0]["data"]["main"][0][0]["json"]["Age"] == 36
    finally:
        client.close()


def test_a_page_whose_wait_time_runs_out_passes_its_input_on(live: LiveServer) -> None:
    path = f"l-{uuid.uuid4().hex[:8]}"
    limit = {"limitWaitTime": True, "limitType": "afterTimeInterval", "resumeAmount": 1, "resumeUnit": "seconds"}
    page = _node("Page", "form", 2.3, {"formFields": {"values": [{"fieldLabel": "Age"}]}, **limit})
    workflow_id = live.import_workflow(_chain(_trigger(path), page))
    waiting = _post(f"{live.url}/form/{path}", [("field-0", "Ada")]).json()["formWaitingUrl"]
    item = _output(live, workflow_id, "Page")[0]["json"]
    assert (item["Name"], item["formMode"]) == ("Ada", "production")  # the trigger's item, passed on
    assert httpx.get(waiting.replace("?", "/n8n-execution-status?"), timeout=TIMEOUT).text == "success"


@pytest.mark.parametrize("field", ["Doc", "Nope"])
def test_an_ending_returns_an_uploaded_file(live: LiveServer, field: str) -> None:
    path = f"b-{uuid.uuid4().hex[:8]}"
    fields = {"values": [{"fieldLabel": "Doc", "fieldType": "file", "multipleFiles": False}]}
    trigger = _node("Form", "formTrigger", 2.3, {"formFields": fields, "options": {"path": path}})
    ending = _node(
        "End", "form", 2.3, {"operation": "completion", "respondWith": "returnBinary", "inputDataFieldName": field}
    )
    live.import_workflow(_chain(trigger, ending))
    body, content_type = multipart([], [("field-0", ("a.txt", b"file for you", "text/plain"))])
    answer = httpx.post(
        f"{live.url}/form/{path}", content=body, headers={"content-type": content_type}, timeout=TIMEOUT
    )
    page = httpx.get(answer.json()["formWaitingUrl"], timeout=TIMEOUT)
    if field == "Nope":
        assert page.status_code == 500 and page.json()["message"] == "No binary data with field Nope found."
        return
    href = base64.b64encode(b"file for you").decode()
    assert f'href="data:text/plain;base64,{href}" download="a.txt"' in page.text


def test_a_page_is_prefilled_from_the_trigger_query(live: LiveServer) -> None:
    path = f"q-{uuid.uuid4().hex[:8]}"
    page = _node("Page", "form", 2.3, {"formFields": {"values": [{"fieldLabel": "City"}]}})
    live.import_workflow(_chain(_trigger(path), page))
    body, content_type = multipart([("field-0", "Ada")], [])
    answer = httpx.post(f"{live.url}/form/{path}?City=Oslo", content=body, headers={"content-type": content_type})
    shown = httpx.get(answer.json()["formWaitingUrl"], timeout=TIMEOUT)
    assert 'name="field-0" value="Oslo"' in shown.text


def test_a_webhook_path_ending_in_n8n_form_is_still_a_webhook(live: LiveServer) -> None:
    path = f"w-{uuid.uuid4().hex[:8]}/n8n-form"
    webhook = _node("Hook", "webhook", 2, {"path": path, "httpMethod": "GET"})
    live.import_workflow(_chain(webhook))
    assert httpx.get(f"{live.url}/webhook/{path}").json() == {"message": "Workflow was started"}


def test_a_page_after_two_triggers_follows_the_one_that_ran(live: LiveServer) -> None:
    first, second = f"x-{uuid.uuid4().hex[:8]}", f"y-{uuid.uuid4().hex[:8]}"
    a = {**_trigger(first, formTitle="From A"), "name": "A"}
    b = {**_trigger(second, formTitle="From B"), "name": "B"}
    page = _node("Page", "form", 2.3, {"formFields": {"values": [{"fieldLabel": "Q"}]}})
    data = _chain(a, page)
    data["nodes"].append(b)
    data["connections"]["B"] = {"main": [[{"node": "Page", "type": "main", "index": 0}]]}
    live.import_workflow(data)
    waiting = _post(f"{live.url}/form/{second}", [("field-0", "Bo")]).json()["formWaitingUrl"]
    assert "<title>From B</title>" in httpx.get(waiting, timeout=TIMEOUT).text


def test_the_triggers_page_resolves_its_expressions(live: LiveServer) -> None:
    path = f"e-{uuid.uuid4().hex[:8]}"
    fields = {"values": [{"fieldLabel": "={{ 'Q' + (1 + 1) }}"}, {"fieldType": "html", "html": "<p>{{ 6 * 7 }}</p>"}]}
    trigger = _node(
        "Form",
        "formTrigger",
        2.3,
        {"formTitle": "={{ $workflow.name }}", "formFields": fields, "options": {"path": path}},
    )
    data = _chain(trigger)
    workflow_id = live.import_workflow(data)
    page = httpx.get(f"{live.url}/form/{path}").text
    assert f"<title>{data['name']}</title>" in page and ">Q2</label>" in page and "<p>42</p>" in page
    assert _post(f"{live.url}/form/{path}", [("field-0", "two")]).status_code == 200
    assert _output(live, workflow_id, "Form")[0]["json"]["Q2"] == "two"


@pytest.mark.parametrize("version", [2, 2.3])
def test_submitted_at_is_luxons_iso_in_utc_or_the_workflows_zone(live: LiveServer, version: float) -> None:
    """Version 2 defaults ``useWorkflowTimezone`` to false (UTC, ``Z``), later versions to true."""
    path = f"z-{uuid.uuid4().hex[:8]}"
    data = _chain(_trigger(path, version))
    data["settings"]["timezone"] = "Europe/Berlin"
    workflow_id = live.import_workflow(data)
    assert _post(f"{live.url}/form/{path}", [("field-0", "x")]).status_code == 200
    stamp = _output(live, workflow_id, "Form")[0]["json"]["submittedAt"]
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)", stamp)
    offset = datetime.fromisoformat(stamp.replace("Z", "+00:00")).astimezone(ZoneInfo("Europe/Berlin")).strftime("%z")
    assert stamp.endswith("Z" if version == 2 else f"{offset[:3]}:{offset[3:]}")


def test_a_page_with_bad_json_fields_waits_and_answers_its_error_when_opened(live: LiveServer) -> None:
    path = f"v-{uuid.uuid4().hex[:8]}"
    page = _node("Page", "form", 1, {"defineForm": "json", "jsonOutput": "[{not json"})
    live.import_workflow(_chain(_trigger(path), page))
    waiting = _post(f"{live.url}/form/{path}", [("field-0", "Ada")]).json()["formWaitingUrl"]
    opened = httpx.get(waiting, timeout=TIMEOUT)
    assert opened.status_code == 500 and opened.json()["message"] == "Value is not valid JSON"


def test_a_form_path_is_taken_once(live: LiveServer) -> None:
    path = f"once-{uuid.uuid4().hex[:8]}"
    live.import_workflow(_chain(_trigger(path)))
    again = live.client.post("/rest/workflows/import", json=_chain(_trigger(path)), params={"activate": True})
    assert again.status_code >= 400 and path in again.text


def test_a_version_1_form_at_its_test_url(live: LiveServer) -> None:
    path = f"v1-{uuid.uuid4().hex[:8]}"
    trigger = _node(
        "Old", "formTrigger", 1, {"path": path, "formTitle": "Old", "formFields": {"values": [{"fieldLabel": "A"}]}}
    )
    workflow_id = live.import_workflow(_chain(trigger), activate=False)
    assert _listen(live, workflow_id) == [f"{live.url}/webhook-test/{path}/n8n-form"]
    assert "This is a test version of your form" in httpx.get(f"{live.url}/webhook-test/{path}/n8n-form").text
    assert _post(f"{live.url}/webhook-test/{path}/n8n-form", [("field-0", "a")]).json() == {"status": 200}
    assert _output(live, workflow_id, "Old")[0]["json"]["formMode"] == "test"
