"""The Mailchimp node against the fake Mailchimp API (``weft.testing.saas.mailchimp``, served as the HTTPS proxy):
the data center from the API key, OAuth2's metadata lookup, ``offset`` pages, the query kept from one item to
the next as n8n keeps it, typed errors, the credential test. Recorded cases s760-s768 hold the outputs to real
n8n."""

from __future__ import annotations

import hashlib
from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer, mailchimp

CREDENTIALS = {
    "mailchimpApi": {"apiKey": mailchimp.API_KEY},
    "mailchimpOAuth2Api": {"oauthTokenData": {"access_token": mailchimp.OAUTH_TOKEN}},
}


saas = service_fixture("mailchimp")


async def _run(params: dict[str, Any], credentials: dict[str, Any] | None = None) -> tuple[list[Any], Any]:
    kind = "mailchimpOAuth2Api" if params.get("authentication") == "oAuth2" else "mailchimpApi"
    workflow = {
        "name": "mailchimp",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Mailchimp", "type": "n8n-nodes-base.mailchimp", "typeVersion": 1, "parameters": params,
             "credentials": {kind: {"id": "1", "name": "mailchimp"}}},
        ],
        "connections": {"T": {"main": [[{"node": "Mailchimp", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    services = LocalServices(credentials=credentials or CREDENTIALS)
    run = await run_workflow(workflow, services=services)
    task = run["data"]["resultData"]["runData"]["Mailchimp"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_the_key_s_data_center_is_the_host(saas: FakeSaasServer) -> None:
    params = {"operation": "get", "list": mailchimp.LIST_ID, "email": "ada@example.com"}
    items, error = await _run(params)
    assert error is None and items[0]["id"] == hashlib.md5(b"ada@example.com").hexdigest()
    sent = saas.requests[-1]
    assert (sent.host, sent.path) == (mailchimp.HOST, f"/3.0/lists/{mailchimp.LIST_ID}/members/ada@example.com")
    assert sent.headers["authorization"] == f"apikey {mailchimp.API_KEY}"


async def test_oauth2_asks_the_metadata_for_the_api_endpoint(saas: FakeSaasServer) -> None:
    items, error = await _run({"authentication": "oAuth2", "resource": "campaign", "operation": "get",
                               "campaignId": "c4mp000001"})  # fmt: skip
    assert error is None and items[0]["id"] == "c4mp000001"
    metadata, call = saas.requests
    assert (metadata.host, metadata.headers["authorization"]) == (
        "login.mailchimp.com",
        f"OAuth {mailchimp.OAUTH_TOKEN}",
    )
    assert (call.host, call.headers["authorization"]) == (mailchimp.HOST, f"Bearer {mailchimp.OAUTH_TOKEN}")


async def test_return_all_pages_by_offset_until_a_page_is_empty(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "list": mailchimp.LIST_ID, "returnAll": True})
    assert error is None and len(items) == len(mailchimp.MEMBERS)
    assert [(r.query["offset"], r.query["count"]) for r in saas.requests] == [("0", "500"), ("500", "500")]


async def test_campaigns_ask_for_n8n_s_default_fields(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "campaign", "operation": "getAll", "limit": 1})
    assert error is None and items == [{"id": "c4mp000001", "status": "sent", "tracking": mailchimp.CAMPAIGNS[0][
        "tracking"], "settings": {"from_name": "Weft", "title": "Launch", "reply_to": "news@example.com"}}]  # fmt: skip
    assert saas.requests[-1].query["fields"].startswith("campaigns.id,campaigns.status,")


async def test_excluded_campaign_fields_fail_as_in_n8n(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "campaign", "operation": "getAll", "options": {"excludeFields": ["x"]}})
    assert error["message"] == "Cannot read properties of undefined (reading 'join')" and not saas.requests


async def test_a_key_without_data_center_is_refused(saas: FakeSaasServer) -> None:
    credentials = {"mailchimpApi": {"apiKey": "nodatacenter"}}
    _, error = await _run({"operation": "get", "list": mailchimp.LIST_ID, "email": "a@example.com"}, credentials)
    assert error["message"] == "The API key is not valid!" and not saas.requests


async def test_tags_are_sent_active_or_inactive(saas: FakeSaasServer) -> None:
    params = {"resource": "memberTag", "operation": "delete", "list": mailchimp.LIST_ID, "email": "ada@example.com",
              "tags": ["a", "b"], "options": {"isSyncing": True}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items == [{"success": True}]
    tags = [{"name": "a", "status": "inactive"}, {"name": "b", "status": "inactive"}]
    assert saas.requests[-1].body == {"tags": tags, "is_syncing": True}


def test_the_credential_test_uses_the_key_s_data_center() -> None:
    request = build_request("mailchimpApi", CREDENTIALS["mailchimpApi"])
    assert request.url == "https://us6.api.mailchimp.com/3.0/lists"
    assert request.headers["Authorization"] == f"apikey {mailchimp.API_KEY}"
