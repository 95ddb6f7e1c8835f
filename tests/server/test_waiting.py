"""The waiting flow through the real server: waiting → signed resume → success; reuse 409; bad signature 401;
unknown 404; time waits resumed by the scheduler."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qs, urlsplit

from weft.testing.workflows import connect, node, workflow

from .conftest import LiveServer, wait_for


def start_h1(live: LiveServer, example: Callable[..., dict[str, Any]], path: str) -> dict[str, Any]:
    live.import_workflow(example("wait_approval.json", path))
    response = live.client.post(f"/webhook/{path}", json={"request": "buy a boat"})
    assert response.status_code == 200, response.text
    info: dict[str, Any] = response.json()
    live.wait_status(info["executionId"], "waiting")
    return info


def test_h1_waits_then_resumes_once_through_the_signed_url(
    live: LiveServer, example: Callable[..., dict[str, Any]], path: str
) -> None:
    info = start_h1(live, example, path)
    url = urlsplit(info["resumeUrl"])
    assert f"{url.scheme}://{url.netloc}" == live.url and url.path == f"/webhook-waiting/{info['executionId']}"
    assert len(parse_qs(url.query)["signature"][0]) == 64
    waiting = live.execution(info["executionId"])
    assert waiting["waitTill"].startswith("3000-01-01")
    resumed = live.client.post(info["resumeUrl"], json={"approved": True})
    assert (resumed.status_code, resumed.json()) == (200, {"message": "Workflow was started"})
    done = live.wait_status(info["executionId"], "success")
    run_data = done["data"]["resultData"]["runData"]
    assert sorted(run_data) == ["Decision", "Respond to Webhook", "Resume Info", "Wait", "Webhook"]
    assert all(len(runs) == 1 for runs in run_data.values())
    assert run_data["Decision"][0]["data"]["main"][0][0]["json"] == {"approved": True, "request": "buy a boat"}
    again = live.client.post(info["resumeUrl"], json={"approved": False})
    assert again.status_code == 409
    assert again.json()["message"] == f'The execution "{info["executionId"]}" has finished already.'


def test_bad_or_missing_signature_is_401_and_the_execution_stays_waiting(
    live: LiveServer, example: Callable[..., dict[str, Any]], path: str
) -> None:
    info = start_h1(live, example, path)
    base = f"/webhook-waiting/{info['executionId']}"
    assert live.client.post(base, json={}).status_code == 401
    bad = live.client.post(base, params={"signature": "0" * 64}, json={})
    assert (bad.status_code, bad.json()) == (401, {"error": "Invalid token"})
    assert live.execution(info["executionId"])["status"] == "waiting"


def test_unknown_execution_is_404(live: LiveServer) -> None:
    signature = live.instance.runner.signer.sign("987654")
    response = live.client.post("/webhook-waiting/987654", params={"signature": signature})
    assert response.status_code == 404
    assert response.json()["message"] == 'The execution "987654" does not exist.'
    assert live.client.post("/webhook-waiting/not-a-number").status_code == 404


def test_wrong_method_for_the_wait_is_404(live: LiveServer, example: Callable[..., dict[str, Any]], path: str) -> None:
    info = start_h1(live, example, path)
    response = live.client.get(info["resumeUrl"])
    assert response.status_code == 404 and "matching path/method" in response.json()["message"]
    assert live.execution(info["executionId"])["status"] == "waiting"


def test_error_execution_conflict_message(live: LiveServer, path: str) -> None:
    data = workflow(
        node(
            "Webhook",
            "n8n-nodes-base.webhook",
            {"httpMethod": "POST", "path": path, "responseMode": "lastNode"},
            version=2,
        ),
        node("Fail", "n8n-nodes-base.stopAndError", {"errorMessage": "nope"}, position=(200, 0)),
        connect("Webhook", "Fail"),
    )
    workflow_id = live.import_workflow(data)
    assert live.client.post(f"/webhook/{path}").status_code == 500
    failed = wait_for(lambda: [e for e in live.executions(workflow_id) if e["status"] == "error"])[0]
    stored = live.execution(failed["id"])
    assert stored["data"]["resultData"]["error"]["message"] == "nope"
    assert stored["data"]["resultData"]["runData"]["Fail"][0]["executionStatus"] == "error"
    signature = live.instance.runner.signer.sign(failed["id"])
    response = live.client.post(f"/webhook-waiting/{failed['id']}", params={"signature": signature})
    assert (response.status_code, response.json()["message"]) == (
        409,
        f'The execution "{failed["id"]}" has finished with error.',
    )


def test_time_wait_resumes_from_the_scheduler(live: LiveServer, path: str) -> None:
    data = workflow(
        node("Webhook", "n8n-nodes-base.webhook", {"httpMethod": "POST", "path": path}, version=2),
        node(
            "Wait",
            "n8n-nodes-base.wait",
            {"resume": "webhook", "limitWaitTime": True, "resumeAmount": 1, "resumeUnit": "seconds"},
            version=1.1,
            position=(200, 0),
        ),
        node("After", position=(400, 0)),
        connect("Webhook", "Wait"),
        connect("Wait", "After"),
    )
    workflow_id = live.import_workflow(data)
    live.client.post(f"/webhook/{path}", json={"x": 1})
    rows = wait_for(lambda: live.executions(workflow_id))
    done = live.wait_status(rows[0]["id"], "success")
    after = done["data"]["resultData"]["runData"]["After"][0]["data"]["main"][0][0]["json"]
    assert after["body"] == {"x": 1}  # a timed-out webhook wait passes its input through
