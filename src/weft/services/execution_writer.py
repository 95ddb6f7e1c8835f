"""Where the runner creates and saves executions: on SQLite with ``inline_db``, the stdlib ``sqlite3`` writer
(:class:`~weft.db.lite.LiteExecutions`: the same rows as the repository, a third of its cost per request); else the
SQLAlchemy repository. And the snapshot text the stdlib writer takes, encoded once per prepared workflow."""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from weft.services.prepared import PreparedWorkflow
from weft.services.write_lock import WriteLock
from weft.settings import Settings

if TYPE_CHECKING:
    from weft.db.store import Store


def open_writer(settings: Settings, inline_db: bool, write_lock: WriteLock | None, store: Callable[[], Store]) -> Any:
    """The stdlib writer when the runner writes inline on a SQLite file at the head revision, else ``store()``'s
    repository."""
    if inline_db and write_lock is not None:
        from weft.db.lite import LiteExecutions

        # one thread at a time; WAL checkpoints in a thread of their own, under the write lock
        lite = LiteExecutions.open(settings.database_url, same_thread=False, write_lock=write_lock.held)
        if lite is not None:
            return lite
    return store().executions


class SnapshotTexts:
    """The JSON text of each living prepared workflow's snapshot, for the stdlib writer (by ``id``; an entry goes
    with its workflow)."""

    def __init__(self) -> None:
        self.texts: dict[int, tuple[weakref.ref[PreparedWorkflow], str]] = {}

    def keywords(self, executions: Any, prepared: PreparedWorkflow) -> dict[str, str]:
        """``workflow_text`` for the stdlib writer: the snapshot of a prepared workflow (never changed once
        prepared) encoded once, not once per execution. The repository takes none."""
        if not getattr(executions, "takes_workflow_text", False):
            return {}
        key = id(prepared)
        hit = self.texts.get(key)
        if hit is None or hit[0]() is not prepared:
            texts = self.texts
            hit = texts[key] = (weakref.ref(prepared, lambda _: texts.pop(key, None)), json.dumps(dict(prepared.data)))
        return {"workflow_text": hit[1]}


__all__ = ["SnapshotTexts", "open_writer"]
