"""An execution's statuses and the moves between them, in one place (as Prefect's orchestration rules).

Statuses are n8n's: ``new`` (stored, not started: queued in queue mode), ``running``, ``waiting`` (a Wait node, an
approval, a sub-workflow that waits), and the ends ``success``, ``error``, ``canceled``, ``crashed``. A run that
ends or pauses is stored whole by ``finish`` (its status comes with its data); every other change of status is one
of the moves below, made with a conditional update (``… WHERE status IN sources``) by
:meth:`~weft.db.executions.ExecutionRepository.move`, so two processes that race for one execution never both win.

| Move | From | To | Who |
| --- | --- | --- | --- |
| ``START`` | ``new``, ``running`` | ``running`` | a queue worker's claim (``running``: taken back from a dead worker) |
| ``RESUME`` | ``waiting`` | ``running`` | a resume link, a timer, a finished sub-workflow |
| ``CANCEL`` | ``new``, ``waiting`` | ``canceled`` | Stop, for an execution no process runs |
| ``CRASH`` | ``running`` | ``crashed`` | a run that raised out of the engine; start-up recovery (regular mode) |
| ``ABANDON`` | ``new``, ``running`` | ``crashed`` | a queued execution whose start was never stored |
"""

from __future__ import annotations

from dataclasses import dataclass

UNFINISHED = frozenset({"new", "running", "waiting"})
ENDS = frozenset({"success", "error", "canceled", "crashed"})


@dataclass(frozen=True)
class Transition:
    """A move to ``to``, allowed only from ``sources``."""

    name: str
    to: str
    sources: frozenset[str]


START = Transition("start", "running", frozenset({"new", "running"}))
RESUME = Transition("resume", "running", frozenset({"waiting"}))
CANCEL = Transition("cancel", "canceled", frozenset({"new", "waiting"}))
CRASH = Transition("crash", "crashed", frozenset({"running"}))
ABANDON = Transition("abandon", "crashed", frozenset({"new", "running"}))

__all__ = ["ABANDON", "CANCEL", "CRASH", "ENDS", "RESUME", "START", "UNFINISHED", "Transition"]
