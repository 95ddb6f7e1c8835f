"""Airtable version 1 (n8n's ``AirtableV1``): append, delete, list, read and update on ``application``/``table``,
writes in batches of ``bulkSize`` (10). The deprecated API-key credential fails the node, as in n8n."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeError, NodeOperationError
from weft.library.airtable.transport import airtable_all, airtable_request, encode_uri
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item


def _row_fields(scope: RoutingScope, item: Item, index: int, all_name: str, options: dict[str, Any]) -> dict[str, Any]:
    data = dict(item.get("json") or {})
    if scope.parameter(all_name, index, True):
        data.pop("id", None)
        ignore = options.get("ignoreFields") if all_name == "updateAllFields" else None
        names = [f.strip() for f in str(ignore or "").split(",") if f.strip()]
        if names:
            return {key: value for key, value in dict(item.get("json") or {}).items() if key not in names}
        return data
    return {name: data[name] for name in scope.parameter("fields", index, []) or [] if name in data}


async def _batched(ctx: ExecuteContext, api: ApiRequests, scope: RoutingScope, endpoint: str, op: str) -> list[Item]:
    items = ctx.get_input_data()
    out: list[Item] = []
    rows: list[Any] = []
    size = 10
    for index, item in enumerate(items):
        try:
            options = dict(scope.parameter("options", 0 if op == "delete" else index, {}) or {})
            size = int(options.get("bulkSize") or size)
            if op == "delete":
                rows.append(scope.parameter("id", index))
            elif op == "append":
                rows.append({"fields": _row_fields(scope, item, index, "addAllFields", options)})
            else:
                fields = _row_fields(scope, item, index, "updateAllFields", options)
                rows.append({"fields": fields, "id": scope.parameter("id", index)})
            if len(rows) == size or index == len(items) - 1:
                answer = await _send(api, endpoint, op, rows, options, index)
                records = (answer or {}).get("records") or []
                out.extend({"json": r, "pairedItem": {"item": index}} for r in records)
                rows = []
        except NodeError as error:
            if not ctx.continue_on_fail():
                raise
            out.append({"json": {"error": error.message}})
    return out


async def _send(api: ApiRequests, endpoint: str, op: str, rows: list[Any], options: dict[str, Any], index: int) -> Any:
    if op == "delete":
        return await airtable_request(api, "DELETE", endpoint, index, None, {"records": rows})
    if op == "append":
        body: dict[str, Any] = {"typecast": True} if options.get("typecast") is True else {}
        return await airtable_request(api, "POST", endpoint, index, {**body, "records": rows})
    data = {"records": rows, "typecast": bool(options.get("typecast"))}
    return await airtable_request(api, "PATCH", endpoint, index, data)


async def _list(ctx: ExecuteContext, api: ApiRequests, scope: RoutingScope, endpoint: str) -> list[Item]:
    qs: dict[str, Any] = {}
    for key, value in dict(scope.parameter("additionalOptions", 0, {}) or {}).items():
        is_sort = key == "sort" and isinstance(value, dict) and value.get("property") is not None
        qs[key] = value["property"] if is_sort else value
    if scope.parameter("downloadAttachments", 0, False):
        raise NodeOperationError(ctx.node.name, "The option 'Download Attachments' is not supported by Weft yet")
    if scope.parameter("returnAll", 0, True):
        records = await airtable_all(api, endpoint, 0, qs)
    else:
        qs["maxRecords"] = scope.parameter("limit", 0, 100)
        records = ((await airtable_request(api, "GET", endpoint, 0, None, qs)) or {}).get("records") or []
    paired: Any = [{"item": i} for i in range(len(ctx.get_input_data()))]
    return [{"json": r, "pairedItem": paired} for r in records]


async def _read(ctx: ExecuteContext, api: ApiRequests, scope: RoutingScope, endpoint: str) -> list[Item]:
    out: list[Item] = []
    for index in range(len(ctx.get_input_data())):
        record_id = scope.parameter("id", index)
        try:
            found = await airtable_request(api, "GET", f"{endpoint}/{record_id}", index)
        except NodeError as error:
            if not ctx.continue_on_fail():
                raise
            out.append({"json": {"error": error.message}})
            continue
        out.append({"json": found if isinstance(found, dict) else {}, "pairedItem": {"item": index}})
    return out


async def execute_v1(ctx: ExecuteContext, api: ApiRequests, scope: RoutingScope) -> list[Item]:
    """n8n's ``AirtableV1.execute``."""
    if scope.parameter("authentication", 0, "airtableApi") == "airtableApi":
        message = "The API Key connection was deprecated by Airtable, please use Access Token or OAuth2 instead."
        raise NodeOperationError(ctx.node.name, message)
    operation = str(scope.parameter("operation", 0, "read"))
    application = scope.parameter("application", 0, None, extract_value=True)
    table = encode_uri(str(scope.parameter("table", 0, None, extract_value=True)))
    endpoint = f"{application}/{table}"
    if operation in ("append", "delete", "update"):
        return await _batched(ctx, api, scope, endpoint, operation)
    if operation == "list":
        try:
            return await _list(ctx, api, scope, endpoint)
        except NodeError as error:
            if not ctx.continue_on_fail():
                raise
            return [{"json": {"error": error.message}}]
    if operation == "read":
        return await _read(ctx, api, scope, endpoint)
    raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not known!')


__all__ = ["execute_v1"]
