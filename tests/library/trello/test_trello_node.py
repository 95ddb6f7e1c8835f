"""The Trello node against the fake Trello API (``weft.testing.saas.trello``, served as the HTTPS proxy): the key
and token in the query (the credential's ``authenticate``, ported), "Return All" paging by ``before``, typed
errors, the credential test. Recorded cases s720-s729 hold the outputs to real n8n."""

from __future__ import annotations

from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer, trello

CREDENTIALS = {"trelloApi": {"apiKey": trello.KEY, "apiToken": trello.TOKEN}}
BACKLOG = "60d0fe4f5311236168a1a002"


saas = service_fixture("trello")


async def _run(params: dict[str, Any], **node: Any) -> tuple[list[Any], Any]:
    workflow = {
        "name": "trello",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Trello", "type": "n8n-nodes-base.trello", "typeVersion": 1, "parameters": params,
             "credentials": {"trelloApi": {"id": "1", "name": "trello"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "Trello", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Trello"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_the_key_and_token_go_in_the_query(saas: FakeSaasServer) -> None:
    card = {"__rl": True, "mode": "id", "value": trello.CARDS[0]["id"]}
    items, error = await _run({"operation": "get", "id": card})
    assert error is None and items[0]["name"] == "Write the fake"
    assert saas.requests[-1].query == {"key": trello.KEY, "token": trello.TOKEN}
    assert "authorization" not in saas.requests[-1].headers


async def test_return_all_pages_by_before_in_pages_of_30(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "list", "operation": "getCards", "id": BACKLOG, "returnAll": True})
    backlog = [c["id"] for c in trello.CARDS if c["idList"] == BACKLOG]
    assert error is None and [i["id"] for i in items] == sorted(backlog, reverse=True)
    sent = [(r.query["limit"], r.query["sort"], r.query.get("before")) for r in saas.requests]
    assert sent == [("30", "-id", None), ("30", "-id", items[29]["id"])]


async def test_a_limit_cuts_the_answer(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "list", "operation": "getCards", "id": BACKLOG, "limit": 4})
    assert error is None and len(items) == 4 and saas.requests[-1].query["limit"] == "4"


async def test_endpoints_n8n_writes_with_a_leading_slash_keep_the_double_slash(saas: FakeSaasServer) -> None:
    card = {"__rl": True, "mode": "id", "value": trello.CARDS[0]["id"]}
    params = {"resource": "label", "operation": "removeLabel", "cardId": card, "id": trello.LABELS[1]["id"]}
    _, error = await _run(params)
    assert error is None and saas.requests[-1].raw_path.startswith("/1//cards/")


async def test_update_fields_go_in_the_query(saas: FakeSaasServer) -> None:
    card = {"__rl": True, "mode": "id", "value": trello.CARDS[1]["id"]}
    items, error = await _run({"operation": "update", "id": card, "updateFields": {"closed": True, "name": "N"}})
    assert error is None and items[0]["closed"] is True and items[0]["name"] == "N"
    assert saas.requests[-1].query["closed"] == "true" and saas.requests[-1].body is None


async def test_oauth1_is_refused_naming_the_parameter(saas: FakeSaasServer) -> None:
    _, error = await _run({"authentication": "oAuth1", "operation": "get", "id": "x"})
    assert error["message"] == "Authentication 'oAuth1' is not supported yet"
    assert "'Authentication'" in error["description"] and not saas.requests


async def test_trello_s_text_errors_fail_the_node(saas: FakeSaasServer) -> None:
    _, error = await _run({"operation": "get", "id": {"__rl": True, "mode": "id", "value": "nope"}})
    assert error["message"].startswith("Bad request") and error["description"] == "invalid id"


def test_the_credential_test_sends_key_and_token_in_the_query() -> None:
    request = build_request("trelloApi", CREDENTIALS["trelloApi"])
    assert request.url == f"https://api.trello.com/1/tokens/{trello.TOKEN}/member"
    assert request.params == {"key": trello.KEY, "token": trello.TOKEN}
