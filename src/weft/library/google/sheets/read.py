"""Get Row(s) (n8n's ``read.operation.ts`` and ``readOperation.ts``): the sheet's rows as items, each with its
``row_number``; filters (``filtersUI``) keep the matching rows, the first or all (``returnFirstMatch``,
``returnAllMatches`` before 4.5), combined with OR or AND (``combineFilters``, AND by default from 4.3)."""

from __future__ import annotations

from typing import Any

from weft.library.google.sheets.data import prepare_sheet_data, range_string
from weft.library.google.sheets.sheet import GoogleSheet, lookup_values, structure_by_column
from weft.nodes.contract import ExecuteContext
from weft.workflow import Item


async def read(ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, sheet_id: str) -> list[Item]:
    version = float(ctx.node.typeVersion)
    items = ctx.get_input_data()
    count = len(items) if version > 4.1 else 1
    out: list[Item] = []
    for index in range(count):
        out.extend(await read_sheet(ctx, sheet, sheet_name, index, version, len(items)))
    return out


def _values(options: dict[str, Any], name: str) -> dict[str, Any]:
    entry = options.get(name)
    values = entry.get("values") if isinstance(entry, dict) else None
    return dict(values) if isinstance(values, dict) else {}


async def read_sheet(
    ctx: ExecuteContext, sheet: GoogleSheet, sheet_name: str, index: int, version: float, item_count: int
) -> list[Item]:
    """n8n's ``readSheet`` for item ``index``."""
    options = dict(ctx.get_node_parameter("options", index, {}) or {})
    formatting = _values(options, "outputFormatting")
    location = _values(options, "dataLocationOnSheet")
    location.setdefault("rangeDefinition", "detectAutomatically")
    value_render = formatting.get("general") or "UNFORMATTED_VALUE"
    date_render = formatting.get("date") or "FORMATTED_STRING"
    rows = await sheet.get_data(range_string(sheet_name, location), value_render, date_render)
    if not rows:
        return []
    data, key_row, data_start = prepare_sheet_data(rows, location)
    lookups = [dict(v) for v in ctx.get_node_parameter("filtersUI.values", index, []) or []]
    if lookups:
        if version < 4.5:
            return_all = options.get("returnAllMatches") == "returnAllMatches"
        else:
            return_all = not options.get("returnFirstMatch")
        if version <= 4.1:
            for other in range(1, item_count):
                lookups.extend(dict(v) for v in ctx.get_node_parameter("filtersUI.values", other, []) or [])
        combine = ctx.get_node_parameter("combineFilters", index, "OR" if version < 4.3 else "AND")
        for lookup in lookups:
            lookup.setdefault("lookupColumn", "")
            lookup.setdefault("lookupValue", "")
        found = lookup_values(ctx.node.name, data, key_row, data_start, lookups, return_all, version, combine)
    else:
        found = structure_by_column(data, key_row, data_start)
    return [{"json": row, "pairedItem": {"item": index}} for row in found]


__all__ = ["read", "read_sheet"]
