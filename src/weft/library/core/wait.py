"""Wait (``n8n-nodes-base.wait``): pause the execution for a time, until a time, or until a webhook call.

Like n8n, a wait shorter than 65 seconds is slept in-process; a longer one puts the execution to wait
(``waitTill``) and the host resumes it later from its stored state. ``webhook`` waits "indefinitely"
(``3000-01-01``) unless ``limitWaitTime`` sets an earlier limit; the server resumes it on the webhook call.
In every case the node outputs its input items.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any, ClassVar
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from weft.errors import NodeOperationError
from weft.nodes.contract import WAIT_INDEFINITELY, ExecuteContext, NodeDescription, NodeType
from weft.workflow import NodeOutput

#: Waits shorter than this are slept in-process (n8n polls waiting executions every 60 s).
IN_PROCESS_LIMIT = timedelta(seconds=65)

_UNIT_SECONDS = {"seconds": 1, "minutes": 60, "hours": 3600, "days": 86400}


class Wait(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.wait",
        display_name="Wait",
        versions=(1, 1.1),
        description="Wait before continue with execution",
        group=("organization",),
        credentials=("httpBasicAuth", "httpHeaderAuth", "jwtAuth"),
        defaults={
            "resume": "timeInterval",
            "limitWaitTime": False,
            "limitType": "afterTimeInterval",
            "resumeAmount": 1,
            "resumeUnit": "hours",
            "httpMethod": "GET",
            "responseMode": "onReceived",
            "options": {},
        },
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        resume = ctx.get_node_parameter("resume", 0)
        if resume == "webhook":
            ctx.put_execution_to_wait(_webhook_wait_till(ctx))
            return [ctx.get_input_data()]
        if resume == "form":
            raise NodeOperationError(
                ctx.node.name,
                "Resuming on a form submission is not supported yet",
                description="Use 'resume: webhook' (and send the resume URL to the user) or a time interval.",
            )
        if resume == "timeInterval":
            wait_till = datetime.now(UTC) + _interval(ctx)
        elif resume == "specificTime":
            wait_till = _specific_time(ctx, ctx.get_node_parameter("dateTime", 0, ""))
        else:
            raise NodeOperationError(
                ctx.node.name,
                f"Unknown resume mode {resume!r}",
                description="Set 'resume' to 'timeInterval', 'specificTime' or 'webhook'.",
            )
        remaining = max(wait_till - datetime.now(UTC), timedelta(0))
        if remaining < IN_PROCESS_LIMIT:
            await asyncio.sleep(remaining.total_seconds())
        else:
            ctx.put_execution_to_wait(wait_till)
        return [ctx.get_input_data()]


def _interval(ctx: ExecuteContext) -> timedelta:
    # v1 defaults to 1 hour, v1.1 to 5 seconds (n8n's version-dependent parameter defaults)
    v1 = ctx.node.typeVersion < 1.1
    unit = ctx.get_node_parameter("unit", 0, "hours" if v1 else "seconds")
    if unit not in _UNIT_SECONDS:
        raise NodeOperationError(
            ctx.node.name,
            "Invalid wait unit. Valid units are 'seconds', 'minutes', 'hours', or 'days'.",
        )
    amount = ctx.get_node_parameter("amount", 0, 1 if v1 else 5)
    if isinstance(amount, bool) or not isinstance(amount, int | float) or amount < 0:
        raise NodeOperationError(ctx.node.name, "Invalid wait amount. It must be a positive number.")
    return timedelta(seconds=amount * _UNIT_SECONDS[unit])


def _webhook_wait_till(ctx: ExecuteContext) -> datetime:
    if ctx.get_node_parameter("limitWaitTime", 0) is not True:
        return WAIT_INDEFINITELY
    if ctx.get_node_parameter("limitType", 0) == "afterTimeInterval":
        amount = ctx.get_node_parameter("resumeAmount", 0)
        unit = ctx.get_node_parameter("resumeUnit", 0)
        seconds = float(amount) * _UNIT_SECONDS.get(unit, 1)
        return datetime.now(UTC) + timedelta(seconds=seconds)
    return _specific_time(ctx, ctx.get_node_parameter("maxDateAndTime", 0, ""))


def _specific_time(ctx: ExecuteContext, value: Any) -> datetime:
    """Parse an ISO date-time; a value without an offset is in the workflow's timezone (else UTC)."""
    try:
        moment = value if isinstance(value, datetime) else datetime.fromisoformat(str(value).strip())
    except ValueError:
        raise NodeOperationError(
            ctx.node.name,
            "Cannot put execution to wait because `dateTime` parameter is not a valid date. "
            "Please pick a specific date and time to wait until.",
        ) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=_timezone(ctx))
    return moment.astimezone(UTC)


def _timezone(ctx: ExecuteContext) -> Any:
    name = ctx.workflow.settings.timezone
    if not name or name == "DEFAULT":
        return UTC
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return UTC
