"""The Microsoft Entra ID node (n8n's declarative description, its functions ported in
``weft.nodes.routing.ports.microsoft_entra``) against the fake Microsoft Graph (``weft.testing.saas.
microsoft_graph``, served as the HTTPS proxy of ``graph.microsoft.com``): what each request carries, the follow-up
``PATCH`` requests and the clean-up after a failed one, the pages of ``@odata.nextLink``, and the ID gates that keep
a user or group value inside its URL path segment. Recorded cases d170-d189 hold the outputs to real n8n."""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace
from typing import Any, cast

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.ports.microsoft_common import graph_target, merge
from weft.testing.saas import FakeSaasServer
from weft.testing.saas.microsoft_graph import TOKEN, USERS, created_id

ADA = USERS[0]["id"]
ENGINEERING = "22222222-2222-4222-8222-000000000001"
CREDENTIALS = {"microsoftEntraOAuth2Api": {"oauthTokenData": {"access_token": TOKEN, "token_type": "Bearer"}}}


@pytest.fixture
def graph(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(only=["microsoft_graph"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def _run(params: dict[str, Any], items: list[dict[str, Any]] | None = None, **node: Any) -> tuple[Any, Any]:
    nodes = [
        {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
        {"name": "In", "type": "n8n-nodes-base.noOp", "typeVersion": 1, "parameters": {}},
        {"name": "Entra", "type": "n8n-nodes-base.microsoftEntra", "typeVersion": 1, "parameters": params,
         "credentials": {"microsoftEntraOAuth2Api": {"id": "1", "name": "e"}}, **node},
    ]  # fmt: skip
    workflow = {
        "name": "entra",
        "nodes": nodes,
        "connections": {
            "T": {"main": [[{"node": "In", "type": "main", "index": 0}]]},
            "In": {"main": [[{"node": "Entra", "type": "main", "index": 0}]]},
        },
        "pinData": {"In": [{"json": item} for item in (items or [{}])]},
        "settings": {"executionOrder": "v1"},
    }
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Entra"][0]
    output = (task.get("data") or {"main": [[]]})["main"][0] or []
    return [i["json"] for i in output], (task.get("error") or {}).get("message")


def _rl(value: str) -> dict[str, Any]:
    return {"__rl": True, "mode": "id", "value": value}


async def test_a_user_value_that_would_leave_its_path_segment_never_reaches_graph(graph: FakeSaasServer) -> None:
    attacks = ["..", "../groups", "x/../../groups", "ada%40contoso.com", "a@b.com/../x", "a b@c.com", "\\..\\x"]
    items, error = await _run(
        {"resource": "user", "operation": "get", "user": _rl("={{ $json.id }}")},
        [{"id": attack} for attack in attacks],
        onError="continueRegularOutput",
    )
    assert error is None
    assert [i["error"] for i in items] == ["The user ID is invalid"] * len(attacks)
    assert graph.requests == []


async def test_a_group_is_addressed_by_object_id_only(graph: FakeSaasServer) -> None:
    items, _ = await _run(
        {"resource": "group", "operation": "delete", "group": _rl("={{ $json.id }}")},
        [{"id": "Engineering"}, {"id": " "}, {"id": f"{ENGINEERING}/.."}],
        onError="continueRegularOutput",
    )
    assert [i["error"] for i in items] == ["The group ID is invalid", "The group is empty", "The group ID is invalid"]
    assert graph.requests == []


async def test_a_stored_extraction_rule_is_refused(graph: FakeSaasServer) -> None:
    locator = {"__rl": True, "mode": "id", "value": ADA, "__regex": "(.*)"}
    _, error = await _run({"resource": "user", "operation": "get", "user": locator})
    assert error == "The user ID is invalid"
    assert graph.requests == []


async def test_a_new_users_fields_follow_in_patches_profile_fields_first(graph: FakeSaasServer) -> None:
    params = {"resource": "user", "operation": "create", "displayName": "Kat J", "userPrincipalName": "kat@contoso.com",
              "mailNickname": "kat", "password": "pw-123456",
              "additionalFields": {"jobTitle": "Mathematician", "skills": ["orbits"], "businessPhones": "+1 555",
                                   "forceChangePassword": "forceChangePasswordNextSignInWithMfa",
                                   "passwordPolicies": ["DisablePasswordExpiration", "DisableStrongPassword"],
                                   "birthday": "1918-08-26T00:00:00Z"}}  # fmt: skip
    items, error = await _run(params)
    assert error is None
    create, profile, rest = graph.requests
    assert (create.method, create.path) == ("POST", "/v1.0/users")
    assert create.body["passwordProfile"] == {"password": "pw-123456"} and create.body["accountEnabled"] is True
    user_path = f"/v1.0/users/{created_id('kat@contoso.com')}"
    assert (profile.method, profile.path) == ("PATCH", user_path)
    assert profile.body == {"birthday": "1918-08-26T00:00:00.000Z", "skills": ["orbits"]}
    assert rest.body == {"jobTitle": "Mathematician", "businessPhones": ["+1 555"],
                         "passwordPolicies": "DisablePasswordExpiration,DisableStrongPassword",
                         "passwordProfile": {"forceChangePasswordNextSignInWithMfa": True}}  # fmt: skip
    assert items[0]["jobTitle"] == "Mathematician" and items[0]["skills"] == ["orbits"]


async def test_a_failed_follow_up_patch_deletes_the_new_user(graph: FakeSaasServer) -> None:
    params = {"resource": "user", "operation": "create", "displayName": "D V", "userPrincipalName": "dv@contoso.com",
              "mailNickname": "dv", "password": "pw-123456", "additionalFields": {"usageLocation": "XX"}}  # fmt: skip
    _, error = await _run(params)
    assert error == "Bad request - please check your parameters"
    assert [(r.method, r.path) for r in graph.requests] == [
        ("POST", "/v1.0/users"),
        ("PATCH", f"/v1.0/users/{created_id('dv@contoso.com')}"),
        ("DELETE", f"/v1.0/users/{created_id('dv@contoso.com')}"),
    ]


async def test_get_many_follows_the_next_links(graph: FakeSaasServer) -> None:
    items, error = await _run(
        {"resource": "user", "operation": "getAll", "returnAll": True, "filter": "accountEnabled eq true"}
    )
    assert error is None
    assert [i["displayName"] for i in items] == ["Ada Lovelace", "Alan Turing", "Grace Hopper", "Barbara Liskov"]
    first, second = graph.requests
    assert first.query["$filter"] == "accountEnabled eq true" and "$top" not in first.query
    assert second.query["$skiptoken"] == "3" and second.query["$filter"] == "accountEnabled eq true"


async def test_an_update_sends_separate_fields_on_their_own(graph: FakeSaasServer) -> None:
    params = {"resource": "group", "operation": "update", "group": _rl(ENGINEERING),
              "updateFields": {"description": "Builders", "autoSubscribeNewMembers": True}}  # fmt: skip
    items, error = await _run(params)
    assert (items, error) == ([{"updated": True}], None)
    main, separate = graph.requests
    assert main.body == {"description": "Builders"}
    assert separate.body == {"autoSubscribeNewMembers": True}


async def test_adding_a_member_refers_to_the_directory_object(graph: FakeSaasServer) -> None:
    params = {"resource": "user", "operation": "addGroup", "group": _rl("22222222-2222-4222-8222-000000000003"),
              "user": _rl(ADA)}  # fmt: skip
    assert await _run(params) == ([{"added": True}], None)
    (sent,) = graph.requests
    assert sent.body == {"@odata.id": f"https://graph.microsoft.com/v1.0/directoryObjects/{ADA}"}


def _call(base_url: str) -> RoutingCall:
    fake = SimpleNamespace(credentials={"graphApiBaseUrl": base_url}, node_name="Entra", item_index=0)
    return cast(RoutingCall, fake)


def test_the_token_goes_to_the_credentials_graph_host_only() -> None:
    call = _call("https://graph.microsoft.us/")
    assert graph_target(call, "/users") == "https://graph.microsoft.us/v1.0/users"
    with pytest.raises(NodeOperationError, match="Refusing to send credentials to an unexpected host"):
        graph_target(call, "/users", "https://attacker.example/v1.0/users")
    with pytest.raises(NodeOperationError, match="Refusing to send credentials"):
        graph_target(call, "/users", "https://graph.microsoft.us.attacker.example/v1.0/users")
    with pytest.raises(NodeOperationError, match="The Graph API base URL is not a valid URL"):
        graph_target(_call("graph.microsoft.com"), "/users")


def test_merge_is_lodash_merge() -> None:
    target = {"a": {"b": 1, "c": [1, {"x": 1}]}, "d": 1}
    assert merge(target, {"a": {"c": [2, {"y": 2}, 3]}, "e": {"f": 1}}) == {
        "a": {"b": 1, "c": [2, {"x": 1, "y": 2}, 3]},
        "d": 1,
        "e": {"f": 1},
    }


async def test_a_failed_group_fields_patch_deletes_the_new_group(graph: FakeSaasServer) -> None:
    params = {"resource": "group", "operation": "create", "displayName": "Ops", "mailNickname": "ops",
              "groupType": "Unified",
              "additionalFields": {"preferredDataLocation": "XX", "isAssignableToRole": False}}  # fmt: skip
    _, error = await _run(params)
    assert error == "Bad request - please check your parameters"
    create, patch, delete = graph.requests
    assert create.body == {"displayName": "Ops", "mailNickname": "ops", "isAssignableToRole": False,
                           "mailEnabled": False, "securityEnabled": True, "groupTypes": ["Unified"]}  # fmt: skip
    assert patch.body == {"preferredDataLocation": "XX"}
    assert (delete.method, delete.path) == ("DELETE", f"/v1.0/groups/{created_id('ops')}")
