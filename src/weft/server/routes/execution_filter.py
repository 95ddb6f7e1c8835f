"""The filters of ``GET /rest/executions``: n8n's ``filter`` JSON query parameter and Weft's plain ones.

n8n's executions controller reads ``filter`` (a JSON object: ``status`` list, ``workflowId``, ``startedAfter``,
``startedBefore``, …) plus ``limit``, ``lastId`` and ``firstId``; it drops keys it does not know and answers 400
when the filter does not match its schema. Weft does the same, names the field that is wrong, and also takes the
plain ``workflowId``, ``status`` (repeatable), ``startedAfter`` and ``startedBefore`` query parameters (a key in
``filter`` wins over the plain parameter of the same name).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from weft.services.webhook_requests import BadRequestError

#: n8n's execution statuses (``ExecutionStatus`` of n8n-workflow).
STATUSES = ("canceled", "crashed", "error", "new", "running", "success", "unknown", "waiting")
#: Keys of n8n's filter that Weft does not filter on: a non-empty one is a 400, not silently ignored.
UNSUPPORTED = ("mode", "metadata", "annotationTags", "vote", "projectId", "workflowVersionId")
SUPPORTED = ("status", "workflowId", "startedAfter", "startedBefore")
MAX_LIMIT = 250
_MAX_ID = 2**31 - 1
_NUMBER = re.compile(r"[0-9]{1,10}")


@dataclass(frozen=True, kw_only=True)
class ExecutionFilter:
    """What to list: all of these must hold (``None``: no condition)."""

    workflow_id: str | None = None
    statuses: tuple[str, ...] | None = None
    started_after: datetime | None = None
    started_before: datetime | None = None
    limit: int = 100
    last_id: str | None = None
    """Only executions older than this id (the next page)."""
    first_id: str | None = None
    """Only executions newer than this id (what came since)."""


def parse_filter(raw_filter: str | None, plain: Mapping[str, Any], paging: Mapping[str, str | None]) -> ExecutionFilter:
    """The filter from the query string; :class:`BadRequestError` (400) naming the field that is wrong."""
    fields: dict[str, Any] = {k: v for k, v in plain.items() if v not in (None, [])}
    fields.update(_filter_json(raw_filter))
    return ExecutionFilter(
        workflow_id=_workflow_id(fields.get("workflowId")),
        statuses=_statuses(fields.get("status")),
        started_after=_date("startedAfter", fields.get("startedAfter")),
        started_before=_date("startedBefore", fields.get("startedBefore")),
        limit=_limit(paging.get("limit")),
        last_id=_id("lastId", paging.get("lastId")),
        first_id=_id("firstId", paging.get("firstId")),
    )


def _filter_json(raw: str | None) -> dict[str, Any]:
    if raw is None or raw == "":
        return {}
    try:
        parsed = json.loads(raw)
    except json.JSONDecodeError as error:
        raise BadRequestError(f"filter: not valid JSON ({error.msg}).") from None
    if not isinstance(parsed, dict):
        raise BadRequestError("filter: must be a JSON object.")
    for key in UNSUPPORTED:
        if parsed.get(key) not in (None, "", [], {}):
            raise BadRequestError(f"filter.{key}: Weft does not filter executions by {key}.")
    return {k: v for k, v in parsed.items() if k in SUPPORTED}  # as n8n: unknown keys are dropped


def _workflow_id(value: Any) -> str | None:
    if value is None or value == "":
        return None
    if isinstance(value, bool) or not isinstance(value, str | int):
        raise BadRequestError("filter.workflowId: must be a string.")
    return str(value)


def _statuses(value: Any) -> tuple[str, ...] | None:
    if value is None:
        return None
    values = [value] if isinstance(value, str) else value
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise BadRequestError("filter.status: must be a list of execution statuses.")
    wrong = [v for v in values if v not in STATUSES]
    if wrong:
        raise BadRequestError(f"filter.status: {wrong[0]!r} is not an execution status (one of {', '.join(STATUSES)}).")
    return tuple(values) or None


def _date(field: str, value: Any) -> datetime | None:
    if value is None or value == "":
        return None
    if not isinstance(value, str):
        raise BadRequestError(f"filter.{field}: must be an ISO 8601 date-time string.")
    try:
        parsed = datetime.fromisoformat(value)
    except ValueError:
        raise BadRequestError(f"filter.{field}: {value!r} is not an ISO 8601 date-time.") from None
    return parsed if parsed.tzinfo is not None else parsed.replace(tzinfo=UTC)  # naive: UTC, as stored


def _limit(value: str | None) -> int:
    if value is None or value == "":
        return 100
    if not _NUMBER.fullmatch(value) or not 1 <= int(value) <= MAX_LIMIT:
        raise BadRequestError(f"limit: must be a whole number from 1 to {MAX_LIMIT}, not {value!r}.")
    return int(value)


def _id(field: str, value: str | None) -> str | None:
    if value is None or value == "":
        return None
    if not _NUMBER.fullmatch(value) or not 0 < int(value) <= _MAX_ID:
        raise BadRequestError(f"{field}: {value!r} is not an execution id (a positive number).")
    return value
