"""Google Calendar's event "getAll" and calendar "availability", as n8n runs them."""

from __future__ import annotations

from typing import Any

from weft.errors import NodeApiError
from weft.library.google.calendar.events import Run, now_iso
from weft.library.google.calendar.times import add_next_occurrence, add_timezone, utc_text
from weft.nodes.values import js_string

#: getAll options copied to the query as they are: (option, query name).
_PLAIN = (("iCalUID", "iCalUID"), ("maxAttendees", "maxAttendees"), ("orderBy", "orderBy"), ("query", "q"),
          ("showDeleted", "showDeleted"), ("showHiddenInvitations", "showHiddenInvitations"),
          ("singleEvents", "singleEvents"))  # fmt: skip


def _iso(value: Any) -> str:
    """n8n's ``dateObjectToISO`` (Weft's expressions give dates as ISO text already)."""
    return value if isinstance(value, str) else js_string(value)


def _query(run: Run, options: dict[str, Any]) -> None:
    tz = str(run.get("options.timeZone", "", extract=True) or "")
    zone = tz or run.timezone
    qs = run.qs
    if run.version >= 1.3:
        for name in ("timeMin", "timeMax"):
            value = _iso(run.get(name, ""))
            if value:
                qs[name] = add_timezone(value, zone)
        if not options.get("recurringEventHandling") or options["recurringEventHandling"] == "expand":
            qs["singleEvents"] = True
    for option, key in _PLAIN:
        if options.get(option):
            qs[key] = options[option]
    for name in ("timeMax", "timeMin"):
        if options.get(name):
            qs[name] = add_timezone(_iso(options[name]), zone)
    if tz:
        qs["timeZone"] = tz
    if options.get("updatedMin"):
        qs["updatedMin"] = add_timezone(_iso(options["updatedMin"]), zone)
    if options.get("fields"):
        qs["fields"] = options["fields"]


async def get_all(run: Run) -> Any:
    return_all = bool(run.get("returnAll", False))
    calendar = run.calendar()
    options = run.get("options", {}) or {}
    _query(run, options)
    resource = f"/calendar/v3/calendars/{calendar}/events"
    if return_all:
        found: Any = await run.call_all(resource, run.qs)
    else:
        run.qs["maxResults"] = run.get("limit", 50)
        found = (await run.call("GET", resource, None, run.qs) or {}).get("items")
    if not found:
        return found
    handling = options.get("recurringEventHandling")
    if run.version >= 1.3 and handling == "next":
        updated = []
        for event in found:
            if event.get("recurrence"):
                qs = {"timeMin": now_iso(), "maxResults": 1}
                answer = await run.call_with_retries(f"{resource}/{event.get('id')}/instances", qs)
                instances = (answer or {}).get("items") or []
                updated.append(instances[0] if instances else event)
            else:
                updated.append(event)
        return updated
    if run.version >= 1.3 and handling == "first":
        low, high = run.qs.get("timeMin"), run.qs.get("timeMax")
        return [e for e in found if not _outside(e, low, high)]
    if run.version < 1.3:
        return add_next_occurrence(found)
    return found


def _outside(event: dict[str, Any], low: Any, high: Any) -> bool:
    created = event.get("created")
    if not (event.get("recurrence") and created):
        return False
    return bool((low and str(created) < str(low)) or (high and str(created) > str(high)))


async def availability(run: Run) -> Any:
    from urllib.parse import unquote

    calendar = unquote(js_string(run.get("calendar", "", extract=True)))
    time_min, time_max = _iso(run.get("timeMin")), _iso(run.get("timeMax"))
    options = run.get("options", {}) or {}
    output = options.get("outputFormat") or "availability"
    tz = run.get("options.timezone", "", extract=True)
    body = {"timeMin": utc_text(time_min, "UTC"), "timeMax": utc_text(time_max, "UTC"), "items": [{"id": calendar}],
            "timeZone": tz or run.timezone}  # fmt: skip
    answer = await run.call("POST", "/calendar/v3/freeBusy", body, {})
    found = ((answer or {}).get("calendars") or {}).get(calendar) or {}
    if found.get("errors"):
        errors = found["errors"]
        reason = (
            errors[0].get("reason") if isinstance(errors, list) and errors and isinstance(errors[0], dict) else None
        )
        raise NodeApiError(run.api.ctx.node.name, str(reason or "Unknown error"), item_index=run.index)
    if output == "availability":
        return {"available": not found.get("busy")}
    if output == "bookedSlots":
        return found.get("busy")
    return answer


__all__ = ["availability", "get_all"]
