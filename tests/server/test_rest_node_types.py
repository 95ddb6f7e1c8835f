"""``GET /rest/node-types/{type}?version=``: one version of a node type with n8n's parameter properties, for the
editor's node panel, on a real server (the list ``GET /rest/node-types`` is tested with the node creator)."""

from __future__ import annotations

from typing import Any

import httpx

from .conftest import LiveServer


def _get(live: LiveServer, type_name: str, **params: Any) -> httpx.Response:
    return live.client.get(f"/rest/node-types/{type_name}", params=params)


def _names(data: dict[str, Any]) -> list[str]:
    return [str(p["name"]) for p in data["properties"]]


def test_one_version_carries_n8ns_properties_and_what_the_list_gives(live: LiveServer) -> None:
    response = _get(live, "n8n-nodes-base.set", version=3.4)
    assert response.status_code == 200, response.text
    data = response.json()["data"]
    listed = next(t for t in live.client.get("/rest/node-types").json()["data"] if t["name"] == data["name"])
    assert {k: data[k] for k in listed} == listed  # name, displayName, versions, defaults, inputs, outputs...
    assert data["version"] == 3.4 and data["defaultVersion"] == max(data["versions"])
    assert "assignments" in _names(data) and "mode" in _names(data)
    assignments = next(p for p in data["properties"] if p["name"] == "assignments")
    assert assignments["type"] == "assignmentCollection"
    old = _get(live, "n8n-nodes-base.set", version=2).json()["data"]
    assert old["version"] == 2 and "values" in _names(old) and "assignments" not in _names(old)


def test_the_default_version_when_none_is_asked_and_langchain_types_by_their_path(live: LiveServer) -> None:
    data = _get(live, "@n8n/n8n-nodes-langchain.agent").json()["data"]
    assert data["version"] == data["defaultVersion"] == 3.1
    assert data["inputs"] and "promptType" in _names(data)
    openai = _get(live, "@n8n/n8n-nodes-langchain.lmChatOpenAi").json()["data"]
    assert openai["credentials"] == [{"name": "openAiApi", "required": True}]
    assert openai["outputs"] == ["ai_languageModel"]


def test_synthesized_tool_and_hitl_types_get_n8ns_derived_properties(live: LiveServer) -> None:
    tool = _get(live, "n8n-nodes-base.httpRequestTool").json()["data"]
    assert tool["outputs"] == ["ai_tool"] and tool["inputs"] == []
    assert _names(tool)[0] == "toolDescription"  # n8n's convertNodeToAiTool: first (no callout before it)
    date_tool = _get(live, "n8n-nodes-base.dateTimeTool", version=2).json()["data"]
    assert _names(date_tool)[:2] == ["descriptionType", "toolDescription"]  # it has an operation
    hitl = _get(live, "n8n-nodes-base.emailSendHitlTool").json()["data"]
    assert _names(hitl)[0] == "message"
    fixed = {p["name"]: p for p in hitl["properties"] if p["type"] == "hidden"}
    assert fixed["operation"]["default"] == "sendAndWait" and fixed["responseType"]["default"] == "approval"


def test_weft_only_types_are_described_by_hand(live: LiveServer) -> None:
    scripted = _get(live, "weft.lmChatScripted").json()["data"]
    assert _names(scripted) == ["turns", "mode"]
    assert _get(live, "weft.lmChatDemo").json()["data"]["properties"] == []


def test_unknown_types_and_versions_are_404_naming_them(live: LiveServer) -> None:
    unknown = _get(live, "n8n-nodes-base.nope")
    assert unknown.status_code == 404 and "n8n-nodes-base.nope" in unknown.json()["message"]
    version = _get(live, "n8n-nodes-base.set", version=9)
    assert version.status_code == 404
    message = version.json()["message"]
    assert "typeVersion 9" in message and "3.4" in message  # the versions it has
    not_a_tool = _get(live, "n8n-nodes-base.setTool")
    assert not_a_tool.status_code == 404 and "cannot be used as a tool" in not_a_tool.json()["message"]


def test_a_node_type_needs_a_login(live: LiveServer) -> None:
    with httpx.Client(base_url=live.url, timeout=10) as anonymous:
        assert anonymous.get("/rest/node-types/n8n-nodes-base.set").status_code == 401
