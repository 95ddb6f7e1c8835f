"""n8n (``n8n-nodes-base.n8n`` v1): the n8n public API from a workflow: workflows (get, get many, create, update,
delete, publish/unpublish, get version), executions (get, get many, delete), credentials (create, delete, get
schema) and the security audit, through the ``n8nApi`` credential (``apiKey``, ``baseUrl``).

n8n's node is declarative; this is its routing written out: one request per input item with the
``X-N8N-API-KEY`` header, path segments URL-encoded (n8n 2.41's ``toPathSegment``), list answers read page by page
along ``nextCursor`` (``returnAll``), an object answer as one item and an array as one item per element. HTTP
errors are n8n's ``NodeApiError`` words (:mod:`weft.nodes.http.errors`). Pointed at Weft's own ``/api/v1`` it
manages Weft.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar
from urllib.parse import quote

import httpx

from weft.errors import NodeError, NodeOperationError
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.http.errors import api_error, transport_error
from weft.nodes.values import js_string, js_truthy
from weft.workflow import Item, NodeOutput

TIMEOUT_S = 300.0
_WORKFLOW_URL = re.compile(r".*/workflow/([0-9a-zA-Z]{1,})")


@dataclass
class Request:
    """One API call: method, path under the base URL, query and body."""

    method: str
    path: str
    qs: dict[str, Any] = field(default_factory=dict)
    body: Any = None
    paginate: bool = False


class N8n(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.n8n",
        display_name="n8n",
        versions=(1,),
        description="Handle events and perform actions on your n8n instance",
        group=("transform",),
        credentials=("n8nApi",),
        defaults={
            "resource": "workflow",
            "workflowObject": '{ "name": "My workflow", "nodes": [], "connections": {}, "settings": {} }',
            "additionalFields": {},
            "additionalOptions": {},
            "filters": {},
            "options": {},
            "limit": 100,
            "name": "",
            "credentialTypeName": "",
            "credentialId": "",
            "executionId": "",
            "versionId": "",
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        credentials = await ctx.get_credentials("n8nApi")
        base = js_string(credentials.get("baseUrl") or "").rstrip("/")
        headers = {"Accept": "application/json", "X-N8N-API-KEY": js_string(credentials.get("apiKey") or "")}
        out: list[Item] = []
        async with httpx.AsyncClient(timeout=TIMEOUT_S, headers=headers, follow_redirects=False) as client:
            for index in range(len(ctx.get_input_data())):
                try:
                    out.extend(await _run(ctx, client, base, build_request(ctx, index), index))
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {}, "error": error.to_json(), "pairedItem": {"item": index}})
        return [out]


async def _run(ctx: ExecuteContext, client: httpx.AsyncClient, base: str, request: Request, index: int) -> list[Item]:
    if not request.paginate:
        body = await _send(ctx, client, base, request, index)
        return _items(body, index)
    return_all = ctx.get_node_parameter("returnAll", index, True)
    items: list[Item] = []
    cursor = None
    while True:
        if cursor is not None:
            request.qs["cursor"] = cursor
        page = await _send(ctx, client, base, request, index)
        data = page.get("data") if isinstance(page, dict) else None
        items.extend({"json": entry, "pairedItem": {"item": index}} for entry in data or [])
        cursor = page.get("nextCursor") if isinstance(page, dict) else None
        if not (return_all and cursor):
            return items


def _items(body: Any, index: int) -> list[Item]:
    if isinstance(body, list):
        return [{"json": entry, "pairedItem": {"item": index}} for entry in body]
    return [{"json": body if isinstance(body, dict) else {"data": body}, "pairedItem": {"item": index}}]


async def _send(ctx: ExecuteContext, client: httpx.AsyncClient, base: str, request: Request, index: int) -> Any:
    url = base + request.path
    ctx.check_cancelled()
    try:
        response = await client.request(
            request.method,
            url,
            params={k: _query_text(v) for k, v in request.qs.items() if v is not None},
            json=request.body,
        )
    except httpx.HTTPError as error:
        raise transport_error(ctx.node.name, index, error, TIMEOUT_S * 1000, url) from error
    if response.status_code >= 400:
        raise api_error(ctx, index, response, "json")
    if not response.content:
        return {}
    try:
        return response.json()
    except ValueError:
        return {"data": response.text}


def _query_text(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else js_string(value)


# --------------------------------------------------------------------------- the routing of each operation


def segment(value: Any) -> str:
    """n8n 2.41's ``toPathSegment``: the value URL-encoded, so an id cannot reach another path."""
    return quote(js_string(value), safe="")


def workflow_id(ctx: ExecuteContext, index: int, name: str = "workflowId") -> str:
    """The workflow resource locator's id (``list``/``id`` modes: the value; ``url``: the id in the URL)."""
    raw = ctx.get_node_parameter(name, index, {"mode": "list", "value": ""})
    if not isinstance(raw, dict):
        return js_string(raw)
    value = js_string(raw.get("value", ""))
    if raw.get("mode") == "url":
        match = _WORKFLOW_URL.match(value)
        return match.group(1) if match else value
    return value


def _json_parameter(ctx: ExecuteContext, index: int, name: str) -> Any:
    """n8n's ``parseAndSetBodyJson``: the parameter as JSON, or its error."""
    raw = ctx.get_node_parameter(name, index, "{}")
    if isinstance(raw, dict | list):
        return raw
    try:
        return json.loads(js_string(raw))
    except ValueError as error:
        raise NodeOperationError(
            ctx.node.name,
            f"The '{name}' property must be valid JSON, but cannot be parsed",
            description=f"Write '{name}' as a JSON object (keys and strings in double quotes).",
            item_index=index,
        ) from error


def _workflow_body(ctx: ExecuteContext, index: int, *, create: bool) -> dict[str, Any]:
    """``prepareWorkflowCreateBody`` / ``prepareWorkflowUpdateBody``: only the known workflow fields."""
    body = _json_parameter(ctx, index, "workflowObject")
    body = body if isinstance(body, dict) else {}
    fields = ("name", "nodes", "settings", "connections", "staticData")
    given = {k: body[k] for k in fields if js_truthy(body.get(k))}  # JavaScript's `body.x ||`: {} and [] count
    if create:
        defaults: dict[str, Any] = {
            "name": "My workflow",
            "nodes": [],
            "settings": {},
            "connections": {},
            "staticData": None,
        }
        return {k: given.get(k, defaults[k]) for k in fields}
    return given


def _workflow_request(ctx: ExecuteContext, index: int, operation: str) -> Request:
    if operation == "getAll":
        return Request("GET", "/workflows", qs=_workflow_filters(ctx, index), paginate=True)
    if operation == "create":
        return Request("POST", "/workflows", body=_workflow_body(ctx, index, create=True))
    path = f"/workflows/{segment(workflow_id(ctx, index))}"
    if operation in ("activate", "deactivate"):
        fields = ctx.get_node_parameter("additionalFields", index, {}) or {}
        body = (
            {k: fields[k] for k in ("versionId", "name", "description") if k in fields}
            if operation == "activate"
            else {}
        )
        return Request("POST", f"{path}/{operation}", body=body)
    if operation == "delete":
        return Request("DELETE", path)
    if operation == "get":
        return Request("GET", path)
    if operation == "getVersion":
        return Request("GET", f"{path}/{segment(ctx.get_node_parameter('versionId', index, ''))}")
    if operation == "update":
        return Request("PUT", path, body=_workflow_body(ctx, index, create=False))
    raise _unsupported(ctx, "workflow", operation)


def _workflow_filters(ctx: ExecuteContext, index: int) -> dict[str, Any]:
    qs: dict[str, Any] = {}
    if not ctx.get_node_parameter("returnAll", index, True):
        qs["limit"] = ctx.get_node_parameter("limit", index, 100)
    filters = ctx.get_node_parameter("filters", index, {}) or {}
    for option, key in (("activeWorkflows", "active"), ("name", "name"), ("projectId", "projectId")):
        if option in filters:
            qs[key] = filters[option]
    if filters.get("tags", "") != "":
        qs["tags"] = filters["tags"]
    if "excludePinnedData" in filters:
        qs["excludePinnedData"] = filters["excludePinnedData"]
    return qs


def _execution_request(ctx: ExecuteContext, index: int, operation: str) -> Request:
    options = ctx.get_node_parameter("options", index, {}) or {}
    qs: dict[str, Any] = {"includeData": options["activeWorkflows"]} if "activeWorkflows" in options else {}
    if operation == "getAll":
        if not ctx.get_node_parameter("returnAll", index, False):
            qs["limit"] = ctx.get_node_parameter("limit", index, 100)
        filters = ctx.get_node_parameter("filters", index, {}) or {}
        if "workflowId" in filters:
            located = workflow_id(ctx, index, "filters.workflowId")
            qs["workflowId"] = located or None
        if "status" in filters:
            qs["status"] = filters["status"]
        return Request("GET", "/executions", qs=qs, paginate=True)
    path = f"/executions/{segment(ctx.get_node_parameter('executionId', index, ''))}"
    if operation == "get":
        return Request("GET", path, qs=qs)
    if operation == "delete":
        return Request("DELETE", path)
    raise _unsupported(ctx, "execution", operation)


def _credential_request(ctx: ExecuteContext, index: int, operation: str) -> Request:
    if operation == "create":
        body = {
            "name": ctx.get_node_parameter("name", index, ""),
            "type": ctx.get_node_parameter("credentialTypeName", index, ""),
            "data": _json_parameter(ctx, index, "data"),
        }
        return Request("POST", "/credentials", body=body)
    if operation == "delete":
        return Request("DELETE", f"/credentials/{segment(ctx.get_node_parameter('credentialId', index, ''))}")
    if operation == "getSchema":
        return Request("GET", f"/credentials/schema/{segment(ctx.get_node_parameter('credentialTypeName', index, ''))}")
    raise _unsupported(ctx, "credential", operation)


def build_request(ctx: ExecuteContext, index: int) -> Request:
    """The request of the node's resource and operation for one item (n8n's routing)."""
    resource = ctx.get_node_parameter("resource", index, "workflow")
    defaults = {"workflow": "getAll", "execution": "getAll", "credential": "create", "audit": "generate"}
    operation = ctx.get_node_parameter("operation", index, defaults.get(resource, ""))
    if resource == "workflow":
        return _workflow_request(ctx, index, operation)
    if resource == "execution":
        return _execution_request(ctx, index, operation)
    if resource == "credential":
        return _credential_request(ctx, index, operation)
    if resource == "audit" and operation == "generate":
        return Request(
            "POST", "/audit", body={"additionalOptions": ctx.get_node_parameter("additionalOptions", index, {})}
        )
    raise _unsupported(ctx, resource, operation)


def _unsupported(ctx: ExecuteContext, resource: str, operation: str) -> NodeOperationError:
    return NodeOperationError(
        ctx.node.name,
        f'The operation "{operation}" is not known for the resource "{resource}"',
        description="Pick an operation the n8n node offers for this resource.",
    )


__all__ = ["N8n", "Request", "build_request", "segment", "workflow_id"]
