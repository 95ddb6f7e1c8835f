"""The Google Calendar node (``n8n-nodes-base.googleCalendar`` 1, 1.1, 1.2, 1.3): n8n's
``GoogleCalendar.execute`` over :mod:`.events` and :mod:`.listing`.

Dates without an offset are read in the workflow's timezone. Per item: the answer (a list's entries one item
each); under "continue" a failed item outputs ``{error: <message>}``, paired with its item. From 1.3 each item's
keys are ordered as n8n orders them (``id``, ``summary``, ``start``, … then the others by name).
"""

from __future__ import annotations

import functools
from collections.abc import Awaitable, Callable
from typing import Any, ClassVar

from weft.errors import NodeError, NodeOperationError
from weft.library.google.calendar import events, listing
from weft.nodes.api import ApiRequests
from weft.nodes.contract import ExecuteContext, NodeDescription, NodeType
from weft.nodes.node_properties import description_for
from weft.nodes.routing.scope import RoutingScope
from weft.nodes.timezones import workflow_timezone
from weft.workflow import Item, NodeOutput

_PRIORITY = ("id", "summary", "start", "end", "attendees", "creator", "organizer", "description", "location",
             "created", "updated")  # fmt: skip
_OPERATIONS: dict[tuple[str, str], Callable[[events.Run], Awaitable[Any]]] = {
    ("event", "create"): events.create,
    ("event", "delete"): events.delete,
    ("event", "get"): events.get,
    ("event", "getAll"): listing.get_all,
    ("event", "update"): events.update,
    ("calendar", "availability"): listing.availability,
}


def _compare(a: str, b: str) -> int:
    rank_a = _PRIORITY.index(a) if a in _PRIORITY else -1
    rank_b = _PRIORITY.index(b) if b in _PRIORITY else -1
    if rank_a != -1 and rank_b != -1:
        return rank_a - rank_b
    if rank_a != -1 or rank_b != -1:
        return -1 if rank_a != -1 else 1
    return (a.lower() > b.lower()) - (a.lower() < b.lower()) or (a > b) - (a < b)


def sorted_keys(row: dict[str, Any]) -> dict[str, Any]:
    """n8n's ``sortItemKeysByPriorityList`` (``localeCompare`` approximated: case-insensitive, then by case)."""
    return {key: row[key] for key in sorted(row, key=functools.cmp_to_key(_compare))}


class GoogleCalendar(NodeType):
    description: ClassVar[NodeDescription] = NodeDescription(
        name="n8n-nodes-base.googleCalendar",
        display_name="Google Calendar",
        versions=(1, 1.1, 1.2, 1.3),
        description="Consume Google Calendar API",
        group=("input",),
        usable_as_tool=True,
        credentials=(events.CREDENTIAL,),
        defaults={"resource": "event", "operation": "create"},
    )

    async def execute(self, ctx: ExecuteContext) -> NodeOutput:
        version = float(ctx.node.typeVersion)
        scope = RoutingScope(ctx, description_for(ctx.node.type, version) or {})
        resource = str(scope.parameter("resource", 0, "event"))
        operation = str(scope.parameter("operation", 0, "create"))
        out: list[Item] = []
        async with ApiRequests(ctx) as api:
            run = events.Run(api, scope, workflow_timezone(ctx), version)
            for index in range(len(ctx.get_input_data())):
                run.index = index
                try:
                    handler = _OPERATIONS.get((resource, operation))
                    if handler is None:
                        message = f'The operation "{operation}" of resource "{resource}" is not supported'
                        raise NodeOperationError(ctx.node.name, message, item_index=index)
                    answer = await handler(run)
                except NodeError as error:
                    if not ctx.continue_on_fail():
                        raise
                    out.append({"json": {"error": error.message}, "pairedItem": {"item": index}})
                    continue
                rows = answer if isinstance(answer, list) else [answer]
                out.extend({"json": r if isinstance(r, dict) else {}, "pairedItem": {"item": index}} for r in rows)
        if version >= 1.3:
            for item in out:
                item["json"] = sorted_keys(item["json"])
        return [out]


__all__ = ["GoogleCalendar", "sorted_keys"]
