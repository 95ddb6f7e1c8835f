"""HTTP Request Tool end to end: the model's arguments fill URL, query, headers and body of a real request."""

from __future__ import annotations

import pytest

from weft.testing.http_echo import HttpEchoServer

from ._agent import calls, http_tool, run_agent, runs


def _weather(echo: HttpEchoServer, version: float = 4.2) -> dict[str, object]:
    return http_tool(
        "Weather",
        {
            "toolDescription": "Gets the weather",
            "url": "=" + echo.url + "/weather/{{ $fromAI('city', 'The city, e.g. \"Paris\"') }}",
            "sendQuery": True,
            "queryParameters": {
                "parameters": [{"name": "days", "value": "={{ $fromAI('days', 'Days [1-7]', 'number', 3) }}"}]
            },
            "sendHeaders": True,
            "headerParameters": {
                "parameters": [{"name": "X-Metric", "value": "={{ $fromAI('metric', '', 'boolean') }}"}]
            },
            "options": {},
        },
        version=version,
    )


@pytest.mark.parametrize("version", [3, 4, 4.1, 4.2, 4.3, 4.4, 4.5])
async def test_the_model_fills_url_query_and_header(echo: HttpEchoServer, version: float) -> None:
    run, requests = await run_agent(_weather(echo, version), calls("Weather", {"city": "Oslo", "metric": True}))
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    [received] = echo.requests
    assert (received["path"], received["query"], received["headers"]) == (
        "/weather/Oslo",
        {"days": "3"},
        {"x-metric": "true"},
    )
    [tool] = requests[0]["tools"]
    assert tool["function"]["name"] == "Weather" and tool["function"]["description"] == "Gets the weather"
    assert tool["function"]["parameters"] == {
        "type": "object",
        "properties": {
            "city": {"type": "string", "description": 'The city, e.g. "Paris"'},
            "days": {"type": "number", "description": "Days [1-7]", "default": 3},
            "metric": {"type": "boolean"},
        },
        "required": ["city", "metric"],
        "additionalProperties": False,
    }


async def test_the_run_record_shows_the_model_arguments(echo: HttpEchoServer) -> None:
    run, requests = await run_agent(_weather(echo), calls("Weather", {"city": "Oslo", "metric": False}))
    [task] = runs(run, "Weather")
    [[item]] = task["inputOverride"]["ai_tool"]
    # n8n shows only the arguments here; Weft's engine also shows the input item and toolCallId (engine/requests.py)
    assert item["json"].items() >= {"city": "Oslo", "metric": False}.items()
    assert task["data"]["ai_tool"][0][0]["json"]["path"] == "/weather/Oslo"
    assert '"path":"/weather/Oslo"' in requests[1]["messages"][-1]["content"]


async def test_a_json_body_from_the_model(echo: HttpEchoServer) -> None:
    tags = "{{ JSON.stringify($fromAI('tags', 'Tags', 'json')) }}"
    body = '={ "tags": ' + tags + ", \"n\": {{ $fromAI('n', 'N', 'number', 1) }} }"
    tool = http_tool(
        "Notes",
        {"method": "POST", "url": echo.url + "/notes", "sendBody": True, "specifyBody": "json", "jsonBody": body},
    )
    run, requests = await run_agent(tool, calls("Notes", {"tags": ["a", "b"]}))
    assert run["status"] == "success"
    assert echo.requests[0]["body"] == {"tags": ["a", "b"], "n": 1}
    schema = requests[0]["tools"][0]["function"]["parameters"]
    assert schema["properties"]["tags"] == {"description": "Tags"}  # a json argument has no type (n8n's zod.custom)
    assert requests[0]["tools"][0]["function"]["description"] == "Makes an HTTP request and returns the response data"


async def test_body_fields_come_after_headers_in_the_schema(echo: HttpEchoServer) -> None:
    tool = http_tool(
        "Create",
        {
            "method": "POST",
            "url": echo.url + "/users",
            "sendBody": True,
            "bodyParameters": {"parameters": [{"name": "name", "value": "={{ $fromAI('name') }}"}]},
            "sendHeaders": True,
            "headerParameters": {"parameters": [{"name": "X-Req", "value": "={{ $fromAI('req') }}"}]},
        },
    )
    _run, requests = await run_agent(tool, calls("Create", {"name": "Ada", "req": "r1"}))
    assert list(requests[0]["tools"][0]["function"]["parameters"]["properties"]) == ["req", "name"]
    assert echo.requests[0]["body"] == {"name": "Ada"} and echo.requests[0]["headers"]["x-req"] == "r1"


@pytest.mark.parametrize("agent_version", [1.9, 2.2])
async def test_older_agents_run_the_tool_inline(echo: HttpEchoServer, agent_version: float) -> None:
    run, _requests = await run_agent(_weather(echo), calls("Weather", {"city": "Rome", "metric": True}), agent_version)
    assert run["status"] == "success"
    [task] = runs(run, "Weather")
    # the arguments as zod parses them: in the schema's order, the default of `days` filled in (as case a111)
    assert task["inputOverride"] == {"ai_tool": [[{"json": {"city": "Rome", "days": 3, "metric": True}}]]}
    [[output]] = task["data"]["ai_tool"]
    assert output["json"]["response"][0]["path"] == "/weather/Rome"
    assert echo.requests[0]["query"] == {"days": "3"}


async def test_optimize_response_keeps_the_selected_fields(echo: HttpEchoServer) -> None:
    tool = http_tool(
        "Optimized",
        {
            "url": "=" + echo.url + "/o?city={{ $fromAI('city') }}&x=1",
            "optimizeResponse": True,
            "responseType": "json",
            "dataField": "query",
            "fieldsToInclude": "selected",
            "fields": "city",
        },
    )
    _run, requests = await run_agent(tool, calls("Optimized", {"city": "Rome"}))
    assert requests[1]["messages"][-1]["content"] == '[{"city":"Rome"}]'


async def test_a_duplicate_key_fails_the_agent_with_n8n_message(echo: HttpEchoServer) -> None:
    tool = http_tool(
        "Dup",
        {
            "url": "=" + echo.url + "/{{ $fromAI('q', 'the query') }}",
            "sendQuery": True,
            "queryParameters": {"parameters": [{"name": "n", "value": "={{ $fromAI('q', 'the query', 'number') }}"}]},
        },
    )
    run, requests = await run_agent(tool, calls("Dup", {"q": "x"}))
    error = run["data"]["resultData"]["error"]
    assert error["message"] == "Duplicate key 'q' found with different description or type"
    assert error["description"] == "Ensure all $fromAI() calls with the same key have consistent descriptions and types"
    assert runs(run, "Dup") == [] and requests == [] and echo.requests == []


async def test_an_inline_tool_error_is_recorded_and_the_model_gets_empty_text(echo: HttpEchoServer) -> None:
    tool = http_tool("Lookup", {"url": "=" + echo.url + "/status/404?ref={{ $fromAI('ref') }}"})
    run, requests = await run_agent(tool, calls("Lookup", {"ref": "7"}), agent_version=2.2)
    assert run["status"] == "success"
    [task] = runs(run, "Lookup")
    assert task["executionStatus"] == "error"
    assert task["error"]["message"] == "The resource you are requesting could not be found\n\nDetails: status 404"
    assert requests[1]["messages"][-1] == {"role": "tool", "content": "", "tool_call_id": "call_1_0"}


async def test_an_engine_run_tool_error_goes_back_to_the_model(echo: HttpEchoServer) -> None:
    tool = http_tool("Lookup", {"url": "=" + echo.url + "/status/404?ref={{ $fromAI('ref') }}"})
    run, requests = await run_agent(tool, calls("Lookup", {"ref": "7"}))
    assert run["status"] == "success"
    assert runs(run, "Lookup")[0]["executionStatus"] == "error"
    assert requests[1]["messages"][-1]["content"] == '[{"error":"The resource you are requesting could not be found"}]'


async def test_arguments_of_the_wrong_type_fail_an_older_agent(echo: HttpEchoServer) -> None:
    tool = http_tool("Weather", {"url": "=" + echo.url + "/w?days={{ $fromAI('days', 'Days', 'number') }}"})
    run, _ = await run_agent(tool, calls("Weather", {"days": "three"}), agent_version=2.2)
    error = run["data"]["resultData"]["error"]
    assert error["message"] == (
        "Received tool input did not match expected schema\n\n✖ Expected number, received string\n  → at days"
    )
    assert runs(run, "Weather") == [] and echo.requests == []


@pytest.mark.parametrize("agent_version", [2.2, 3.1])
async def test_the_tool_sends_its_credential(echo: HttpEchoServer, agent_version: float) -> None:
    parameters = {
        "url": "=" + echo.url + "/me?ref={{ $fromAI('ref') }}",
        "authentication": "genericCredentialType",
        "genericAuthType": "httpHeaderAuth",
    }
    tool = http_tool("Me", parameters, credentials={"httpHeaderAuth": {"id": "hdr00000000001", "name": "Header"}})
    header = {"Header": {"name": "X-Api-Key", "value": "s3cret"}}
    run, _ = await run_agent(tool, calls("Me", {"ref": "1"}), agent_version, credentials=header)
    assert run["status"] == "success"
    assert echo.requests[0]["headers"]["x-api-key"] == "s3cret" and echo.requests[0]["query"] == {"ref": "1"}


async def test_an_inline_tool_retries_as_n8n_does(echo: HttpEchoServer) -> None:
    url = "=" + echo.url + "/status/500?ref={{ $fromAI('ref') }}"
    tool = http_tool("Flaky", {"url": url}, retryOnFail=True, maxTries=9, waitBetweenTries=0)
    run, requests = await run_agent(tool, calls("Flaky", {"ref": "1"}), agent_version=2.2)
    assert [task["executionStatus"] for task in runs(run, "Flaky")] == ["error"] * 5  # at most 5 tries
    assert len(echo.requests) == 5 and requests[1]["messages"][-1]["content"] == ""
