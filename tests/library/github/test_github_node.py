"""The GitHub node against the fake GitHub API (``weft.testing.saas.github``, served as the HTTPS proxy): what it
sends (token or OAuth2 bearer, pages by ``page`` while the ``Link`` header names a next one, the file SHA it looks
up before an edit), typed errors naming the node and parameter, the credential test. Recorded cases s701-s716
hold the outputs to real n8n."""

from __future__ import annotations

import base64
from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer, github

OWNER = {"__rl": True, "mode": "name", "value": github.OWNER}
REPO = {"__rl": True, "mode": "name", "value": github.REPO}
CREDENTIALS = {
    "githubApi": {"server": "https://api.github.com", "user": "weft-bot", "accessToken": github.TOKEN},
    "githubOAuth2Api": {"server": "https://api.github.com", "oauthTokenData": {"access_token": github.OAUTH_TOKEN}},
}


saas = service_fixture("github")


async def _run(params: dict[str, Any], version: float = 1.1, **node: Any) -> tuple[list[Any], Any]:
    kind = "githubOAuth2Api" if params.get("authentication") == "oAuth2" else "githubApi"
    workflow = {
        "name": "github",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "GitHub", "type": "n8n-nodes-base.github", "typeVersion": version,
             "parameters": {"owner": OWNER, "repository": REPO, **params},
             "credentials": {kind: {"id": "1", "name": "github"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "GitHub", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["GitHub"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_requests_carry_the_token_and_oauth2_the_bearer(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "get", "issueNumber": 1})
    assert error is None and items[0]["number"] == 1
    assert saas.requests[-1].headers["authorization"] == f"token {github.TOKEN}"
    items, error = await _run({"authentication": "oAuth2", "operation": "get", "issueNumber": 2})
    assert error is None and items[0]["number"] == 2
    assert saas.requests[-1].headers["authorization"] == f"Bearer {github.OAUTH_TOKEN}"


async def test_return_all_follows_the_link_header_page_by_page(saas: FakeSaasServer) -> None:
    params = {"resource": "repository", "operation": "getIssues", "returnAll": True,
              "getRepositoryIssuesFilters": {"state": "all"}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and [i["number"] for i in items] == [7, 6, 5, 4, 3, 2, 1]
    sent = [(r.query["page"], r.query["per_page"], r.query["state"]) for r in saas.requests]
    assert sent == [("1", "100", "all"), ("2", "100", "all"), ("3", "100", "all")]


async def test_a_limit_is_the_page_size_of_one_request(saas: FakeSaasServer) -> None:
    items, error = await _run({"resource": "release", "operation": "getAll", "limit": 2})
    assert error is None and [i["tag_name"] for i in items] == ["v0.4.0", "v0.3.0"]
    assert [r.query for r in saas.requests] == [{"per_page": "2"}]


async def test_an_edit_looks_up_the_file_s_sha_on_the_branch_first(saas: FakeSaasServer) -> None:
    params = {"resource": "file", "operation": "edit", "filePath": "docs/usage.md", "fileContent": "new text",
              "commitMessage": "Edit", "additionalParameters": {"branch": {"branch": "main"}}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items[0]["commit"]["message"] == "Edit"
    lookup, write = saas.requests
    assert (lookup.method, lookup.raw_path, lookup.query) == (
        "GET",
        "/repos/weft-org/engine/contents/docs/usage.md",
        {"ref": "main"},
    )
    assert write.method == "PUT" and write.raw_path == "/repos/weft-org/engine/contents/docs%2Fusage.md"
    assert write.body["sha"] == lookup_sha("docs/usage.md") and write.body["branch"] == "main"
    assert base64.b64decode(write.body["content"]) == b"new text"


def lookup_sha(path: str) -> str:
    return str(github._file(path)["sha"])


async def test_content_that_is_already_base64_is_sent_as_it_is(saas: FakeSaasServer) -> None:
    params = {
        "resource": "file",
        "operation": "create",
        "filePath": "n.md",
        "fileContent": "aGk=",
        "commitMessage": "m",
    }
    _, error = await _run(params)
    assert error is None and saas.requests[-1].body["content"] == "aGk="


async def test_lock_outputs_the_input_items(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "lock", "issueNumber": 3, "lockReason": "spam"})
    assert error is None and items == [{}]
    assert saas.requests[-1].query == {"lock_reason": "spam"}


async def test_a_github_app_credential_is_refused_naming_the_parameter(saas: FakeSaasServer) -> None:
    _, error = await _run({"authentication": "githubAppApi", "operation": "get", "issueNumber": 1})
    assert error["message"] == "Authentication 'githubAppApi' is not supported yet"
    assert "'Authentication'" in error["description"] and not saas.requests


async def test_invalid_dispatch_inputs_fail_before_any_request(saas: FakeSaasServer) -> None:
    params = {"resource": "workflow", "operation": "dispatch", "inputs": "{nope",
              "workflowId": {"__rl": True, "mode": "name", "value": "161335"},
              "ref": {"__rl": True, "mode": "name", "value": "main"}}  # fmt: skip
    _, error = await _run(params)
    assert error["message"] == "Inputs: Invalid JSON" and not saas.requests


async def test_an_error_names_github_s_message(saas: FakeSaasServer) -> None:
    limited = {"__rl": True, "mode": "name", "value": "rate-limited"}
    _, error = await _run({"resource": "repository", "operation": "get", "owner": limited})
    assert error["message"].startswith("The service is receiving too many requests from you")
    assert "API rate limit exceeded" in error["description"]


def test_the_credential_test_asks_for_the_user_with_the_token() -> None:
    request = build_request("githubApi", CREDENTIALS["githubApi"])
    assert (request.method, request.url) == ("GET", "https://api.github.com/user")
    assert request.headers["Authorization"] == f"token {github.TOKEN}"


async def test_a_dispatch_sends_ref_and_inputs_and_outputs_an_empty_item(saas: FakeSaasServer) -> None:
    params = {"resource": "workflow", "operation": "dispatch", "inputs": '{"env": "staging"}',
              "workflowId": {"__rl": True, "mode": "filename", "value": "ci.yml"},
              "ref": {"__rl": True, "mode": "name", "value": "main"}}  # fmt: skip
    items, error = await _run(params)
    assert error is None and items == [{}]  # n8n: json undefined (docs/differences.md, known gaps)
    assert saas.requests[-1].path.endswith("/actions/workflows/ci.yml/dispatches")
    assert saas.requests[-1].body == {"ref": "main", "inputs": {"env": "staging"}}


async def test_github_is_a_tool_an_agent_calls_with_from_ai(saas: FakeSaasServer) -> None:
    """n8n marks GitHub ``usableAsTool``: ``githubTool`` reads the model's ``$fromAI`` values as parameters."""
    from weft.ai.agent_catalog import agent_registry
    from weft.testing.workflows import connect, node, output_json, workflow

    parameters = {"owner": OWNER, "repository": REPO, "operation": "get",
                  "issueNumber": "={{ $fromAI('number', 'the issue number', 'number') }}"}  # fmt: skip
    tool = node("Issue", "n8n-nodes-base.githubTool", parameters, version=1.1)
    tool["credentials"] = {"githubApi": {"id": "1", "name": "github"}}
    turns = [{"tool": "Issue", "args": {"number": 5}}, "{{last_tool_result}}"]
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("AI Agent", "@n8n/n8n-nodes-langchain.agent", {"promptType": "define", "text": "go"}, version=3.1),
        node("Model", "weft.lmChatScripted", {"turns": turns}),
        tool,
        connect("Start", "AI Agent"),
        connect("Model", "AI Agent", type_="ai_languageModel"),
        connect("Issue", "AI Agent", type_="ai_tool"),
    )
    run = await run_workflow(wf, services=LocalServices(credentials=CREDENTIALS, registry=agent_registry()))
    assert output_json(run, "Issue")[0]["title"] == "Binary data in queue mode"
    assert saas.requests[-1].path == "/repos/weft-org/engine/issues/5"
