"""The Discord node against the fake Discord API (``weft.testing.saas.discord``, served as the HTTPS proxy): how
each credential signs (bot token; OAuth2's bearer only for the user's guilds, its bot token elsewhere; the webhook
URL), the 429 retries and their waits, the multipart form of files, errors worded as n8n words them, version 1.
Recorded cases s351-s371 hold the outputs to real n8n."""

from __future__ import annotations

import json
from typing import Any

import pytest
from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.discord import transport
from weft.library.discord.operations import prepare_embeds, prepare_options
from weft.testing.fake_api import ApiReply, ApiRequest
from weft.testing.saas import FakeSaasServer, discord

HOOK = f"https://discord.com/api/webhooks/{discord.WEBHOOK_ID}/{discord.WEBHOOK_TOKEN}"
CREDENTIALS = {
    "discordBotApi": {"botToken": discord.BOT_TOKEN},
    "discordOAuth2Api": {"botToken": discord.BOT_TOKEN, "oauthTokenData": {"access_token": discord.OAUTH_TOKEN}},
    "discordWebhookApi": {"webhookUri": HOOK},
}
GUILD = {"__rl": True, "mode": "id", "value": discord.GUILD}
BUILDS = {"__rl": True, "mode": "id", "value": "1200000000000000003"}


saas = service_fixture("discord")


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The transport's waits, recorded instead of slept."""
    seen: list[float] = []

    async def pause(seconds: float) -> None:
        seen.append(seconds)

    monkeypatch.setattr(transport, "pause", pause)
    return seen


async def _run(params: dict[str, Any], version: float = 2, **node: Any) -> tuple[list[Any], Any]:
    kind = transport.credential_type(params.get("authentication", "botToken"))
    workflow = {
        "name": "discord",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Discord", "type": "n8n-nodes-base.discord", "typeVersion": version, "parameters": params,
             "credentials": {kind: {"id": "1", "name": "discord"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "Discord", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Discord"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


SEND = {"resource": "message", "operation": "send", "guildId": GUILD, "channelId": BUILDS, "options": {}}


async def test_a_bot_token_signs_every_request(saas: FakeSaasServer, waits: list[float]) -> None:
    items, error = await _run({**SEND, "content": "hello"})
    assert error is None and items[0]["content"] == "hello"
    assert saas.requests[-1].headers["authorization"] == f"Bot {discord.BOT_TOKEN}"
    assert saas.requests[-1].body == {"content": "hello"}
    assert waits == [0.02]  # n8n's pause against Discord's global limit


async def test_oauth2_lists_the_user_s_guilds_with_its_bearer_and_calls_with_its_bot(
    saas: FakeSaasServer, waits: list[float]
) -> None:
    items, error = await _run({**SEND, "authentication": "oAuth2", "content": "hi"})
    assert error is None and items[0]["content"] == "hi"
    signed = [(r.method, r.path, r.headers["authorization"]) for r in saas.requests]
    assert signed == [
        ("GET", "/api/v10/users/@me/guilds", f"Bearer {discord.OAUTH_TOKEN}"),
        ("GET", "/api/v10/channels/1200000000000000003", f"Bot {discord.BOT_TOKEN}"),
        ("POST", "/api/v10/channels/1200000000000000003/messages", f"Bot {discord.BOT_TOKEN}"),
    ]


async def test_oauth2_refuses_a_guild_the_user_is_not_in(saas: FakeSaasServer, waits: list[float]) -> None:
    params = {"authentication": "oAuth2", "resource": "channel", "operation": "get", "channelId": BUILDS,
              "guildId": {**GUILD, "value": "1100000000000000002"}}  # fmt: skip
    _, error = await _run(params)
    assert error["message"] == "You do not have access to the guild with the id 1100000000000000002"
    assert [r.path for r in saas.requests] == ["/api/v10/users/@me/guilds"]


async def test_a_429_is_retried_after_retry_after_three_times(saas: FakeSaasServer, waits: list[float]) -> None:
    _, error = await _run({**SEND, "channelId": {**BUILDS, "value": discord.FLOOD}, "content": "x"})
    assert error["message"] == "You are being rate limited."
    assert len(saas.requests) == 4 and waits == [1.0, 1.0, 1.0]


async def test_an_exhausted_bucket_waits_its_reset(saas: FakeSaasServer, waits: list[float]) -> None:
    original = saas.answer

    def drained(request: ApiRequest) -> ApiReply:
        reply = original(request)
        reply.headers.update({"x-ratelimit-remaining": "0", "x-ratelimit-reset-after": "2.5"})
        return reply

    saas.answer = drained  # type: ignore[method-assign]
    _, error = await _run({"resource": "channel", "operation": "get", "guildId": GUILD, "channelId": BUILDS})
    assert error is None and waits == [2.5]


async def test_files_go_as_payload_json_and_files_n(saas: FakeSaasServer, waits: list[float]) -> None:
    workflow = {
        "name": "discord",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "File", "type": "n8n-nodes-base.code", "typeVersion": 2, "parameters": {"jsCode":
             "return [{json: {}, binary: {doc: {data: 'aGk=', mimeType: 'text/plain', fileName: 'hi'}}}];"}},
            {"name": "Discord", "type": "n8n-nodes-base.discord", "typeVersion": 2,
             "parameters": {**SEND, "content": "see", "files": {"values": [{"inputFieldName": "doc"}]}},
             "credentials": {"discordBotApi": {"id": "1", "name": "discord"}}},
        ],
        "connections": {"T": {"main": [[{"node": "File", "type": "main", "index": 0}]]},
                        "File": {"main": [[{"node": "Discord", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    message = run["data"]["resultData"]["runData"]["Discord"][0]["data"]["main"][0][0]["json"]
    assert message["attachments"][0]["filename"] == "hi.txt" and message["attachments"][0]["size"] == 2
    raw = saas.requests[-1].raw_body
    assert b'name="payload_json"' in raw and b'name="files[0]"; filename="hi.txt"' in raw
    payload = json.loads(raw.split(b"Content-Type: application/json\r\n\r\n")[1].split(b"\r\n")[0])
    assert payload == {"content": "see", "attachments": [{"id": 0, "filename": "hi.txt"}]}


async def test_the_webhook_posts_to_its_url_and_waits_when_asked(saas: FakeSaasServer, waits: list[float]) -> None:
    params = {"authentication": "webhook", "content": "done", "options": {"wait": True}}
    items, error = await _run(params)
    assert error is None and items[0]["webhook_id"] == discord.WEBHOOK_ID
    sent = saas.requests[-1]
    assert sent.path == f"/api/webhooks/{discord.WEBHOOK_ID}/{discord.WEBHOOK_TOKEN}"
    assert sent.query == {"wait": "true"} and sent.body == {"content": "done"}
    assert "authorization" not in sent.headers


async def test_continue_outputs_error_and_description(saas: FakeSaasServer, waits: list[float]) -> None:
    params = {**SEND, "content": "x", "embeds": {"values": [{"inputMethod": "json", "json": '{"color": "red"}'}]}}
    items, error = await _run(params, onError="continueRegularOutput")
    assert error is None
    assert items == [{"error": "The parameter Color is not properly formatted",
                      "description": "Review the formatting or clear it"}]  # fmt: skip


async def test_channel_get_all_fails_even_when_continuing(saas: FakeSaasServer, waits: list[float]) -> None:
    params = {"resource": "channel", "operation": "getAll", "guildId": {**GUILD, "value": "1100000000000000777"},
              "returnAll": True, "options": {}}  # fmt: skip
    _, error = await _run(params, onError="continueRegularOutput")
    assert error["message"] == "Unknown Guild"


def test_embed_json_must_parse() -> None:
    with pytest.raises(Exception, match="Not a valid JSON"):
        prepare_embeds("Discord", [{"inputMethod": "json", "json": "{nope"}])
    assert prepare_embeds("Discord", [{"inputMethod": "fields", "color": "#ff0000", "title": "", "video": "v"}]) == [
        {"color": 0xFF0000, "video": {"url": "v", "width": 1270, "height": 720}}
    ]


def test_flags_and_reply_in_discord_s_shapes() -> None:
    options = prepare_options({"flags": ["SUPPRESS_EMBEDS", "SUPPRESS_NOTIFICATIONS"], "message_reference": "9"}, "1")
    assert options == {"flags": 4100, "message_reference": {"message_id": "9", "guild_id": "1"}}


async def test_version_1_needs_the_webhook_url_and_a_content(saas: FakeSaasServer) -> None:
    _, error = await _run({"text": "x"}, 1)
    assert error["message"] == "Webhook uri is required."
    _, error = await _run({"webhookUri": HOOK, "text": "", "options": {}}, 1)
    assert error["message"] == "Either content or embeds must be set."
    items, error = await _run({"webhookUri": HOOK, "text": "hi", "options": {"embeds": '[{"title": "t"}]'}}, 1)
    assert error is None and items == [{"success": True}]
    assert saas.requests[-1].body == {"content": "hi", "embeds": [{"title": "t"}]}
