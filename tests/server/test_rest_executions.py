"""``GET /rest/executions``: n8n's ``filter`` JSON and Weft's plain parameters, counts, pages, bad input; retry
with the original or the currently saved workflow. A real server on 127.0.0.1 with a real database."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from weft.testing.workflows import connect, node, workflow

from .conftest import LiveServer


def _workflow(name: str, *, fail: bool) -> dict[str, Any]:
    last = node("Fail", "n8n-nodes-base.stopAndError", {"errorMessage": "bad"}) if fail else node("Fail")
    data = workflow(node("Start", "n8n-nodes-base.manualTrigger"), last, connect("Start", "Fail"))
    return {**data, "name": name, "id": uuid.uuid4().hex[:16]}


def _create(live: LiveServer, name: str, *, fail: bool) -> str:
    response = live.client.post("/rest/workflows", json=_workflow(name, fail=fail))
    assert response.status_code == 201, response.text
    workflow_id: str = response.json()["data"]["id"]
    return workflow_id


def _run(live: LiveServer, workflow_id: str) -> str:
    started = live.client.post(f"/rest/workflows/{workflow_id}/run").json()["data"]
    execution_id: str = started["executionId"]
    return execution_id


def _list(live: LiveServer, **params: Any) -> dict[str, Any]:
    if isinstance(params.get("filter"), dict):
        params["filter"] = json.dumps(params["filter"])
    response = live.client.get("/rest/executions", params=params)
    assert response.status_code == 200, response.text
    page: dict[str, Any] = response.json()
    return page


def _ids(page: dict[str, Any]) -> list[str]:
    return [row["id"] for row in page["data"]]


def test_rows_carry_the_workflow_name_and_the_count_of_every_page(live: LiveServer) -> None:
    workflow_id = _create(live, "named rows", fail=False)
    ran = [_run(live, workflow_id) for _ in range(3)]
    page = _list(live, filter={"workflowId": workflow_id}, limit=2)
    assert _ids(page) == ran[::-1][:2]  # newest first
    assert page["count"] == 3 and page["estimated"] is False
    row = page["data"][0]
    assert row["workflowName"] == "named rows" and row["workflowId"] == workflow_id
    assert row["mode"] == "manual" and row["status"] == "success" and row["startedAt"] and row["stoppedAt"]
    assert {"retryOf", "retrySuccessId", "waitTill"} <= set(row) and row["data"] is None


def test_pages_follow_last_id_and_first_id(live: LiveServer) -> None:
    workflow_id = _create(live, "pages", fail=False)
    ran = [_run(live, workflow_id) for _ in range(5)]
    first = _list(live, filter={"workflowId": workflow_id}, limit=2)
    assert _ids(first) == [ran[4], ran[3]] and first["nextCursor"] == ran[3]
    second = _list(live, filter={"workflowId": workflow_id}, limit=2, lastId=first["nextCursor"])
    assert _ids(second) == [ran[2], ran[1]]
    last = _list(live, filter={"workflowId": workflow_id}, limit=2, lastId=second["nextCursor"])
    assert _ids(last) == [ran[0]] and last["nextCursor"] is None
    assert last["count"] == 5  # the count is of the filter, not of the page
    newer = _list(live, filter={"workflowId": workflow_id}, firstId=ran[2])
    assert _ids(newer) == [ran[4], ran[3]]


def test_status_filter_as_n8n_sends_it_and_as_plain_parameters(live: LiveServer) -> None:
    good = _create(live, "status good", fail=False)
    bad = _create(live, "status bad", fail=True)
    ok, failed = _run(live, good), _run(live, bad)
    both = {"workflowId": good}
    assert _ids(_list(live, filter={**both, "status": ["success"]})) == [ok]
    assert _ids(_list(live, filter={**both, "status": ["error"]})) == []
    assert _ids(_list(live, filter={"workflowId": bad, "status": ["error", "crashed"]})) == [failed]
    assert _ids(_list(live, workflowId=bad, status=["error"])) == [failed]  # Weft's plain parameters
    errors = _list(live, filter={"status": ["error"]})
    assert failed in _ids(errors) and ok not in _ids(errors)
    assert all(row["status"] == "error" for row in errors["data"]) and errors["count"] >= 1
    # a key of the filter wins over the plain parameter of the same name
    assert _ids(_list(live, workflowId=good, filter={"workflowId": bad})) == [failed]


def test_started_after_and_before(live: LiveServer) -> None:
    workflow_id = _create(live, "dates", fail=False)
    ran = _run(live, workflow_id)
    started = datetime.fromisoformat(live.execution(ran)["startedAt"])
    hour = timedelta(hours=1)
    around = {"workflowId": workflow_id, "startedAfter": (started - hour).isoformat()}
    assert _ids(_list(live, filter={**around, "startedBefore": (started + hour).isoformat()})) == [ran]
    assert _ids(_list(live, filter={"workflowId": workflow_id, "startedAfter": (started + hour).isoformat()})) == []
    assert _ids(_list(live, filter={"workflowId": workflow_id, "startedBefore": (started - hour).isoformat()})) == []
    # n8n's editor sends UTC with a Z; a date-time without a zone is UTC, as Weft stores them
    z = (started - hour).astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.000Z")
    naive = (started + hour).astimezone(UTC).replace(tzinfo=None).isoformat()
    assert _ids(_list(live, workflowId=workflow_id, startedAfter=z, startedBefore=naive)) == [ran]
    assert _list(live, filter={"workflowId": workflow_id, "startedAfter": z})["count"] == 1


def test_unknown_filter_keys_are_dropped_as_n8n_does(live: LiveServer) -> None:
    workflow_id = _create(live, "unknown keys", fail=False)
    ran = _run(live, workflow_id)
    assert _ids(_list(live, filter={"workflowId": workflow_id, "somethingElse": 1})) == [ran]


@pytest.mark.parametrize(
    ("params", "named"),
    [
        ({"filter": "{not json"}, "filter: not valid JSON"),
        ({"filter": "[1]"}, "filter: must be a JSON object"),
        ({"filter": json.dumps({"status": ["bogus"]})}, "filter.status: 'bogus'"),
        ({"filter": json.dumps({"status": "success,error"})}, "filter.status"),
        ({"filter": json.dumps({"status": [1]})}, "filter.status"),
        ({"status": "finished"}, "filter.status: 'finished'"),
        ({"filter": json.dumps({"workflowId": {"a": 1}})}, "filter.workflowId"),
        ({"filter": json.dumps({"startedAfter": "yesterday"})}, "filter.startedAfter"),
        ({"startedBefore": "2026-13-01"}, "filter.startedBefore"),
        ({"filter": json.dumps({"startedBefore": 1700000000})}, "filter.startedBefore"),
        ({"filter": json.dumps({"mode": "webhook"})}, "filter.mode"),
        ({"limit": "0"}, "limit"),
        ({"limit": "251"}, "limit"),
        ({"limit": "ten"}, "limit"),
        ({"lastId": "abc"}, "lastId"),
        ({"firstId": "-1"}, "firstId"),
    ],
)
def test_bad_filters_are_400_naming_the_field(live: LiveServer, params: dict[str, Any], named: str) -> None:
    response = live.client.get("/rest/executions", params=params)
    assert response.status_code == 400, response.text
    assert response.json()["message"].startswith(named)


def test_retry_with_the_original_or_the_currently_saved_workflow(live: LiveServer) -> None:
    workflow_id = _create(live, "retry both ways", fail=True)
    failed = _run(live, workflow_id)
    fixed = _workflow("retry both ways", fail=False)
    saved = live.client.get(f"/rest/workflows/{workflow_id}").json()["data"]
    update = live.client.patch(f"/rest/workflows/{workflow_id}", json={**saved, "nodes": fixed["nodes"]})
    assert update.status_code == 200, update.text

    original = live.client.post(f"/rest/executions/{failed}/retry", json={"loadWorkflow": False}).json()["data"]
    assert original["status"] == "error" and original["retryOf"] == failed and original["mode"] == "retry"
    current = live.client.post(f"/rest/executions/{failed}/retry", json={"loadWorkflow": True}).json()["data"]
    assert current["status"] == "success" and current["retryOf"] == failed
    ran = live.execution(current["id"])["workflowData"]
    assert [n["type"] for n in ran["nodes"]] == ["n8n-nodes-base.manualTrigger", "n8n-nodes-base.noOp"]
    retries = _list(live, filter={"workflowId": workflow_id})
    assert _ids(retries) == [current["id"], original["id"], failed]
    marks = {row["id"]: row["retrySuccessId"] for row in retries["data"]}
    assert marks == {current["id"]: None, original["id"]: None, failed: current["id"]}  # as n8n marks it
