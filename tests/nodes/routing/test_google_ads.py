"""The Google Ads node (``n8n-nodes-base.googleAds``) against the fake Google Ads API (``weft.testing.saas.google_ads``,
the HTTPS proxy for ``googleads.googleapis.com``): its one function has a port, and what the recorded cases
d130-d135 cannot show (the search request itself)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import weft
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.routing.functions import find_port
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import google_ads as fake

DESCRIPTION = Path(weft.__file__).parent / "nodes" / "descriptions" / "n8n-nodes-base.googleAds.json"
CREDENTIALS = {
    "googleAdsOAuth2Api": {
        "clientId": "c",
        "clientSecret": "s",
        "developerToken": fake.DEVELOPER_TOKEN,
        "oauthTokenData": {"access_token": fake.ACCESS_TOKEN, "token_type": "Bearer"},
    }
}


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["google_ads"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def _run(params: dict[str, Any], items: list[dict[str, Any]] | None = None) -> tuple[list[Any], str | None]:
    workflow = {
        "name": "ads",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Input", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
            {"name": "Ads", "type": "n8n-nodes-base.googleAds", "typeVersion": 1, "parameters": params,
             "credentials": {"googleAdsOAuth2Api": {"id": "1", "name": "ads"}}},
        ],
        "connections": {"T": {"main": [[{"node": "Input", "type": "main", "index": 0}]]},
                        "Input": {"main": [[{"node": "Ads", "type": "main", "index": 0}]]}},
        "pinData": {"Input": items or [{"json": {}}]},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Ads"][0]
    found = [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]]
    return found, (task.get("error") or {}).get("message")


def test_every_function_has_a_port() -> None:
    text = DESCRIPTION.read_text()
    shas = {found.split('"')[0] for found in text.split('"sha": "')[1:]}
    assert shas and all(find_port({"sha": sha}) is not None for sha in shas)


async def test_search_sends_the_query_and_the_customer_headers(saas: FakeSaasServer) -> None:
    params = {"managerCustomerId": "123-456-7890", "clientCustomerId": "111-222-3333",
              "additionalOptions": {"dateRange": "LAST_7_DAYS", "campaignStatus": "ENABLED"}}  # fmt: skip
    items, error = await _run(params)
    assert error is None
    assert items[0]["name"] == "Spring sale" and items[0]["amountMicros"] == "5000000"
    assert items[0]["resourceName"].endswith("campaignBudgets/31000001")  # the budget's fields come last
    sent = saas.requests[-1]
    assert (sent.method, sent.path) == ("POST", "/v25/customers/1112223333/googleAds:search")
    assert sent.headers["login-customer-id"] == "1234567890"
    assert sent.headers["developer-token"] == fake.DEVELOPER_TOKEN
    query = sent.body["query"]
    assert query.startswith("select campaign.id, campaign.name,")
    assert query.endswith(
        "where campaign.id > 0  and segments.date DURING LAST_7_DAYS  and campaign.status = 'ENABLED'"
    )


async def test_no_rows_is_no_items(saas: FakeSaasServer) -> None:
    params = {"operation": "get", "managerCustomerId": "1234567890", "clientCustomerId": "1112223333",
              "campaignId": "404"}  # fmt: skip
    items, error = await _run(params)
    assert (items, error) == ([], None)
    assert saas.requests[-1].body["query"].endswith("where campaign.id = 404")
