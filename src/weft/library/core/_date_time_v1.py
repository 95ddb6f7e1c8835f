"""Date & Time v1 (n8n's ``DateTimeV1``): format a date with moment formats (between timezones), or add to /
subtract from a date, on :mod:`._date_time_moment`. moment's "local" is the host's zone (``TZ``, else UTC).
"""

from __future__ import annotations

import copy
import math
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from weft.errors import NodeError, NodeOperationError
from weft.library.core._date_time_moment import (
    add,
    format_moment,
    iso_string,
    parse_default,
    parse_format,
    parse_in_zone,
    zone,
)
from weft.nodes.contract import ExecuteContext
from weft.nodes.user_regex import RegexTimedOut
from weft.nodes.values import js_to_number
from weft.workflow import Item

_UNRECOGNIZED = 'The date input format could not be recognized. Please set the "From Format" field'
_FIX = 'Give an ISO 8601 date or a Unix timestamp, or set "From Format" to the moment format of the input.'


def execute_v1(ctx: ExecuteContext, workflow_zone: str, local_name: str) -> list[Item]:
    """Version 1's ``execute()``; errors per item become ``{error}`` items with continue-on-fail."""
    local = zone(local_name) or ZoneInfo("UTC")
    out: list[Item] = []
    for index, item in enumerate(ctx.get_input_data()):
        try:
            action = ctx.get_node_parameter("action", 0, "format")
            if action == "format":
                value = _format(ctx, index, workflow_zone, local)
            elif action == "calculate":
                value = _calculate(ctx, index, local)
            else:
                continue
            prop = str(ctx.get_node_parameter("dataPropertyName", index, "data"))
            new: Item = {
                "json": copy.deepcopy(item["json"]) if "." in prop else dict(item["json"]),
                "pairedItem": {"item": index},
            }
            if "binary" in item:
                new["binary"] = item["binary"]
            new["json"][prop] = value
            out.append(new)
        except (NodeError, RegexTimedOut) as caught:
            error = (
                caught.at(ctx.node.name, "options.fromFormat", index) if isinstance(caught, RegexTimedOut) else caught
            )
            if not ctx.continue_on_fail():
                raise error from None
            out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
    return out


def _error(ctx: ExecuteContext, message: str, index: int) -> NodeOperationError:
    return NodeOperationError(ctx.node.name, message, item_index=index, description=_FIX)


def _as_number(value: Any) -> Any:
    """n8n: a value that is a number (or numeric text) becomes a number, a float one seconds → milliseconds."""
    number = js_to_number(value) if not isinstance(value, dict | list) else math.nan
    if isinstance(number, float) and math.isnan(number):
        return value
    if isinstance(number, float) and not number.is_integer():
        number *= 1000
    return int(number) if isinstance(number, float) and number.is_integer() else number


def _format(ctx: ExecuteContext, index: int, workflow_zone: str, local: ZoneInfo) -> str:
    value = _as_number(ctx.get_node_parameter("value", index, ""))
    custom = bool(ctx.get_node_parameter("custom", index, False))  # the two toFormat fields have their own defaults
    to_format = ctx.get_node_parameter("toFormat", index, "" if custom else "MM/DD/YYYY")
    options = ctx.get_node_parameter("options", index, {}) or {}
    from_format = options.get("fromFormat")
    is_integer = isinstance(value, int) and not isinstance(value, bool)
    if from_format is None and not is_integer and _parse(value, None, local) is None:
        raise _error(ctx, _UNRECOGNIZED, index)
    from_zone, to_zone = options.get("fromTimezone"), options.get("toTimezone")
    moment: datetime | None
    if is_integer:
        seconds = value if len(str(value)) < 12 else value / 1000
        moment = datetime.fromtimestamp(seconds, UTC).astimezone(local)
    elif from_zone or to_zone:
        moment = parse_in_zone(value, from_format, _zone(ctx, from_zone or workflow_zone, index))
    else:
        moment = _parse(value, from_format, local)
    if moment is None:
        return "Invalid date"
    if from_zone or to_zone:
        moment = moment.astimezone(_zone(ctx, to_zone or workflow_zone, index))
    return format_moment(moment, str(to_format) if to_format else None)


def _parse(value: Any, fmt: str | None, local: ZoneInfo) -> datetime | None:
    if isinstance(value, int | float) and not isinstance(value, bool):
        return datetime.fromtimestamp(value / 1000, UTC).astimezone(local)
    if not isinstance(value, str):
        return None
    return parse_format(value, fmt, local, strict=False) if fmt else parse_default(value, local)


def _zone(ctx: ExecuteContext, name: str, index: int) -> ZoneInfo:
    found = zone(name)
    if found is None:
        raise NodeOperationError(
            ctx.node.name,
            f"The timezone '{name}' is not known",
            item_index=index,
            description="Use an IANA timezone name such as Europe/Berlin.",
        )
    return found


def _calculate(ctx: ExecuteContext, index: int, local: ZoneInfo) -> str:
    value = ctx.get_node_parameter("value", index, "")
    operation = ctx.get_node_parameter("operation", index, "add")
    duration = float(js_to_number(ctx.get_node_parameter("duration", index, 0)))
    unit = str(ctx.get_node_parameter("timeUnit", index, "days"))
    from_format = (ctx.get_node_parameter("options", index, {}) or {}).get("fromFormat")
    if from_format:
        moment = parse_format(str(value), str(from_format), local, strict=True)
        if moment is None:
            raise _error(
                ctx, 'Date input cannot be parsed. Please recheck the value and the "From Format" field.', index
            )
    else:
        moment = _js_date(value, local)
        if moment is None:
            raise _error(ctx, 'Unrecognized date input. Please specify a format in the "From Format" field.', index)
    return iso_string(add(moment, duration if operation == "add" else -duration, unit))


def _js_date(value: Any, local: ZoneInfo) -> datetime | None:
    """``new Date(value)``: numbers are milliseconds, ISO dates without a time UTC, other text read as moment does."""
    if isinstance(value, bool) or value is None:
        return datetime.fromtimestamp(int(bool(value)) / 1000, UTC).astimezone(local)
    if isinstance(value, int | float):
        return datetime.fromtimestamp(value / 1000, UTC).astimezone(local)
    text = str(value).strip()
    if len(text) == 10 and text[4:5] == "-" and text[7:8] == "-":
        return parse_default(text, ZoneInfo("UTC"))
    return parse_default(text, local)


__all__ = ["execute_v1"]
