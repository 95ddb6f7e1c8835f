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


async def test_transport_errors_as_n8n_words_them():
    params = {"endpoint": "http://127.0.0.1:9/graphql", "query": "{ a }"}
    run = await run_graphql(params)
    assert run["data"]["resultData"]["error"]["message"] == "The service refused the connection - perhaps it is offline"
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node(
            "GraphQL", "n8n-nodes-base.graphql", params, version=1.1, position=(200, 0), onError="continueRegularOutput"
        ),
        connect("Start", "GraphQL"),
    )
    assert output(await run_workflow(wf)) == [{"error": "connect ECONNREFUSED 127.0.0.1:9"}]  # as n8n (recorded)
    run = await run_graphql({"endpoint": "not a url", "query": "{ a }"})
    assert run["data"]["resultData"]["error"]["message"] == "Invalid URL"


async def test_allow_unauthorized_certs():
    from weft.testing.smtp_server import self_signed_context

    with HttpEchoServer(tls=self_signed_context()) as server:
        params = {"endpoint": server.url + "/graphql", "query": "{ a }"}
        run = await run_graphql(params)
        assert "certificate" in str(run["data"]["resultData"]["error"]).lower()
        [answer] = output(await run_graphql({**params, "allowUnauthorizedCerts": True}))
        assert answer["body"]["query"] == "{ a }"


async def test_credential_domain_rules(echo):
    base = {"endpoint": echo.url + "/g", "query": "{ a }", "authentication": "headerAuth"}
    header = {"name": "X-Token", "value": "t1"}

    async def message(credential: dict[str, Any]) -> str | None:
        run = await run_graphql(base, credentials={"httpHeaderAuth": {**header, **credential}})
        error = run["data"]["resultData"].get("error")
        return error["message"] if error else None

    assert await message({"allowedHttpRequestDomains": "domains", "allowedDomains": "127.0.0.1"}) is None
    assert await message({"allowedHttpRequestDomains": "none"}) == (
        "This credential is configured to prevent use within an HTTP Request or GraphQL node"
    )
    assert await message({"allowedHttpRequestDomains": "domains", "allowedDomains": "*.example.com"}) == (
        f"Domain not allowed: This credential is restricted from accessing 127.0.0.1:{echo.port}. "
        "Only the following domains are allowed: *.example.com"
    )
    assert echo.requests and all(r["headers"].get("x-token") == "t1" for r in echo.requests)  # only the allowed one


async def test_unsupported_authentication_is_named():
    run = await run_graphql({"endpoint": "http://127.0.0.1:9/g", "query": "{ a }", "authentication": "oAuth2"})
    assert run["data"]["resultData"]["error"]["message"] == "Authentication 'oAuth2' is not supported yet"


def test_as_a_tool_only_shown_parameters_count():
    from weft.library.graphql.graphql import GraphQL
    from weft.nodes.node_tool import shown_parameters

    get = {"requestMethod": "GET", "query": "={{ $fromAI('q') }}", "variables": "={{ $fromAI('v') }}"}
    assert set(shown_parameters(get, GraphQL())) == {"requestMethod", "query"}  # n8n drops GET's variables
    post = {**get, "requestMethod": "POST"}
    assert set(shown_parameters(post, GraphQL())) == {"requestMethod", "query", "variables"}


async def test_a_post_is_not_redirected_a_get_is():
    import threading
    from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

    class Redirect(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            """Quiet."""

        def do_GET(self) -> None:
            if self.path.startswith("/moved"):
                self._answer(302, b'{"from": "redirect"}', {"location": "/target"})
            else:
                self._answer(200, b'{"from": "target"}', {})

        do_POST = do_GET

        def _answer(self, status: int, body: bytes, headers: dict[str, str]) -> None:
            self.send_response(status)
            for name, value in {
                **headers,
                "content-type": "application/json",
                "content-length": str(len(body)),
            }.items():
                self.send_header(name, value)
            self.end_headers()
            self.wfile.write(body)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        url = f"http://127.0.0.1:{server.server_address[1]}/moved"
        assert output(await run_graphql({"endpoint": url, "query": "{ a }"})) == [{"from": "redirect"}]
        assert output(await run_graphql({"endpoint": url, "query": "{ a }", "requestMethod": "GET"})) == [
            {"from": "target"}
        ]
    finally:
        server.shutdown()
        server.server_close()
