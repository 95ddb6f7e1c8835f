"""The HubSpot node against the fake HubSpot API (``weft.testing.saas.hubspot``, served as the HTTPS proxy for
``api.hubapi.com``): each credential's way of authenticating, the legacy pages (``vid-offset``, ``offset``) and
the search API's ``paging.next.after``, repeated query arrays, n8n's not-found message, typed errors for what
Weft lacks. Recorded cases s551-s566 hold the outputs to real n8n."""

from __future__ import annotations

from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.saas import FakeSaasServer

CREDENTIALS = {"hubspotApi": {"apiKey": "hubspot-test-key"}, "hubspotAppToken": {"appToken": "hubspot-app-token"},
               "hubspotOAuth2Api": {"oauthTokenData": {"access_token": "hubspot-oauth-token"}}}  # fmt: skip
KINDS = {"apiKey": "hubspotApi", "appToken": "hubspotAppToken", "oAuth2": "hubspotOAuth2Api"}


saas = service_fixture("hubspot")


async def _run(params: dict[str, Any], version: float = 2.1, **node: Any) -> tuple[list[Any], Any]:
    params = {"authentication": "appToken", **params}
    kind = KINDS[params["authentication"]]
    workflow = {
        "name": "hubspot",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "HubSpot", "type": "n8n-nodes-base.hubspot", "typeVersion": version, "parameters": params,
             "credentials": {kind: {"id": "1", "name": "h"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "HubSpot", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["HubSpot"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


def _rl(value: str) -> dict[str, Any]:
    return {"__rl": True, "mode": "id", "value": value}


async def test_each_credential_authenticates_its_way(saas: FakeSaasServer) -> None:
    for authentication in ("apiKey", "appToken", "oAuth2"):
        _, error = await _run({"authentication": authentication, "resource": "deal", "operation": "get",
                               "dealId": _rl("7001")})  # fmt: skip
        assert error is None
    key, app, oauth = saas.requests
    assert key.query["hapikey"] == "hubspot-test-key" and "authorization" not in key.headers
    assert app.headers["authorization"] == "Bearer hubspot-app-token"
    assert oauth.headers["authorization"] == "Bearer hubspot-oauth-token"


async def test_all_contacts_follow_vid_offsets(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "contact", "operation": "getAll", "returnAll": True})
    assert error is None and len(items) == 130
    assert [r.query.get("vidOffset") for r in saas.requests] == [None, "1100"]
    assert saas.requests[0].query["count"] == "100"


async def test_search_follows_paging_after_in_the_body(saas: FakeSaasServer) -> None:
    groups = {
        "filterGroupsValues": [
            {
                "filtersUi": {
                    "filterValues": [
                        {
                            "propertyName": "company|string",
                            "type": "string",
                            "operator": "EQ",
                            "value": "Analytical Engines",
                        }
                    ]
                }
            }
        ]
    }
    items, error = await _run({"resource": "contact", "operation": "search", "returnAll": True,
                               "filterGroupsUi": groups, "additionalFields": {}})  # fmt: skip
    assert error is None and len(items) == 43
    bodies = [r.body for r in saas.requests]
    assert bodies[0]["filterGroups"] == [
        {"filters": [{"propertyName": "company", "operator": "EQ", "value": "Analytical Engines"}]}
    ]
    assert [b.get("after") for b in bodies] == [None, "5", "10", "15", "20", "25", "30", "35", "40"]


async def test_property_lists_repeat_in_the_query(saas: FakeSaasServer) -> None:
    collection = {"propertiesValues": {"properties": ["firstname", "email"], "propertyMode": "valueOnly"}}
    await _run({"resource": "contact", "operation": "get", "contactId": _rl("1001"),
                "additionalFields": {"propertiesCollection": collection}})  # fmt: skip
    assert saas.requests[0].query_pairs == [
        ("properties", "firstname"),
        ("properties", "email"),
        ("propertyMode", "value_only"),
    ]


async def test_a_missing_deal_fails_with_n8ns_message(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "deal", "operation": "get", "dealId": _rl("7999")})
    assert error["message"] == "deal #7999 could not be found. Check your deal ID is correct"


async def test_an_empty_delete_answer_reports_the_id(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "company", "operation": "delete", "companyId": _rl("5001")})
    assert error is None and items == [{"vid": "5001", "deleted": True}]
    assert saas.requests[0].path == "/crm/v3/objects/companies/5001"


async def test_an_operation_weft_lacks_is_a_typed_error(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "ticket", "operation": "create"})
    assert error["message"] == 'The operation "create" of the resource "ticket" is not supported by Weft yet'
    assert saas.requests == []


async def test_an_engagement_sends_n8ns_metadata_and_associations(saas: FakeSaasServer) -> None:
    params = {"resource": "engagement", "operation": "create", "type": "email",
              "metadata": {"fromEmail": "me@weft.example", "cc": ["a@example.com,b@example.com"], "subject": "Hi"},
              "additionalFields": {"associations": {"contactIds": "1001,1002", "ownerId": 7}}}  # fmt: skip
    items, error = await _run(params, version=2.2)  # the owner id is a 2.2 field
    assert error is None and items[0]["engagement"]["type"] == "EMAIL"
    assert saas.requests[0].body == {
        "engagement": {"type": "EMAIL", "ownerId": 7},
        "metadata": {"from": {"email": "me@weft.example"}, "cc": [{"email": "a@example.com"},
                     {"email": "b@example.com"}], "bcc": [], "subject": "Hi"},
        "associations": {"contactIds": ["1001", "1002"]},
    }  # fmt: skip
    _, error = await _run({**params, "metadata": {}})
    assert error["message"] == "At least one metadata field needs to set"
