"""What a stored execution's run returns (:class:`RunResult`), and where a streaming run's chunks go.

A leaf module: the runner, the queue client and the sub-workflows all speak it without importing each other.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from weft.workflow import Run

#: Where a streaming execution's chunks go (``sendChunk`` events: ``begin``, ``item``, ``end``, ``error``).
ChunkSink = Callable[[dict[str, Any]], None]


@dataclass(frozen=True, kw_only=True)
class RunResult:
    execution_id: str
    run: Run
    saved: bool
    """False when the save settings dropped the execution."""


__all__ = ["ChunkSink", "RunResult"]
