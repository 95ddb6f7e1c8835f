"""AWS Signature Version 4 (``weft.nodes.routing.ports.aws_common``) and the ``aws`` credential's request signing
(``aws_credentials``): AWS's documented example, requests signed exactly as n8n 2.41 signs them (vectors from its
signer, at a fixed date), and the endpoint rules an attacker could lean on."""

from __future__ import annotations

from typing import Any

import pytest

from weft.errors import NodeOperationError
from weft.nodes.routing.ports.aws_common import (
    AwsKeys,
    SignedRequest,
    canonical_path,
    canonical_query,
    sign,
    signing_key,
)
from weft.nodes.routing.ports.aws_credentials import parse_aws_host, signed_options, signing_service

DOC_SECRET = "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"
CREDENTIAL = {
    "region": "us-east-1",
    "accessKeyId": "AKIAWEFTFAKE0001",
    "secretAccessKey": "weftFakeSecretAccessKey0001",
}
KEYS = AwsKeys(access_key_id="AKIAWEFTFAKE0001", secret_access_key="weftFakeSecretAccessKey0001")
WHEN = "20261204T093000Z"


def test_the_documented_example_request() -> None:
    """AWS's SigV4 walk-through: ``GET https://iam.amazonaws.com/?Action=ListUsers&Version=2010-05-08``."""
    request = SignedRequest(method="GET", host="iam.amazonaws.com", path="/",
                            query=[("Version", "2010-05-08"), ("Action", "ListUsers")],
                            headers={"Content-Type": "application/x-www-form-urlencoded; charset=utf-8"})  # fmt: skip
    headers = sign(request, AwsKeys(access_key_id="AKIDEXAMPLE", secret_access_key=DOC_SECRET), "us-east-1", "iam",
                   when="20150830T123600Z")  # fmt: skip
    assert signing_key(DOC_SECRET, "20150830", "us-east-1", "iam").hex() == (
        "c4afb1cc5771d871763a393e44b703571b55cc28424d1a5e86da6ed3c154a4b9"
    )
    assert headers["authorization"] == (
        "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/iam/aws4_request, "
        "SignedHeaders=content-type;host;x-amz-date, "
        "Signature=5d672d79c15b13162d9279b0855cfba6789a8edb4c82c400e06b5924a6f2b5d7"
    )


def test_canonical_parts() -> None:
    assert canonical_path("/a b/./c/../d%2Fe/") == "/a%20b/d%252Fe/"
    assert canonical_path("/") == "/"
    assert canonical_path("/photos/my%20cat.png", escape=False) == "/photos/my%20cat.png"
    assert canonical_query([("b", "2"), ("a", "x y*"), ("X-Amz-Signature", "s")]) == "a=x%20y%2A&b=2"


def test_a_cognito_request_as_n8n_signs_it() -> None:
    """n8n 2.41's signer (``@smithy/signature-v4``) for the same request at the same date: the same headers."""
    options: dict[str, Any] = {
        "method": "POST", "qs": {"service": "cognito-idp", "_region": "eu-central-1"},
        "headers": {"Content-Type": "application/x-amz-json-1.1",
                    "X-Amz-Target": "AWSCognitoIdentityProviderService.DescribeUserPool"},
        "body": '{"UserPoolId":"eu-central-1_WeftEuro","Name":"Zoë"}',
    }  # fmt: skip
    sent = signed_options("AWS Cognito", options, CREDENTIAL, KEYS, when=WHEN)
    assert sent["url"] == "https://cognito-idp.eu-central-1.amazonaws.com/"
    assert "qs" not in sent and sent["body"] == options["body"]
    assert sent["headers"]["content-length"] == "52"  # bytes, not characters
    assert sent["headers"]["authorization"] == (
        "AWS4-HMAC-SHA256 Credential=AKIAWEFTFAKE0001/20261204/eu-central-1/cognito-idp/aws4_request, "
        "SignedHeaders=content-length;content-type;host;x-amz-date;x-amz-target, "
        "Signature=6debaea2a31cf2c9c7d7b87cc3c7747dc4db68695cae5ba6e46f6024a9971448"
    )


def test_an_iam_request_with_a_session_token_as_n8n_signs_it() -> None:
    options: dict[str, Any] = {
        "method": "POST", "baseURL": "https://iam.amazonaws.com", "url": "", "json": True, "qs": {},
        "headers": {"Content-Type": "application/x-www-form-urlencoded"},
        "body": "Action=ListUsers&Version=2010-05-08&MaxItems=2",
    }  # fmt: skip
    keys = AwsKeys(access_key_id=KEYS.access_key_id, secret_access_key=KEYS.secret_access_key,
                   session_token="weft-session-token")  # fmt: skip
    sent = signed_options("AWS IAM", options, CREDENTIAL, keys, when=WHEN)
    assert sent["url"] == "https://iam.amazonaws.com/"
    assert sent["headers"]["x-amz-security-token"] == "weft-session-token"
    assert sent["headers"]["authorization"] == (
        "AWS4-HMAC-SHA256 Credential=AKIAWEFTFAKE0001/20261204/us-east-1/iam/aws4_request, "
        "SignedHeaders=content-length;content-type;host;x-amz-date;x-amz-security-token, "
        "Signature=b584e248dce554fb44a33361552364e7925244ac075002d464ec4aa982543bf6"
    )


def test_an_object_body_is_sent_as_the_json_it_signs() -> None:
    options = {"method": "POST", "qs": {"service": "lambda"}, "body": {"a": 1}}
    sent = signed_options("Lambda", options, CREDENTIAL, KEYS, when=WHEN)
    assert sent["body"] == '{"a":1}' and sent["url"] == "https://lambda.us-east-1.amazonaws.com/"


def test_the_credentials_custom_endpoint_of_a_service() -> None:
    credential = {**CREDENTIAL, "lambdaEndpoint": "https://lambda.{region}.vpce.weft.example"}
    sent = signed_options("Lambda", {"method": "GET", "qs": {"service": "lambda", "path": "/2015-03-31/functions"}},
                          credential, KEYS, when=WHEN)  # fmt: skip
    assert sent["url"] == "https://lambda.us-east-1.vpce.weft.example/2015-03-31/functions"
    assert "/us-east-1/lambda/aws4_request" in sent["headers"]["authorization"]


@pytest.mark.parametrize("region", ["evil.example#", "us-east-1.evil.example/x", "", None])
def test_a_region_that_is_no_aws_region_is_refused(region: Any) -> None:
    """The region becomes part of the host the signed request goes to: an injected one must not reach the wire."""
    options = {"method": "POST", "qs": {"service": "cognito-idp", "_region": region}}
    with pytest.raises(NodeOperationError, match="Unsupported AWS region"):
        signed_options("AWS Cognito", options, {**CREDENTIAL, "region": region}, KEYS, when=WHEN)


def test_a_host_naming_an_unknown_aws_region_is_refused() -> None:
    options = {"method": "GET", "url": "https://sqs.xx-nowhere-9.amazonaws.com/queue"}
    with pytest.raises(NodeOperationError, match='Unsupported AWS region "xx-nowhere-9"'):
        signed_options("SQS", options, CREDENTIAL, KEYS, when=WHEN)


def test_service_and_region_of_hosts() -> None:
    assert parse_aws_host("iam.amazonaws.com") == ("iam", None)
    assert parse_aws_host("cognito-idp.eu-west-1.amazonaws.com") == ("cognito-idp", "eu-west-1")
    assert parse_aws_host("bucket.s3.dualstack.us-west-2.amazonaws.com") == ("s3", "us-west-2")
    assert parse_aws_host("vpce-0abc.bedrock-runtime.us-east-1.vpce.amazonaws.com") == ("bedrock-runtime", "us-east-1")
    assert [signing_service(s) for s in ("bedrock-runtime", "email", "queue", "s3-fips", "iam")] == [
        "bedrock", "ses", "sqs", "s3", "iam"]  # fmt: skip


def test_the_credential_test_request_is_signed_as_aws_checks_it() -> None:
    """The ``aws`` credential's test (STS ``GetCallerIdentity``) carries a signature the fake AWS accepts."""
    from urllib.parse import parse_qsl, urlsplit

    from weft.services.credential_test import build_request
    from weft.testing.fake_api import ApiRequest
    from weft.testing.saas.aws import expected_signature

    request = build_request("aws", CREDENTIAL)
    url = urlsplit(request.url)
    assert f"{url.scheme}://{url.netloc}{url.path}" == "https://sts.us-east-1.amazonaws.com/"
    pairs = parse_qsl(url.query)
    assert pairs == [("Action", "GetCallerIdentity"), ("Version", "2011-06-15")] and request.params == {}
    headers = {k.lower(): v for k, v in request.headers.items()}
    arrived = ApiRequest(method="POST", path="/", raw_path="/", query=dict(pairs), query_pairs=pairs,
                         headers=headers, body=None, raw_body=b"", host=url.netloc)  # fmt: skip
    scope, names, signature = headers["authorization"].split(" ", 1)[1].split(", ")
    date, region, service = scope.split("/")[1:4]
    expected = expected_signature(arrived, CREDENTIAL["secretAccessKey"], (date, region, service),
                                  names.removeprefix("SignedHeaders=").split(";"))  # fmt: skip
    assert (region, service) == ("us-east-1", "sts") and signature == f"Signature={expected}"
