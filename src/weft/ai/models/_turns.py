"""The script format shared by the scripted models and the fake provider servers.

A turn is one assistant reply. Write it as:

* a string: the reply text (``"The answer is {{last_tool_result}}"``);
* a dict: ``{"text": ..., "tool_calls": [{"name": ..., "args": {...}, "id": ...}]}``, or the shorthand
  ``{"tool": "Calculator", "args": {"input": "2+2"}}``; ``toolCalls``/``arguments`` are accepted too (n8n
  style). Error turns make a fake server answer with an HTTP error (and a scripted model raise the matching
  :class:`~weft.ai.errors.ChatModelError`): ``{"error": 429, "message": "slow down", "code": "rate_limit"}``.
  ``{"delay": 2.5}`` makes the answer wait (to trigger client timeouts); ``{"usage": [in, out]}`` sets tokens.
* a :class:`ScriptedTurn`.

Templates in texts and string arguments: ``{{last_tool_result}}`` (content of the last tool message),
``{{last_human_message}}`` (text of the last human message).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from weft.ai.errors import ChatModelError
from weft.ai.messages import Message, ToolMessage, Usage, last_human_text


@dataclass(frozen=True, kw_only=True)
class ScriptedToolCall:
    """One tool call of a scripted turn; ``id`` defaults to ``call_<n>``."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    id: str | None = None


@dataclass(frozen=True, kw_only=True)
class ScriptedTurn:
    """One scripted assistant reply (see the module docstring for the dict form)."""

    text: str = ""
    tool_calls: tuple[ScriptedToolCall, ...] = ()
    error: int | None = None
    """HTTP status to fail with instead of answering."""
    error_message: str = ""
    error_code: str | None = None
    delay: float = 0.0
    """Seconds to wait before answering."""
    usage: Usage | None = None


def _tool_call(data: Mapping[str, Any]) -> ScriptedToolCall:
    args = data.get("args", data.get("arguments")) or {}
    if not isinstance(args, Mapping):
        raise ChatModelError(
            f"Scripted tool call {data.get('name')!r} has arguments {args!r}; write them as an object.",
            provider="script",
        )
    return ScriptedToolCall(name=str(data["name"]), args=dict(args), id=data.get("id"))


def parse_turn(turn: ScriptedTurn | str | Mapping[str, Any]) -> ScriptedTurn:
    """Normalize one turn of a script."""
    if isinstance(turn, ScriptedTurn):
        return turn
    if isinstance(turn, str):
        return ScriptedTurn(text=turn)
    calls = list(turn.get("tool_calls") or turn.get("toolCalls") or [])
    if "tool" in turn:
        calls.append({"name": turn["tool"], "args": turn.get("args", turn.get("arguments"))})
    usage = turn.get("usage")
    return ScriptedTurn(
        text=str(turn.get("text", turn.get("content")) or ""),
        tool_calls=tuple(_tool_call(c) for c in calls),
        error=int(turn["error"]) if turn.get("error") is not None else None,
        error_message=str(turn.get("message") or ""),
        error_code=turn.get("code"),
        delay=float(turn.get("delay") or 0.0),
        usage=Usage(input_tokens=int(usage[0]), output_tokens=int(usage[1])) if usage else None,
    )


def parse_turns(turns: Sequence[ScriptedTurn | str | Mapping[str, Any]]) -> list[ScriptedTurn]:
    return [parse_turn(t) for t in turns]


_TEMPLATE = re.compile(r"\{\{\s*(last_tool_result|last_human_message)\s*\}\}")


def render(value: Any, messages: Sequence[Message]) -> Any:
    """``value`` with its templates filled from the conversation (strings inside dicts and lists too)."""
    if isinstance(value, str):
        if "{{" not in value:
            return value
        tool_results = [m for m in messages if isinstance(m, ToolMessage)]
        values = {
            "last_tool_result": tool_results[-1].content if tool_results else "",
            "last_human_message": last_human_text(messages),
        }
        return _TEMPLATE.sub(lambda m: values[m.group(1)], value)
    if isinstance(value, dict):
        return {k: render(v, messages) for k, v in value.items()}
    if isinstance(value, list):
        return [render(v, messages) for v in value]
    return value
