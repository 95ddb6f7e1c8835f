"""The scripted answers the fake chat APIs (Gemini, Mistral, Groq) share, so a workflow gets the same answer
whichever wire format its client speaks (Gemini's native ``generateContent`` or the OpenAI-style chat
completions). Each fake reduces its request to a :class:`ChatView` and formats the :class:`Answer` in its own shape.

Answers are a function of the request (items sent concurrently get the same answers in any order), chosen by the
last user message:
- a tool result after it: ``Tool said: <result>``;
- ``tool: <argument>`` with tools offered: a call of the first tool with ``{"input": <argument>}``;
- one that contains ``options?``: the sampling options the request carried, ``options: temperature=0.2
  max_tokens=50 top_p=0.9`` (in this order, only those sent; ``none`` when none);
- anything else: ``Echo: <text>``, with `` | system: <text>`` when a system message was sent.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field
from typing import Any

#: The option names of the ``options?`` answer, in their order.
OPTION_NAMES = ("temperature", "max_tokens", "top_p", "top_k", "random_seed", "safe_prompt")

#: Fixed token counts of every answer.
USAGE = {"prompt": 12, "completion": 6}


@dataclass
class ChatView:
    """What the script looks at: the last user text, the system text, the tools offered, the tool result that
    follows the last user text (None when none) and the sampling options sent (by :data:`OPTION_NAMES`)."""

    user: str = ""
    system: str = ""
    tools: list[str] = field(default_factory=list)
    tool_result: str | None = None
    options: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Answer:
    """A text, or a call of ``tool_name`` with ``tool_arguments``; ``key`` is a digest of the request."""

    key: str
    text: str = ""
    tool_name: str | None = None
    tool_arguments: dict[str, Any] = field(default_factory=dict)


def _number(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return f"{value:g}"
    return str(value)


def digest(payload: Any) -> str:
    return hashlib.sha256(json.dumps(payload, sort_keys=True, default=str).encode()).hexdigest()[:16]


def answer(view: ChatView) -> Answer:
    """The scripted answer to ``view`` (see the module's documentation)."""
    key = digest([view.user, view.system, view.tools, view.tool_result])
    if view.tool_result is not None:
        return Answer(key, text=f"Tool said: {view.tool_result}")
    if view.tools and view.user.startswith("tool:"):
        return Answer(key, tool_name=view.tools[0], tool_arguments={"input": view.user.removeprefix("tool:").strip()})
    if "options?" in view.user:
        sent = [f"{name}={_number(view.options[name])}" for name in OPTION_NAMES if view.options.get(name) is not None]
        return Answer(key, text="options: " + (" ".join(sent) or "none"))
    text = f"Echo: {view.user}"
    if view.system:
        text += f" | system: {view.system}"
    return Answer(key, text=text)


def tool_output_text(value: Any) -> str:
    """A tool result as text: a string as is, ``{"result"|"content"|"output": x}`` as ``x``, else JSON."""
    if isinstance(value, dict) and len(value) == 1:
        (inner,) = value.values()
        return tool_output_text(inner)
    if isinstance(value, str):
        return value
    return json.dumps(value, sort_keys=True)


def text_of(content: Any) -> str:
    """The text of an OpenAI-style message content (a string or a list of parts)."""
    if isinstance(content, str):
        return content
    parts = [p for p in content or [] if isinstance(p, dict) and p.get("type") == "text"]
    return "".join(str(p.get("text") or "") for p in parts)


def openai_view(body: dict[str, Any]) -> ChatView:
    """The view of an OpenAI-style chat completions request (Mistral, Groq, Gemini's OpenAI-compatible API)."""
    view = ChatView()
    for message in body.get("messages") or []:
        role = message.get("role")
        if role == "system":
            view.system = text_of(message.get("content"))
        elif role == "user":
            view.user, view.tool_result = text_of(message.get("content")), None
        elif role == "tool":
            view.tool_result = text_of(message.get("content"))
    view.tools = [str((t.get("function") or {}).get("name")) for t in body.get("tools") or []]
    limit = body.get("max_tokens", body.get("max_completion_tokens"))
    view.options = {"temperature": body.get("temperature"), "max_tokens": limit, "top_p": body.get("top_p"),
                    "random_seed": body.get("random_seed", body.get("seed")),
                    "safe_prompt": body.get("safe_prompt") or None}  # fmt: skip
    return view


__all__ = ["OPTION_NAMES", "USAGE", "Answer", "ChatView", "answer", "digest", "openai_view", "tool_output_text"]
