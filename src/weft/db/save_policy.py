"""Which finished executions are kept: n8n's ``saveDataSuccessExecution``, ``saveDataErrorExecution``
and ``saveManualExecutions``, per workflow with instance-wide defaults.

As in n8n (``toSaveSettings`` and the ``workflowExecuteAfter`` save hook):

* an execution that waits (``waitTill`` set) is always kept, since it must be resumable;
* a ``manual`` execution is kept when ``saveManualExecutions`` is true, whatever its status;
* any other execution is kept when its status is ``success`` and ``saveDataSuccessExecution`` is not
  ``none``, or its status is anything else (``error``, ``canceled``, ``crashed``) and
  ``saveDataErrorExecution`` is not ``none``.

A workflow setting that is missing or ``DEFAULT`` falls back to the instance default.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True, kw_only=True)
class SaveDefaults:
    """The instance's defaults (``WEFT_EXECUTIONS_DATA_SAVE_*``); n8n's defaults save everything."""

    success: str = "all"
    """``all`` or ``none``: the default of ``saveDataSuccessExecution``."""
    error: str = "all"
    """``all`` or ``none``: the default of ``saveDataErrorExecution``."""
    manual: bool = True
    """The default of ``saveManualExecutions``."""


def should_save(
    *,
    mode: str,
    status: str,
    waiting: bool,
    workflow_settings: Mapping[str, Any] | None = None,
    defaults: SaveDefaults = SaveDefaults(),
) -> bool:
    """Whether a finished execution is kept in the database (see the module docstring)."""
    if waiting:
        return True
    settings = workflow_settings or {}
    if mode == "manual":
        manual = settings.get("saveManualExecutions")
        return defaults.manual if manual is None or manual == "DEFAULT" else bool(manual)
    if status == "success":
        return _choice(settings.get("saveDataSuccessExecution"), defaults.success) != "none"
    return _choice(settings.get("saveDataErrorExecution"), defaults.error) != "none"


def keep_run(run: Mapping[str, Any], workflow_settings: Mapping[str, Any] | None, defaults: SaveDefaults) -> bool:
    """Whether a finished (or paused) ``run`` is kept, by the save settings; a waiting one always is."""
    data = run["data"]
    waiting = bool(run.get("waitTill") or data.get("waitTill")) or run["status"] == "waiting"
    return should_save(
        mode=run["mode"], status=run["status"], waiting=waiting, workflow_settings=workflow_settings, defaults=defaults
    )


def _choice(value: Any, default: str) -> str:
    return default if value is None or value == "DEFAULT" or value == "" else str(value)


__all__ = ["SaveDefaults", "keep_run", "should_save"]
