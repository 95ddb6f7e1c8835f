"""``$fromAI()`` parsing (n8n's ``extractFromAICalls``) and the tool schema built from a node's calls.

A node used as an AI tool declares its model-filled inputs with ``{{ $fromAI('key', 'description', 'type',
default) }}`` in its parameters. :func:`from_ai_json_schema` turns the calls of all parameters into the JSON
Schema of the tool's arguments, with n8n's validation rules and messages.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from weft.errors import WorkflowDefinitionError

FromAIType = Literal["string", "number", "boolean", "json"]
TYPES: tuple[str, ...] = ("string", "number", "boolean", "json")
KEY_PATTERN = re.compile(r"^[a-zA-Z0-9_-]{1,64}$")
_CALL_START = re.compile(r"\$fromAI\s*\(\s*", re.IGNORECASE)
_QUOTES = "\"'`"
_MISSING: Any = object()


class FromAIParseError(ValueError):
    """A ``$fromAI()`` call that cannot be parsed (n8n's ``ParseError``)."""


@dataclass(frozen=True, slots=True)
class FromAIArgument:
    """One ``$fromAI(key, description, type, defaultValue)`` call."""

    key: str
    description: str | None = None
    type: FromAIType = "string"
    default: Any = _MISSING
    """The parsed default; :attr:`has_default` tells an absent default from ``None``."""

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING


def extract_from_ai_calls(text: str) -> list[FromAIArgument]:
    """Every ``$fromAI(…)`` call in ``text``, in order (case-insensitive, whitespace before ``(`` allowed)."""
    calls: list[FromAIArgument] = []
    for match in _CALL_START.finditer(text):
        start = match.end()
        args, balanced = _call_arguments(text, start)
        if not balanced:
            raise FromAIParseError(f"Unbalanced parentheses while parsing $fromAI call: {text[start:]}")
        try:
            calls.append(_parse_arguments(args))
        except FromAIParseError as exc:
            raise FromAIParseError(f"Failed to parse $fromAI arguments: {args}: Error: {exc}") from None
    return calls


def _call_arguments(text: str, start: int) -> tuple[str, bool]:
    """The argument text of a call whose ``(`` ends at ``start``, and whether its parentheses balance."""
    out: list[str] = []
    depth = 1
    quote = ""
    i = start
    while i < len(text) and depth > 0:
        ch = text[i]
        if quote:
            if ch == "\\" and i + 1 < len(text):
                out.append(text[i : i + 2])
                i += 2
                continue
            if ch == quote:
                quote = ""
            out.append(ch)
        else:
            if ch in _QUOTES:
                quote = ch
            elif ch == "(":
                depth += 1
            elif ch == ")":
                depth -= 1
            if depth > 0 or ch != ")":
                out.append(ch)
        i += 1
    return "".join(out), depth == 0


def _split_arguments(args: str) -> list[str]:
    parts: list[str] = []
    current: list[str] = []
    quote = ""
    escape = False
    for ch in args:
        if escape:
            current.append(ch)
            escape = False
        elif ch == "\\":
            escape = True
        elif ch in _QUOTES:
            if not quote:
                quote = ch
            elif ch == quote:
                quote = ""
            current.append(ch)
        elif ch == "," and not quote:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if current:
        parts.append("".join(current).strip())
    return [_unquote(p) for p in parts]


def _unquote(arg: str) -> str:
    arg = arg.strip()
    if len(arg) >= 2 and arg[0] in _QUOTES and arg[-1] == arg[0]:
        inner = arg[1:-1]
        for escaped, plain in (("\\'", "'"), ("\\`", "`"), ('\\"', '"'), ("\\\\", "\\")):
            inner = inner.replace(escaped, plain)
        return inner
    return arg


def _parse_arguments(args: str) -> FromAIArgument:
    parts = _split_arguments(args)
    raw_type = parts[2] if len(parts) > 2 else "string"
    kind = raw_type.lower()
    if kind not in TYPES:
        raise FromAIParseError(f"Invalid type: {raw_type}")
    default = _parse_default(parts[3], kind) if len(parts) > 3 else _MISSING
    return FromAIArgument(
        key=parts[0] if parts else "",
        description=parts[1] if len(parts) > 1 and parts[1] else None,
        type=kind,  # type: ignore[arg-type]
        default=default,
    )


def _parse_default(value: str, kind: str) -> Any:
    if kind == "string":
        return value
    lower = value.lower()
    if kind == "boolean" and lower in ("true", "false"):
        return lower == "true"
    if kind == "number":
        number = _js_number(value)
        if number is not None:
            return number
    try:
        return json.loads(value)
    except ValueError:
        return value


def _js_number(value: str) -> int | float | None:
    text = value.strip()
    if text == "":
        return 0
    try:
        number = float(text)
    except ValueError:
        return None
    return int(number) if number.is_integer() else number


def collect_from_ai_arguments(parameters: Any) -> list[FromAIArgument]:
    """The ``$fromAI()`` calls of every string inside ``parameters`` (n8n's ``traverseNodeParameters``)."""
    found: list[FromAIArgument] = []
    for text in _strings(parameters):
        found.extend(extract_from_ai_calls(text))
    return found


def _strings(value: Any) -> Iterable[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)


def _property_schema(arg: FromAIArgument) -> dict[str, Any]:
    schema: dict[str, Any]
    if arg.type == "json":
        schema = {
            "anyOf": [
                {"type": "object", "minProperties": 1, "additionalProperties": True},
                {"type": "array", "minItems": 1},
            ]
        }
    else:
        schema = {"type": arg.type}
    if arg.description:
        schema["description"] = arg.description
    if arg.has_default:
        schema["default"] = arg.default
    return schema


def from_ai_json_schema(node_name: str, parameters: Any) -> dict[str, Any]:
    """The JSON Schema of a tool's arguments from its parameters' ``$fromAI()`` calls (n8n's ``getSchema``)."""
    try:
        calls = collect_from_ai_arguments(parameters)
    except FromAIParseError as exc:
        raise WorkflowDefinitionError(str(exc), node_name=node_name, fix="Correct the $fromAI() call.") from None
    unique: dict[str, FromAIArgument] = {}
    for arg in calls:
        _validate_key(node_name, arg.key)
        previous = unique.get(arg.key)
        if previous is not None and (previous.description, previous.type) != (arg.description, arg.type):
            raise WorkflowDefinitionError(
                f"Duplicate key '{arg.key}' found with different description or type",
                node_name=node_name,
                fix="Use the same description and type for every $fromAI() call with this key, or rename one.",
            )
        unique[arg.key] = arg
    return {
        "type": "object",
        "properties": {key: _property_schema(arg) for key, arg in unique.items()},
        "required": [key for key, arg in unique.items() if not arg.has_default],
        "additionalProperties": False,
    }


def _validate_key(node_name: str, key: str) -> None:
    if not key:
        raise WorkflowDefinitionError("You must specify a key when using $fromAI()", node_name=node_name)
    if not KEY_PATTERN.match(key):
        raise WorkflowDefinitionError(
            f"Parameter key `{key}` is invalid",
            node_name=node_name,
            fix="Keys must be 1 to 64 characters long and use only letters, numbers, underscores and hyphens.",
        )
