"""The Slack node against the fake Slack Web API (``weft.testing.saas.slack``, served as the HTTPS proxy): what it
sends (the bot token, OAuth2's user token, cursor and classic pages), Slack's ``ok: false`` answers as n8n's
errors, a 429, the rate-limited pager's waits, the credential test. Recorded cases s301-s326 hold the outputs to
real n8n."""

from __future__ import annotations

from typing import Any, ClassVar

import httpx
from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.slack.transport import slack_api_request_all_items_with_rate_limit, to_multi_options_csv
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.registry import NodeRegistry
from weft.services.credential_test import build_request
from weft.services.credential_test_run import _judge
from weft.testing.fake_api import ApiReply, ApiRequest
from weft.testing.saas import FakeSaasServer
from weft.testing.saas import _slack_data as data
from weft.workflow import NodeOutput

CREDENTIALS = {
    "slackApi": {"accessToken": data.BOT_TOKEN},
    "slackOAuth2Api": {"oauthTokenData": {"access_token": data.BOT_TOKEN, "authed_user": {
        "access_token": data.USER_TOKEN}}},
}  # fmt: skip


def rl(value: str, mode: str = "id") -> dict[str, Any]:
    return {"__rl": True, "value": value, "mode": mode}


saas = service_fixture("slack")


async def _run(
    params: dict[str, Any], version: float = 2.4, *, registry: NodeRegistry | None = None, **node: Any
) -> tuple[list[Any], Any]:
    kind = "slackOAuth2Api" if params.get("authentication") == "oAuth2" else "slackApi"
    workflow = {
        "name": "slack",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Slack", "type": node.pop("type", "n8n-nodes-base.slack"), "typeVersion": version,
             "parameters": params, "credentials": {kind: {"id": "1", "name": "slack"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "Slack", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, registry=registry, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Slack"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_a_post_sends_the_bot_token_and_renames_ts(saas: FakeSaasServer) -> None:
    params = {"select": "channel", "channelId": rl("C01GENERAL"), "text": "hi",
              "otherOptions": {"includeLinkToWorkflow": False}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items[0]["ok"] is True
    assert "ts" not in items[0] and items[0]["message_timestamp"] == items[0]["message"]["ts"]
    sent = saas.requests[-1]
    assert sent.headers["authorization"] == f"Bearer {data.BOT_TOKEN}"
    assert sent.body == {"channel": "C01GENERAL", "text": "hi", "includeLinkToWorkflow": False}  # n8n sends its options


async def test_the_workflow_link_is_added_from_2_1_on(saas: FakeSaasServer) -> None:
    params = {"select": "channel", "channelId": rl("C01GENERAL"), "text": "hi"}
    items, _ = await _run(params, 2.1)
    assert items[0]["message"]["text"].startswith("hi\n_Automated with this <")
    assert "utm_campaign=n8n-nodes-base.slack|n8n workflow>_" in items[0]["message"]["text"]
    items, _ = await _run(params, 2)
    assert items[0]["message"]["text"] == "hi"


async def test_oauth2_signs_with_the_user_token_of_the_answer(saas: FakeSaasServer) -> None:
    params = {"authentication": "oAuth2", "operation": "search", "query": "deploy", "limit": 2, "options": {}}
    items, error = await _run(params)
    assert error is None and len(items) == 2
    assert saas.requests[-1].headers["authorization"] == f"Bearer {data.USER_TOKEN}"


async def test_ok_false_is_the_node_s_error_and_continue_outputs_it(saas: FakeSaasServer) -> None:
    params = {"resource": "channel", "operation": "get", "channelId": rl("C99MISSING")}
    _, error = await _run(params)
    assert error["message"] == 'Slack error response: "channel_not_found"'
    assert error["node"]["name"] == "Slack"
    items, error = await _run(params, onError="continueRegularOutput")
    assert error is None and items == [{"error": 'Slack error response: "channel_not_found"'}]


async def test_a_missing_scope_names_the_scope_to_add(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "userGroup", "operation": "create", "name": "Reviewers", "Options": {}})
    assert error["message"] == "Your Slack credential is missing required Oauth Scopes"
    assert error["description"] == "Add the following scope(s) to your Slack App: usergroups:write"


async def test_an_http_429_fails_with_n8n_s_rate_limit_message(saas: FakeSaasServer) -> None:
    params = {"select": "channel", "channelId": rl("C09FLOOD00"), "text": "x"}
    _, error = await _run(params)
    assert error["message"] == "The service is receiving too many requests from you"


async def test_return_all_follows_next_cursor(saas: FakeSaasServer) -> None:
    params = {"resource": "channel", "operation": "getAll", "returnAll": True,
              "filters": {"types": ["public_channel", "private_channel"]}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and [c["id"] for c in items] == [c["id"] for c in data.CHANNELS]
    sent = [(r.query.get("cursor", ""), r.query["limit"], r.query["page"]) for r in saas.requests]
    assert [(limit, page) for _, limit, page in sent] == [("100", "1"), ("100", "2")]
    assert sent[0][0] == "" and sent[1][0] != ""


async def test_files_page_by_page_number(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "file", "operation": "getAll", "returnAll": True, "filters": {}})
    assert error is None and [f["id"] for f in items] == [f["id"] for f in data.FILES]
    assert [(r.query["count"], r.query["page"]) for r in saas.requests] == [("100", "1"), ("100", "2"), ("100", "3")]


async def test_history_from_2_4_is_sorted_newest_first(saas: FakeSaasServer) -> None:
    params = {"resource": "channel", "operation": "history", "channelId": rl("C01GENERAL"), "returnAll": True,
              "filters": {}}  # fmt: skip
    items, _ = await _run(params)
    stamps = [float(m["ts"]) for m in items]
    assert stamps == sorted(stamps, reverse=True)


async def test_an_ephemeral_message_by_username_is_refused(saas: FakeSaasServer) -> None:
    params = {"select": "user", "user": rl("ada", "username"), "text": "x",
              "otherOptions": {"ephemeral": {"ephemeralValues": {"user": rl("ada")}}}}  # fmt: skip
    _, error = await _run(params)
    assert error["message"].startswith("You cannot send ephemeral messages using User type")
    assert saas.requests == []


async def test_a_file_upload_goes_through_the_external_upload_url(saas: FakeSaasServer) -> None:
    workflow_binary = {"data": "aGVsbG8=", "mimeType": "text/plain", "fileName": "hello.txt"}
    params = {"resource": "file", "operation": "upload", "options": {"channelId": "C01GENERAL"}}
    items, error = await _run_with_binary(params, workflow_binary)
    assert error is None and items[0]["title"] == "hello.txt"
    paths = [(r.host, r.path) for r in saas.requests]
    assert paths[0] == ("slack.com", "/api/files.getUploadURLExternal")
    assert paths[1][0] == "files.slack.com"
    assert paths[2] == ("slack.com", "/api/files.completeUploadExternal")
    assert saas.requests[0].query == {"filename": "hello.txt", "length": "5"}
    assert saas.requests[2].body == {
        "channel_id": "C01GENERAL",
        "files": [{"id": items[0]["id"], "title": "hello.txt"}],
    }


async def _run_with_binary(params: dict[str, Any], binary: dict[str, Any]) -> tuple[list[Any], Any]:
    workflow = {
        "name": "slack",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "File", "type": "n8n-nodes-base.code", "typeVersion": 2, "parameters": {"jsCode":
             f"return [{{json: {{}}, binary: {{data: {binary!r}}}}}];"}},
            {"name": "Slack", "type": "n8n-nodes-base.slack", "typeVersion": 2.2, "parameters": params,
             "credentials": {"slackApi": {"id": "1", "name": "slack"}}},
        ],
        "connections": {"T": {"main": [[{"node": "File", "type": "main", "index": 0}]]},
                        "File": {"main": [[{"node": "Slack", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Slack"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


class _Pager(NodeType):
    """Lists users with n8n's rate-limited pager (what n8n's list search uses), its waits recorded."""

    description: ClassVar[NodeDescription] = NodeDescription(
        name="test.slackPager", display_name="Pager", versions=(1,), credentials=("slackApi",)
    )
    waits: ClassVar[list[float]] = []

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        async def sleep(seconds: float) -> None:
            _Pager.waits.append(seconds)

        on_fail = str(ctx.get_node_parameter("onFail", 0, "throw"))
        async with ApiRequests(ctx) as api:
            found = await slack_api_request_all_items_with_rate_limit(
                api, "members", "GET", "/users.list", {}, on_fail=on_fail, sleep=sleep
            )
        return [[{"json": found}]]


def _flood_once(saas: FakeSaasServer, times: int) -> None:
    """``users.list`` answers 429 (Retry-After: 7) ``times`` times, then as Slack does."""
    left = [times]
    original = saas.answer

    def users(request: ApiRequest) -> ApiReply:
        if left[0] > 0 and request.path == "/api/users.list" and request.query.get("page") == "2":
            left[0] -= 1
            return ApiReply(status=429, body={"ok": False, "error": "ratelimited"}, headers={"Retry-After": "7"})
        return original(request)

    saas.answer = users  # type: ignore[method-assign]


async def test_the_rate_limited_pager_waits_retry_after_and_goes_on(saas: FakeSaasServer) -> None:
    _Pager.waits = []
    _flood_once(saas, 2)
    registry = NodeRegistry()
    registry.register(_Pager)
    items, error = await _run({}, 1, registry=registry, type="test.slackPager")
    assert error is None and [u["id"] for u in items[0]["data"]] == [u["id"] for u in data.USERS]
    assert _Pager.waits == [7, 7]


async def test_the_rate_limited_pager_stops_with_its_cursor(saas: FakeSaasServer) -> None:
    _Pager.waits = []
    _flood_once(saas, 9)
    registry = NodeRegistry()
    registry.register(_Pager)
    items, error = await _run({"onFail": "stop"}, 1, registry=registry, type="test.slackPager")
    assert error is None and len(items[0]["data"]) == 4 and items[0]["cursor"] and items[0]["page"] == "2"
    assert _Pager.waits == [7, 7, 7, 7]
    _Pager.waits = []
    _, error = await _run({}, 1, registry=registry, type="test.slackPager")
    assert error["message"] == 'Slack error response: "ratelimited"'


def test_multi_options_accept_a_list_or_a_comma_text() -> None:
    assert to_multi_options_csv([" a", "b ", ""]) == "a,b"
    assert to_multi_options_csv("a, b,,c") == "a,b,c"
    assert to_multi_options_csv(None) == ""


def test_the_credential_test_asks_for_the_profile_and_reads_ok_false() -> None:
    request = build_request("slackApi", {"accessToken": data.BOT_TOKEN})
    assert (request.method, request.url) == ("GET", "https://slack.com/api/users.profile.get")
    assert request.headers["Authorization"] == f"Bearer {data.BOT_TOKEN}"
    refused = httpx.Response(200, json={"ok": False, "error": "invalid_auth"})
    assert _judge("slackApi", refused, refused.content) == {"status": "Error", "message": "Invalid access token"}
    fine = httpx.Response(200, json={"ok": True, "profile": {}})
    assert _judge("slackApi", fine, fine.content)["status"] == "OK"
