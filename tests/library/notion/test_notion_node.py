"""The Notion node against the fake Notion API (``weft.testing.saas.notion``, served as the HTTPS proxy): the
requests it sends (auth, ``Notion-Version``, cursors in the body or the query), typed errors naming the node and
the parameter, the credential test. Recorded cases s451-s470 hold the outputs to real n8n."""

from __future__ import annotations

from typing import Any

import pytest
from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.notion.properties import map_filter, map_properties, moment_format
from weft.library.notion.simplify import snake_case
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer, notion

TASKS = {"__rl": True, "mode": "id", "value": notion.TASKS}


saas = service_fixture("notion")


async def _run(params: dict[str, Any], version: float = 2.2, **node: Any) -> tuple[list[Any], Any]:
    workflow = {
        "name": "notion",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Notion", "type": "n8n-nodes-base.notion", "typeVersion": version, "parameters": params,
             "credentials": {"notionApi": {"id": "1", "name": "notion"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "Notion", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1", "timezone": "Europe/Berlin"},
    }  # fmt: skip
    credentials = {"notionApi": {"apiKey": notion.TOKEN}}
    run = await run_workflow(workflow, services=LocalServices(credentials=credentials))
    task = run["data"]["resultData"]["runData"]["Notion"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_requests_carry_the_secret_and_the_node_s_notion_version(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "user", "operation": "get", "userId": notion.USERS[1]["id"]})
    assert error is None and items[0]["name"] == "Alan Turing"
    sent = saas.requests[-1]
    assert sent.headers["authorization"] == f"Bearer {notion.TOKEN}"
    assert sent.headers["notion-version"] == "2021-08-16"


async def test_database_pages_page_by_a_cursor_in_the_body(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "databasePage", "operation": "getAll", "databaseId": TASKS,
                               "returnAll": True})  # fmt: skip
    assert error is None and len(items) == len(notion.TASK_PAGES)
    cursors = [(r.body or {}).get("start_cursor") for r in saas.requests]
    assert cursors == [None, notion.TASK_PAGES[2]["id"], notion.TASK_PAGES[4]["id"]]


async def test_users_page_by_a_cursor_in_the_query(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "user", "operation": "getAll", "returnAll": True})
    assert error is None and len(items) == len(notion.USERS)
    assert [r.query.get("start_cursor") for r in saas.requests] == [None, notion.USERS[2]["id"]]


async def test_a_limit_stops_paging_and_sends_the_page_size(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "databasePage", "operation": "getAll", "databaseId": TASKS, "limit": 3,
                               "simple": False})  # fmt: skip
    assert error is None and [i["id"] for i in items] == [p["id"] for p in notion.TASK_PAGES[:3]]
    assert [r.body["page_size"] for r in saas.requests] == [3, 3]


async def test_a_page_url_that_holds_no_id_fails_naming_the_page(saas: FakeSaasServer) -> None:
    params = {"resource": "databasePage", "operation": "get",
              "pageId": {"__rl": True, "mode": "url", "value": "https://example.com/nothing"}}  # fmt: skip
    _, error = await _run(params)
    assert error["message"] == "Could not extract page ID from URL: https://example.com/nothing"
    assert "'Page'" in error["description"] and not saas.requests


def test_a_relation_id_that_is_no_uuid_is_refused() -> None:
    from weft.errors import NodeOperationError

    with pytest.raises(NodeOperationError, match='relation id "abc" is not a valid uuid'):
        map_properties("Notion", [{"key": "Related|relation", "relationValue": ["abc"]}], "UTC", 2)


def test_properties_as_n8n_writes_them() -> None:
    values = [
        {"key": "Due|date", "date": "2024-07-01T15:30:00"},
        {"key": "Day|date", "date": "2024-07-01T23:30:00", "includeTime": False, "timezone": "UTC"},
        {"key": "Tags|multi_select", "multiSelectValue": "a, b"},
        {"key": "Link|url", "urlValue": "", "ignoreIfEmpty": True},
        {"key": "Status|select", "selectValue": ""},
        {"key": "A|b|number", "numberValue": 2},
    ]
    assert map_properties("Notion", values, "Europe/Berlin", 2) == {
        "Due": {"type": "date", "date": {"start": "2024-07-01T15:30:00+02:00", "end": None}},
        "Day": {"type": "date", "date": {"start": "2024-07-01", "end": None}},
        "Tags": {"type": "multi_select", "multi_select": [{"name": "a"}, {"name": "b"}]},
        "Status": {"type": "select", "select": None},
        "A|b": {"type": "number", "number": 2},
    }


def test_filters_and_names_as_n8n_writes_them() -> None:
    assert map_filter({"key": "Notes|rich_text", "condition": "contains", "richTextValue": "x"}, "UTC") == {
        "property": "Notes", "text": {"contains": "x"}}  # fmt: skip
    day = {"key": "Due|date", "condition": "after", "date": "2024-07-01T02:00:00"}
    assert map_filter(day, "Europe/Berlin") == {"property": "Due", "date": {"after": "2024-07-01T00:00:00Z"}}
    assert map_filter({"key": "Due|date", "condition": "past_week"}, "UTC")["date"] == {"past_week": {}}
    assert moment_format("2024-07-01T10:00:00Z", "America/New_York", True) == "2024-07-01T06:00:00-04:00"
    assert moment_format("2024-07-01T15:30:00", "UTC", True) == "2024-07-01T15:30:00Z"  # moment's "Z"
    assert [snake_case(n) for n in ("Due Date", "dueDate", "Crème brûlée", "URL link")] == [
        "due_date", "due_date", "cr_me_br_l_e", "url_link"]  # fmt: skip


def test_the_credential_test_sends_the_secret_and_a_version() -> None:
    request = build_request("notionApi", {"apiKey": notion.TOKEN})
    assert request.url == "https://api.notion.com/v1/users/me"
    assert request.headers["Authorization"] == f"Bearer {notion.TOKEN}"
    assert request.headers["Notion-Version"] == "2022-02-22"


async def test_download_files_is_refused_with_the_fix(saas: FakeSaasServer) -> None:
    params = {"resource": "databasePage", "operation": "getAll", "databaseId": TASKS, "returnAll": True,
              "options": {"downloadFiles": True}}  # fmt: skip
    _, error = await _run(params)
    assert error["message"] == "The option 'Download Files' is not supported yet" and not saas.requests


async def test_version_1_simplifies_to_the_property_names(saas: FakeSaasServer) -> None:
    params = {"resource": "databasePage", "operation": "getAll", "databaseId": notion.TASKS, "limit": 2}
    items, error = await _run(params, version=1)
    assert error is None and [i["Name"] for i in items] == ["Write docs", "Fix login bug"]
    assert saas.requests[-1].headers["notion-version"] == "2021-05-13"
    assert saas.requests[-1].body == {"sorts": [], "page_size": 2}
