"""GraphQL against the HTTP echo server on 127.0.0.1 (it answers with what it received)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.testing.http_echo import HttpEchoServer
from weft.testing.workflows import connect, node, workflow


@pytest.fixture
def echo() -> Iterator[HttpEchoServer]:
    with HttpEchoServer() as server:
        yield server


async def run_graphql(params: dict[str, Any], version: float = 1.1, credentials: dict[str, Any] | None = None) -> Any:
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("GraphQL", "n8n-nodes-base.graphql", params, version=version, position=(200, 0)),
        connect("Start", "GraphQL"),
    )
    return await run_workflow(wf, services=LocalServices(credentials=credentials or {}))


def output(run: Any) -> list[dict[str, Any]]:
    return [item["json"] for item in run["data"]["resultData"]["runData"]["GraphQL"][0]["data"]["main"][0]]


async def test_post_json_with_variables_and_headers(echo):
    params = {
        "endpoint": echo.url + "/graphql",
        "query": "query Q { a }",
        "variables": '{"id": 1}',
        "operationName": "Q",
        "headerParametersUi": {"parameter": [{"name": "X-Key", "value": "k"}]},
    }
    [answer] = output(await run_graphql(params))
    assert answer["method"] == "POST" and answer["headers"]["x-key"] == "k"
    assert answer["body"] == {"query": "query Q { a }", "variables": {"id": 1}, "operationName": "Q"}


async def test_get_and_raw_graphql_body(echo):
    [answer] = output(await run_graphql({"endpoint": echo.url + "/g", "requestMethod": "GET", "query": "{ a }"}, 1))
    assert answer["method"] == "GET" and answer["query"] == {"query": "{ a }"}
    [answer] = output(await run_graphql({"endpoint": echo.url + "/g", "query": "{ a }"}, 1))
    assert answer["body"] == "{ a }" and answer["headers"]["content-type"] == "application/graphql"


async def test_header_query_and_custom_auth(echo):
    base = {"endpoint": echo.url + "/g", "query": "{ a }"}
    creds = {
        "httpHeaderAuth": {"name": "X-Token", "value": "t1"},
        "httpQueryAuth": {"name": "key", "value": "q1"},
        "httpCustomAuth": {"json": '{"headers": {"X-C": "c"}, "qs": {"s": "1"}, "body": {"extra": true}}'},
    }
    [answer] = output(await run_graphql({**base, "authentication": "headerAuth"}, credentials=creds))
    assert answer["headers"]["x-token"] == "t1"
    [answer] = output(await run_graphql({**base, "authentication": "queryAuth"}, credentials=creds))
    assert answer["query"] == {"key": "q1"}
    [answer] = output(await run_graphql({**base, "authentication": "customAuth"}, credentials=creds))
    assert answer["headers"]["x-c"] == "c" and answer["query"] == {"s": "1"} and answer["body"]["extra"] is True


async def test_errors_in_the_response_and_bad_variables(echo):
    run = await run_graphql({"endpoint": echo.url + "/graphql/errors", "query": "{ nope }"})
    assert run["data"]["resultData"]["error"]["message"] == 'Cannot query field "nope" on type "Query"., Second'
    run = await run_graphql({"endpoint": echo.url + "/g", "query": "{ a }", "variables": "{bad"})
    assert run["data"]["resultData"]["error"]["message"].startswith("Using variables failed:\n{bad")
    run = await run_graphql({"endpoint": echo.url + "/graphql/text", "query": "{ a }"})
    assert run["data"]["resultData"]["error"]["message"].startswith("Response body is not valid JSON")
    [answer] = output(
        await run_graphql({"endpoint": echo.url + "/graphql/text", "query": "{ a }", "responseFormat": "string"})
    )
    assert answer == {"data": "not json"}
