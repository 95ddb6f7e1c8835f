"""HTTP Request node against a real server on 127.0.0.1 (see ``http_fixtures``), through the real engine."""

from __future__ import annotations

import base64
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing.workflows import connect, node, output_json, workflow

try:
    from .http_fixtures import PNG, http_server
except ImportError:  # tests/nodes is not a package
    from http_fixtures import PNG, http_server  # type: ignore[no-redef]

__all__ = ["http_server"]

HTTP = "n8n-nodes-base.httpRequest"


async def run_http(params: dict[str, Any], items: list[dict[str, Any]] | None = None, **kwargs: Any) -> Any:
    services = kwargs.pop("services", None)
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("HTTP", HTTP, params, version=kwargs.pop("version", 4.2), position=(200, 0), **kwargs),
        connect("Start", "HTTP"),
    )
    return await run_workflow(wf, trigger_items=items, services=services)


def task(run: Any) -> Any:
    return run["data"]["resultData"]["runData"]["HTTP"][0]


async def test_get_json_object(http_server: str) -> None:
    run = await run_http({"url": f"{http_server}/json"})
    assert run["status"] == "success"
    assert task(run)["data"]["main"][0] == [{"json": {"hello": "world"}, "pairedItem": {"item": 0}}]


async def test_json_array_gives_one_item_per_element(http_server: str) -> None:
    run = await run_http({"url": f"{http_server}/array"})
    assert output_json(run, "HTTP") == [{"a": 1}, {"a": 2}, {"a": 3}]


async def test_text_goes_to_data_and_empty_json_is_an_empty_object(http_server: str) -> None:
    assert output_json(await run_http({"url": f"{http_server}/text"}), "HTTP") == [{"data": "plain text"}]
    assert output_json(await run_http({"url": f"{http_server}/empty"}), "HTTP") == [{}]


async def test_one_request_per_item_paired_to_it(http_server: str) -> None:
    items = [{"url": f"{http_server}/echo?n=1"}, {"url": f"{http_server}/echo?n=2"}]
    run = await run_http({"url": "={{ $json.url }}"}, items)
    out = task(run)["data"]["main"][0]
    assert [i["json"]["query"] for i in out] == [{"n": ["1"]}, {"n": ["2"]}]
    assert [i["pairedItem"] for i in out] == [{"item": 0}, {"item": 1}]


async def test_query_and_headers_as_pairs(http_server: str) -> None:
    params = {
        "url": f"{http_server}/echo",
        "sendQuery": True,
        "queryParameters": {"parameters": [{"name": "q", "value": "a b"}, {"name": "q", "value": "c"}]},
        "sendHeaders": True,
        "headerParameters": {"parameters": [{"name": "X-Token", "value": "t1"}]},
    }
    echo = output_json(await run_http(params), "HTTP")[0]
    assert echo["query"] == {"q": ["a b", "c"]}
    assert echo["headers"]["x-token"] == "t1"
    assert echo["headers"]["accept"].startswith("application/json")


async def test_query_and_headers_as_json(http_server: str) -> None:
    params = {
        "url": f"{http_server}/echo",
        "sendQuery": True,
        "specifyQuery": "json",
        "jsonQuery": '{"page": 2, "tags": ["x", "y"]}',
        "sendHeaders": True,
        "specifyHeaders": "json",
        "jsonHeaders": '{"X-Json": "yes"}',
    }
    echo = output_json(await run_http(params), "HTTP")[0]
    assert echo["query"] == {"page": ["2"], "tags": ["x", "y"]}
    assert echo["headers"]["x-json"] == "yes"


@pytest.mark.parametrize(
    ("body_params", "expected"),
    [
        ({"specifyBody": "json", "jsonBody": '{"a": [1, 2]}'}, '{"a": [1, 2]}'),
        ({"bodyParameters": {"parameters": [{"name": "user.name", "value": "ann"}]}}, '{"user": {"name": "ann"}}'),
    ],
)
async def test_json_body(http_server: str, body_params: dict[str, Any], expected: str) -> None:
    params = {"url": f"{http_server}/echo", "method": "POST", "sendBody": True, **body_params}
    echo = output_json(await run_http(params), "HTTP")[0]
    assert echo["method"] == "POST" and echo["headers"]["content-type"] == "application/json"
    assert echo["body"].replace(" ", "") == expected.replace(" ", "")


async def test_form_urlencoded_and_raw_bodies(http_server: str) -> None:
    pairs = {"parameters": [{"name": "a", "value": "1"}, {"name": "b", "value": "x y"}]}
    form = {"contentType": "form-urlencoded", "bodyParameters": pairs}
    raw = {"contentType": "raw", "rawContentType": "text/csv", "body": "a,b\n1,2"}
    base = {"url": f"{http_server}/echo", "method": "PUT", "sendBody": True}
    echo = output_json(await run_http({**base, **form}), "HTTP")[0]
    assert echo["body"] == "a=1&b=x+y"
    assert echo["headers"]["content-type"] == "application/x-www-form-urlencoded"
    echo = output_json(await run_http({**base, **raw}), "HTTP")[0]
    assert (echo["body"], echo["headers"]["content-type"]) == ("a,b\n1,2", "text/csv")


async def test_multipart_body_with_a_binary_file(http_server: str) -> None:
    parameters = [
        {"name": "field", "value": "v"},
        {"parameterType": "formBinaryData", "name": "upload", "inputDataFieldName": "data"},
    ]
    params = {"url": f"{http_server}/echo", "method": "POST", "sendBody": True}
    params |= {"contentType": "multipart-form-data", "bodyParameters": {"parameters": parameters}}
    binary = {"data": {"data": base64.b64encode(b"hello").decode(), "mimeType": "text/plain", "fileName": "h.txt"}}
    run = await run_workflow(
        workflow(
            node("Start", "n8n-nodes-base.manualTrigger"),
            node("HTTP", HTTP, params, version=4.2),
            connect("Start", "HTTP"),
        ),
        trigger_items=[{"json": {}, "binary": binary}],
    )
    echo = output_json(run, "HTTP")[0]
    assert echo["headers"]["content-type"].startswith("multipart/form-data")
    assert 'name="field"' in echo["body"] and 'filename="h.txt"' in echo["body"] and "hello" in echo["body"]


async def test_full_response(http_server: str) -> None:
    options = {"response": {"response": {"fullResponse": True}}}
    out = output_json(await run_http({"url": f"{http_server}/json", "options": options}), "HTTP")
    assert out[0]["body"] == {"hello": "world"}
    assert (out[0]["statusCode"], out[0]["statusMessage"]) == (200, "OK")
    assert out[0]["headers"]["content-type"] == "application/json; charset=utf-8"


async def test_file_response_is_binary_data(http_server: str) -> None:
    run = await run_http({"url": f"{http_server}/file"}, [{"json": {"keep": 1}}])
    item = task(run)["data"]["main"][0][0]
    assert item["json"] == {"keep": 1}
    assert item["binary"]["data"] == {  # the default mode keeps the bytes in the item
        "data": base64.b64encode(PNG).decode(),
        "mimeType": "image/png",
        "fileType": "image",
        "fileName": "pixel.png",
        "fileSize": "32 B",
        "bytes": 32,
        "fileExtension": "png",
        "directory": f"{http_server}/file",  # v4 follows redirects: n8n writes the URL it ended at
    }


@pytest.mark.parametrize(
    ("code", "message"),
    [
        (404, "The resource you are requesting could not be found"),
        (401, "Authorization failed - please check your credentials"),
        (403, "Forbidden - perhaps check your credentials?"),
        (400, "Bad request - please check your parameters"),
        (429, "The service is receiving too many requests from you"),
        (500, "The service was not able to process your request"),
        (418, "Your request is invalid or could not be processed by the service"),
    ],
)
async def test_http_errors_use_n8n_messages(http_server: str, code: int, message: str) -> None:
    run = await run_http({"url": f"{http_server}/status/{code}"})
    error = run["data"]["resultData"]["error"]
    assert run["status"] == "error"
    assert (error["name"], error["message"]) == ("NodeApiError", message)
    assert error["context"]["httpCode"] == str(code)
    assert error["description"] == f'{{"message": "status {code}"}}'
    assert task(run)["executionStatus"] == "error"


async def test_never_error_returns_the_error_body(http_server: str) -> None:
    options = {"response": {"response": {"neverError": True}}}
    run = await run_http({"url": f"{http_server}/status/404", "options": options})
    assert run["status"] == "success"
    assert output_json(run, "HTTP") == [{"message": "status 404"}]


async def test_continue_on_fail_gives_error_items(http_server: str) -> None:
    items = [{"url": f"{http_server}/json"}, {"url": f"{http_server}/status/500"}, {"url": "ftp://nowhere"}]
    run = await run_http({"url": "={{ $json.url }}"}, items, onError="continueRegularOutput")
    out = task(run)["data"]["main"][0]
    assert run["status"] == "success"
    assert out[0]["json"] == {"hello": "world"}
    assert out[1]["json"]["error"]["status"] == 500
    assert out[1]["json"]["error"]["message"] == '500 - {"message": "status 500"}'
    assert out[2]["json"] == {"error": 'Invalid URL: ftp://nowhere. URL must start with "http" or "https".'}
    assert [i["pairedItem"] for i in out] == [{"item": 0}, {"item": 1}, {"item": 2}]


async def test_timeout_is_honoured(http_server: str) -> None:
    run = await run_http({"url": f"{http_server}/sleep", "options": {"timeout": 200}})
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "The connection was aborted, perhaps the server is offline"
    assert error["description"] == "timeout of 200ms exceeded"


async def test_redirects_are_followed_only_to_http_urls(http_server: str) -> None:
    assert output_json(await run_http({"url": f"{http_server}/redirect"}), "HTTP") == [{"hello": "world"}]
    run = await run_http({"url": f"{http_server}/redirect-ftp"})
    assert run["status"] == "error"
    assert "only http(s) URLs are allowed" in run["data"]["resultData"]["error"]["message"]
    response = {"response": {"neverError": True, "fullResponse": True}}
    options = {"redirect": {"redirect": {"followRedirects": False}}, "response": response}
    full = output_json(await run_http({"url": f"{http_server}/redirect", "options": options}), "HTTP")[0]
    assert (full["statusCode"], full["headers"]["location"]) == (302, "/json")


@pytest.mark.parametrize(
    ("auth_type", "credential", "check"),
    [
        (
            "httpBasicAuth",
            {"user": "u", "password": "p"},
            ("authorization", "Basic " + base64.b64encode(b"u:p").decode()),
        ),
        ("httpHeaderAuth", {"name": "X-Api-Key", "value": "k1"}, ("x-api-key", "k1")),
        ("httpBearerAuth", {"token": "tok"}, ("authorization", "Bearer tok")),
    ],
)
async def test_generic_credentials(http_server: str, auth_type: str, credential: dict[str, str], check: Any) -> None:
    params = {"url": f"{http_server}/echo", "authentication": "genericCredentialType", "genericAuthType": auth_type}
    run = await run_http(params, services=LocalServices(credentials={auth_type: credential}))
    header, value = check
    assert output_json(run, "HTTP")[0]["headers"][header] == value


async def test_query_auth_and_a_missing_credential(http_server: str) -> None:
    params = {
        "url": f"{http_server}/echo",
        "authentication": "genericCredentialType",
        "genericAuthType": "httpQueryAuth",
    }
    services = LocalServices(credentials={"httpQueryAuth": {"name": "key", "value": "s3"}})
    assert output_json(await run_http(params, services=services), "HTTP")[0]["query"] == {"key": ["s3"]}
    run = await run_http(params, services=LocalServices())
    message = run["data"]["resultData"]["error"]["message"]
    assert "'HTTP'" in message and "'httpQueryAuth'" in message and "LocalServices(credentials=" in message


async def test_unsupported_options_fail_clearly(http_server: str) -> None:
    pagination = {"pagination": {"pagination": {"paginationMode": "responseContainsNextURL"}}}
    run = await run_http({"url": f"{http_server}/json", "options": pagination})
    assert run["data"]["resultData"]["error"]["message"] == "Pagination is not supported yet"
    params = {"url": f"{http_server}/json", "authentication": "predefinedCredentialType", "nodeCredentialType": "x"}
    run = await run_http(params)
    assert "'x' is not supported yet" in run["data"]["resultData"]["error"]["message"]


def test_tool_variant_is_synthesized() -> None:
    tool = default_registry().type_class(HTTP + "Tool")
    assert tool is not None and tool.description.outputs == ("ai_tool",)
