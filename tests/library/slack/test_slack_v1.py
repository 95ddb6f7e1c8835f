"""Slack 1 (n8n's ``SlackV1``) against the fake Slack Web API: what it sends (``ts`` kept, attachments' field
items moved up, the JSON parameters as text), ``ok: false`` as V1's message, what it does not port (a typed error
naming the operation) and that the Slack tool stays 2.x only. Recorded cases s381-s399 hold the outputs to real
n8n."""

from __future__ import annotations

from typing import Any

import pytest
from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.slack.slack_node import Slack
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import _slack_data as data

saas = service_fixture("slack")


async def _run(params: dict[str, Any], token: str = data.BOT_TOKEN, **node: Any) -> tuple[list[Any], Any]:
    workflow = {
        "name": "slack v1",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Slack", "type": "n8n-nodes-base.slack", "typeVersion": 1, "parameters": params,
             "credentials": {"slackApi": {"id": "1", "name": "slack"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "Slack", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials={"slackApi": {"accessToken": token}}))
    task = run["data"]["resultData"]["runData"]["Slack"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_a_post_keeps_ts_and_moves_attachment_fields_up(saas: FakeSaasServer) -> None:
    attachments = [{"text": "a", "fields": {"item": [{"title": "Env", "value": "prod"}]}}, {"text": "b", "fields": {}}]
    params = {"channel": "C01GENERAL", "text": "hi", "attachments": attachments, "otherOptions": {"mrkdwn": True}}
    items, error = await _run(params)
    assert error is None and items[0]["ts"] == items[0]["message"]["ts"] and "message_timestamp" not in items[0]
    sent = saas.requests[-1]
    assert sent.headers["authorization"] == f"Bearer {data.BOT_TOKEN}"
    assert sent.body == {
        "channel": "C01GENERAL",
        "text": "hi",
        "mrkdwn": True,
        "attachments": [{"text": "a", "fields": [{"title": "Env", "value": "prod"}]}, {"text": "b"}],
    }


async def test_json_parameters_are_sent_as_their_text(saas: FakeSaasServer) -> None:
    blocks = '[{"type": "divider"}]'
    params = {"channel": "C01GENERAL", "text": "x", "jsonParameters": True, "blocksJson": blocks, "otherOptions": {}}
    _, error = await _run(params)
    assert error is None and saas.requests[-1].body["blocks"] == blocks


async def test_ok_false_fails_with_the_whole_answer(saas: FakeSaasServer) -> None:
    params = {"resource": "channel", "operation": "get", "channelId": "C99MISSING"}
    _, error = await _run(params)
    assert error["message"] == 'Slack error response: {"ok":false,"error":"channel_not_found"}'
    items, _ = await _run(params, onError="continueRegularOutput")
    assert items == [{"error": 'Slack error response: {"ok":false,"error":"channel_not_found"}'}]


@pytest.mark.parametrize(
    ("params", "words"),
    [
        ({"resource": "file", "operation": "upload", "fileContent": "x", "options": {}}, "file / upload"),
        ({"channel": "C01GENERAL", "text": "x", "otherOptions": {},
          "blocksUi": {"blocksValues": [{"type": "section"}]}}, "blocks builder (blocksUi)"),
    ],
)  # fmt: skip
async def test_what_is_not_ported_is_a_typed_error_naming_it(
    saas: FakeSaasServer, params: dict[str, Any], words: str
) -> None:
    _, error = await _run(params)
    assert words in error["message"] and "Slack 2" in error["description"]
    assert error["node"]["name"] == "Slack"


def test_the_tool_variant_stays_2_only() -> None:
    assert 1 in Slack.description.versions
    assert 1 not in Slack.tool_versions and 2 in Slack.tool_versions


async def test_a_profile_update_sends_the_expiration_in_the_workflow_timezone(saas: FakeSaasServer) -> None:
    fields = {"status_text": "away", "status_expiration": "2025-01-31T18:00:00",
              "customFieldUi": {"customFieldValues": [{"id": "Xf01", "value": "v", "alt": ""}]}}  # fmt: skip
    params = {"resource": "userProfile", "operation": "update", "additionalFields": fields}
    items, error = await _run(params, data.USER_TOKEN)
    assert error is None and items[0]["status_text"] == "away"
    sent = saas.requests[-1].body["profile"]
    assert sent["status_expiration"] == 1738364400  # 18:00 in New York (n8n's default timezone) is 23:00 UTC
    assert sent["fields"] == {"Xf01": {"value": "v", "alt": ""}}
