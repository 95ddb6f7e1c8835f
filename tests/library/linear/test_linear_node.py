"""The Linear node against the fake Linear GraphQL API (``weft.testing.saas.linear``, served as the HTTPS proxy
for ``api.linear.app``): the query texts n8n sends, cursor paging with limits, GraphQL errors, auth headers."""

from __future__ import annotations

from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.linear.queries import QUERIES
from weft.testing.saas import FakeSaasServer

CREDENTIALS = {"linearApi": {"apiKey": "lin_api_weft_test"},
               "linearOAuth2Api": {"oauthTokenData": {"access_token": "lin_oauth_weft_test"}}}  # fmt: skip


saas = service_fixture("linear")


async def _run(params: dict[str, Any], version: float = 1.1, **node: Any) -> tuple[list[Any], Any]:
    kind = "linearOAuth2Api" if params.get("authentication") == "oAuth2" else "linearApi"
    workflow = {
        "name": "linear",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Linear", "type": "n8n-nodes-base.linear", "typeVersion": version,
             "parameters": params, "credentials": {kind: {"id": "1", "name": "l"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "Linear", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Linear"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_get_all_pages_by_cursor_with_the_api_key_as_is(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "returnAll": True})
    assert error is None and len(items) == 60
    sent = [r.body["variables"] for r in saas.requests]
    assert sent == [{"first": 50, "after": None}, {"first": 50, "after": "c50"}]
    assert saas.requests[0].body["query"] == QUERIES["getIssues"]
    assert saas.requests[0].headers["authorization"] == "lin_api_weft_test"


async def test_a_small_limit_asks_for_that_many(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "limit": 3})
    assert error is None and [i["identifier"] for i in items] == ["ENG-1", "ENG-2", "ENG-3"]
    assert len(saas.requests) == 1 and saas.requests[0].body["variables"]["first"] == 3


async def test_create_sends_team_title_and_fields_with_oauth(saas: FakeSaasServer) -> None:
    params = {"authentication": "oAuth2", "teamId": "team-eng", "title": "New", "additionalFields": {"priorityId": 2}}
    items, error = await _run(params)
    assert error is None and items[0]["title"] == "New" and items[0]["priority"] == 2
    assert saas.requests[0].body["variables"] == {"teamId": "team-eng", "title": "New", "priorityId": 2}
    assert saas.requests[0].headers["authorization"] == "Bearer lin_oauth_weft_test"


async def test_unknown_issue_raises_the_graphql_message(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "get", "issueId": "issue-999"})
    assert items == [] and error is not None and error["message"] == "Entity not found"


async def test_continue_on_fail_outputs_the_message(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "delete", "issueId": "nope"}, onError="continueRegularOutput")
    assert error is None and items == [{"error": "Entity not found"}]


async def test_add_comment_with_parent(saas: FakeSaasServer) -> None:
    params = {"resource": "comment", "operation": "addComment", "issueId": "issue-2", "comment": "hi",
              "additionalFields": {"parentId": "comment-1"}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items == [{"success": True, "comment": {"id": "comment-2"}}]
    assert saas.requests[0].body["variables"] == {"issueId": "issue-2", "body": "hi", "parentId": "comment-1"}
