"""Lifecycle hooks: how the UI, logs, metrics and persistence follow an execution.

Names are n8n's: ``workflowExecuteBefore`` / ``workflowExecuteResume`` → per node ``nodeExecuteBefore`` /
``nodeExecuteAfter`` → ``workflowExecuteAfter``; ``sendChunk`` carries streamed chunks. A resumed requester
(``nodeWasResumed``) does not fire ``nodeExecuteBefore`` again.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable
from typing import Any, Literal

HookName = Literal[
    "workflowExecuteBefore",
    "workflowExecuteResume",
    "nodeExecuteBefore",
    "nodeExecuteAfter",
    "workflowExecuteAfter",
    "sendChunk",
]
Handler = Callable[..., Awaitable[None] | None]


class ExecutionHooks:
    """A list of handlers per hook; handlers may be sync or async and run in registration order."""

    def __init__(self) -> None:
        self._handlers: dict[str, list[Handler]] = {}

    def on(self, name: HookName, handler: Handler) -> Handler:
        self._handlers.setdefault(name, []).append(handler)
        return handler

    def has(self, name: HookName) -> bool:
        return bool(self._handlers.get(name))

    async def run(self, name: HookName, *args: Any) -> None:
        for handler in self._handlers.get(name, ()):
            result = handler(*args)
            if inspect.isawaitable(result):
                await result
