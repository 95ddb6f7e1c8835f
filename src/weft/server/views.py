"""What the API shows of stored data: executions without server tracebacks, JSON encoded without recursion limits.

Execution errors keep a Python traceback in the database (``error.stack``), for the logs and for debugging; over
HTTP the stack is cut to its first line, n8n's ``"<ErrorName>: <message>"``, so no server path leaks.
JSON answers are encoded with the standard library's C encoder, which handles the nesting a stored execution may
have (``WEFT_JSON_DEPTH_MAX`` levels) where FastAPI's Python encoder would exceed the recursion limit.
"""

from __future__ import annotations

import json
from typing import Any

from starlette.responses import Response

from weft.server.schemas import ExecutionOut

_PYTHON_TRACE = ("Traceback (most recent call last)", '  File "')


def public_stack(error: dict[str, Any]) -> None:
    """Cut ``error["stack"]`` (and its causes') to the first line when it holds a Python traceback."""
    seen = 0
    while isinstance(error, dict) and seen < 20:
        stack = error.get("stack")
        if isinstance(stack, str) and any(marker in stack for marker in _PYTHON_TRACE):
            name = error.get("name") or "Error"
            error["stack"] = f"{name}: {error.get('message', '')}"
        error = error.get("cause")  # type: ignore[assignment]
        seen += 1


def execution_view(execution: ExecutionOut) -> dict[str, Any]:
    """The execution as the API shows it (see the module docstring)."""
    out = execution.model_dump()
    result = (out.get("data") or {}).get("resultData") or {}
    if isinstance(result.get("error"), dict):
        public_stack(result["error"])
    for runs in (result.get("runData") or {}).values():
        for run in runs or []:
            if isinstance(run, dict) and isinstance(run.get("error"), dict):
                public_stack(run["error"])
    return out


class JSONAnswer(Response):
    """A JSON response encoded by :func:`json.dumps` (C, no Python recursion per level)."""

    media_type = "application/json"

    def render(self, content: Any) -> bytes:
        return json.dumps(content, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode("utf-8")


__all__ = ["JSONAnswer", "execution_view", "public_stack"]
