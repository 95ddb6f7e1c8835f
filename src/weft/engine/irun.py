"""The ``IRun`` an execution ends with."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING

from weft.workflow import Run

if TYPE_CHECKING:
    from weft.engine.loop import Execution


def build_run(execution: Execution) -> Run:
    """n8n's ``IRun``: the status follows the outcome (canceled, error, waiting, success), with the error if any."""
    result = execution.data["resultData"]
    status: str
    if execution.cancel_reason is not None:
        status = "canceled"
        result["error"] = execution.cancel_reason.to_json()
    elif execution.execution_error is not None:
        status = "error"
        result["error"] = execution.execution_error
    elif execution.data.get("waitTill"):
        status = "waiting"
    else:
        status = "success"
    run: Run = {
        "data": execution.data,
        "mode": execution.mode,
        "startedAt": iso(execution.started_at),
        "stoppedAt": iso(datetime.now(UTC)),
        "status": status,  # type: ignore[typeddict-item]
        "finished": status == "success",
    }
    if status == "waiting":
        run["waitTill"] = execution.data.get("waitTill")
    return run


def iso(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")
