"""The normalized form of an execution (n8n's IRun) and of the requests sent to a model, and their diff.

Both sides of a comparison, n8n's recording and Weft's run, go through the same functions. What is kept and what
is dropped is described in ``README.md`` beside this file.
"""

from __future__ import annotations

import fnmatch
import json
import re
from collections.abc import Iterable, Mapping
from typing import Any

#: ``intermediateSteps[].action`` keys whose wording changed between n8n versions; no engine is held to them.
STEP_TEXT_KEYS = ("log", "messageLog")


def error_message(error: Any) -> str | None:
    if error is None:
        return None
    if isinstance(error, dict):
        message = error.get("message")
        return message if message is not None else json.dumps(error, sort_keys=True)
    return str(error)


def paired_pairs(paired: Any) -> list[list[int]] | None:
    """A ``pairedItem`` as ``[[input, item], ...]`` (a number is item ``n`` of input 0); ``None`` when missing."""
    if paired is None:
        return None
    if isinstance(paired, bool):
        return None
    if isinstance(paired, int | float):
        return [[0, int(paired)]]
    if isinstance(paired, dict):
        return [[int(paired.get("input") or 0), int(paired.get("item") or 0)]]
    if isinstance(paired, list):
        out: list[list[int]] = []
        for entry in paired:
            out.extend(paired_pairs(entry) or [])
        return out
    return None


def _outputs(data: Any) -> tuple[dict[str, Any], dict[str, Any]]:
    outputs: dict[str, Any] = {}
    paired: dict[str, Any] = {}
    if not isinstance(data, dict):
        return outputs, paired
    for connection_type, per_output in data.items():
        if per_output is None:
            outputs[connection_type] = None
            continue
        outputs[connection_type] = [
            None if items is None else [(item or {}).get("json") for item in items] for items in per_output
        ]
        paired[connection_type] = [
            None if items is None else [paired_pairs((item or {}).get("pairedItem")) for item in items]
            for items in per_output
        ]
    return outputs, paired


def normalize_run(irun: Mapping[str, Any]) -> dict[str, Any]:
    """The normalized form of an IRun."""
    result = (irun.get("data") or {}).get("resultData") or {}
    nodes: dict[str, list[dict[str, Any]]] = {}
    order: list[tuple[float, str, int]] = []
    for name, runs in (result.get("runData") or {}).items():
        nodes[name] = []
        for index, task in enumerate(runs or []):
            task = task or {}
            outputs, paired = _outputs(task.get("data"))
            nodes[name].append(
                {
                    "status": task.get("executionStatus"),
                    "outputs": outputs,
                    "pairedItems": paired,
                    "error": error_message(task.get("error")),
                }
            )
            position = task.get("executionIndex")
            order.append((position if isinstance(position, int | float) else float("inf"), name, index))
    order.sort()
    normalized = {
        "status": irun.get("status"),
        "lastNodeExecuted": result.get("lastNodeExecuted"),
        "error": error_message(result.get("error")),
        "nodes": nodes,
        "order": [name for _, name, _ in order],
    }
    return drop_step_text(normalized)


def run_sources(irun: Mapping[str, Any]) -> dict[str, list[Any]]:
    """Each node run's ``source`` (where its input came from), per node."""
    run_data = ((irun.get("data") or {}).get("resultData") or {}).get("runData") or {}
    return {name: [(task or {}).get("source") for task in runs or []] for name, runs in run_data.items()}


def run_binaries(irun: Mapping[str, Any]) -> dict[str, list[Any]]:
    """The binary entries of every output item, per node and run (only nodes whose outputs have any), without
    ``id`` (a file id, new each run); ``data`` is the base64 bytes, or the mode's name where they are stored."""
    run_data = ((irun.get("data") or {}).get("resultData") or {}).get("runData") or {}
    out: dict[str, list[Any]] = {}
    for name, runs in run_data.items():
        per_run = [
            [
                None if items is None else [_binary_of(item) for item in items]
                for items in ((task or {}).get("data") or {}).get("main") or []
            ]
            for task in runs or []
        ]
        if any(entry for run in per_run for items in run if items for entry in items):
            out[name] = per_run
    return out


def _binary_of(item: Any) -> dict[str, Any] | None:
    binary = (item or {}).get("binary")
    if not isinstance(binary, dict):
        return None
    return {key: {k: v for k, v in (entry or {}).items() if k != "id"} for key, entry in binary.items()}


def run_tool_inputs(irun: Mapping[str, Any]) -> dict[str, list[Any]]:
    """What each run of a node run as a tool shows as its input (``inputOverride.ai_tool``): the model's arguments."""
    run_data = ((irun.get("data") or {}).get("resultData") or {}).get("runData") or {}
    out: dict[str, list[Any]] = {}
    for name, runs in run_data.items():
        inputs = [((task or {}).get("inputOverride") or {}).get("ai_tool") for task in runs or []]
        if any(i is not None for i in inputs):
            out[name] = [
                None if i is None else [[(item or {}).get("json") for item in x or []] for x in i] for i in inputs
            ]
    return out


def drop_step_text(value: Any) -> Any:
    """Remove ``log``/``messageLog`` from every ``intermediateSteps[].action`` (in place); returns ``value``."""
    if isinstance(value, dict):
        steps = value.get("intermediateSteps")
        if isinstance(steps, list):
            for step in steps:
                action = step.get("action") if isinstance(step, dict) else None
                if isinstance(action, dict):
                    for key in STEP_TEXT_KEYS:
                        action.pop(key, None)
        for child in value.values():
            drop_step_text(child)
    elif isinstance(value, list):
        for child in value:
            drop_step_text(child)
    return value


def _arguments(raw: Any) -> Any:
    if isinstance(raw, str):
        try:
            return json.loads(raw)
        except ValueError:
            return raw
    return raw


def _without_schema_uri(schema: Any) -> Any:
    if isinstance(schema, dict):
        return {k: _without_schema_uri(v) for k, v in schema.items() if k != "$schema"}
    if isinstance(schema, list):
        return [_without_schema_uri(v) for v in schema]
    return schema


def _content_text(content: Any) -> Any:
    if isinstance(content, list):
        return "".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return content


def _message(message: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {"role": message.get("role"), "content": _content_text(message.get("content"))}
    if message.get("tool_calls"):
        out["tool_calls"] = [
            {
                "id": call.get("id"),
                "name": (call.get("function") or {}).get("name"),
                "arguments": _arguments((call.get("function") or {}).get("arguments")),
            }
            for call in message["tool_calls"]
        ]
    if message.get("tool_call_id") is not None:
        out["tool_call_id"] = message["tool_call_id"]
    return out


def normalize_requests(entries: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The normalized form of a model-request log (``{"n", "path", "request", "reply"}`` per request)."""
    out: list[dict[str, Any]] = []
    for entry in entries:
        if entry.get("n") is None and entry.get("reply") == "404":
            out.append({"unsupported_path": str(entry.get("path") or "").split("?", 1)[0]})
            continue
        request = entry.get("request") or {}
        tools = [t.get("function") or t for t in request.get("tools") or []]
        out.append(
            {
                "model": request.get("model"),
                "messages": [_message(m) for m in request.get("messages") or []],
                "tools": [
                    {"name": t.get("name"), "parameters": _without_schema_uri(t.get("parameters"))} for t in tools
                ],
                "_tool_descriptions": {t.get("name"): t.get("description") for t in tools},
            }
        )
    return out


# ---------------------------------------------------------------------------------------------------- diff


def canonical(value: Any) -> str:
    """A value as sorted JSON, to order lists whose order does not matter."""
    return json.dumps(value, sort_keys=True, ensure_ascii=False)


def _same(expected: Any, actual: Any) -> bool:
    if isinstance(expected, bool) or isinstance(actual, bool):
        return type(expected) is type(actual) and expected == actual
    if isinstance(expected, int | float) and isinstance(actual, int | float):
        return expected == actual
    return type(expected) is type(actual) and expected == actual


def diff(expected: Any, actual: Any, path: str = "") -> list[tuple[str, str, Any, Any]]:
    """``(path, what, expected, actual)`` for every difference; paths are dotted (``nodes.Set.0.outputs``)."""
    out: list[tuple[str, str, Any, Any]] = []
    _diff(expected, actual, path, out)
    return out


def _diff(expected: Any, actual: Any, path: str, out: list[tuple[str, str, Any, Any]]) -> None:
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key in sorted(set(expected) | set(actual), key=str):
            where = f"{path}.{key}" if path else str(key)
            if key not in actual:
                out.append((where, "missing in Weft", expected[key], None))
            elif key not in expected:
                out.append((where, "not in n8n", None, actual[key]))
            else:
                _diff(expected[key], actual[key], where, out)
        return
    if isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            out.append((path, f"length {len(expected)} != {len(actual)}", expected, actual))
        for index in range(min(len(expected), len(actual))):
            _diff(expected[index], actual[index], f"{path}.{index}", out)
        return
    if not _same(expected, actual):
        out.append((path, "value", expected, actual))


def tolerated(entry: tuple[str, str, Any, Any], tolerance: Mapping[str, Any], prefix: str = "") -> bool:
    """Whether ``tolerance.json`` (``ignore`` globs, ``match`` glob → regex) lets a difference pass."""
    path, kind, _, actual = entry
    for glob in tolerance.get(f"{prefix}ignore", []):
        if fnmatch.fnmatchcase(path, glob) or fnmatch.fnmatchcase(path, glob + ".*"):
            return True
    if kind == "value" and isinstance(actual, str):
        for glob, pattern in (tolerance.get(f"{prefix}match") or {}).items():
            if fnmatch.fnmatchcase(path, glob) and re.fullmatch(pattern, actual, re.S):
                return True
    return False


def render(entries: list[tuple[str, str, Any, Any]], limit: int = 12) -> str:
    def short(value: Any) -> str:
        text = json.dumps(value, sort_keys=True, ensure_ascii=False, default=str)
        return text if len(text) <= 400 else text[:400] + "…"

    lines = [f"{path}: {kind}\n    n8n:  {short(e)}\n    Weft: {short(a)}" for path, kind, e, a in entries[:limit]]
    if len(entries) > limit:
        lines.append(f"… and {len(entries) - limit} more")
    return "\n".join(lines)
