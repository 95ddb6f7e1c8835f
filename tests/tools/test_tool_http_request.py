"""toolHttpRequest 1.1 (and 1): placeholders filled by the model, its schema, and what the model reads back."""

from __future__ import annotations

from typing import Any

from weft.testing.http_echo import HttpEchoServer
from weft.testing.workflows import node

from ._agent import LC, calls, run_agent, runs


def _tool(parameters: dict[str, Any], version: float = 1.1) -> dict[str, Any]:
    return node("Lookup", LC + "toolHttpRequest", {"toolDescription": "Looks things up", **parameters}, version=version)


def _placeholders(*definitions: tuple[str, str]) -> dict[str, Any]:
    return {"values": [{"name": name, "type": kind, "description": name + " please"} for name, kind in definitions]}


async def test_placeholders_in_url_query_header_and_json_body(echo: HttpEchoServer) -> None:
    tool = _tool(
        {
            "method": "POST",
            "url": echo.url + "/weather/{city}",
            "sendQuery": True,
            "parametersQuery": {
                "values": [
                    {"name": "days", "valueProvider": "modelRequired"},
                    {"name": "units", "valueProvider": "fieldValue", "value": "metric"},
                    {"name": "q", "valueProvider": "fieldValue", "value": "x-{tag}"},
                ]
            },
            "sendHeaders": True,
            "parametersHeaders": {"values": [{"name": "X-Trace", "valueProvider": "modelOptional"}]},
            "sendBody": True,
            "specifyBody": "json",
            "jsonBody": '{"note": "{note}", "n": {count}}',
            "placeholderDefinitions": _placeholders(
                ("city", "string"), ("days", "number"), ("tag", "string"), ("note", "string"), ("count", "number")
            ),
        }
    )
    arguments = {"city": "Lima", "days": 2, "tag": "t1", "note": "hi", "count": 3, "X-Trace": "abc"}
    run, requests = await run_agent(tool, calls("Lookup", arguments), agent_version=2.2)
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    [received] = echo.requests
    assert received["path"] == "/weather/Lima"
    assert received["query"] == {"days": "2", "units": "metric", "q": "x-t1"}
    assert received["headers"]["x-trace"] == "abc" and received["body"] == {"note": "hi", "n": 3}
    schema = requests[0]["tools"][0]["function"]["parameters"]
    assert list(schema["properties"]) == ["city", "days", "tag", "X-Trace", "note", "count"]
    assert schema["properties"]["days"] == {"type": "number", "description": "days please"}
    assert schema["required"] == ["city", "days", "tag", "note", "count"]
    [task] = runs(run, "Lookup")
    assert task["inputOverride"]["ai_tool"][0][0]["json"] == {"query": arguments}
    response = task["data"]["ai_tool"][0][0]["json"]["response"]
    assert response.startswith('{\n  "method": "POST",')  # JSON pretty-printed, as the model reads it
    assert requests[1]["messages"][-1]["content"] == response


async def test_a_missing_required_placeholder_fails_the_agent(echo: HttpEchoServer) -> None:
    run, requests = await run_agent(_tool({"url": echo.url + "/items/{id}"}), calls("Lookup", {}), agent_version=2.2)
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "Received tool input did not match expected schema\n\n✖ Required\n  → at id"
    assert runs(run, "Lookup") == [] and len(requests) == 1 and echo.requests == []


async def test_a_missing_placeholder_without_a_schema_check_is_reported(echo: HttpEchoServer) -> None:
    tool = _tool({"url": echo.url + "/items/{id}"}, version=1)
    run, requests = await run_agent(tool, calls("Lookup", {"input": "{}"}), agent_version=2.2)
    [task] = runs(run, "Lookup")
    message = "Model did not provide parameter 'id' which is required and must be present in the input"
    assert task["executionStatus"] == "error" and task["error"]["message"] == message
    assert requests[1]["messages"][-1]["content"] == "Input provided by model is not valid"
    assert echo.requests == []


async def test_an_http_error_is_text_for_the_model(echo: HttpEchoServer) -> None:
    run, requests = await run_agent(
        _tool({"url": echo.url + "/status/404/{id}"}), calls("Lookup", {"id": "7"}), agent_version=2.2
    )
    text = requests[1]["messages"][-1]["content"]
    assert text.startswith('HTTP 404 There was an error: "Request failed with status code 404"\nResponse body: {\n')
    assert '"path": "/status/404/7"' in text
    assert runs(run, "Lookup")[0]["executionStatus"] == "success"


async def test_an_unused_placeholder_definition_is_refused(echo: HttpEchoServer) -> None:
    tool = _tool({"url": echo.url + "/x", "placeholderDefinitions": _placeholders(("ghost", "string"))})
    run, _ = await run_agent(tool, calls("Lookup", {}), agent_version=2.2)
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "Error in sub-node Lookup"
    assert error["description"] == "Misconfigured placeholder 'ghost'"


async def test_version_1_describes_the_placeholders_in_text(echo: HttpEchoServer) -> None:
    tool = _tool({"url": echo.url + "/items/{id}", "placeholderDefinitions": _placeholders(("id", "string"))}, 1)
    run, requests = await run_agent(tool, calls("Lookup", {"input": "abc"}), agent_version=2.2)
    function = requests[0]["tools"][0]["function"]
    assert function["parameters"]["properties"] == {"input": {"type": "string"}}
    assert "id: (description: id please, type: string, required: true)" in function["description"]
    assert echo.requests[0]["path"] == "/items/abc"  # not JSON, and one placeholder: the text is its value
    assert runs(run, "Lookup")[0]["inputOverride"]["ai_tool"][0][0]["json"] == {"query": "abc"}


async def test_a_generic_credential_is_sent(echo: HttpEchoServer) -> None:
    parameters = {
        "url": echo.url + "/me/{id}",
        "authentication": "genericCredentialType",
        "genericAuthType": "httpQueryAuth",
    }
    tool = node(
        "Lookup",
        LC + "toolHttpRequest",
        {"toolDescription": "Me", **parameters},
        version=1.1,
        credentials={"httpQueryAuth": {"id": "qry00000000001", "name": "Query"}},
    )
    credentials = {"Query": {"name": "key", "value": "s3cret"}}
    run, _ = await run_agent(tool, calls("Lookup", {"id": "1"}), agent_version=2.2, credentials=credentials)
    assert run["status"] == "success"
    assert echo.requests[0]["path"] == "/me/1" and echo.requests[0]["query"] == {"key": "s3cret"}


async def test_a_placeholder_domain_with_a_credential_is_refused(echo: HttpEchoServer) -> None:
    parameters = {
        "url": "http://{host}/x",
        "authentication": "genericCredentialType",
        "genericAuthType": "httpQueryAuth",
    }
    run, _ = await run_agent(_tool(parameters), calls("Lookup", {"host": "evil.example"}), agent_version=2.2)
    error = run["data"]["resultData"]["error"]
    assert error["description"] == "Can't use a placeholder for the domain when using authentication"
    assert echo.requests == []
