"""The AWS IAM node end to end against the fake of ``weft.testing.saas.aws`` (``iam.amazonaws.com`` through the
fake as HTTPS proxy, which checks every request's SigV4 signature): typed errors of bad parameters, the members
removed before a group goes, n8n's wording of IAM's errors, and the fake's own signature check."""

from __future__ import annotations

import ssl
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.routing.ports.aws_common import AwsKeys, SignedRequest, sign
from weft.testing.saas import FakeSaasServer
from weft.testing.saas.aws import KEYS

CREDENTIAL = {"region": "us-east-1", "accessKeyId": "AKIAWEFTFAKE0001", "secretAccessKey": KEYS["AKIAWEFTFAKE0001"][0]}


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["aws"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def run(params: dict[str, Any], credential: dict[str, Any] | None = None) -> tuple[list[Any], str | None, Any]:
    node = {"name": "IAM", "type": "n8n-nodes-base.awsIam", "typeVersion": 1, "parameters": params,
            "credentials": {"aws": {"id": "c", "name": "C"}}}  # fmt: skip
    workflow = {
        "name": "iam",
        "nodes": [{"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}}, node],
        "connections": {"T": {"main": [[{"node": "IAM", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }
    result = await run_workflow(workflow, services=LocalServices(credentials={"C": credential or CREDENTIAL}))
    task = result["data"]["resultData"]["runData"]["IAM"][0]
    items = [i["json"] for i in ((task.get("data") or {}).get("main") or [[]])[0] or []]
    error = task.get("error") or {}
    return items, error.get("message"), error.get("description")


def rl(value: str, mode: str = "userName") -> dict[str, Any]:
    return {"__rl": True, "mode": mode, "value": value}


def actions(fake: FakeSaasServer) -> list[str]:
    return [str((r.body or {}).get("Action")) for r in fake.requests]


async def test_deleting_a_group_removes_its_members_first(fake: FakeSaasServer) -> None:
    items, error, _ = await run({"resource": "group", "operation": "delete", "group": rl("Developers", "groupName")})
    assert error is None and items == [{"DeleteGroupResponse": {"ResponseMetadata": {
        "RequestId": "0f1e2d3c-weft-fake-iam-000000000001"}}}]  # fmt: skip
    assert actions(fake) == ["GetGroup", "RemoveUserFromGroup", "RemoveUserFromGroup", "DeleteGroup"]
    assert sorted(r.body["UserName"] for r in fake.requests[1:3]) == ["bob", "carol"]
    assert all(r.headers["content-type"] == "application/x-www-form-urlencoded" for r in fake.requests)


async def test_a_group_that_cannot_be_deleted(fake: FakeSaasServer) -> None:
    _items, error, description = await run({"resource": "group", "operation": "delete",
                                            "group": rl("Locked", "groupName")})  # fmt: skip
    assert error == "Cannot delete entity, must remove users from group first."
    assert description == "Cannot delete entity, please remove users from group first."


async def test_tags_join_the_form_and_the_path_query_is_dropped_as_in_n8n(fake: FakeSaasServer) -> None:
    params = {"resource": "user", "operation": "create", "userName": "frank",
              "additionalFields": {"path": "/ops/", "tags": {"tags": [{"key": "team", "value": "a b~*"}]}}}  # fmt: skip
    items, error, _ = await run(params)
    assert error is None and items[0]["CreateUserResponse"]["CreateUserResult"]["User"]["Path"] == "/"
    sent = fake.requests[0]
    assert (
        sent.raw_body
        == b"Action=CreateUser&Version=2010-05-08&UserName=frank&Tags.member.1.Key=team&Tags.member.1.Value=a+b%7E*"
    )
    assert sent.query_pairs == []


async def test_a_user_path_prefix_must_match_some_user(fake: FakeSaasServer) -> None:
    found, error, _ = await run(
        {"resource": "user", "operation": "getAll", "additionalFields": {"pathPrefix": "sales"}}
    )
    assert error is None and len(found) == 5  # n8n checks the prefix, then lists every user
    _items, error, _ = await run({"resource": "user", "operation": "getAll", "additionalFields": {"pathPrefix": "/hr"}})
    assert error == 'The "/hr/" path was not found in your users. Try entering a different path.'


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"resource": "user", "operation": "create", "userName": "two words"}, "User name should not contain spaces."),
        ({"resource": "group", "operation": "create", "groupName": "é"},
         "Group name can have up to 128 characters. Valid characters: letters, numbers, hyphens (-), and "
         "underscores (_)."),
        ({"resource": "group", "operation": "create", "groupName": "ops", "additionalFields": {"path": "ops"}},
         "Ensure the path is structured correctly, e.g. /division_abc/subdivision_xyz/"),
        ({"resource": "user", "operation": "create", "userName": "ops",
          "additionalFields": {"tags": {"tags": [{"key": "team", "value": ""}]}}},
         "Tag at position 1 is missing 'Value'. Both 'Key' and 'Value' are required."),
        ({"resource": "user", "operation": "create", "userName": "ops",
          "additionalFields": {"permissionsBoundary": "arn:aws:iam::1:policy/x"}},
         "Permissions boundaries must be provided in ARN format (e.g. arn:aws:iam::123456789012:policy/"
         "ExampleBoundaryPolicy). These can be found at the top of the permissions boundary detail page in the IAM "
         "dashboard."),
    ],
)  # fmt: skip
async def test_bad_parameters_fail_before_any_request(
    fake: FakeSaasServer, params: dict[str, Any], message: str
) -> None:
    _items, error, _ = await run(params)
    assert error == message and fake.requests == []


async def test_errors_say_what_to_fix(fake: FakeSaasServer) -> None:
    _items, error, description = await run({"resource": "user", "operation": "get", "user": rl("nobody")})
    assert error == "The user with name nobody cannot be found."
    assert description == "The given user was not found - try entering a different user."
    _items, error, _ = await run({"resource": "user", "operation": "get", "user": rl("alice")},
                                 {**CREDENTIAL, "secretAccessKey": "wrong"})  # fmt: skip
    assert error == "SignatureDoesNotMatch"


def test_the_fake_refuses_a_request_changed_after_signing(fake: FakeSaasServer) -> None:
    """What an attacker on the path could try: the body or a signed header replaced, the signature kept."""
    body = b"Action=GetUser&Version=2010-05-08&UserName=alice"
    request = SignedRequest(method="POST", host="iam.amazonaws.com", path="/", body=body,
                            headers={"content-type": "application/x-www-form-urlencoded"})  # fmt: skip
    keys = AwsKeys(access_key_id="AKIAWEFTFAKE0001", secret_access_key=KEYS["AKIAWEFTFAKE0001"][0])
    headers = {
        **sign(request, keys, "us-east-1", "iam", when="20261204T093000Z"),
        "accept": "application/json",
    }  # accept: not signed
    assert fake.authority is not None
    trusted = ssl.create_default_context(cafile=str(fake.authority.ca_file))
    with httpx.Client(proxy=fake.url, verify=trusted) as client:
        assert client.post("https://iam.amazonaws.com/", content=body, headers=headers).status_code == 200
        changed = client.post("https://iam.amazonaws.com/", content=body.replace(b"alice", b"admin"), headers=headers)
        assert changed.status_code == 403 and changed.json()["Error"]["Code"] == "SignatureDoesNotMatch"
        target = {**headers, "x-amz-date": "20261204T093001Z"}  # a signed header changed
        xml = client.post("https://iam.amazonaws.com/", content=body, headers={**target, "accept": "text/xml"})
        assert xml.status_code == 403 and "<Code>SignatureDoesNotMatch</Code>" in xml.text
