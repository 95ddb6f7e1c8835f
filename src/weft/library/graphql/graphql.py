"""GraphQL (``n8n-nodes-base.graphql`` 1, 1.1): sends a query or mutation and returns the response (recorded:
cases n543-n549).

POST (JSON body ``{query, variables, operationName}``, or the bare query with request format ``graphql``) or GET
(the query in the URL); header parameters; basic, digest, header, query and custom (JSON) credentials. Any status
is a response (n8n's ``simple: false``); a body with ``errors`` fails the item with their messages. Requests go
through the HTTP Request node's client (``http_request._send``). 1 defaults the request format to ``graphql``,
1.1 to ``json``.
"""

from __future__ import annotations

import json
from typing import Any, ClassVar

import httpx

from weft.errors import NodeApiError, NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.credential_domains import assert_credential_allows_url
from weft.nodes.http import transfer as http
from weft.nodes.http.clients import Clients
from weft.nodes.http.errors import HttpRequestError
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput
from weft.workflow.jsjson import js_json_parse_error

_CREDENTIALS = {
    "basicAuth": "httpBasicAuth",
    "digestAuth": "httpDigestAuth",
    "headerAuth": "httpHeaderAuth",
    "queryAuth": "httpQueryAuth",
    "customAuth": "httpCustomAuth",
}


class GraphQL(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.graphql",
        display_name="GraphQL",
        versions=(1, 1.1),
        description="Makes a GraphQL request and returns the received data",
        group=("input",),
        usable_as_tool=True,
        credentials=tuple(_CREDENTIALS.values()),
        defaults={
            "authentication": "none",
            "requestMethod": "POST",
            "endpoint": "",
            "allowUnauthorizedCerts": False,
            "query": "",
            "responseFormat": "json",
            "dataPropertyName": "data",
            "operationName": "",
        },
    )

    #: n8n's property order and ``displayOptions``: a tool's ``$fromAI()`` schema reads only the shown parameters.
    parameter_order: ClassVar[tuple[str, ...]] = (
        *("authentication", "nodeCredentialType", "requestMethod", "endpoint", "allowUnauthorizedCerts"),
        *("requestFormat", "query", "variables", "operationName", "responseFormat", "dataPropertyName"),
        "headerParametersUi",
    )
    parameter_display: ClassVar[dict[str, list[dict[str, dict[str, list[Any]]]]]] = {
        "nodeCredentialType": [{"show": {"authentication": ["predefinedCredentialType"]}}],
        "requestFormat": [{"show": {"requestMethod": ["POST"]}}],
        "variables": [{"show": {"requestFormat": ["json"], "requestMethod": ["POST"]}}],
        "operationName": [{"show": {"requestFormat": ["json"], "requestMethod": ["POST"]}}],
        "dataPropertyName": [{"show": {"responseFormat": ["string"]}}],
    }
    display_defaults: ClassVar[dict[str, Any]] = {
        "authentication": "none",
        "requestMethod": "POST",
        "requestFormat": "json",  # 1.1's (1's is graphql)
        "responseFormat": "json",
    }

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        creds = await _credentials(ctx)
        out: list[Item] = []
        clients = Clients()
        try:
            for index in range(len(ctx.get_input_data())):
                try:
                    items, failure = await _run_item(ctx, index, creds, clients)
                    if failure is not None and not ctx.continue_on_fail():
                        raise failure
                    out.extend(items)
                    if failure is not None:
                        raise failure
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": _raw_message(error)}, "pairedItem": {"item": index}})
        finally:
            await clients.aclose()
        return [out]


def _raw_message(error: NodeError) -> str:
    """What n8n outputs under "continue": the request's own error text (``connect ECONNREFUSED ...``), not the
    friendlier message the node fails with."""
    if isinstance(error, HttpRequestError) and isinstance(error.reason.get("message"), str):
        return str(error.reason["message"])
    return error.message


def _endpoint(ctx: ExecuteContext, index: int) -> str:
    """The endpoint, or the request library's "Invalid URL" for one it cannot send to."""
    endpoint = js_string(ctx.get_node_parameter("endpoint", index, "")).strip()
    try:
        url = httpx.URL(endpoint)
    except httpx.InvalidURL:
        url = None
    if url is None or url.scheme not in ("http", "https") or not url.host:
        fix = f"Set 'URL' to the GraphQL endpoint's absolute http(s) URL (it is {endpoint!r})."
        raise NodeApiError(ctx.node.name, "Invalid URL", description=fix, item_index=index)
    return endpoint


async def _credentials(ctx: ExecuteContext) -> tuple[str, dict[str, Any]] | None:
    authentication = str(ctx.get_node_parameter("authentication", 0, "none"))
    if authentication in ("oAuth1", "oAuth2", "predefinedCredentialType"):
        fix = "Use Basic, Digest, Header, Query or Custom auth with the same secret, or an HTTP Request node."
        message = f"Authentication {authentication!r} is not supported yet"
        raise NodeOperationError(ctx.node.name, message, description=fix)
    kind = _CREDENTIALS.get(authentication)
    if kind is None:
        return None
    return kind, await ctx.get_credentials(kind)


def _check_domain(ctx: ExecuteContext, index: int, creds: dict[str, Any], url: str) -> bool:
    """n8n's credential domain rule (``allowedHttpRequestDomains``): raises where the credential may not go;
    whether it is restricted to some domains."""
    surface = "HTTP Request or GraphQL"
    return assert_credential_allows_url(ctx.node.name, creds, url, surface=surface, item_index=index) is not None


async def _run_item(
    ctx: ExecuteContext, index: int, creds: tuple[str, dict[str, Any]] | None, clients: Clients
) -> tuple[list[Item], NodeApiError | None]:
    """The response's items, and the error its ``errors`` make (n8n outputs the items before it throws, so under
    "continue" both reach the output)."""
    request = _request(ctx, index, creds)
    verify = not ctx.get_node_parameter("allowUnauthorizedCerts", index, False)
    client = clients.get(verify)
    _, response = await http.send(ctx, index, client, request)
    text = response.text
    if ctx.get_node_parameter("responseFormat", 0, "json") == "string":
        body: Any = _json_or_text(text) if request.headers["content-type"] == "application/json" else text
        items: list[Item] = [{"json": {js_string(ctx.get_node_parameter("dataPropertyName", 0, "data")): body}}]
    else:
        try:
            body = json.loads(text)
        except ValueError:
            message = 'Response body is not valid JSON. Change "Response Format" to "String"'
            raise NodeOperationError(ctx.node.name, message, item_index=index) from None
        rows = body if isinstance(body, list) else [body]
        items = [
            {"json": row if isinstance(row, dict) else {"data": row}, "pairedItem": {"item": index}} for row in rows
        ]
    return items, _response_error(ctx, index, body)


def _json_or_text(text: str) -> Any:
    """What n8n's request helper gives with ``json: true``: the parsed body, or the text that is not JSON."""
    try:
        return json.loads(text)
    except ValueError:
        return text


def _request(ctx: ExecuteContext, index: int, creds: tuple[str, dict[str, Any]] | None) -> http.Request:
    method = str(ctx.get_node_parameter("requestMethod", index, "POST"))
    # Request Format, Variables and Operation Name are shown for POST only (and the last two for JSON): n8n drops a
    # parameter that is not shown, and the node's own fallback applies
    default_format = "graphql" if ctx.node.typeVersion < 1.1 else "json"
    request_format = str(ctx.get_node_parameter("requestFormat", index, default_format)) if method == "POST" else "json"
    shown = method == "POST" and request_format == "json"
    ui = ctx.get_node_parameter("headerParametersUi", index, {}) or {}
    headers = {"content-type": f"application/{request_format}"}
    headers.update({js_string(p.get("name")): js_string(p.get("value")) for p in ui.get("parameter") or []})
    endpoint = _endpoint(ctx, index)
    request = http.Request(method=method, url=endpoint, headers=headers, response={"neverError": True})
    request.cross_origin_credentials = False  # as n8n's request library: no credentials to another host
    request.follow_redirects = method in ("GET", "HEAD")  # n8n's legacy request follows no POST redirect
    body: dict[str, Any] = {}
    if creds is not None:
        if _check_domain(ctx, index, creds[1], endpoint):
            request.follow_redirects = False  # a redirect could lead the credential elsewhere
        body = _apply_credentials(ctx, request, *creds)
    query = js_string(ctx.get_node_parameter("query", index, ""))
    if method == "GET":
        request.params.append(("query", query))
    if request_format == "json":
        operation = ctx.get_node_parameter("operationName", index, "") if shown else ""
        variables = _variables(ctx, index) if shown else {}
        payload = {
            **body,
            "query": query,
            "variables": variables,
            "operationName": None if operation == "" else operation,
        }
        request.body = {"content": json.dumps(payload, ensure_ascii=False).encode()}
    else:
        request.body = {"content": query.encode()}
    return request


def _variables(ctx: ExecuteContext, index: int) -> Any:
    variables = ctx.get_node_parameter("variables", index, {})
    if isinstance(variables, str):
        try:
            return json.loads(variables or "{}")
        except ValueError:
            reason = js_json_parse_error(variables)
            message = f"Using variables failed:\n{variables}\n\nWith error message:\nSyntaxError: {reason}"
            raise NodeOperationError(ctx.node.name, message, item_index=index) from None
    if isinstance(variables, dict | list):
        return variables
    message = (
        f"Using variables failed:\n{js_string(variables)}\n\nGraphQL variables should be either an object or a string."
    )
    raise NodeOperationError(ctx.node.name, message, item_index=index)


def _apply_credentials(ctx: ExecuteContext, request: http.Request, kind: str, creds: dict[str, Any]) -> dict[str, Any]:
    """Adds the credential to the request; returns the body fields a custom credential adds."""
    if kind in ("httpBasicAuth", "httpDigestAuth"):
        auth = httpx.BasicAuth if kind == "httpBasicAuth" else httpx.DigestAuth
        request.auth = auth(js_string(creds.get("user") or ""), js_string(creds.get("password") or ""))
    elif kind == "httpHeaderAuth":
        request.headers[js_string(creds.get("name"))] = js_string(creds.get("value"))
    elif kind == "httpQueryAuth":
        request.params.append((js_string(creds.get("name")), js_string(creds.get("value"))))
    else:
        try:
            custom = json.loads(creds.get("json") or "{}")
        except ValueError:
            raise NodeOperationError(ctx.node.name, "Invalid Custom Auth JSON") from None
        request.headers.update({k: js_string(v) for k, v in (custom.get("headers") or {}).items()})
        request.params.extend((k, js_string(v)) for k, v in (custom.get("qs") or {}).items())
        return dict(custom.get("body") or {})
    return {}


def _response_error(ctx: ExecuteContext, index: int, body: Any) -> NodeApiError | None:
    if isinstance(body, str) and body.startswith('{"errors":'):
        try:
            parsed = json.loads(body)
            body = parsed if isinstance(parsed.get("errors"), list) else body
        except ValueError:
            pass
    if not isinstance(body, dict) or not body.get("errors"):
        return None
    errors = body["errors"]
    message = "Unexpected error"
    if isinstance(errors, list):
        message = ", ".join(js_string(e.get("message", e) if isinstance(e, dict) else e) for e in errors)
    elif isinstance(errors, str):
        message = errors
    return NodeApiError(
        ctx.node.name, message, item_index=index, description="The GraphQL server answered with errors."
    )


__all__ = ["GraphQL"]
