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
* a turn ``{"select": [[condition, turn], ...], "default": turn}`` is chosen by the request's content (the
  first entry whose conditions all hold), so concurrent requests get the same answers in any order. Conditions:
  ``user_contains`` (in the last user message), ``system_contains`` (in the first system message),
  ``any_contains`` (in any message), ``has_tool`` (the request holds a tool message or not), ``n_tools`` (tools
  offered);
* tool-call ids are ``call_<request number>_<index in the turn>``; usage is always 10 + 5 tokens.

``POST …/chat/completions`` is served (JSON, or SSE when ``stream`` is set), ``POST …/responses`` when the server
is made with ``responses=True`` (the Responses API: the same script read against the request's chat view,
:func:`chat_view`; off by default, as the oracle's fake model has none, so recorded cases see its 404), and
``POST …/embeddings`` with the recordings' deterministic vectors (:func:`embed`); any other POST is answered
404 and logged with ``"reply": "404"``. :attr:`OracleOpenAIServer.log` holds one entry per request,
``{"n", "path", "request", "reply"}``, the form the recordings keep.
"""

from __future__ import annotations

import base64
import hashlib
import json
import re
import struct
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


#: The conditions of a ``select`` turn (all must hold), each a test of the request body.
_CONDITIONS = ("user_contains", "system_contains", "any_contains", "has_tool", "n_tools")


def _holds(condition: Mapping[str, Any], body: Mapping[str, Any]) -> bool:
    """Whether every condition of a ``select`` entry holds for the request."""
    return all(_condition_holds(key, value, body) for key, value in condition.items())


def _condition_holds(key: str, value: Any, body: Mapping[str, Any]) -> bool:
    messages = body.get("messages") or []
    users = [_text(m.get("content")) for m in messages if m.get("role") == "user"]
    systems = [_text(m.get("content")) for m in messages if m.get("role") == "system"]
    if key == "user_contains":
        return bool(users) and value in users[-1]
    if key == "system_contains":
        return bool(systems) and value in systems[0]
    if key == "any_contains":
        return any(value in _text(m.get("content")) for m in messages)
    if key == "has_tool":
        return bool(value) == any(m.get("role") == "tool" for m in messages)
    return bool(key == "n_tools" and value == len(body.get("tools") or []))


def _selected(turn: dict[str, Any], body: Mapping[str, Any]) -> dict[str, Any]:
    """A ``{"select": [[condition, turn], ...], "default": turn}`` turn resolved against the request.

    The first entry whose conditions all hold is the turn (itself resolved the same way), else ``default``; so
    concurrent requests get the same answers in any order.
    """
    while "select" in turn:
        unknown = sorted({key for condition, _ in turn["select"] for key in condition} - set(_CONDITIONS))
        if unknown:
            return {
                "content": f"FAKE_LLM: unknown select condition {unknown[0]!r}; use one of {', '.join(_CONDITIONS)}"
            }
        chosen = turn.get("default") or {"content": "FAKE_LLM: no select entry matched"}
        for condition, candidate in turn["select"]:
            if _holds(condition, body):
                chosen = candidate
                break
        turn = dict(chosen)
    return turn


#: Dimensions of :func:`embed`'s vectors, and the model named when a request names none.
EMBED_DIMS = 16
EMBED_MODEL = "text-embedding-3-small"
_WORD = re.compile(r"[a-z0-9]+")


def embed(text: str) -> list[float]:
    """The recordings' deterministic embedding: each lower-cased word ``[a-z0-9]+`` of three or more characters
    adds 1 to dimension ``md5(word) % 16``; a text without such a word is ``[1, 0, …]``. Whole numbers, exact in
    float32, so base64 and float answers carry the same values."""
    vector = [0.0] * EMBED_DIMS
    for word in _WORD.findall(text.lower()):
        if len(word) >= 3:
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % EMBED_DIMS] += 1.0
    if not any(vector):
        vector[0] = 1.0
    return vector


def _float32_base64(vector: list[float]) -> str:
    return base64.b64encode(struct.pack(f"<{len(vector)}f", *vector)).decode()


class OracleOpenAIServer(FakeServerBase):
    """A scripted OpenAI-compatible server speaking the recorded cases' script format (module docstring)."""

    name = "OracleOpenAIServer"

    def __init__(self, script: Script, *, responses: bool = False) -> None:
        super().__init__()
        self.script = script
        self.responses = responses
        self.log: list[dict[str, Any]] = []
        self._queues: dict[str, int] = {}
        self._served = 0
        self._embedded = 0

    @property
    def base_url(self) -> str:
        """``http://127.0.0.1:<port>/v1``: the credential's Base URL."""
        return self.root_url + "/v1"

    def route(self, method: str, path: str, body: dict[str, Any]) -> Reply:
        if method == "GET" and path.rstrip("/").endswith("/models"):
            models = [{"id": "gpt-4o-mini", "object": "model", "created": 0, "owned_by": "fake"}]
            return Reply(body={"object": "list", "data": models})
        if method == "POST" and path.split("?", 1)[0].rstrip("/").endswith("/embeddings"):
            return self._embeddings(path, body)
        if self.responses and method == "POST" and path.split("?", 1)[0].rstrip("/").endswith("/responses"):
            return self._responses(path, body)
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

    # ------------------------------------------------------------------ embeddings

    def _embeddings(self, path: str, body: dict[str, Any]) -> Reply:
        """``POST …/embeddings``: :func:`embed` of each text, as floats or base64 float32 (``encoding_format``);
        logged as the recordings log it (``"n": None``, ``"kind": "embeddings"``: chat numbering goes on)."""
        texts = body.get("input")
        texts = [texts] if isinstance(texts, str) else list(texts or [])
        vectors = [embed(t if isinstance(t, str) else json.dumps(t)) for t in texts]
        with self._lock:
            self._embedded += 1
            entry = {"n": None, "kind": "embeddings", "embed_n": self._embedded, "path": path, "request": body}
            self.log.append({**entry, "reply": {"vectors": vectors}})
        base64_wanted = body.get("encoding_format") == "base64"
        data = [
            {"object": "embedding", "index": i, "embedding": _float32_base64(v) if base64_wanted else v}
            for i, v in enumerate(vectors)
        ]
        usage = {"prompt_tokens": 10, "total_tokens": 10}
        return Reply(body={"object": "list", "data": data, "model": body.get("model", EMBED_MODEL), "usage": usage})

    # ------------------------------------------------------------------ responses API

    def _responses(self, path: str, body: dict[str, Any]) -> Reply:
        """``POST …/responses``: the same script, read against the request's chat view (:func:`chat_view`);
        logged with ``"kind": "responses"`` and numbered with the chat completions."""
        view = chat_view(body)
        with self._lock:
            self._served += 1
            number = self._served
            message = self._message(number, self._next_turn(view))
            self.log.append({"n": number, "kind": "responses", "path": path, "request": body, "reply": message})
        response = _response_object(number, body, message)
        if body.get("stream"):
            return Reply(events=_response_events(response, message))
        return Reply(body=response)

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
        turn = _selected(turn, body)
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


def chat_view(body: Mapping[str, Any]) -> dict[str, Any]:
    """A Responses API request as the chat request the script reads: ``instructions`` as a system message, each
    input message with its text parts joined, ``function_call_output`` as a tool message, tools by name."""
    messages: list[dict[str, Any]] = []
    if body.get("instructions"):
        messages.append({"role": "system", "content": str(body["instructions"])})
    items = body.get("input")
    for item in [{"role": "user", "content": items}] if isinstance(items, str) else list(items or []):
        if item.get("type") == "function_call_output":
            messages.append({"role": "tool", "content": _text(item.get("output"))})
        elif "role" in item:
            content = item.get("content")
            messages.append({"role": item["role"], "content": content if isinstance(content, str) else _text(content)})
    tools = [{"name": t.get("name") or t.get("type")} for t in body.get("tools") or []]
    return {"model": body.get("model"), "messages": messages, "tools": tools}


def _response_object(number: int, body: Mapping[str, Any], message: Mapping[str, Any]) -> dict[str, Any]:
    """The ``response`` object of a Responses API answer: a ``message`` item for the text, one ``function_call``
    item per tool call (``call_id`` as the chat answer's tool-call id)."""
    output: list[dict[str, Any]] = []
    if message.get("content") is not None:
        text = {"type": "output_text", "text": message["content"], "annotations": [], "logprobs": []}
        output.append(
            {
                "id": f"msg_fake_{number}",
                "type": "message",
                "status": "completed",
                "role": "assistant",
                "content": [text],
            }
        )
    for index, call in enumerate(message.get("tool_calls") or []):
        output.append(
            {
                "id": f"fc_fake_{number}_{index}",
                "type": "function_call",
                "status": "completed",
                "call_id": call["id"],
                "name": call["function"]["name"],
                "arguments": call["function"]["arguments"],
            }
        )
    usage = {
        "input_tokens": 10,
        "input_tokens_details": {"cached_tokens": 0},
        "output_tokens": 5,
        "output_tokens_details": {"reasoning_tokens": 0},
        "total_tokens": 15,
    }
    return {
        "id": f"resp_fake_{number}",
        "object": "response",
        "created_at": 1700000000,
        "status": "completed",
        "model": body.get("model", "gpt-4o-mini"),
        "output": output,
        "parallel_tool_calls": bool(body.get("parallel_tool_calls", True)),
        "tool_choice": "auto",
        "tools": list(body.get("tools") or []),
        "usage": usage,
    }


def _response_events(response: dict[str, Any], message: Mapping[str, Any]) -> list[tuple[str | None, str]]:
    events: list[tuple[str | None, str]] = []
    if message.get("content"):
        delta = {"type": "response.output_text.delta", "item_id": f"msg_{response['id']}", "output_index": 0}
        events.append(
            ("response.output_text.delta", json.dumps({**delta, "content_index": 0, "delta": message["content"]}))
        )
    events.append(("response.completed", json.dumps({"type": "response.completed", "response": response})))
    return events


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
