"""``OracleOpenAIServer``: the scripted OpenAI-compatible model that Weft's recorded n8n cases were run against.

The recorded cases (``tests/recorded``) hold the requests real n8n sent to a scripted fake model, and what that
model answered. To compare Weft with them, Weft must talk to a model that answers the same script the same way:
this server. Its script format (``llm_script.json``):

* a list of assistant turns, taken in order by every request, or ``{"by_model": {"<model>": [turns]},
  "default": [turns]}`` (one queue per requested ``model``);
* a turn is ``{"content": "text"}``, ``{"tool_calls": [{"name": ..., "arguments": {...}}]}``, or both; when a
  queue runs out its last turn repeats;
* ``{last_tool}``, ``{tools_joined}``, ``{last_user}``, ``{n_tools}`` and ``{request_no}`` in strings are filled
  from the request; a tool name ``~suffix`` names the offered tool that is ``suffix`` or ends in ``_suffix``;
* tool-call ids are ``call_<request number>_<index in the turn>``; usage is always 10 + 5 tokens.

Only ``POST …/chat/completions`` is served (JSON, or SSE when ``stream`` is set); any other POST is answered 404
and logged with ``"reply": "404"``. :attr:`OracleOpenAIServer.log` holds one entry per request,
``{"n", "path", "request", "reply"}``, the form the recordings keep.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from weft.testing._fake_http import FakeServerBase, Reply

Script = Sequence[Mapping[str, Any]] | Mapping[str, Any]


def _text(content: Any) -> str:
    if content is None:
        return ""
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def _fill(value: Any, context: Mapping[str, Any]) -> Any:
    if isinstance(value, str):
        for key, replacement in context.items():
            value = value.replace("{" + key + "}", str(replacement))
        return value
    if isinstance(value, list):
        return [_fill(v, context) for v in value]
    if isinstance(value, dict):
        return {k: _fill(v, context) for k, v in value.items()}
    return value


class OracleOpenAIServer(FakeServerBase):
    """A scripted OpenAI-compatible server speaking the recorded cases' script format (module docstring)."""

    name = "OracleOpenAIServer"

    def __init__(self, script: Script) -> None:
        super().__init__()
        self.script = script
        self.log: list[dict[str, Any]] = []
        self._queues: dict[str, int] = {}
        self._served = 0

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``: the credential's Base URL."""
        return self.root_url + "/v1"

    def route(self, method: str, path: str, body: dict[str, Any]) -> Reply:
        if method == "GET" and path.rstrip("/").endswith("/models"):
            models = [{"id": "gpt-4o-mini", "object": "model", "created": 0, "owned_by": "fake"}]
            return Reply(body={"object": "list", "data": models})
        if not path.rstrip("/").endswith("/chat/completions"):
            with self._lock:
                self.log.append({"n": None, "path": path, "request": body, "reply": "404"})
            return Reply(status=404, body={"error": {"message": f"unsupported path {path}"}})
        with self._lock:
            self._served += 1
            number = self._served
            message = self._message(number, self._next_turn(body))
            self.log.append({"n": number, "path": path, "request": body, "reply": message})
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        head = {"id": f"chatcmpl-fake-{number}", "created": 1700000000, "model": body.get("model", "gpt-4o-mini")}
        if body.get("stream"):
            return Reply(events=_stream_events(head, message, finish))
        choice = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
        usage = {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}
        return Reply(body={**head, "object": "chat.completion", "choices": [choice], "usage": usage})

    # ------------------------------------------------------------------ script

    def _turns_for(self, model: str) -> tuple[str, Sequence[Mapping[str, Any]]]:
        if not isinstance(self.script, Mapping):
            return "*", self.script
        by_model = self.script.get("by_model") or {}
        if model in by_model:
            return model, by_model[model]
        return "*", self.script.get("default") or []

    def _next_turn(self, body: dict[str, Any]) -> dict[str, Any]:
        key, turns = self._turns_for(str(body.get("model", "")))
        index = self._queues.get(key, 0)
        self._queues[key] = index + 1
        turn: dict[str, Any] = (
            dict(turns[min(index, len(turns) - 1)]) if turns else {"content": "FAKE_LLM: script is empty"}
        )
        messages = body.get("messages") or []
        tool_texts = [_text(m.get("content")) for m in messages if m.get("role") == "tool"]
        user_texts = [_text(m.get("content")) for m in messages if m.get("role") == "user"]
        context = {
            "last_tool": tool_texts[-1] if tool_texts else "",
            "tools_joined": " | ".join(tool_texts),
            "last_user": user_texts[-1] if user_texts else "",
            "n_tools": len(body.get("tools") or []),
            "request_no": index + 1,
        }
        turn = _fill(turn, context)
        offered = [str((t.get("function") or {}).get("name") or t.get("name") or "") for t in body.get("tools") or []]
        for call in turn.get("tool_calls") or []:
            name = str(call.get("name", ""))
            if name.startswith("~"):
                hits = [o for o in offered if o == name[1:] or o.endswith("_" + name[1:])]
                call["name"] = hits[0] if hits else name[1:]
        return turn

    @staticmethod
    def _message(number: int, turn: Mapping[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": turn.get("content")}
        calls = turn.get("tool_calls") or []
        if calls:
            message["tool_calls"] = [
                {
                    "id": call.get("id") or f"call_{number}_{index}",
                    "type": "function",
                    "function": {
                        "name": call["name"],
                        "arguments": call["arguments"]
                        if isinstance(call.get("arguments"), str)
                        else json.dumps(call.get("arguments") or {}),
                    },
                }
                for index, call in enumerate(calls)
            ]
        return message


def _stream_events(head: dict[str, Any], message: dict[str, Any], finish: str) -> list[tuple[str | None, str]]:
    chunk = {**head, "object": "chat.completion.chunk"}
    delta: dict[str, Any] = {"role": "assistant", "content": message.get("content")}
    if message.get("tool_calls"):
        delta["tool_calls"] = [dict(call, index=i) for i, call in enumerate(message["tool_calls"])]
    return [
        (None, json.dumps({**chunk, "choices": [{"index": 0, "delta": delta, "finish_reason": None}]})),
        (None, json.dumps({**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]})),
        (None, "[DONE]"),
    ]


__all__ = ["OracleOpenAIServer"]
