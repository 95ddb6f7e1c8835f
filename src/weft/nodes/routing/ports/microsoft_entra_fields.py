"""The Entra user fields n8n sends in follow-up ``PATCH`` requests, shaped as Graph takes them: dates as UTC ISO
strings (n8n reads a ``dateTime`` field of a collection as a luxon ``DateTime``: ``validateType``), a phone as a
list, the password policies comma-separated, a forced password change inside ``passwordProfile``."""

from __future__ import annotations

import re
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from weft.errors import NodeOperationError
from weft.nodes.routing.call import RoutingCall

_ISO = re.compile(r"\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?)?(Z|[+-]\d{2}:?\d{2})?")
_LABELS = {"birthday": "Birthday", "employeeHireDate": "Employee Hire Date",
           "employeeLeaveDateTime": "Employee Leave Date Time"}  # fmt: skip


def _zone(call: RoutingCall) -> Any:
    """luxon's default zone while n8n runs the node: the workflow's timezone."""
    name = call.scope.ctx.workflow.settings.timezone or call.scope.expression_context().timezone or "UTC"
    try:
        return UTC if str(name).upper() in ("UTC", "GMT", "Z") else ZoneInfo(str(name))
    except (ZoneInfoNotFoundError, ValueError):
        return UTC


def utc_iso(call: RoutingCall, value: Any, label: str) -> str:
    """``value.toUTC().toISO()`` of a date n8n parsed from the parameter (a date without offset in the workflow's
    zone); a value that is no date fails as n8n's parameter validation does."""
    text = str(value).strip()
    parsed: datetime | None = None
    if isinstance(value, str) and _ISO.fullmatch(text):
        try:
            parsed = datetime.fromisoformat(text.replace(" ", "T"))
        except ValueError:
            parsed = None
    if parsed is None:
        raise NodeOperationError(
            call.node_name,
            f"Invalid input for field '{label}' inside the node's fields in [item {call.item_index}]",
            description=f"'{label}' expects a dateTime but we got '{value}'",
            item_index=call.item_index,
        )
    if parsed.tzinfo is None:
        parsed = parsed.replace(tzinfo=_zone(call))
    moment = parsed.astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S") + f".{moment.microsecond // 1000:03d}Z"


def user_create_body(call: RoutingCall, fields: Mapping[str, Any]) -> dict[str, Any]:
    """The ``PATCH`` body of a new user's additional fields (n8n's create ``postReceive``)."""
    body = dict(fields)
    for name, label in _LABELS.items():
        if body.get(name):
            body[name] = utc_iso(call, body[name], label)
    if body.get("businessPhones"):
        body["businessPhones"] = [body["businessPhones"]]
    if body.get("employeeOrgData"):
        values = body.pop("employeeOrgData").get("employeeOrgValues")
        if values is not None:  # undefined: left out of the JSON
            body["employeeOrgData"] = values
    if body.get("passwordPolicies"):
        body["passwordPolicies"] = ",".join(str(p) for p in body["passwordPolicies"])
    chosen = body.pop("forceChangePassword") if body.get("forceChangePassword") else None
    if chosen in ("forceChangePasswordNextSignIn", "forceChangePasswordNextSignInWithMfa"):
        profile = body.get("passwordProfile")
        if not isinstance(profile, dict):
            profile = body["passwordProfile"] = {}
        profile[chosen] = True
    return body


__all__ = ["user_create_body", "utc_iso"]
