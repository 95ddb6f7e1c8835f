"""The Google Business Profile node (``n8n-nodes-base.googleBusinessProfile``) against the fake API
(``weft.testing.saas.google_business_profile``, the HTTPS proxy for ``mybusiness.googleapis.com``): every function
has a port, and what the recorded cases d136-d148 cannot show (the requests: dates, update mask, page tokens)."""

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
from weft.testing.saas import google_business_profile as fake

DESCRIPTION = Path(weft.__file__).parent / "nodes" / "descriptions" / "n8n-nodes-base.googleBusinessProfile.json"
CREDENTIALS = {
    "googleBusinessProfileOAuth2Api": {
        "clientId": "c",
        "clientSecret": "s",
        "oauthTokenData": {"access_token": fake.ACCESS_TOKEN, "token_type": "Bearer"},
    }
}
WHERE = {
    "account": {"__rl": True, "mode": "list", "value": fake.ACCOUNT},
    "location": {"__rl": True, "mode": "list", "value": fake.LOCATION},
}


@pytest.fixture
def saas(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["google_business_profile"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def _run(params: dict[str, Any]) -> tuple[list[Any], str | None]:
    workflow = {
        "name": "gbp",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "GBP", "type": "n8n-nodes-base.googleBusinessProfile", "typeVersion": 1,
             "parameters": {**WHERE, **params},
             "credentials": {"googleBusinessProfileOAuth2Api": {"id": "1", "name": "gbp"}}},
        ],
        "connections": {"T": {"main": [[{"node": "GBP", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["GBP"][0]
    found = [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]]
    return found, (task.get("error") or {}).get("message")


def test_every_function_has_a_port() -> None:
    text = DESCRIPTION.read_text()
    shas = {found.split('"')[0] for found in text.split('"sha": "')[1:]}
    assert len(shas) == 9 and all(find_port({"sha": sha}) is not None for sha in shas)


async def test_event_dates_become_the_schedule(saas: FakeSaasServer) -> None:
    params = {"operation": "create", "postType": "EVENT", "summary": "S", "title": "T",
              "startDateTime": "2025-04-05T23:30:15+02:00", "endDateTime": "2025-04-06"}  # fmt: skip
    _, error = await _run(params)
    assert error is None
    assert saas.requests[-1].body["event"] == {
        "title": "T",
        "schedule": {
            "startDate": {"year": 2025, "month": 4, "day": 5},
            "endDate": {"year": 2025, "month": 4, "day": 6},
            "startTime": {"hours": 21, "minutes": 30, "seconds": 15, "nanos": 0},
        },
    }


async def test_update_asks_for_the_fields_it_changes(saas: FakeSaasServer) -> None:
    post = {"__rl": True, "mode": "name", "value": f"{fake.PARENT}/localPosts/200"}
    options = {"summary": "New", "url": "https://x.example", "startDate": "2025-01-02", "termsConditions": "t"}
    items, error = await _run({"operation": "update", "post": post, "additionalOptions": options})
    assert error is None and items[0]["summary"] == "New"
    sent = saas.requests[-1]
    assert (sent.method, sent.path) == ("PATCH", f"/v4/{fake.PARENT}/localPosts/200")
    assert sent.query["updateMask"] == "summary,callToAction.url,event.schedule.startDate,termsConditions"


async def test_pages_follow_the_token_until_the_limit(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "limit": 3})
    assert error is None and [i["name"][-3:] for i in items] == ["100", "200", "300"]
    assert [(r.query.get("pageSize"), r.query.get("pageToken")) for r in saas.requests] == [("3", None), ("3", "p2")]


async def test_a_missing_review_is_named(saas: FakeSaasServer) -> None:
    review = {"__rl": True, "mode": "name", "value": f"{fake.PARENT}/reviews/gone/reply"}
    _, error = await _run({"resource": "review", "operation": "get", "review": review})
    assert error == (
        'The review you are requesting could not be found. Adjust the "review" parameter setting to update the '
        "review correctly."
    )
    assert saas.requests[-1].path == f"/v4/{fake.PARENT}/reviews/gone"


async def test_other_failures_carry_the_status_message(saas: FakeSaasServer) -> None:
    where = {"location": {"__rl": True, "mode": "list", "value": "locations/4290"}}
    post = {"__rl": True, "mode": "name", "value": "accounts/1001/locations/4290/localPosts/100"}
    _, error = await _run({**where, "operation": "get", "post": post})
    assert error == "Too Many Requests"
