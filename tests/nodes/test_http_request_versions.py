"""HTTP Request v1/v2 (their own parameters), v3 (no redirects by default) and 4.5 (error details), against a
real server on 127.0.0.1 (see ``http_fixtures``)."""

from __future__ import annotations

import json
from typing import Any

from weft.engine import run_workflow
from weft.testing.workflows import connect, node, output_json, workflow

try:
    from .http_fixtures import http_server
except ImportError:  # tests/nodes is not a package
    from http_fixtures import http_server  # type: ignore[no-redef]

__all__ = ["http_server"]


async def run_http(params: dict[str, Any], version: float, **settings: Any) -> Any:
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("HTTP", "n8n-nodes-base.httpRequest", params, version=version, position=(200, 0), **settings),
        connect("Start", "HTTP"),
    )
    return await run_workflow(wf)


async def test_v1_get_json_with_ui_query_parameters(http_server: str) -> None:
    params = {
        "url": f"{http_server}/echo",
        "queryParametersUi": {
            "parameter": [{"name": "a", "value": "1"}, {"name": "a", "value": "2"}, {"name": "b", "value": "x"}]
        },
    }
    [echo] = output_json(await run_http(params, 1), "HTTP")
    assert echo["method"] == "GET" and echo["query"] == {"a": ["1", "2"], "b": ["x"]}


async def test_v2_post_json_body_and_full_response(http_server: str) -> None:
    params = {
        "url": f"{http_server}/echo",
        "requestMethod": "POST",
        "jsonParameters": True,
        "bodyParametersJson": '{"k": [1, 2]}',
        "options": {"fullResponse": True},
    }
    [full] = output_json(await run_http(params, 2), "HTTP")
    assert full["statusCode"] == 200 and full["body"]["method"] == "POST"
    assert json.loads(full["body"]["body"]) == {"k": [1, 2]}


async def test_v2_string_response_goes_to_the_data_property(http_server: str) -> None:
    params = {"url": f"{http_server}/text", "responseFormat": "string", "dataPropertyName": "page"}
    assert list(output_json(await run_http(params, 2), "HTTP")[0]) == ["page"]


async def test_v3_does_not_follow_redirects_unless_asked_but_v4_does(http_server: str) -> None:
    params = {
        "url": f"{http_server}/redirect",
        "options": {"response": {"response": {"neverError": True, "fullResponse": True, "responseFormat": "text"}}},
    }
    v3 = output_json(await run_http(params, 3), "HTTP")
    v4 = output_json(await run_http(params, 4.2), "HTTP")
    assert v3[0]["statusCode"] in (301, 302, 303, 307, 308) and v4[0]["statusCode"] == 200


async def test_v4_5_adds_error_details_when_continuing(http_server: str) -> None:
    params = {"url": f"{http_server}/status/404", "options": {}}
    [failed] = output_json(await run_http(params, 4.5, onError="continueRegularOutput"), "HTTP")
    assert failed["details"]["httpCode"] == "404" and failed["details"]["context"] == {"itemIndex": 0}
    assert failed["details"]["message"] == "The resource you are requesting could not be found"
    [older] = output_json(await run_http(params, 4.4, onError="continueRegularOutput"), "HTTP")
    assert "details" not in older


async def test_from_4_4_credentials_stay_behind_on_a_redirect_to_another_origin(http_server: str) -> None:
    params = {
        "url": f"{http_server}/redirect-other-origin",
        "sendHeaders": True,
        "headerParameters": {"parameters": [{"name": "Authorization", "value": "Bearer s3cret"}]},
    }
    [old] = output_json(await run_http(params, 4.3), "HTTP")
    [new] = output_json(await run_http(params, 4.4), "HTTP")
    [opted] = output_json(
        await run_http({**params, "options": {"sendCredentialsOnCrossOriginRedirect": True}}, 4.4), "HTTP"
    )
    assert old["headers"].get("authorization") == "Bearer s3cret" == opted["headers"].get("authorization")
    assert "authorization" not in new["headers"]
