"""The Airtable node (``n8n-nodes-base.airtable`` 1, 2, 2.1, 2.2, and its ``airtableTool``; 1 in
:mod:`.airtable_v1`): records (create,
upsert, get, search, update, delete) and bases (get many, get schema) over Airtable's Web API, as n8n's
``AirtableV2`` runs them.

The base, table and view are resource locators (from the list, an Airtable URL or an id). Per item: the
operation's records, one row each (flattened ``{id, createdTime, ...fields}`` below 2.2). Under "continue" a
failed item outputs n8n's shape: ``{error: <message>}`` for get, delete and get schema, ``{message, error}`` for
the writes and search.
"""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.airtable.airtable_v1 import execute_v1
from weft.library.airtable.records import RECORD_OPERATIONS, Table, base_get_many, base_schema, update_records
from weft.library.airtable.transport import airtable_all, encode_uri
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item, NodeOutput

_MESSAGE_ONLY = ("get", "deleteRecord", "getSchema")


def _failed(operation: str, error: NodeError, index: int) -> Item:
    if operation in _MESSAGE_ONLY:
        return {"json": {"error": error.message}}
    failed: Item = {"json": {"message": error.message, "error": error.to_json()}}
    if operation == "search":
        failed["pairedItem"] = {"item": index}
    return failed


def _typecast_hint(error: NodeError) -> None:
    if error.description and "cannot accept the provided value" in error.description:
        error.description = f"{error.description}. Consider using 'Typecast' option"


class Airtable(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.airtable",
        display_name="Airtable",
        versions=(1, 2, 2.1, 2.2),
        description="Read, update, write and delete data from Airtable",
        group=("input",),
        usable_as_tool=True,
        credentials=("airtableTokenApi", "airtableOAuth2Api", "airtableApi"),
        defaults={"authentication": "airtableTokenApi", "resource": "record", "operation": "get"},
    )

    tool_versions: ClassVar[tuple[float, ...]] = (2, 2.1, 2.2)  # n8n marks version 1 no tool

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        scope = RoutingScope(ctx, description_for(ctx.node.type, float(ctx.node.typeVersion)) or {})
        if float(ctx.node.typeVersion) < 2:
            async with ApiRequests(ctx) as api:
                return [await execute_v1(ctx, api, scope)]
        resource = str(scope.parameter("resource", 0, "record"))
        operation = str(scope.parameter("operation", 0, "get"))
        async with ApiRequests(ctx) as api:
            try:
                if resource == "record":
                    return [await _records(ctx, api, scope, operation)]
                if resource == "base" and operation in ("getMany", "getSchema"):
                    return [await _bases(ctx, api, scope, operation)]
            except NodeError as error:
                _typecast_hint(error)
                raise
        raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')


async def _records(ctx: ExecuteContext, api: ApiRequests, scope: RoutingScope, operation: str) -> list[Item]:
    base = scope.parameter("base", 0, None, extract_value=True)
    table_name = scope.parameter("table", 0, None, extract_value=True)
    table = Table(api, scope, f"{base}/{encode_uri(str(table_name))}")
    items = ctx.get_input_data()
    existing: list[Any] = []
    if operation == "update":
        keys = scope.parameter("columns.matchingColumns", 0, [])
        if "id" not in keys:
            existing = await airtable_all(api, table.endpoint, 0, {"fields": keys})
    elif operation not in RECORD_OPERATIONS:
        raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported!')
    count = len(items)
    if operation == "search" and table.version < 2.1:
        count = min(count, 1)
    out: list[Item] = []
    for index in range(count):
        try:
            if operation == "update":
                rows = await update_records(table, items[index], index, existing)
            else:
                rows = await RECORD_OPERATIONS[operation](table, items[index], index)
        except NodeError as error:
            if not ctx.continue_on_fail():
                error.item_index = index
                raise
            out.append(_failed(operation, error, index))
            continue
        paired: Any = [{"item": i} for i in range(len(items))] if count < len(items) else {"item": index}
        out.extend({"json": row if isinstance(row, dict) else {}, "pairedItem": paired} for row in rows)
    return out


async def _bases(ctx: ExecuteContext, api: ApiRequests, scope: RoutingScope, operation: str) -> list[Item]:
    items = ctx.get_input_data()
    if operation == "getMany":
        bases = await base_get_many(api, scope)
        paired: Any = [{"item": i} for i in range(len(items))]
        return [{"json": base, "pairedItem": paired[0] if len(paired) == 1 else paired} for base in bases]
    out: list[Item] = []
    for index in range(len(items)):
        try:
            tables = await base_schema(api, scope, index)
        except NodeError as error:
            if not ctx.continue_on_fail():
                error.item_index = index
                raise
            out.append(_failed(operation, error, index))
            continue
        out.extend({"json": table, "pairedItem": {"item": index}} for table in tables)
    return out


__all__ = ["Airtable"]
