"""Testing a credential whose declarative test request is built with expressions over ``$credentials``."""

from __future__ import annotations

from weft.services.credential_test import build_request
from weft.services.credential_test_run import test_credential as check_credential
from weft.testing.saas import FakeSaasServer, gong


def test_a_test_url_made_by_an_expression() -> None:
    request = build_request("awsAssumeRole", {"region": "cn-north-1"})
    assert request.url == "https://sts.cn-north-1.amazonaws.com.cn/?Action=GetCallerIdentity&Version=2011-06-15"


async def test_gong_s_test_request_reaches_its_base_url_with_basic_auth() -> None:
    with FakeSaasServer() as server:
        data = {"baseUrl": server.url + "/gong/", "accessKey": gong.KEY, "accessKeySecret": gong.SECRET}
        assert await check_credential("gongApi", data) == {"status": "OK", "message": "Connection successful!"}
        wrong = await check_credential("gongApi", {**data, "accessKeySecret": "nope"})
        assert wrong == {"status": "Error", "message": "Unauthorized"}
        assert [r.path for r in server.requests] == ["/gong/v2/users", "/gong/v2/users"]
