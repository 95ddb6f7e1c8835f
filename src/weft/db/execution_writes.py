"""What the two writers of executions share: :class:`~weft.db.executions.ExecutionRepository` (SQLAlchemy, every
database) and :class:`~weft.db.lite.LiteExecutions` (``sqlite3``, ``weft execute``'s start-up). Imports no
SQLAlchemy, so the second stays light.

The ids (integers in the database, strings elsewhere), the state a run writes into ``execution_entity``, and the
save policy that decides between storing a run and deleting its execution."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from weft.db.base import NotFoundError, parse_iso
from weft.db.save_policy import SaveDefaults, keep_run
from weft.workflow.items import Run

#: The largest id: the INTEGER primary key on PostgreSQL.
MAX_ID = 2**31 - 1
#: n8n's defaults: keep every execution.
DEFAULT_SAVE = SaveDefaults()


def parse_key(execution_id: str | int) -> int | None:
    """The integer id, or ``None`` when ``execution_id`` cannot be an id (not a number, out of range)."""
    try:
        key = int(execution_id)
    except (TypeError, ValueError):
        return None
    return key if 0 < key <= MAX_ID else None


def key_of(execution_id: str | int) -> int:
    """The integer id; :class:`NotFoundError` when it cannot be one."""
    key = parse_key(execution_id)
    if key is None:
        raise NotFoundError(f"Execution {execution_id!r} does not exist: ids are positive numbers.")
    return key


@dataclass(frozen=True)
class RunState:
    """The columns of ``execution_entity`` a stored run sets."""

    status: str
    finished: bool
    started_at: datetime | None
    stopped_at: datetime | None
    wait_till: datetime | None


def run_state(run: Run) -> RunState:
    return RunState(
        status=run["status"],
        finished=run["finished"],
        started_at=parse_iso(run.get("startedAt")),
        stopped_at=parse_iso(run.get("stoppedAt")),
        wait_till=parse_iso(run.get("waitTill") or run["data"].get("waitTill")),
    )


def store_or_drop(
    update: Callable[[], None],
    delete: Callable[[], Any],
    run: Run,
    workflow_settings: Mapping[str, Any] | None,
    defaults: SaveDefaults,
) -> bool:
    """``finish`` of both writers: store the run, or delete the execution when the save settings say not to keep
    it; True if kept."""
    keep = keep_run(run, workflow_settings, defaults)
    if keep:
        update()
    else:
        delete()
    return keep


__all__ = ["DEFAULT_SAVE", "MAX_ID", "RunState", "key_of", "parse_key", "run_state", "store_or_drop"]
