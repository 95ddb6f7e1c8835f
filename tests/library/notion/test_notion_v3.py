"""The Notion node 3 against the fake Notion API of data sources: the ``Notion-Version`` it sends, data source
endpoints, cursors (in the query for a GET, else the body), OAuth2 sign-in, typed errors naming the node and the
parameter, the v3 helpers (filters, blocks, key names). Recorded cases s475-s499 hold the outputs to real n8n."""

from __future__ import annotations

from typing import Any

import pytest
from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.notion.blocks_v3 import format_blocks, normalize_properties, parse_text
from weft.library.notion.filters_v3 import FilterError, map_filter, map_filters
from weft.library.notion.notion_v3 import flatten_data_sources
from weft.library.notion.simplify import snake_case_v5
from weft.nodes.registry import default_registry
from weft.testing.saas import FakeSaasServer, notion

SOURCE = {"__rl": True, "mode": "id", "value": notion.TASKS_SOURCE}


saas = service_fixture("notion")


async def _run(params: dict[str, Any], oauth: bool = False) -> tuple[list[Any], Any]:
    kind = "notionOAuth2Api" if oauth else "notionApi"
    workflow = {
        "name": "notion",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Notion", "type": "n8n-nodes-base.notion", "typeVersion": 3, "parameters": params,
             "credentials": {kind: {"id": "1", "name": "notion"}}},
        ],
        "connections": {"T": {"main": [[{"node": "Notion", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1", "timezone": "Europe/Berlin"},
    }  # fmt: skip
    data: dict[str, Any] = {"apiKey": notion.TOKEN}
    if oauth:
        data = {"oauthTokenData": {"access_token": notion.TOKEN}, "clientId": "c", "clientSecret": "s"}
    run = await run_workflow(workflow, services=LocalServices(credentials={kind: data}))
    task = run["data"]["resultData"]["runData"]["Notion"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_version_3_sends_the_data_source_api_version_and_queries_the_data_source(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "databasePage", "operation": "getAll", "dataSourceId": SOURCE,
                               "returnAll": True})  # fmt: skip
    assert error is None and len(items) == len(notion.TASK_PAGES)
    assert {r.headers["notion-version"] for r in saas.requests} == {"2026-03-11"}
    assert {r.path for r in saas.requests} == {f"/v1/data_sources/{notion.TASKS_SOURCE}/query"}
    assert [(r.body or {}).get("start_cursor") for r in saas.requests] == [None, notion.TASK_PAGES[2]["id"],
                                                                          notion.TASK_PAGES[4]["id"]]  # fmt: skip


async def test_blocks_page_by_a_cursor_in_the_query_with_the_page_size(saas: FakeSaasServer) -> None:
    home = {"__rl": True, "mode": "id", "value": notion.HOME}
    items, error = await _run({"resource": "block", "operation": "getAll", "blockId": home, "limit": 3})
    assert error is None and len(items) == 3
    assert [(r.query.get("start_cursor"), r.query.get("page_size")) for r in saas.requests] == [
        (None, "3"), (notion.BLOCKS[notion.HOME][2]["id"], "3")]  # fmt: skip


async def test_a_database_page_is_created_in_the_data_source_with_its_title_key(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "databasePage", "operation": "create", "dataSourceId": SOURCE,
                               "title": "T", "contentType": "markdown", "markdown": "# Hi"})  # fmt: skip
    assert error is None and items[0]["name"] == "T"
    sent = saas.requests[-1].body
    assert sent["parent"] == {"type": "data_source_id", "data_source_id": notion.TASKS_SOURCE}
    assert sent["properties"] == {"Name": {"title": [{"text": {"content": "T"}}]}} and sent["markdown"] == "# Hi"


async def test_oauth2_signs_in_with_the_access_token(saas: FakeSaasServer) -> None:
    items, error = await _run({"authentication": "oAuth2", "resource": "user", "operation": "get", "userId": "me"},
                              oauth=True)  # fmt: skip
    assert error is None and items[0]["type"] == "bot"
    assert saas.requests[-1].headers["authorization"] == f"Bearer {notion.TOKEN}"


async def test_an_unknown_operation_fails_naming_it() -> None:
    _, error = await _run({"resource": "database", "operation": "getAll"})
    assert error["message"] == 'The operation "getAll" is not supported for resource "database"'


async def test_json_blocks_that_are_no_array_fail_naming_the_parameter(saas: FakeSaasServer) -> None:
    params = {"resource": "page", "operation": "create", "pageId": {"__rl": True, "mode": "id", "value": notion.HOME},
              "title": "x", "contentType": "json", "blocksJson": '{"type": "paragraph"}'}  # fmt: skip
    _, error = await _run(params)
    assert error["message"] == "Blocks (JSON) must be an array of Notion block objects"


def test_filters_as_n8n_3_writes_them() -> None:
    assert map_filter({"key": "Tags|multi_select", "condition": "contains", "optionValue": "a, b"}, "UTC") == {
        "property": "Tags", "multi_select": {"contains": ["a", "b"]}}  # fmt: skip
    assert map_filter({"key": "Edited|last_edited_time", "condition": "past_week"}, "UTC") == {
        "timestamp": "last_edited_time", "last_edited_time": {"past_week": {}}}  # fmt: skip
    day = map_filter({"key": "Due|date", "condition": "after", "dateValue": "2024-05-01T10:00:00"}, "Europe/Berlin")
    assert day == {"property": "Due", "date": {"after": "2024-05-01T08:00:00Z"}}
    assert map_filters([], "anyFilter", "UTC") is None
    with pytest.raises(FilterError, match='"greater_than" is not supported for Notion checkbox filters'):
        map_filter({"key": "Done|checkbox", "condition": "greater_than"}, "UTC")
    with pytest.raises(FilterError, match="formula return type"):
        map_filter({"key": "F|formula", "condition": "equals"}, "UTC")


def test_blocks_carry_rich_text_and_refuse_non_text() -> None:
    blocks = format_blocks([{"type": "to_do", "textContent": "x", "checked": True}, {"type": "image", "url": "u"}])
    assert blocks == [
        {"object": "block", "type": "to_do", "to_do": {"checked": True, "rich_text": [{"text": {"content": "x"}}]}},
        {"object": "block", "type": "image", "image": {"type": "external", "external": {"url": "u"}}},
    ]
    assert parse_text(3.0) == "3" and parse_text(True) == "true"
    with pytest.raises(TypeError, match="Received: object"):
        parse_text(None)
    dated = normalize_properties([{"key": "D|date", "date": "2024-01-01", "dateStart": "x"}])[0]
    assert dated == {"key": "D|date", "date": "2024-01-01", "range": False, "includeTime": True, "timezone": "default"}


def test_version_3_keeps_letters_of_every_script_in_keys_and_flattens_data_sources() -> None:
    assert snake_case_v5("Größe Café") == "größe_café" and snake_case_v5("dueDate 2") == "due_date_2"
    database = {"object": "database", "id": "d", "url": "u", "data_sources": [{"id": "s", "name": "S"}]}
    assert flatten_data_sources([database]) == [{"id": "s", "name": "S", "database_id": "d", "database_url": "u"}]


def test_notion_tool_covers_version_3_as_n8n_marks_it() -> None:
    tool = default_registry().type_class("n8n-nodes-base.notionTool")
    assert tool is not None and tool.description.versions == (2, 2.1, 2.2, 3)
