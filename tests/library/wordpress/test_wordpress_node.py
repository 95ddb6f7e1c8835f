"""The WordPress node against the fake WordPress REST API (``weft.testing.saas.wordpress``, served as the HTTPS
proxy for ``wp.weft.example``): what it sends (Basic auth, JSON headers, ``Cache-Control`` on writes, pages of 10
until ``X-WP-TotalPages``, the query shared by the run's items as in n8n), typed errors, the credential test.
Recorded cases s601-s612 hold the outputs to real n8n."""

from __future__ import annotations

import base64
from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer, wordpress

CREDENTIALS = {"wordpressApi": {"url": "https://wp.weft.example", "username": wordpress.USERNAME,
                                "password": wordpress.PASSWORD}}  # fmt: skip


saas = service_fixture("wordpress")


async def _run(
    params: dict[str, Any], inputs: list[dict[str, Any]] | None = None, **node: Any
) -> tuple[list[Any], Any]:
    code = f"return {inputs!r};".replace("True", "true") if inputs is not None else "return [{json: {}}];"
    workflow = {
        "name": "wordpress",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "In", "type": "n8n-nodes-base.code", "typeVersion": 2, "parameters": {"jsCode": code}},
            {"name": "WordPress", "type": "n8n-nodes-base.wordpress", "typeVersion": 1, "parameters": params,
             "credentials": {"wordpressApi": {"id": "1", "name": "wp"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "In", "type": "main", "index": 0}]]},
                        "In": {"main": [[{"node": "WordPress", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["WordPress"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_requests_carry_basic_auth_and_writes_ask_for_no_cache(saas: FakeSaasServer) -> None:
    items, error = await _run({"title": "Hi", "additionalFields": {"status": "draft", "sticky": True}})
    assert error is None and items[0]["title"] == {"rendered": "Hi"}
    sent = saas.requests[-1]
    token = base64.b64encode(f"{wordpress.USERNAME}:{wordpress.PASSWORD}".encode()).decode()
    assert sent.headers["authorization"] == f"Basic {token}"
    assert (sent.method, sent.path, sent.headers["cache-control"]) == ("POST", "/wp-json/wp/v2/posts", "no-cache")
    assert sent.body == {"title": "Hi", "status": "draft", "sticky": True}
    await _run({"operation": "get", "postId": "2"})
    assert "cache-control" not in saas.requests[-1].headers


async def test_return_all_reads_pages_of_ten_until_the_total_pages(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "returnAll": True})
    assert error is None and len(items) == 23
    assert [(r.query["page"], r.query["per_page"]) for r in saas.requests] == [("1", "10"), ("2", "10"), ("3", "10")]


async def test_the_query_is_shared_by_the_items_of_a_run(saas: FakeSaasServer) -> None:
    inputs = [{"json": {"ctx": "edit"}}, {"json": {"ctx": ""}}]
    params = {"operation": "getAll", "limit": 2, "options": {"context": "={{ $json.ctx }}"}}
    items, error = await _run(params, inputs)
    assert error is None and len(items) == 4
    assert [r.query.get("context") for r in saas.requests] == ["edit", "edit"]


async def test_an_update_sends_the_id_as_a_number_and_the_template(saas: FakeSaasServer) -> None:
    fields = {"status": "private", "postTemplate": {"values": {"template": "wide"}}}
    items, error = await _run({"operation": "update", "postId": "5", "updateFields": fields})
    assert error is None and items[0]["template"] == "wide"
    assert saas.requests[-1].body == {"id": 5, "status": "private", "template": "wide"}


async def test_a_missing_post_fails_with_n8n_s_message_and_continues_unpaired(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "get", "postId": "999"})
    assert error["message"] == "The resource you are requesting could not be found"
    items, error = await _run({"operation": "get", "postId": "999"}, onError="continueRegularOutput")
    assert error is None and items == [{"error": "The resource you are requesting could not be found"}]


async def test_an_unknown_resource_is_a_typed_error_naming_it(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "comment", "operation": "get"})
    assert error is not None and 'The resource "comment" is not known!' in error["message"]


def test_the_credential_test_lists_users_with_basic_auth() -> None:
    request = build_request("wordpressApi", CREDENTIALS["wordpressApi"])
    assert request.url.startswith("https://wp.weft.example/wp-json/wp/v2/users")
