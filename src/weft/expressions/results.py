"""Decoding what the sandbox returns, and turning JavaScript failures into n8n-style messages."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

_MAX_SAFE = 2**53
#: First character of tagged results (a Unicode noncharacter; a string result starting with it is escaped).
MARK = "\ufdd0"

_V8_STYLE = (
    (re.compile(r"^cannot read property '(.*)' of (undefined|null)$"), r"Cannot read properties of \2 (reading '\1')"),
    (re.compile(r"^cannot set property '(.*)' of (undefined|null)$"), r"Cannot set properties of \2 (setting '\1')"),
    (re.compile(r"^not a function$"), "is not a function"),
)


class _Undefined:
    """JavaScript's ``undefined`` as the result of an evaluation with ``additional_keys`` (a declarative node's
    request building, where ``undefined`` leaves a key out but ``null`` sends it); other evaluations give ``None``."""

    def __repr__(self) -> str:
        return "undefined"

    def __bool__(self) -> bool:
        return False


UNDEFINED: Any = _Undefined()


@dataclass(slots=True)
class Outcome:
    """What one run in the sandbox produced."""

    kind: str
    """``value``, ``need`` or ``error``."""
    value: Any = None
    need: list[Any] = field(default_factory=list)
    error: dict[str, Any] = field(default_factory=dict)
    custom_data: dict[str, str] | None = None
    logs: list[str] | None = None


def number(value: float) -> Any:
    """JavaScript numbers as JSON would carry them: integral values as ``int``, NaN/Infinity as ``None``."""
    if value != value or value in (float("inf"), float("-inf")):
        return None
    if value.is_integer() and abs(value) < _MAX_SAFE:
        return int(value)
    return value


def decode(raw: Any) -> Outcome:
    """Decode the encoded result of ``__weft.wrap``/``codeFinish``."""
    kind = type(raw)
    if kind is str:
        if raw[:1] != MARK:
            return Outcome("value", raw)
        return _decode_tagged(raw)
    if kind is float:
        return Outcome("value", number(raw))
    return Outcome("value", raw)


def _decode_tagged(raw: str) -> Outcome:
    tag = raw[1]
    payload = raw[2:]
    if tag == "S":
        return Outcome("value", payload)
    if tag == "O":
        return Outcome("value", json.loads(payload))
    if tag == "U":
        return Outcome("value", UNDEFINED)
    if tag == "N":
        return Outcome("need", need=json.loads(payload))
    if tag == "E":
        return Outcome("error", error=json.loads(payload))
    data = json.loads(payload)  # "X": a value with side channels
    return Outcome("value", data.get("v"), custom_data=data.get("cd"), logs=data.get("logs"))


def v8_message(message: str) -> str:
    """QuickJS's wording of common errors, rewritten the way Node (V8) and therefore n8n words them."""
    for pattern, replacement in _V8_STYLE:
        if pattern.match(message):
            return pattern.sub(replacement, message)
    return message


def is_out_of_memory(error: dict[str, Any]) -> bool:
    return error.get("name") == "InternalError" and "out of memory" in str(error.get("message", ""))


def is_stack_overflow(error: dict[str, Any]) -> bool:
    return error.get("name") in ("InternalError", "RangeError") and "stack overflow" in str(error.get("message", ""))
