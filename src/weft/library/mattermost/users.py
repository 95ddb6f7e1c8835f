"""The query of Mattermost's "Get Many" users: n8n's filters, its sort in snake case (``username`` is the API's
default order, sent as an empty ``sort``) and its rules for which sort goes with which filter."""

from __future__ import annotations

import re
from typing import Any

from weft.errors import NodeOperationError

_VALID = {"inTeam": ["last_activity_at", "created_at", "username"], "inChannel": ["status", "username"]}
_FILTERS = {"inTeam": "in_team", "notInTeam": "not_in_team", "inChannel": "in_channel",
            "notInChannel": "not_in_channel"}  # fmt: skip


def snake_case(text: str) -> str:
    """change-case's ``snakeCase`` for the sort values (``lastActivityAt`` -> ``last_activity_at``)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", text)
    return "_".join(part.lower() for part in re.split(r"[^A-Za-z0-9]+", spaced) if part)


def _check_sort(node: str, fields: dict[str, Any], sort: str, index: int) -> None:
    def fail(message: str) -> NodeOperationError:
        return NodeOperationError(node, message, item_index=index)

    if "inTeam" not in fields and "inChannel" not in fields:
        raise fail("When sort is defined either 'in team' or 'in channel' must be defined")
    for key, label in (("inTeam", "In Team"), ("inChannel", "In Channel")):
        if key in fields and snake_case(sort) not in _VALID[key]:
            raise fail(f"When {label} is set the only valid values for sorting are {','.join(_VALID[key])}")
    for key, label in (("inChannel", "In Channel"), ("inTeam", "In Team")):
        if fields.get(key) == "" and sort != "username":
            raise fail(f"When sort is different than username {label} must be set")


def user_list_query(node: str, fields: dict[str, Any], index: int) -> dict[str, Any]:
    qs: dict[str, Any] = {api: fields[key] for key, api in _FILTERS.items() if fields.get(key)}
    sort = fields.get("sort")
    if sort:
        qs["sort"] = snake_case(str(sort))
        _check_sort(node, fields, str(sort), index)
    if sort == "username":
        qs["sort"] = ""
    return qs
