"""The Hacker News node against the fake Algolia HN API (``weft.testing.saas.hacker_news``, served as the plain
HTTP proxy for ``hn.algolia.com``): the queries each operation sends, n8n's "Return All" loop (it repeats its
first page), comments dropped unless asked for, unknown resources as typed errors naming the node. Recorded
cases s841-s848 hold the outputs to real n8n."""

from __future__ import annotations

from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.saas import FakeSaasServer

saas = service_fixture("hacker_news")


async def _run(params: dict[str, Any], **node: Any) -> tuple[list[Any], Any]:
    workflow = {
        "name": "hn",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "HN", "type": "n8n-nodes-base.hackerNews", "typeVersion": 1, "parameters": params, **node},
        ],
        "connections": {"T": {"main": [[{"node": "HN", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }
    run = await run_workflow(workflow, services=LocalServices(credentials={}))
    task = run["data"]["resultData"]["runData"]["HN"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_a_search_sends_keyword_tags_and_limit(saas: FakeSaasServer) -> None:
    params = {"resource": "all", "operation": "getAll", "limit": 4,
              "additionalFields": {"keyword": "weaving", "tags": ["story", "show_hn"]}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and len(items) == 4
    assert all("show_hn" in item["_tags"] for item in items)
    sent = saas.requests[-1]
    assert (sent.host, sent.path) == ("hn.algolia.com", "/api/v1/search")
    assert sent.query == {"query": "weaving", "tags": "story,show_hn", "hitsPerPage": "4"}


async def test_return_all_repeats_the_first_page_as_n8n_does(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "all", "operation": "getAll", "returnAll": True, "additionalFields": {}})
    assert error is None and len(items) == 200  # 130 hits: two calls of the same page of 100
    assert [r.query for r in saas.requests] == [{"tags": "", "hitsPerPage": "100"}] * 2
    assert items[0] == items[100]


async def test_an_article_keeps_its_comments_only_when_asked(saas: FakeSaasServer) -> None:
    items, _ = await _run({"resource": "article", "operation": "get", "articleId": "8863"})
    assert items[0]["id"] == 8863 and "children" not in items[0]
    items, _ = await _run({"resource": "article", "operation": "get", "articleId": "8863",
                           "additionalFields": {"includeComments": True}})  # fmt: skip
    assert [c["id"] for c in items[0]["children"]] == [9224, 8917]


async def test_a_missing_user_fails_with_n8n_message(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "user", "operation": "get", "username": "nobody"})
    assert error is not None and "could not be found" in error["message"]
    items, _ = await _run(
        {"resource": "user", "operation": "get", "username": "nobody"}, onError="continueRegularOutput"
    )
    assert list(items[0]) == ["error"]


async def test_an_unknown_resource_is_a_typed_error_naming_the_node(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "comment", "operation": "get"})
    assert error is not None and error["message"] == "The resource 'comment' is unknown!"
    assert error.get("node", {}).get("name", "HN") == "HN"
    assert saas.requests == []
