"""Date & Time (``n8n-nodes-base.dateTime`` v1, v2) (recorded: n476, n490-n499).

Version 2 (get the current date, add to / subtract from a date, format with Luxon formats, round, time between
dates, extract a part) runs n8n's own code (:mod:`._date_time_v2_js`) in the sandbox, on the same Luxon the
expressions use, so dates parse, shift and print exactly as in expressions: one implementation of dates. The
parameters are read per item here; the dates are worked on in a user-code worker, off the event loop. n8n parses
free text with moment (ISO 8601, RFC 2822, then JavaScript's ``Date``), in the host's zone: Weft does the same
with Luxon, in ``TZ`` (UTC when unset).

Version 1 (format with moment formats, calculate) is :mod:`._date_time_v1`.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from weft.errors import NodeOperationError
from weft.library.core._date_time_v1 import execute_v1
from weft.library.core._date_time_v2_js import PROGRAM
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.timezones import local_zone, workflow_timezone
from weft.workflow import Item, NodeOutput

#: The parameters each version-2 operation reads per item, with n8n's defaults.
_PARAMETERS: dict[str, dict[str, Any]] = {
    "getCurrentDate": {"includeTime": True, "outputFieldName": "currentDate", "options.timezone": None},
    "addToDate": {"magnitude": "", "timeUnit": "days", "duration": 0, "outputFieldName": "newDate"},
    "subtractFromDate": {"magnitude": "", "timeUnit": "days", "duration": 0, "outputFieldName": "newDate"},
    "formatDate": {
        "date": "",
        "format": "MM/dd/yyyy",
        "customFormat": "",
        "outputFieldName": "formattedDate",
        "options.timezone": None,
        "options.fromFormat": None,
    },
    "roundDate": {
        "date": "",
        "mode": "roundDown",
        "toNearest": "month",
        "to": "month",
        "outputFieldName": "roundedDate",
    },
    "getTimeBetweenDates": {
        "startDate": "",
        "endDate": "",
        "units": ["day"],
        "outputFieldName": "timeDifference",
        "options.isoString": None,
    },
    "extractDate": {"date": "", "part": "month", "outputFieldName": "datePart"},
}


class DateTime(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.dateTime",
        display_name="Date & Time",
        versions=(1, 2),
        description="Manipulate date and time values",
        group=("transform",),
        defaults={"options": {}},
        usable_as_tool=True,
    )
    #: n8n marks version 2 only ``usableAsTool``.
    tool_versions: ClassVar[tuple[float, ...]] = (2,)

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        if float(ctx.node.typeVersion) < 2:
            return [execute_v1(ctx, workflow_timezone(ctx), local_zone())]
        return [await _execute_v2(ctx)]


async def _execute_v2(ctx: ExecuteContext) -> list[Item]:
    from weft.expressions import run_code
    from weft.expressions.offload import run_in_worker

    operation = str(ctx.get_node_parameter("operation", 0, "getCurrentDate"))
    items = ctx.get_input_data()
    include_input = bool(ctx.get_node_parameter("options.includeInputFields", 0, False))
    names = _PARAMETERS.get(operation)
    if names is None or not items:
        return []
    per_item = [_item_parameters(ctx, names, index) for index in range(len(items))]
    params = {"op": operation, "tz": workflow_timezone(ctx), "localZone": local_zone(), "items": per_item}
    program = PROGRAM.replace("const P = __PARAMS__;", f"const P = {json.dumps(params)};", 1)
    result = await run_in_worker(run_code, program, ctx.expression_context())
    out: list[Item] = []
    for index, (item, answer) in enumerate(zip(items, result.items, strict=True)):
        data = answer["json"]
        if "error" in data:
            if not ctx.continue_on_fail():
                raise NodeOperationError(ctx.node.name, data["error"], item_index=index, description=_fix(operation))
            out.append({"json": {"error": data["error"]}})
            continue
        new: Item = {"json": dict(item["json"]) if include_input else {}, "pairedItem": {"item": index}}
        if include_input and "binary" in item:
            new["binary"] = item["binary"]
        if data.get("set"):
            new["json"][str(per_item[index]["outputFieldName"])] = data.get("value")
        out.append(new)
    return out


def _item_parameters(ctx: ExecuteContext, names: dict[str, Any], index: int) -> dict[str, Any]:
    values: dict[str, Any] = {}
    undefined: list[str] = []
    zones: dict[str, str] = {}
    for name, default in names.items():
        value = ctx.get_node_parameter(name, index, default)
        key = name.removeprefix("options.")
        values[key] = value
        if value is None and _is_undefined(ctx, name, index):
            undefined.append(key)
        elif key in _DATES and isinstance(value, str) and _LUXON_ISO.match(value):
            zone = _datetime_zone(ctx, name, index)
            if zone:
                zones[key] = zone
    values["__undefined"] = undefined
    values["__zones"] = zones
    return values


_SINGLE_SEGMENT = re.compile(r"^=\s*\{\{(.*)\}\}\s*$", re.S)
#: The parameters that hold a date, and the text a Luxon DateTime becomes when it leaves the sandbox.
_DATES = ("magnitude", "date", "startDate", "endDate")
_LUXON_ISO = re.compile(r"^[+-]?\d{4,6}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}(Z|[+-]\d\d:\d\d)$")


def _single_segment(ctx: ExecuteContext, name: str, index: int) -> str | None:
    raw = ctx.get_node_parameter(name, index, None, raw=True)
    match = _SINGLE_SEGMENT.match(raw) if isinstance(raw, str) else None
    return None if match is None or "}}" in match.group(1) else match.group(1)


def _datetime_zone(ctx: ExecuteContext, name: str, index: int) -> str | None:
    """The zone of a Luxon DateTime an expression gave (n8n hands the node the DateTime itself, zone and all)."""
    inner = _single_segment(ctx, name, index)
    if inner is None:
        return None
    probe = f"={{{{ (() => {{ const v = ({inner}); return v instanceof DateTime ? v.zoneName : null; }})() }}}}"
    zone = ctx.evaluate_expression(probe, index)
    return zone if isinstance(zone, str) else None


def _is_undefined(ctx: ExecuteContext, name: str, index: int) -> bool:
    """Whether an expression that gave ``None`` gave JavaScript's ``undefined`` (n8n parses that as "now"), not
    ``null``: the expression is asked once more, as ``(…) === undefined``."""
    inner = _single_segment(ctx, name, index)
    return inner is not None and ctx.evaluate_expression(f"={{{{ ({inner}) === undefined }}}}", index) is True


def _fix(operation: str) -> str:
    if operation == "getCurrentDate":
        return "Use an IANA timezone name such as Europe/Berlin in 'Timezone'."
    return "Give an ISO 8601 date (2024-01-31T12:00:00Z), a Unix timestamp, or set 'From Format'."


__all__ = ["DateTime"]
