"""Airtable v2's record and base operations (n8n's ``Airtable/v2/actions``), one item at a time.

Each record handler answers the item's output rows; a base list answers once for all items. Versions below 2.2
flatten a record's ``fields`` into the row (``{id, createdTime, ...fields}``).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

from weft.errors import NodeApiError, NodeOperationError
from weft.library.airtable.transport import airtable_all, airtable_request, batch_update
from weft.nodes.api import ApiRequests
from weft.nodes.routing.scope import RoutingScope
from weft.workflow import Item

Rows = list[dict[str, Any]]


@dataclass
class Table:
    """The node run's API and the record endpoint ``<base>/<table>``."""

    api: ApiRequests
    scope: RoutingScope
    endpoint: str

    @property
    def version(self) -> float:
        return float(self.api.ctx.node.typeVersion)

    def param(self, name: str, index: int, *default: Any) -> Any:
        return self.scope.parameter(name, index, *default)

    def output(self, record: Any) -> dict[str, Any]:
        """n8n's ``legacyFlattenOutput``."""
        if not isinstance(record, dict):
            return {}
        if self.version >= 2.2:
            return record
        rest = {key: value for key, value in record.items() if key != "fields"}
        return {**rest, **(record.get("fields") or {})}


def remove_ignored(data: dict[str, Any], ignore: Any) -> dict[str, Any]:
    """n8n's ``removeIgnored``: ``data`` without the fields named (a list, or a comma-separated string)."""
    if not ignore:
        return data
    names = [name.strip() for name in ignore.split(",")] if isinstance(ignore, str) else list(ignore)
    return {key: value for key, value in data.items() if key not in names}


def _values_match(record_value: Any, input_value: Any) -> bool:
    if record_value == input_value and type(record_value) is type(input_value):
        return True
    if isinstance(record_value, list):
        if not isinstance(input_value, list):
            return input_value in record_value
        return record_value == input_value
    return False


def find_matches(node: str, records: list[Any], keys: list[str], fields: dict[str, Any], every: bool) -> list[Any]:
    """n8n's ``findMatches``: the records whose ``keys`` equal ``fields``' (all of them, or the first)."""
    found = [r for r in records if all(_values_match((r.get("fields") or {}).get(k), fields.get(k)) for k in keys)]
    if not found:
        message = "No records match provided keys" if every else "Record matching provided keys was not found"
        raise NodeOperationError(node, message)
    return found if every else found[:1]


def _coerce(value: Any, kind: str) -> Any:
    if not isinstance(value, str) or value == "":
        return value
    if kind == "number":
        try:
            number = float(value)
        except ValueError:
            return value
        return int(number) if number.is_integer() and "." not in value else number
    if kind == "boolean" and value.lower() in ("true", "false"):
        return value.lower() == "true"
    return value


def mapped_fields(table: Table, index: int, typecast: bool) -> dict[str, Any]:
    """``columns.value``: the fields set below, converted to their schema types unless ``typecast``."""
    value = dict(table.param("columns.value", index, {}) or {})
    schema = (table.api.ctx.node.parameters.get("columns") or {}).get("schema") or []
    for field in schema if isinstance(schema, list) else []:
        key = field.get("id")
        if key not in value:
            continue
        kind = str(field.get("type") or "string")
        if typecast and kind == "array" and isinstance(value[key], str):
            value[key] = _json_array(value[key])
        elif not typecast:
            value[key] = _coerce(value[key], kind)
    return value


def _json_array(text: str) -> Any:
    import json

    try:
        parsed = json.loads(text)
    except ValueError:
        return text
    return parsed if isinstance(parsed, list) else text


def not_found_description(error: NodeApiError, record_id: Any) -> None:
    """n8n's ``processAirtableError``: an unknown record id says so."""
    description = str(error.description or "")
    if record_id and (description == "NOT_FOUND" or "You must provide an array of up to 10 record" in description):
        error.description = f"{record_id} is not a valid Record ID"


RecordOp = Callable[[Table, Item, int], Awaitable[Rows]]


def _options(table: Table, index: int) -> dict[str, Any]:
    return dict(table.param("options", index, {}) or {})


def _no_downloads(table: Table, options: dict[str, Any]) -> None:
    if options.get("downloadFields"):
        raise NodeOperationError(
            table.api.ctx.node.name,
            "The option 'Download Attachments' is not supported by Weft yet",
            description="Remove the option and download the attachments' urls with an HTTP Request node.",
        )


async def create(table: Table, item: Item, index: int) -> Rows:
    options = _options(table, index)
    typecast = bool(options.get("typecast"))
    body: dict[str, Any] = {"typecast": typecast}
    mode = table.param("columns.mappingMode", 0, "defineBelow")
    if mode == "autoMapInputData":
        body["fields"] = remove_ignored(dict(item.get("json") or {}), options.get("ignoreFields"))
    if mode == "defineBelow":
        body["fields"] = mapped_fields(table, index, typecast)
    return [await airtable_request(table.api, "POST", table.endpoint, index, body)]


async def get(table: Table, item: Item, index: int) -> Rows:
    record_id = table.param("id", index)
    try:
        found = await airtable_request(table.api, "GET", f"{table.endpoint}/{record_id}", index)
    except NodeApiError as error:
        not_found_description(error, record_id)
        raise
    _no_downloads(table, dict(table.param("options", 0, {}) or {}))
    return [table.output(found)]


async def delete(table: Table, item: Item, index: int) -> Rows:
    record_id = table.param("id", index)
    try:
        return [await airtable_request(table.api, "DELETE", f"{table.endpoint}/{record_id}", index)]
    except NodeApiError as error:
        not_found_description(error, record_id)
        raise


def _search_query(table: Table, index: int, options: dict[str, Any]) -> dict[str, Any]:
    qs: dict[str, Any] = {}
    formula = table.param("filterByFormula", index, "")
    if formula:
        qs["filterByFormula"] = formula
    fields = options.get("fields")
    if fields:
        qs["fields"] = [f.strip() for f in fields.split(",")] if isinstance(fields, str) else fields
    sort = dict(table.param("sort", index, {}) or {})
    if sort.get("property"):
        qs["sort"] = sort["property"]
    view = options.get("view")
    if view:
        qs["view"] = view.get("value") if isinstance(view, dict) else None
    return qs


async def search(table: Table, item: Item, index: int) -> Rows:
    return_all = table.param("returnAll", index, True)
    options = _options(table, index)
    qs = _search_query(table, index, options)
    if return_all:
        records = await airtable_all(table.api, table.endpoint, index, qs)
    else:
        qs["maxRecords"] = table.param("limit", index, 100)
        answer = await airtable_request(table.api, "GET", table.endpoint, index, None, qs)
        records = (answer or {}).get("records") or []
    _no_downloads(table, options)
    return [table.output(record) for record in records]


def _matching(table: Table) -> list[str]:
    columns = table.param("columns.matchingColumns", 0, [])
    return [str(column) for column in columns] if isinstance(columns, list) else []


async def update_records(table: Table, item: Item, index: int, existing: list[Any]) -> Rows:
    """One item of ``update``: by ``id``, or every record (or the first) whose matching columns equal the item's."""
    options = _options(table, index)
    typecast = bool(options.get("typecast"))
    keys = _matching(table)
    node = table.api.ctx.node.name
    records: list[dict[str, Any]] = []
    if table.param("columns.mappingMode", 0, "defineBelow") == "autoMapInputData":
        fields = dict(item.get("json") or {})
        if "id" in keys:
            record_id = fields.pop("id", None)
            records.append({"id": record_id, "fields": remove_ignored(fields, options.get("ignoreFields"))})
        else:
            for match in find_matches(node, existing, keys, fields, bool(options.get("updateAllMatches"))):
                records.append({"id": match.get("id"), "fields": remove_ignored(fields, options.get("ignoreFields"))})
    else:
        fields = mapped_fields(table, index, typecast)
        if "id" in keys:
            record_id = fields.pop("id", None)
            records.append({"id": record_id, "fields": fields})
        else:
            for match in find_matches(node, existing, keys, fields, bool(options.get("updateAllMatches"))):
                records.append({"id": match.get("id"), "fields": remove_ignored(fields, keys)})
    try:
        return await batch_update(table.api, table.endpoint, {"typecast": typecast}, records, index)
    except NodeApiError as error:
        not_found_description(error, records[0].get("id") if "id" in keys and records else "")
        raise


def _upsert_records(table: Table, item: Item, index: int, keys: list[str], typecast: bool) -> list[dict[str, Any]]:
    options = _options(table, index)
    if table.param("columns.mappingMode", 0, "defineBelow") == "autoMapInputData":
        fields = remove_ignored(dict(item.get("json") or {}), options.get("ignoreFields"))
    else:
        fields = mapped_fields(table, index, typecast)
    if "id" in keys:
        record_id = fields.pop("id", None)
        return [{"id": record_id, "fields": fields}]
    return [{"fields": fields}]


async def upsert(table: Table, item: Item, index: int) -> Rows:
    options = _options(table, index)
    keys = _matching(table)
    typecast = bool(options.get("typecast"))
    records = _upsert_records(table, item, index, keys, typecast)
    body: dict[str, Any] = {"typecast": typecast}
    if "id" not in keys:
        body["performUpsert"] = {"fieldsToMergeOn": keys}
    try:
        return await batch_update(table.api, table.endpoint, body, records, index)
    except NodeApiError as error:
        if error.http_code == 422 and "id" in keys:
            create_body = {**body, "records": [{"fields": r["fields"]} for r in records]}
            answer = await airtable_request(table.api, "POST", table.endpoint, index, create_body)
            return list((answer or {}).get("records") or [])
        if "Cannot update more than one record" not in str(error.description or ""):
            raise
    return await _upsert_each_match(table, index, keys, records[0]["fields"], body, options)


async def _upsert_each_match(
    table: Table, index: int, keys: list[str], fields: dict[str, Any], body: dict[str, Any], options: dict[str, Any]
) -> Rows:
    """Several records match: find them by formula and update all of them (or the first)."""
    conditions = ",".join(f"{{{key}}} = '{_js_text(fields.get(key))}'" for key in keys)
    qs = {"fields": keys, "filterByFormula": f"AND({conditions})"}
    matches = await airtable_all(table.api, table.endpoint, index, qs)
    chosen = matches if options.get("updateAllMatches") else matches[:1]
    updates = [{"id": match.get("id"), "fields": fields} for match in chosen]
    return await batch_update(table.api, table.endpoint, body, updates, index)


def _js_text(value: Any) -> str:
    from weft.nodes.values import js_string

    return js_string(value)


RECORD_OPERATIONS: dict[str, RecordOp] = {
    "create": create,
    "get": get,
    "deleteRecord": delete,
    "search": search,
    "upsert": upsert,
}


async def base_get_many(api: ApiRequests, scope: RoutingScope) -> list[Any]:
    """``base`` ``getMany``: the bases the token reaches (the first ``limit``), by permission level."""
    ctx = scope
    answer = await airtable_request(api, "GET", "meta/bases")
    bases = list((answer or {}).get("bases") or [])
    if ctx.parameter("returnAll", 0, False):
        while (answer or {}).get("offset"):
            answer = await airtable_request(api, "GET", "meta/bases", 0, None, {"offset": answer["offset"]})
            bases.extend((answer or {}).get("bases") or [])
    else:
        limit = ctx.parameter("limit", 0, 100)
        bases = bases[:limit] if limit and bases else []
    levels = ctx.parameter("options.permissionLevel", 0, []) or []
    return [base for base in bases if not levels or base.get("permissionLevel") in levels]


async def base_schema(api: ApiRequests, scope: RoutingScope, index: int) -> list[Any]:
    """``base`` ``getSchema``: the base's tables with their fields and views."""
    base = scope.parameter("base", index, None, extract_value=True)
    answer = await airtable_request(api, "GET", f"meta/bases/{base}/tables", index)
    return list((answer or {}).get("tables") or [])


__all__ = [
    "RECORD_OPERATIONS",
    "Table",
    "base_get_many",
    "base_schema",
    "find_matches",
    "remove_ignored",
    "update_records",
]
