"""The Todoist node against the fake Todoist API (``weft.testing.saas.todoist``, served as the HTTPS proxy for
``api.todoist.com``): which API each version calls (REST v2 before 2.2, the unified API v1 from it), cursor pages
and limits, the Sync API's ``item_move``, n8n's parameter type checks as typed errors, the credential test.
Recorded cases s641-s650 hold the outputs to real n8n."""

from __future__ import annotations

from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer

CREDENTIALS = {"todoistApi": {"apiKey": "todoist-test-token"},
               "todoistOAuth2Api": {"oauthTokenData": {"access_token": "todoist-oauth-token"}}}  # fmt: skip
WORK = {"__rl": True, "mode": "id", "value": "2203306142"}


saas = service_fixture("todoist")


async def _run(params: dict[str, Any], version: float = 2.2, **node: Any) -> tuple[list[Any], Any]:
    kind = "todoistOAuth2Api" if params.get("authentication") == "oAuth2" else "todoistApi"
    workflow = {
        "name": "todoist",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Todoist", "type": "n8n-nodes-base.todoist", "typeVersion": version,
             "parameters": {"authentication": "apiKey", **params}, "credentials": {kind: {"id": "1", "name": "t"}},
             **node},
        ],
        "connections": {"T": {"main": [[{"node": "Todoist", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Todoist"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_version_2_2_reads_cursor_pages_of_the_unified_api(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "returnAll": True})
    assert error is None and len(items) == 55
    assert [(r.path, r.query.get("cursor")) for r in saas.requests] == [
        ("/api/v1/tasks", None),
        ("/api/v1/tasks", "c50"),
    ]
    assert saas.requests[0].headers["authorization"] == "Bearer todoist-test-token"


async def test_a_limit_asks_for_that_many_and_stops(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "limit": 52})
    assert error is None and len(items) == 52
    assert [r.query.get("limit") for r in saas.requests] == ["52"]


async def test_version_2_reads_the_rest_api_and_cuts_to_the_limit(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "limit": 3, "filters": {"filter": "p1"}}, version=2)
    assert error is None and len(items) == 1
    assert [(r.path, r.query) for r in saas.requests] == [("/rest/v2/tasks", {"filter": "p1"})]
    _, error = await _run({"operation": "getAll", "limit": 3, "filters": {"filter": "p1"}})
    assert saas.requests[-1].path == "/api/v1/tasks/filter" and saas.requests[-1].query["query"] == "p1"


async def test_a_move_sends_one_sync_command_by_version(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "move", "taskId": "2995104339", "project": WORK, "section": "7026"}, 2)
    assert error is None and items == [{"success": True}]
    sent = saas.requests[-1]
    assert sent.path == "/sync/v9/sync"
    assert sent.body["commands"][0]["args"] == {"id": "2995104339", "section_id": "7026"}
    await _run({"operation": "move", "taskId": "2995104339", "project": WORK})
    assert saas.requests[-1].path == "/api/v1/sync"
    assert saas.requests[-1].body["commands"][0]["args"] == {"id": "2995104339", "project_id": "2203306142"}


async def test_create_sends_n8n_s_body(saas: FakeSaasServer) -> None:
    options = {"priority": "3", "dueDateTime": "2025-03-04T05:06:07.000Z", "section": "7025"}
    items, error = await _run({"project": WORK, "content": "Write", "labels": ["home"], "options": options})
    assert error is None and items[0]["content"] == "Write"
    expected = {"content": "Write", "project_id": "2203306142", "priority": 3, "due_datetime": "2025-03-04T05:06:07Z",
                "labels": ["home"], "section_id": "7025"}  # fmt: skip
    assert saas.requests[-1].body == expected


async def test_a_task_id_of_the_wrong_type_is_n8n_s_typed_error(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "get", "taskId": "={{ true }}"})
    assert error is not None and error["message"] == 'Parameter "taskId" must be string or number'
    items, error = await _run({"operation": "get", "taskId": "={{ true }}"}, onError="continueRegularOutput")
    assert items == [{"error": 'Parameter "taskId" must be string or number'}]


async def test_comments_are_refused_naming_the_operation(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "comment", "operation": "getAll"})
    assert error is not None and "Invalid operation 'getAll' for comment resource" in error["message"]


async def test_oauth2_sends_its_bearer_token(saas: FakeSaasServer) -> None:
    items, error = await _run({"authentication": "oAuth2", "operation": "get", "taskId": "2995104339"})
    assert error is None and items[0]["id"] == "2995104339"
    assert saas.requests[-1].headers["authorization"] == "Bearer todoist-oauth-token"


def test_the_credential_test_lists_labels_with_the_key() -> None:
    request = build_request("todoistApi", CREDENTIALS["todoistApi"])
    assert request.url == "https://api.todoist.com/api/v1/labels"
    assert request.headers["Authorization"] == "Bearer todoist-test-token"
