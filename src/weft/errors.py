"""Weft's error tree.

Errors are split by who must act on them::

    WeftError(Exception)
    ├── WorkflowDefinitionError      the workflow author: fix the workflow JSON (caught at load/save/activate)
    │   ├── WorkflowFileError        the file cannot be read or is not a workflow at all
    │   └── UnknownNodeTypeError     a node names a type (or typeVersion) that is not installed
    ├── ExpressionError              an expression failed: names node, parameter and item
    ├── NodeError                    a node failed while it ran (n8n's NodeOperationError / NodeApiError)
    │   ├── NodeOperationError
    │   └── NodeApiError             a remote service answered with an error
    ├── WorkflowOperationError       the execution as a whole cannot go on (endless loop, bad engine request)
    ├── ExecutionCancelledError      the execution was cancelled (status ``canceled``)
    │   └── TimeoutExecutionCancelledError   ``settings.executionTimeout`` was reached
    ├── ConfigurationError           a setting or credential is missing or wrong: the operator must act
    └── EngineError                  our bug: an invariant of the engine was broken

    EngineSignal(BaseException)      control flow that node code must not swallow
    ├── CancelSignal
    └── WaitSignal

Every error serializes to the JSON shape n8n stores in ``resultData.error`` and ``ITaskData.error``
through :meth:`WeftError.to_json`.
"""

from __future__ import annotations

import time
import traceback
from typing import Any


class WeftError(Exception):
    """Base of every error Weft raises on purpose."""

    #: n8n's error class name, stored as ``name`` in run data.
    n8n_name = "WorkflowError"

    def __init__(self, message: str, *, description: str | None = None, **context: Any) -> None:
        super().__init__(message)
        self.message = message
        self.description = description
        self.context: dict[str, Any] = context
        self.timestamp = int(time.time() * 1000)

    def to_json(self) -> dict[str, Any]:
        """The error as n8n stores it in run data."""
        data: dict[str, Any] = {
            "message": self.message,
            "name": self.n8n_name,
            "timestamp": self.timestamp,
            "context": _jsonable(self.context),
            "stack": "".join(traceback.format_exception(self)).strip() or f"{self.n8n_name}: {self.message}",
        }
        if self.description is not None:
            data["description"] = self.description
        return data


def _jsonable(value: Any) -> Any:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, str | int | float | bool):
        return value
    return str(value)


# --------------------------------------------------------------------------- definition (author)


class WorkflowDefinitionError(WeftError):
    """The workflow JSON is wrong; the message names the node or field and says how to fix it."""

    n8n_name = "WorkflowActivationError"

    def __init__(
        self,
        message: str,
        *,
        node_name: str | None = None,
        field: str | None = None,
        fix: str | None = None,
    ) -> None:
        full = message if fix is None else f"{message} {fix}"
        super().__init__(full, node_name=node_name, field=field)
        self.node_name = node_name
        self.field = field
        self.fix = fix


class WorkflowFileError(WorkflowDefinitionError):
    """The file cannot be read, is not JSON, or is not shaped like an n8n workflow."""


class UnknownNodeTypeError(WorkflowDefinitionError):
    """A node's ``type`` (or its ``typeVersion``) is not installed."""


# --------------------------------------------------------------------------- runtime (node / expression)


class ExpressionError(WeftError):
    """An expression could not be evaluated."""

    n8n_name = "ExpressionError"

    def __init__(
        self,
        message: str,
        *,
        description: str | None = None,
        node_name: str | None = None,
        parameter: str | None = None,
        item_index: int | None = None,
        run_index: int | None = None,
        expression: str | None = None,
    ) -> None:
        super().__init__(
            message,
            description=description,
            node_name=node_name,
            parameter=parameter,
            itemIndex=item_index,
            runIndex=run_index,
        )
        self.node_name = node_name
        self.parameter = parameter
        self.item_index = item_index
        self.run_index = run_index
        self.expression = expression

    def located(self) -> str:
        """A one-line location: node, parameter and item."""
        parts = []
        if self.node_name is not None:
            parts.append(f"node {self.node_name!r}")
        if self.parameter is not None:
            parts.append(f"parameter {self.parameter!r}")
        if self.item_index is not None:
            parts.append(f"item {self.item_index}")
        return ", ".join(parts)

    def __str__(self) -> str:
        where = self.located()
        return f"{self.message} [{where}]" if where else self.message


class NodeError(WeftError):
    """A node failed while it ran."""

    n8n_name = "NodeOperationError"

    def __init__(
        self,
        node_name: str,
        message: str,
        *,
        description: str | None = None,
        item_index: int | None = None,
        run_index: int | None = None,
        **context: Any,
    ) -> None:
        if item_index is not None:
            context.setdefault("itemIndex", item_index)
        if run_index is not None:
            context.setdefault("runIndex", run_index)
        super().__init__(message, description=description, **context)
        self.node_name = node_name
        self.item_index = item_index
        self.run_index = run_index

    def to_json(self) -> dict[str, Any]:
        data = super().to_json()
        data["node"] = {"name": self.node_name}
        return data


class NodeOperationError(NodeError):
    """n8n's ``NodeOperationError``: the node's own logic refused the input or its parameters."""


class NodeApiError(NodeError):
    """n8n's ``NodeApiError``: a remote service answered with an error."""

    n8n_name = "NodeApiError"

    def __init__(self, node_name: str, message: str, *, http_code: int | None = None, **kwargs: Any) -> None:
        super().__init__(node_name, message, httpCode=str(http_code) if http_code else None, **kwargs)
        self.http_code = http_code


class WorkflowOperationError(WeftError):
    """The execution as a whole cannot go on."""

    n8n_name = "WorkflowOperationError"


class ExecutionCancelledError(WeftError):
    """The execution was cancelled by a user or by shutdown."""

    n8n_name = "ExecutionCancelledError"

    def __init__(self, message: str = "The execution was cancelled", **context: Any) -> None:
        super().__init__(message, **context)


class TimeoutExecutionCancelledError(ExecutionCancelledError):
    """``settings.executionTimeout`` was reached."""

    n8n_name = "TimeoutExecutionCancelledError"

    def __init__(self, timeout_s: float) -> None:
        super().__init__(f"The execution was cancelled because it timed out after {timeout_s:g} seconds")
        self.timeout_s = timeout_s


class ConfigurationError(WeftError):
    """A setting or credential is missing or wrong."""

    n8n_name = "UserError"


class EngineError(WeftError):
    """An invariant of the engine was broken: a bug in Weft, please report it."""

    n8n_name = "UnexpectedError"


# --------------------------------------------------------------------------- control flow


class EngineSignal(BaseException):
    """Control flow raised through node code; a node's ``except Exception`` cannot swallow it."""


class CancelSignal(EngineSignal):
    """The execution was cancelled while a node was running."""

    def __init__(self, reason: ExecutionCancelledError | None = None) -> None:
        super().__init__(str(reason) if reason else "cancelled")
        self.reason = reason or ExecutionCancelledError()


class WaitSignal(EngineSignal):
    """Raised by code that must stop the execution at once and put it to wait."""


__all__ = [
    "CancelSignal",
    "ConfigurationError",
    "EngineError",
    "EngineSignal",
    "ExecutionCancelledError",
    "ExpressionError",
    "NodeApiError",
    "NodeError",
    "NodeOperationError",
    "TimeoutExecutionCancelledError",
    "UnknownNodeTypeError",
    "WaitSignal",
    "WeftError",
    "WorkflowDefinitionError",
    "WorkflowFileError",
    "WorkflowOperationError",
]
