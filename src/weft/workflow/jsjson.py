"""JSON as JavaScript writes and reads it: ``JSON.stringify``'s compact form, where an integral number has no
``.0``, and the words of ``JSON.parse``'s errors.

n8n is JavaScript, so a number that Python holds as ``2.0`` is ``2`` wherever n8n stringifies a value: a tool's
result sent to a model, a Set field of type string, an error message. And where n8n shows why a text is not JSON
(a model's answer, a workflow given as a parameter) it shows V8's message. This is the one place those rules live,
and the one place JSON is pretty-printed (``JSON.stringify(value, null, 2)``'s layout, :func:`pretty_json`).
"""

from __future__ import annotations

import json
import math
import re
import secrets
from decimal import Decimal
from json.encoder import c_make_encoder, encode_basestring  # type: ignore[attr-defined]
from typing import Any


def normalize_numbers(value: Any) -> Any:
    """Integral floats become ints, as JavaScript prints them (``1.0`` → ``1``); containers are copied."""
    if isinstance(value, float) and value.is_integer() and abs(value) < 2**53:
        return int(value)
    if isinstance(value, dict):
        return {k: normalize_numbers(v) for k, v in value.items()}
    if isinstance(value, list):
        return [normalize_numbers(v) for v in value]
    return value


def js_number_string(value: float | int) -> str:
    """JavaScript's ``String(number)`` (``Number::toString``): the shortest digits that round-trip, in decimal
    notation from 1e-7 up to 1e21 (``0.00001``, ``18446744073709552000``), else ``1e-7`` / ``1e+21``."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if math.isnan(value):
        return "NaN"
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"
    sign, digits, exponent = Decimal(repr(value)).normalize().as_tuple()
    text = "".join(map(str, digits))
    point = len(text) + int(exponent)  # where the decimal point falls after the digits' first position
    if len(text) <= point <= 21:
        body = text + "0" * (point - len(text))
    elif 0 < point <= 21:
        body = text[:point] + "." + text[point:]
    elif -6 < point <= 0:
        body = "0." + "0" * -point + text
    else:
        power = point - 1
        body = text[0] + ("." + text[1:] if len(text) > 1 else "") + f"e{'+' if power >= 0 else '-'}{abs(power)}"
    return ("-" if sign else "") + body


def js_json(value: Any, indent: int | None = None) -> str:
    """JavaScript's ``JSON.stringify(value, null, indent)``: compact without ``indent``, no ASCII escaping, numbers
    as JavaScript writes them (``2`` for ``2.0``, ``0.00001`` for ``1e-05``, ``1e-7`` for ``1e-07``,
    ``100000000000000000000`` for ``1e+20``)."""
    normalized = normalize_numbers(value)
    text = _dumps(normalized, indent)
    if not _EXPONENT.search(text):  # no float in exponent form (a string may match too: then the slow path)
        return text
    tokens: dict[str, str] = {}
    marked = _mark_exponent_floats(normalized, tokens, f"\x00{secrets.token_hex(8)}:")
    text = _dumps(marked, indent)
    return _TOKEN.sub(lambda m: tokens.get(m.group(1), m.group(0)), text)


def _dumps(value: Any, indent: int | None) -> str:
    if indent == 2:
        return pretty_json(value)
    separators = (",", ":") if indent is None else (",", ": ")
    return json.dumps(value, indent=indent, separators=separators, ensure_ascii=False)


# --------------------------------------------------------------------------- pretty printing


def pretty_json(value: Any) -> str:
    """``JSON.stringify(value, null, 2)``'s layout with Python's spelling of values: exactly
    ``json.dumps(value, indent=2, ensure_ascii=False)``, several times faster on large values (a run's items).

    Numbers are written as Python writes them (``2.0``); :func:`js_json` with ``indent=2`` writes them as
    JavaScript does. With ``indent``, :mod:`json` encodes in Python; without, in C. Containers whose children are
    all scalars (most of a run's items) go to the C encoder with a separator that carries the newline and the
    indentation of their depth; only the containers above them are walked here.
    """
    parts: list[str] = []
    _encode(value, 0, parts)
    return "".join(parts)


_CONTAINERS = (dict, list, tuple)
_encoders: dict[int, Any] = {}


def _flat_encoder(depth: int) -> Any:
    """``encode(value) -> str`` for one line per child at ``depth`` (no newline after the opening bracket)."""
    encoder = _encoders.get(depth)
    if encoder is None:
        separator = ",\n" + "  " * depth
        if c_make_encoder is not None:
            chunks = c_make_encoder(
                None, json.JSONEncoder().default, encode_basestring, None, ": ", separator, False, False, True
            )
            encoder = _encoders[depth] = lambda value: "".join(chunks(value, 0))
        else:  # pragma: no cover - CPython always has the C encoder
            encoder = _encoders[depth] = json.JSONEncoder(ensure_ascii=False, separators=(separator, ": ")).encode
    return encoder


def _encode(value: Any, depth: int, parts: list[str]) -> None:
    if not isinstance(value, _CONTAINERS) or not value:
        parts.append(_flat_encoder(0)(value))
        return
    container: Any = value
    is_dict = isinstance(container, dict)
    indent = "\n" + "  " * (depth + 1)
    for child in container.values() if is_dict else container:
        if child and isinstance(child, _CONTAINERS):
            break
    else:  # only scalars and empty containers, which the C encoder writes as the indenting one does
        text = _flat_encoder(depth + 1)(value)
        parts.append(f"{text[0]}{indent}{text[1:-1]}\n{'  ' * depth}{text[-1]}")
        return
    parts.append("{" if is_dict else "[")
    separator = indent
    for key, child in container.items() if is_dict else enumerate(container):
        parts.append(separator)
        separator = "," + indent
        if is_dict:
            parts.append(_encode_key(key))
        _encode(child, depth + 1, parts)
    parts.append(f"\n{'  ' * depth}{'}' if is_dict else ']'}")


def _encode_key(key: Any) -> str:
    """The key and ``: ``, as :mod:`json` writes them (numbers, booleans and ``None`` become strings)."""
    if type(key) is str:
        return f"{encode_basestring(key)}: "
    return json.dumps({key: None}, ensure_ascii=False)[1:-5]


#: A number in exponent form as Python's ``repr`` writes it (``1e-05``, ``1.5e+20``).
_EXPONENT = re.compile(r"\d[eE][+-]?\d")
#: A marked float in :func:`js_json`'s output: the JSON string of its token.
_TOKEN = re.compile(r'"(\\u0000[0-9a-f]{16}:\d+)"')


def _mark_exponent_floats(value: Any, tokens: dict[str, str], prefix: str) -> Any:
    """``value`` with each float whose ``repr`` has an exponent replaced by a unique token string, whose JavaScript
    spelling ``tokens`` keeps under the token's JSON form."""
    if isinstance(value, float) and "e" in repr(value) and math.isfinite(value):
        token = f"{prefix}{len(tokens)}"
        tokens[json.dumps(token)[1:-1]] = js_number_string(value)
        return token
    if isinstance(value, dict):
        return {k: _mark_exponent_floats(v, tokens, prefix) for k, v in value.items()}
    if isinstance(value, list):
        return [_mark_exponent_floats(v, tokens, prefix) for v in value]
    return value


def json_type(value: Any) -> str:
    """The JSON type of a value as JSON Schema and zod name it: ``null``, ``boolean``, ``number``, ``string``,
    ``array`` or ``object``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int | float):
        return "number"
    if isinstance(value, str):
        return "string"
    return "array" if isinstance(value, list) else "object"


def js_json_parse_error(text: str) -> str:
    """V8's ``JSON.parse(text)`` error message (Node 24, n8n 2.41's) for a text Python cannot parse either."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        return _v8_message(exc)
    raise ValueError("the text is valid JSON")


def _v8_message(exc: json.JSONDecodeError) -> str:
    text, pos = exc.doc, exc.pos
    where = f"at position {pos} (line {exc.lineno} column {exc.colno})"
    if exc.msg == "Extra data":
        return f"Unexpected non-whitespace character after JSON {where}"
    if exc.msg.startswith("Expecting property name"):
        if text[:pos].rstrip().endswith(","):
            return f"Expected double-quoted property name in JSON {where}"
        return f"Expected property name or '}}' in JSON {where}"
    if exc.msg == "Expecting ':' delimiter":
        return f"Expected ':' after property name in JSON {where}"
    if exc.msg == "Expecting ',' delimiter":
        closer = _innermost_open(text, pos)
        after = "property value" if closer == "}" else "array element"
        return f"Expected ',' or '{closer}' after {after} in JSON {where}"
    if pos >= len(text):  # a value was expected where the text ends
        return "Unexpected end of JSON input"
    if exc.msg.startswith("Unterminated string"):  # V8 reports where the text ran out
        lines = text.split("\n")
        return f"Unterminated string in JSON at position {len(text)} (line {len(lines)} column {len(lines[-1]) + 1})"
    return f"Unexpected token '{text[pos]}', {_context(text, pos)} is not valid JSON"


def _context(text: str, pos: int) -> str:
    """V8's quote of the text around an unexpected token: all of a short text, else 10 characters each side."""
    if len(text) < 21:
        return f'"{text}"'
    start, end = max(pos - 10, 0), min(pos + 10, len(text))
    return f'{"..." if start else ""}"{text[start:end]}"{"..." if end < len(text) else ""}'


def _innermost_open(text: str, pos: int) -> str:
    """The closer of the innermost object or array open at ``pos`` (ignoring brackets inside strings)."""
    stack: list[str] = []
    in_string = escaped = False
    for char in text[:pos]:
        if in_string:
            escaped, in_string = (False, True) if escaped else (char == "\\", char != '"')
        elif char == '"':
            in_string = True
        elif char in "{[":
            stack.append("}" if char == "{" else "]")
        elif char in "}]" and stack:
            stack.pop()
    return stack[-1] if stack else "}"


__all__ = ["js_json", "js_json_parse_error", "js_number_string", "json_type", "normalize_numbers", "pretty_json"]
