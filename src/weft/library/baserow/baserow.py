"""Baserow (``n8n-nodes-base.baserow`` v1 and v1.1; ``usableAsTool``): create, get, get many, update and delete
rows of a table, as n8n's node does: field names are mapped to and from ``field_<id>`` through
``GET /api/database/fields/table/{id}/``; get many pages with ``page``/``size=100``. Credential ``baserowApi``
(username and password, exchanged for a JWT at ``POST {host}/api/user/token-auth/``, sent as ``JWT <token>``) or,
with ``authentication: databaseToken``, ``baserowTokenApi`` (``Token <token>``)."""

from __future__ import annotations

from typing import Any, ClassVar

from weft.errors import NodeApiError, NodeOperationError
from weft.library.baserow.fields import FieldMapper, filter_query
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.values import js_string
from weft.workflow import Item, NodeOutput

PASSWORD, TOKEN = "baserowApi", "baserowTokenApi"
PAGE = 100


class Baserow(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.baserow",
        display_name="Baserow",
        versions=(1, 1.1),
        description="Consume the Baserow API",
        group=("output",),
        usable_as_tool=True,
        credentials=(PASSWORD, TOKEN),
        defaults={
            "authentication": "usernamePassword",
            "resource": "row",
            "operation": "getAll",
            "databaseId": "",
            "tableId": "",
            "rowId": "",
            "returnAll": False,
            "limit": 50,
            "additionalOptions": {},
            "dataToSend": "defineBelow",
            "inputsToIgnore": "",
            "fieldsUi": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        operation = js_string(ctx.get_node_parameter("operation", 0))
        if operation not in _OPERATIONS:
            raise NodeOperationError(ctx.node.name, f'The operation "{operation}" is not supported by Weft yet')
        async with ApiRequests(ctx) as api:
            run = _Run(ctx, api)
            await run.start()
            return [await run.each_item(operation)]


class _Run:
    def __init__(self, ctx: ExecuteContext, api: ApiRequests) -> None:
        self.ctx, self.api = ctx, api
        self.items = ctx.get_input_data()
        self.table = js_string(ctx.get_node_parameter("tableId", 0))
        token = ctx.get_node_parameter("authentication", 0, "usernamePassword") == "databaseToken"
        self.credential_type = TOKEN if token else PASSWORD
        self.host, self.jwt, self.mapper = "", "", FieldMapper([])

    async def start(self) -> None:
        credential = await self.api.credential(self.credential_type)
        self.host = js_string(credential.data.get("host")).rstrip("/")
        if self.credential_type == PASSWORD:
            body = {"username": credential.data.get("username"), "password": credential.data.get("password")}
            url = f"{self.host}/api/user/token-auth/"
            options = {"method": "POST", "url": url, "body": body, "json": True}
            answer = await self.api.request(None, options, 0)
            self.jwt = js_string((answer or {}).get("token"))
        self.mapper = FieldMapper(await self.request("GET", f"/api/database/fields/table/{self.table}/", 0))

    async def request(self, method: str, endpoint: str, index: int, body: Any = None, qs: Any = None) -> Any:
        options: dict[str, Any] = {"method": method, "url": f"{self.host}{endpoint}", "json": True}
        if qs:
            options["qs"] = qs
        if body:
            options["body"] = body
        if self.credential_type == PASSWORD:
            options["headers"] = {"Authorization": f"JWT {self.jwt}"}
            return await self.api.request(None, options, index)
        return await self.api.request(self.credential_type, options, index)

    async def each_item(self, operation: str) -> list[Item]:
        out: list[Item] = []
        for index in range(len(self.items)):
            try:
                rows = await _OPERATIONS[operation](self, index)
            except (NodeApiError, NodeOperationError):
                if not self.ctx.continue_on_fail():
                    raise
                # n8n pushes {error: message, json: {}}: the message does not survive into the run data
                out.append({"json": {}, "pairedItem": {"item": index}})
                continue
            out.extend({"json": row, "pairedItem": {"item": index}} for row in rows)
        return out

    def _body(self, index: int) -> dict[str, Any]:
        if self.ctx.get_node_parameter("dataToSend", 0) == "autoMapInputData":
            ignored = [k.strip() for k in js_string(self.ctx.get_node_parameter("inputsToIgnore", index)).split(",")]
            data = {k: v for k, v in (self.items[index].get("json") or {}).items() if k not in ignored}
            return self.mapper.names_to_ids(data)
        fields = self.ctx.get_node_parameter("fieldsUi.fieldValues", index, []) or []
        return {f"field_{js_string(f.get('fieldId'))}": f.get("fieldValue") for f in fields}

    def _row_path(self, index: int) -> str:
        return f"/api/database/rows/table/{self.table}/{js_string(self.ctx.get_node_parameter('rowId', index))}/"

    async def get_all(self, index: int) -> list[Any]:
        options = self.ctx.get_node_parameter("additionalOptions", index, {}) or {}
        qs = filter_query(options)
        return_all = bool(self.ctx.get_node_parameter("returnAll", 0, False))
        limit = int(self.ctx.get_node_parameter("limit", 0, 0) or 0)
        rows: list[Any] = []
        page = 1
        while True:
            answer = await self.request(
                "GET", f"/api/database/rows/table/{self.table}/", index, qs={**qs, "page": page, "size": PAGE}
            )
            rows.extend((answer or {}).get("results") or [])
            if not return_all and len(rows) > limit:
                rows = rows[:limit]
                break
            page += 1
            if (answer or {}).get("next") is None:
                break
        return [self.mapper.ids_to_names(row) for row in rows]

    async def get(self, index: int) -> list[Any]:
        return [self.mapper.ids_to_names(await self.request("GET", self._row_path(index), index))]

    async def create(self, index: int) -> list[Any]:
        path = f"/api/database/rows/table/{self.table}/"
        return [self.mapper.ids_to_names(await self.request("POST", path, index, body=self._body(index)))]

    async def update(self, index: int) -> list[Any]:
        answer = await self.request("PATCH", self._row_path(index), index, body=self._body(index))
        return [self.mapper.ids_to_names(answer)]

    async def delete(self, index: int) -> list[Any]:
        await self.request("DELETE", self._row_path(index), index)
        return [{"success": True}]


_OPERATIONS = {
    "getAll": _Run.get_all,
    "get": _Run.get,
    "create": _Run.create,
    "update": _Run.update,
    "delete": _Run.delete,
}

__all__ = ["Baserow"]
