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


class FromAIParseError(WorkflowDefinitionError, ValueError):
    """A ``$fromAI()`` call that cannot be parsed (n8n's ``ParseError``)."""


@dataclass(frozen=True, slots=True)
class FromAIArgument:
    """One ``$fromAI(key, description, type, defaultValue)`` call."""

    key: str
    description: str | None = None
    """As written; ``None`` when the call has no second argument (n8n tells ``''`` from absent)."""
    type: str = "string"
    """As written (``'String'`` is accepted); :attr:`kind` is the lower-case type the schema uses."""
    default: Any = _MISSING
    """The parsed default; :attr:`has_default` tells an absent default from ``None``."""

    @property
    def has_default(self) -> bool:
        return self.default is not _MISSING

    @property
    def kind(self) -> FromAIType:
        return self.type.lower()  # type: ignore[return-value]


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
    kind = parts[2] if len(parts) > 2 else "string"  # kept as written: n8n compares and parses with it
    if kind.lower() not in TYPES:
        raise FromAIParseError(f"Invalid type: {kind}")
    return FromAIArgument(
        key=parts[0] if parts else "",
        description=parts[1] if len(parts) > 1 else None,
        type=kind,
        default=_parse_default(parts[3], kind) if len(parts) > 3 else _MISSING,
    )


def _parse_default(value: str, kind: str) -> Any:
    """n8n's ``parseDefaultValue``: strings as written, ``true``/``false``, JS ``Number()``, else JSON, else text."""
    if kind == "string":
        return value
    lower = value.lower()
    if kind == "boolean" and lower in ("true", "false"):
        return lower == "true"
    if kind == "number":
        number = js_number(value)
        if number is not None:
            return number
    try:
        return json.loads(value, parse_constant=_reject_constant)
    except ValueError:
        return value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


_JS_NUMBER = re.compile(r"[+-]?(\d+\.?\d*([eE][+-]?\d+)?|\.\d+([eE][+-]?\d+)?|Infinity)")
_JS_RADIX = re.compile(r"0([xob])([0-9a-f]+)", re.IGNORECASE)


def js_number(value: str) -> int | float | None:
    """JavaScript's ``Number(value)`` for a string, or ``None`` where it gives ``NaN``."""
    text = value.strip(" \t\n\r\v\f\u00a0\ufeff")
    if text == "":
        return 0
    radix = _JS_RADIX.fullmatch(text)
    if radix:
        base = {"x": 16, "o": 8, "b": 2}[radix.group(1).lower()]
        try:
            return int(radix.group(2), base)
        except ValueError:
            return None
    if not _JS_NUMBER.fullmatch(text):
        return None
    if text.endswith("Infinity"):
        return float("-inf") if text.startswith("-") else float("inf")
    number = float(text)
    return int(number) if number.is_integer() and abs(number) < 2**53 else number


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
    """n8n's ``generateZodSchema`` as the model receives it (zod → JSON Schema).

    A ``json`` argument is a ``z.custom`` schema, which converts to no type at all (recorded: case a101); the
    ``anyOf`` n8n attaches to it is not what reaches the model.
    """
    schema: dict[str, Any] = {} if arg.kind == "json" else {"type": arg.kind}
    if arg.description:
        schema["description"] = arg.description
    if arg.has_default:
        schema["default"] = arg.default
    return schema


def _default_fits(arg: FromAIArgument) -> bool:
    """Whether zod's ``.default()`` makes the argument optional: only when the default passes the type's check
    (a ``json`` default that is not a non-empty object or array stays required: recorded, case a109)."""
    if not arg.has_default:
        return False
    value = arg.default
    if arg.kind == "json":
        return isinstance(value, dict | list) and len(value) > 0
    if arg.kind == "number":
        return isinstance(value, int | float) and not isinstance(value, bool) and value == value
    if arg.kind == "boolean":
        return isinstance(value, bool)
    return isinstance(value, str)


class FromAIError(WorkflowDefinitionError):
    """A node's ``$fromAI()`` calls do not make a tool schema; ``n8n_message``/``n8n_description`` are n8n's."""

    def __init__(self, node_name: str, message: str, description: str, fix: str) -> None:
        super().__init__(message, node_name=node_name, fix=fix)
        self.n8n_message = message
        self.n8n_description = description


_KEY_RULE = (
    "Invalid parameter key, must be between 1 and 64 characters long and only contain letters, numbers, "
    "underscores, and hyphens"
)


def from_ai_json_schema(node_name: str, parameters: Any) -> dict[str, Any]:
    """The JSON Schema of a tool's arguments from its parameters' ``$fromAI()`` calls (n8n's ``getSchema``).

    Raises :class:`FromAIError` (a :class:`WorkflowDefinitionError`) with n8n's message for a call that does not
    parse, a bad key, or one key used with two descriptions or types.
    """
    try:
        calls = collect_from_ai_arguments(parameters)
    except FromAIParseError as exc:
        raise FromAIError(node_name, str(exc), str(exc), "Correct the $fromAI() call.") from None
    first: dict[str, FromAIArgument] = {}
    unique: dict[str, FromAIArgument] = {}
    for arg in calls:
        _validate_key(node_name, arg.key)
        previous = first.setdefault(arg.key, arg)
        if (previous.description, previous.type) != (arg.description, arg.type):
            raise FromAIError(
                node_name,
                f"Duplicate key '{arg.key}' found with different description or type",
                "Ensure all $fromAI() calls with the same key have consistent descriptions and types",
                "Use the same description and type for every $fromAI() call with this key, or rename one.",
            )
        unique[arg.key] = arg  # n8n keeps the last call of a key (its default wins)
    schema: dict[str, Any] = {"type": "object", "properties": {k: _property_schema(a) for k, a in unique.items()}}
    required = [key for key, arg in unique.items() if not _default_fits(arg)]
    if required:  # zod-to-json-schema leaves out an empty list
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema


def _validate_key(node_name: str, key: str) -> None:
    if not key:
        raise FromAIError(node_name, "You must specify a key when using $fromAI()", _KEY_RULE, "Add a key.")
    if not KEY_PATTERN.match(key):
        fix = "Keys must be 1 to 64 characters long and use only letters, numbers, underscores and hyphens."
        raise FromAIError(node_name, f"Parameter key `{key}` is invalid", _KEY_RULE, fix)
