"""The AWS Cognito node end to end against the fake of ``weft.testing.saas.aws`` (reached at
``cognito-idp.<region>.amazonaws.com`` and ``sts.<region>.amazonaws.com`` through the fake as HTTPS proxy, which
checks every request's SigV4 signature): what the recorded cases cannot show (typed errors of bad parameters,
temporary keys, the assumed role's keys, the escaped filter, what each request carries)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.saas import FakeSaasServer
from weft.testing.saas.aws import EXTERNAL_ID, KEYS, ROLE_ARN

POOL, EMAILS = "us-east-1_WeftNames", "us-east-1_WeftEmail"
IAM_KEYS = {"region": "us-east-1", "accessKeyId": "AKIAWEFTFAKE0001", "secretAccessKey": KEYS["AKIAWEFTFAKE0001"][0]}
ROLE = {"region": "us-east-1", "useSystemCredentialsForRole": False, "stsAccessKeyId": "AKIAWEFTSTS00001",
        "stsSecretAccessKey": KEYS["AKIAWEFTSTS00001"][0], "roleArn": ROLE_ARN, "externalId": EXTERNAL_ID,
        "roleSessionName": "weft-test"}  # fmt: skip


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeSaasServer]:
    with FakeSaasServer(0, only=["aws"]) as server:
        for name, value in server.proxy_env().items():
            monkeypatch.setenv(name, value)
        yield server


async def run(params: dict[str, Any], credential: dict[str, Any] | None = None, kind: str = "aws") -> tuple[
    list[Any], str | None
]:  # fmt: skip
    node = {"name": "Cognito", "type": "n8n-nodes-base.awsCognito", "typeVersion": 1, "parameters": params,
            "credentials": {kind: {"id": "c", "name": "C"}}}  # fmt: skip
    workflow = {
        "name": "cognito",
        "nodes": [{"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}}, node],
        "connections": {"T": {"main": [[{"node": "Cognito", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1"},
    }
    result = await run_workflow(workflow, services=LocalServices(credentials={"C": credential or IAM_KEYS}))
    task = result["data"]["resultData"]["runData"]["Cognito"][0]
    items = [i["json"] for i in ((task.get("data") or {}).get("main") or [[]])[0] or []]
    return items, (task.get("error") or {}).get("message")


def rl(value: str, mode: str = "id") -> dict[str, Any]:
    return {"__rl": True, "mode": mode, "value": value}


def targets(fake: FakeSaasServer) -> list[str]:
    return [r.headers.get("x-amz-target", "").split(".")[-1] for r in fake.requests]


async def test_get_user_finds_the_name_of_the_sub_and_signs_every_request(fake: FakeSaasServer) -> None:
    items, error = await run({"resource": "user", "operation": "get", "userPool": rl(POOL),
                              "user": rl("5f1e0000-0000-4000-8000-000000000002")})  # fmt: skip
    assert error is None and items[0]["Username"] == "alan" and items[0]["email"] == "alan@example.com"
    assert targets(fake) == ["DescribeUserPool", "ListUsers", "AdminGetUser"]
    assert json.loads(fake.requests[1].raw_body)["Filter"] == 'sub = "5f1e0000-0000-4000-8000-000000000002"'
    for request in fake.requests:
        assert request.host == "cognito-idp.us-east-1.amazonaws.com" and request.query_pairs == []
        assert "/us-east-1/cognito-idp/aws4_request" in request.headers["authorization"]


async def test_temporary_keys_send_their_session_token(fake: FakeSaasServer) -> None:
    secret, token = KEYS["ASIAWEFTROLE0001"]
    credential = {"region": "us-east-1", "accessKeyId": "ASIAWEFTROLE0001", "secretAccessKey": secret,
                  "temporaryCredentials": True, "sessionToken": token}  # fmt: skip
    items, error = await run({"resource": "userPool", "operation": "get", "userPool": rl(POOL)}, credential)
    assert error is None and items[0]["Id"] == POOL and "Policies" not in items[0]
    assert fake.requests[0].headers["x-amz-security-token"] == token
    _items, error = await run({"resource": "userPool", "operation": "get", "userPool": rl(POOL)},
                              {**credential, "temporaryCredentials": False})  # fmt: skip
    assert error is not None  # the temporary key without its token is refused


async def test_the_assumed_roles_keys_sign_the_request(fake: FakeSaasServer) -> None:
    params = {"authentication": "assumeRole", "resource": "userPool", "operation": "get", "userPool": rl(POOL)}
    items, error = await run(params, ROLE, "awsAssumeRole")
    assert error is None and items[0]["Name"] == "Weft users"
    sts, cognito = fake.requests
    assert sts.host == "sts.us-east-1.amazonaws.com" and sts.body["RoleSessionName"] == "weft-test"
    assert sts.body["ExternalId"] == EXTERNAL_ID and "Credential=AKIAWEFTSTS00001/" in sts.headers["authorization"]
    assert "Credential=ASIAWEFTROLE0001/" in cognito.headers["authorization"]
    assert cognito.headers["x-amz-security-token"] == KEYS["ASIAWEFTROLE0001"][1]


async def test_a_role_the_keys_may_not_assume(fake: FakeSaasServer) -> None:
    params = {"authentication": "assumeRole", "resource": "userPool", "operation": "get", "userPool": rl(POOL)}
    _items, error = await run(params, {**ROLE, "externalId": "guess"}, "awsAssumeRole")
    assert error is not None and error.startswith("Failed to assume role: STS AssumeRole failed: User: ")
    assert len(fake.requests) == 1  # nothing sent to Cognito


async def test_system_credentials_need_the_administrators_consent(fake: FakeSaasServer) -> None:
    params = {"authentication": "assumeRole", "resource": "userPool", "operation": "get", "userPool": rl(POOL)}
    _items, error = await run(params, {**ROLE, "useSystemCredentialsForRole": True}, "awsAssumeRole")
    assert error == "Failed to assume role: Access to AWS system credentials disabled, contact your administrator."
    assert fake.requests == []


async def test_the_filter_value_is_escaped(fake: FakeSaasServer) -> None:
    params = {"resource": "user", "operation": "getAll", "userPool": rl(POOL), "simple": False,
              "filters": {"filter": {"attribute": "email", "value": 'a" or "x'}}}  # fmt: skip
    items, error = await run(params)
    assert error is None and items == []
    assert json.loads(fake.requests[0].raw_body)["Filter"] == '"email"^="a\\" or \\"x"'


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"resource": "group", "operation": "create", "newGroupName": "ops",
          "additionalFields": {"arn": "not-an-arn"}}, "Invalid ARN format"),
        ({"resource": "group", "operation": "update", "group": rl("admins", "groupName"), "additionalFields": {}},
         "At least one field must be provided for update."),
        ({"resource": "user", "operation": "update", "user": rl("5f1e0000-0000-4000-8000-000000000001"),
          "userAttributes": {"attributes": []}}, "No user attributes provided"),
        ({"resource": "user", "operation": "create", "newUserName": "zed",
          "additionalFields": {"desiredDeliveryMediums": ["EMAIL"]}}, 'Missing required "email" attribute'),
        ({"resource": "user", "operation": "create", "newUserName": "zed", "additionalFields": {"userAttributes": {
          "attributes": [{"attributeType": "standard", "standardName": "email_verified", "value": "true"}]}}},
         'Missing required "email" attribute'),
    ],
)  # fmt: skip
async def test_bad_parameters_fail_before_the_change(
    fake: FakeSaasServer, params: dict[str, Any], message: str
) -> None:
    _items, error = await run({"userPool": rl(POOL), **params})
    assert error == message
    assert not {"CreateGroup", "UpdateGroup", "AdminUpdateUserAttributes", "AdminCreateUser"} & set(targets(fake))


async def test_a_new_user_of_an_email_pool_needs_an_email_name(fake: FakeSaasServer) -> None:
    _items, error = await run({"resource": "user", "operation": "create", "userPool": rl(EMAILS), "newUserName": "zed"})
    assert error == "Invalid email format" and targets(fake) == ["DescribeUserPool"]


async def test_errors_name_the_user_and_the_fix(fake: FakeSaasServer) -> None:
    params = {"resource": "user", "operation": "get", "userPool": rl(EMAILS), "user": rl("nobody@example.com")}
    _items, error = await run(params)
    assert error == 'User "nobody@example.com" not found.'
