"""The time zones nodes compute dates in, as n8n's: the workflow's (``getTimezone()``) and the host's (moment's
local zone). Kit: nodes of the library and ports of declarative nodes use them."""

from __future__ import annotations

import os

from weft.nodes.contract import ExecuteContext


def workflow_timezone(ctx: ExecuteContext) -> str:
    """n8n's ``getTimezone()``: the workflow's setting, else the instance's (``America/New_York`` by default)."""
    from weft.expressions.session import DEFAULT_TIMEZONE

    return ctx.workflow.settings.timezone or ctx.expression_context().timezone or DEFAULT_TIMEZONE


def local_zone() -> str:
    """The host's zone, which moment calls local: ``TZ``, else UTC."""
    return os.environ.get("TZ") or "UTC"


__all__ = ["local_zone", "workflow_timezone"]
