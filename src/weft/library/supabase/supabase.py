"""Supabase (``n8n-nodes-base.supabase`` v1; ``usableAsTool``): create, get, get many, update and delete rows of a
table through PostgREST (``<host>/rest/v1/<table>``, credential ``supabaseApi``), as n8n's node does: all created
rows in one request, filters built by hand (any or all conditions) or as a string with ``$n`` parameters, get many
in pages of at most 1,000 (``limit``/``offset``), a custom schema through ``Accept-Profile``/``Content-Profile``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar
from urllib.parse import quote

from weft.errors import NodeApiError, NodeOperationError
from weft.library.supabase._query import (
    FilterError,
    each_condition,
    equal_conditions,
    filter_string,
    grouped,
)
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

CREDENTIAL = "supabaseApi"
PAGE = 1000


class Supabase(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.supabase",
        display_name="Supabase",
        versions=(1,),
        description="Add, get, delete and update data in a table",
        group=("input",),
        usable_as_tool=True,
        credentials=(CREDENTIAL,),
        defaults={
            "useCustomSchema": False,
            "schema": "public",
            "resource": "row",
            "operation": "create",
            "tableId": "",
            "filterType": "manual",
            "matchType": "anyFilter",
            "dataToSend": "defineBelow",
            "inputsToIgnore": "",
            "fieldsUi": {},
            "filters": {},
            "returnAll": False,
            "limit": 50,
            "orderBy": "",
            "filterString": "",
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        operation = ctx.get_node_parameter("operation", 0)
        async with ApiRequests(ctx) as api:
            run = _Run(ctx, api)
            if operation == "create":
                return [await run.create()]
            if operation in ("get", "getAll", "update", "delete"):
                return [await run.each_item(str(operation))]
        raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not known!')


class _Run:
    def __init__(self, ctx: ExecuteContext, api: ApiRequests) -> None:
        self.ctx, self.api = ctx, api
        self.items = ctx.get_input_data()
        self.table = _path_segment(ctx, ctx.get_node_parameter("tableId", 0))

    def _profile(self, method: str) -> dict[str, str]:
        if not self.ctx.get_node_parameter("useCustomSchema", 0, False):
            return {}
        schema = js_string(self.ctx.get_node_parameter("schema", 0, "public"))
        return {("Accept-Profile" if method in ("GET", "HEAD") else "Content-Profile"): schema}

    async def _request(self, method: str, endpoint: str, index: int, body: Any = None, qs: Any = None) -> Any:
        credential = await self.api.credential(CREDENTIAL)
        options: dict[str, Any] = {
            "method": method,
            "url": f"{js_string(credential.data.get('host'))}/rest/v1{endpoint}",
            "headers": {"Prefer": "return=representation", **self._profile(method)},
            "qs": qs or {},
            "json": True,
        }
        if body:
            options["body"] = body
        try:
            return await self.api.request(CREDENTIAL, options, index)
        except NodeApiError as error:
            if error.description:  # n8n: "<message>: <description>"
                error.message = f"{error.message}: {error.description}"
            raise

    def _record(self, index: int) -> dict[str, Any]:
        if self.ctx.get_node_parameter("dataToSend", 0) == "autoMapInputData":
            ignored = [k.strip() for k in js_string(self.ctx.get_node_parameter("inputsToIgnore", index)).split(",")]
            return {k: v for k, v in (self.items[index].get("json") or {}).items() if k not in ignored}
        fields = self.ctx.get_node_parameter("fieldsUi.fieldValues", index, []) or []
        return {js_string(f.get("fieldId")): f.get("fieldValue") for f in fields}

    async def create(self) -> list[Item]:
        records = [self._record(i) for i in range(len(self.items))]
        try:
            rows = await self._request("POST", f"/{self.table}", 0, body=records)
        except NodeApiError as error:
            if not self.ctx.continue_on_fail():
                raise
            paired: Any = [{"item": i} for i in range(len(records))]  # one item, paired with every input
            return [{"json": {"error": error.description}, "pairedItem": paired}]
        return [{"json": row, "pairedItem": {"item": i}} for i, row in enumerate(_list(rows))]

    async def each_item(self, operation: str) -> list[Item]:
        out: list[Item] = []
        for index in range(len(self.items)):
            try:
                rows = await _OPERATIONS[operation](self, index)
            except NodeApiError as error:
                if not self.ctx.continue_on_fail():
                    raise
                text = error.message if operation == "get" else error.description
                out.append({"json": {"error": text}, "pairedItem": {"item": index}})
                continue
            out.extend({"json": row, "pairedItem": {"item": index}} for row in _list(rows))
        return out

    def _conditions(self, index: int) -> list[Mapping[str, Any]]:
        return list(self.ctx.get_node_parameter("filters.conditions", index, []) or [])

    def _required(self, index: int) -> list[Mapping[str, Any]]:
        conditions = self._conditions(index)
        if not conditions:
            raise NodeOperationError(
                self.ctx.node.name,
                "At least one select condition must be defined",
                item_index=index,
                description="Add a condition under 'Filters' (or choose the 'String' filter type).",
            )
        return conditions

    def _filtered(self, index: int, all_as_group: bool) -> tuple[str, dict[str, str]]:
        """The endpoint and query of a filtered operation (``all_as_group``: get many's ``and=(…)``)."""
        endpoint, qs = f"/{self.table}", {}
        try:
            kind = self.ctx.get_node_parameter("filterType", 0)
            if kind == "manual":
                match = self.ctx.get_node_parameter("matchType", 0)
                conditions = self._conditions(index) if all_as_group else self._required(index)
                if conditions and match == "allFilters":
                    qs = {"and": grouped(conditions)} if all_as_group else each_condition(conditions)
                elif conditions and match == "anyFilter":
                    qs = {"or": grouped(conditions)}
            elif kind == "string":
                template = js_string(self.ctx.get_node_parameter("filterString", index))
                parameters = self.ctx.get_node_parameter("filterStringParameters.values", index, []) or []
                endpoint = f"{endpoint}?{filter_string(template, parameters)}"
        except FilterError as error:
            raise NodeOperationError(self.ctx.node.name, str(error), item_index=index) from None
        return endpoint, qs

    async def get(self, index: int) -> Any:
        conditions = self._conditions(index)
        try:
            qs = equal_conditions(conditions)
        except FilterError as error:
            raise NodeOperationError(self.ctx.node.name, str(error), item_index=index) from None
        self._required(index)
        return await self._request("GET", f"/{self.table}", index, qs=qs)

    async def get_all(self, index: int) -> list[Any]:
        endpoint, qs = self._filtered(index, all_as_group=True)
        limit = None if self.ctx.get_node_parameter("returnAll", 0) else int(self.ctx.get_node_parameter("limit", 0))
        order = self.ctx.get_node_parameter("orderBy", index, "")
        rows: list[Any] = []
        while True:
            query: dict[str, Any] = dict(qs)
            if limit is not None:
                query["limit"] = min(limit - len(rows), PAGE)
            if order:
                query["order"] = order
            if rows:
                query["offset"] = len(rows)
            page = _list(await self._request("GET", endpoint, index, qs=query))
            rows.extend(page)
            if len(page) < PAGE or (limit is not None and len(rows) >= limit):
                return rows

    async def update(self, index: int) -> Any:
        endpoint, qs = self._filtered(index, all_as_group=False)
        return await self._request("PATCH", endpoint, index, body=self._record(index), qs=qs)

    async def delete(self, index: int) -> Any:
        endpoint, qs = self._filtered(index, all_as_group=False)
        return await self._request("DELETE", endpoint, index, qs=qs)


_OPERATIONS = {"get": _Run.get, "getAll": _Run.get_all, "update": _Run.update, "delete": _Run.delete}


def _list(value: Any) -> list[Any]:
    """n8n's ``returnJsonArray``: an array's elements, or the value itself."""
    return list(value) if isinstance(value, list) else [value]


def _path_segment(ctx: ExecuteContext, value: Any) -> str:
    """n8n's ``toPathSegment``."""
    if value is None:
        raise NodeOperationError(ctx.node.name, "Invalid identifier: a value is required")
    text = js_string(value)
    if text in ("", ".", ".."):
        raise NodeOperationError(ctx.node.name, f'Invalid identifier: "{text}" is not allowed')
    return quote(text, safe="-_.!~*'()")


__all__ = ["Supabase"]
