"""The Jira node against the fake Jira API (``weft.testing.saas.jira``, served as the HTTPS proxy): Basic and
Bearer auth, Cloud's token pages and Server's offset pages, the query kept from one item to the next as n8n
keeps it, comments as Atlassian Documents, attachment uploads, typed errors, the credential tests. Recorded
cases s740-s749 hold the outputs to real n8n."""

from __future__ import annotations

import base64
from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.jira.transport import simplify_issue
from weft.services.credential_test import build_request
from weft.testing.saas import FakeSaasServer, jira

CLOUD = f"https://{jira.CLOUD_HOST}"
SERVER = f"https://{jira.SERVER_HOST}/"
CREDENTIALS = {
    "jiraSoftwareCloudApi": {"email": jira.CLOUD_AUTH[0], "apiToken": jira.CLOUD_AUTH[1], "domain": CLOUD},
    "jiraSoftwareServerApi": {"email": jira.SERVER_AUTH[0], "password": jira.SERVER_AUTH[1], "domain": SERVER},
    "jiraSoftwareServerPatApi": {"personalAccessToken": jira.PAT, "domain": SERVER},
}
_KINDS = {"cloud": "jiraSoftwareCloudApi", "server": "jiraSoftwareServerApi", "serverPat": "jiraSoftwareServerPatApi"}


saas = service_fixture("jira")


async def _run(params: dict[str, Any], items: list[dict[str, Any]] | None = None) -> tuple[list[Any], Any]:
    kind = _KINDS.get(str(params.get("jiraVersion", "cloud")), "jiraSoftwareCloudApi")
    code = f"return {items!r};".replace("True", "true") if items is not None else "return [{json: {}}];"
    workflow = {
        "name": "jira",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Items", "type": "n8n-nodes-base.code", "typeVersion": 2, "parameters": {"jsCode": code}},
            {"name": "Jira", "type": "n8n-nodes-base.jira", "typeVersion": 1, "parameters": params,
             "credentials": {kind: {"id": "1", "name": "jira"}}},
        ],
        "connections": {"T": {"main": [[{"node": "Items", "type": "main", "index": 0}]]},
                        "Items": {"main": [[{"node": "Jira", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Jira"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


def _basic(user: str, password: str) -> str:
    return "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()


async def test_cloud_searches_by_next_page_token(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "getAll", "returnAll": True, "options": {"fields": "summary"}})
    assert error is None and [i["key"] for i in items] == [f"WEFT-{n}" for n in range(1, 8)]
    assert [r.path for r in saas.requests] == ["/rest/api/2/search/jql"] * 3
    assert [r.body.get("nextPageToken") for r in saas.requests] == [None, "page-3", "page-6"]
    assert saas.requests[0].body == {"fields": ["summary"], "jql": 'created >= "1970-01-01"', "maxResults": 100}
    assert saas.requests[0].headers["authorization"] == _basic(*jira.CLOUD_AUTH)
    assert saas.requests[0].headers["x-atlassian-token"] == "no-check"


async def test_server_searches_by_offset_with_basic_and_pat(saas: FakeSaasServer) -> None:
    params = {"jiraVersion": "server", "operation": "getAll", "returnAll": True, "options": {"jql": "project = WEFT"}}
    items, error = await _run(params)
    assert error is None and len(items) == 7
    assert [r.body["startAt"] for r in saas.requests] == [0, 3, 6]
    assert {r.path for r in saas.requests} == {"/rest/api/2/search"}
    assert saas.requests[0].headers["authorization"] == _basic(*jira.SERVER_AUTH)
    _, error = await _run({**params, "jiraVersion": "serverPat"})
    assert error is None and saas.requests[-1].headers["authorization"] == f"Bearer {jira.PAT}"


async def test_the_query_of_one_item_is_kept_for_the_next_as_in_n8n(saas: FakeSaasServer) -> None:
    first = {"key": "WEFT-2", "fields": "summary"}
    items, error = await _run(
        {"operation": "get", "issueKey": "={{ $json.key }}", "additionalFields": {"fields": "={{ $json.fields }}"}},
        [{"json": first}, {"json": {"key": "WEFT-3", "fields": ""}}],
    )
    assert error is None and [sorted(i["fields"]) for i in items] == [["summary"], ["summary"]]
    assert [r.query for r in saas.requests] == [{"fields": "summary"}, {"fields": "summary"}]


async def test_cloud_comments_are_documents_and_server_comments_text(saas: FakeSaasServer) -> None:
    _, error = await _run({"resource": "issueComment", "issueKey": "WEFT-2", "comment": "Hi"})
    assert error is None and saas.requests[-1].path == "/rest/api/3/issue/WEFT-2/comment"
    assert saas.requests[-1].body["body"]["content"][0]["content"][0] == {"type": "text", "text": "Hi"}
    _, error = await _run({"jiraVersion": "server", "resource": "issueComment", "issueKey": "WEFT-2", "comment": "Hi"})
    assert error is None and saas.requests[-1].path == "/rest/api/2/issue/WEFT-2/comment"
    assert saas.requests[-1].body == {"body": "Hi"}


async def test_an_attachment_is_uploaded_as_multipart_form_data(saas: FakeSaasServer) -> None:
    workflow_items = [{"json": {}, "binary": {"data": {"data": base64.b64encode(b"hello").decode(),
                                                       "mimeType": "text/plain", "fileName": "hi.txt"}}}]  # fmt: skip
    items, error = await _run({"resource": "issueAttachment", "issueKey": "WEFT-1"}, workflow_items)
    assert error is None and items[0]["filename"] == "hi.txt" and items[0]["size"] == 5
    assert saas.requests[-1].headers["content-type"].startswith("multipart/form-data; boundary=")


async def test_a_sub_task_without_parent_is_refused_with_n8n_s_message(saas: FakeSaasServer) -> None:
    rl = {"__rl": True, "mode": "id"}
    params = {"project": {**rl, "value": "10000"}, "issueType": {**rl, "value": "10003"}, "summary": "x"}
    _, error = await _run(params)
    assert error["message"] == "You must define a Parent Issue Key when Issue type is sub-task"
    assert [r.path for r in saas.requests] == ["/rest/api/2/issuetype"]


async def test_cloud_oauth2_is_refused_naming_the_parameter(saas: FakeSaasServer) -> None:
    _, error = await _run({"jiraVersion": "cloudOAuth2", "operation": "get", "issueKey": "WEFT-1"})
    assert error["message"] == "Jira version 'cloudOAuth2' is not supported yet"
    assert "'Jira Version'" in error["description"] and not saas.requests


def test_simplified_issues_name_fields_and_put_custom_fields_last() -> None:
    answer = {"id": "1", "key": "K-1", "self": "s", "names": {"summary": "Summary", "customfield_1": "Summary",
              "status": "Status"}, "fields": {"customfield_1": 3, "summary": "x", "status": "s"}}  # fmt: skip
    assert list(simplify_issue(answer).items()) == [
        ("id", "1"), ("key", "K-1"), ("self", "s"), ("Status", "s"), ("Summary", "x"), ("Summary_1", 3)]  # fmt: skip


def test_the_credential_tests_ask_for_myself() -> None:
    cloud = build_request("jiraSoftwareCloudApi", CREDENTIALS["jiraSoftwareCloudApi"])
    assert cloud.url == f"{CLOUD}/rest/api/2/myself" and cloud.auth == jira.CLOUD_AUTH
    pat = build_request("jiraSoftwareServerPatApi", CREDENTIALS["jiraSoftwareServerPatApi"])
    assert pat.url == f"https://{jira.SERVER_HOST}/rest/api/2/myself"
    assert pat.headers["Authorization"] == f"Bearer {jira.PAT}"
