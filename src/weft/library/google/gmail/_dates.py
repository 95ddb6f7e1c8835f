"""n8n's ``prepareTimestamp`` (Gmail's received-after/before filters): a date as Unix seconds in the ``q`` query."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from weft.errors import NodeOperationError
from weft.nodes.contract import ExecuteContext

_MILLISECONDS_1990 = 12  # a number written with fewer digits is taken as seconds


def timestamp_query(ctx: ExecuteContext, index: int, query: Any, value: Any, label: str) -> str:
    seconds = _seconds(value)
    if seconds is None:
        raise NodeOperationError(
            ctx.node.name,
            f"Invalid date/time in 'Received {label[0].upper() + label[1:]}' field",
            description=f"'{value}' isn't a valid date and time. If you're using an expression, be sure to set an "
            "ISO date string or a timestamp.",
            item_index=index,
        )
    return f"{query} {label}:{seconds}" if query else f"{label}:{seconds}"


def _seconds(value: Any) -> int | None:
    if isinstance(value, datetime):
        return round(value.timestamp())
    text = str(value)
    try:
        parsed = datetime.fromisoformat(text.replace("Z", "+00:00"))
        if parsed.tzinfo is None:
            parsed = parsed.replace(tzinfo=UTC)  # luxon reads a bare ISO date in the zone of the process: UTC here
        return round(parsed.timestamp())
    except ValueError:
        pass
    if isinstance(value, int | float) and len(str(int(value))) < _MILLISECONDS_1990:
        return int(value)
    if text.strip().lstrip("-").isdigit():
        number = int(text.strip())
        return number if len(text.strip()) < _MILLISECONDS_1990 else number // 1000
    return None


__all__ = ["timestamp_query"]
