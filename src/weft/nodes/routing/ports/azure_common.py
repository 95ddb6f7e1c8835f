"""What the Azure ports share: the Storage service's header order (``compare-header.ts``: .NET's en-US culture
sort), its XML read as n8n reads it (xml2js with n8n's name and value processors), its response headers as items
(``parseHeaders``), and n8n's ``NodeApiError`` thrown with a service's error object."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from weft.errors import NodeApiError
from weft.nodes.routing.call import RoutingCall
from weft.nodes.routing.jsvalues import parse_int
from weft.nodes.xml.sax_tags import SaxError
from weft.nodes.xml.xml2js import ParseOptions, parse

# The sort keys of .NET's en-US culture for ASCII (levels 0, 2 and 4; unlisted characters weigh 0).
_LEVEL0 = {33: 1820, 35: 1823, 36: 1825, 37: 1827, 38: 1829, 42: 1837, 43: 2051, 46: 1843, 94: 1859, 95: 1860,
           96: 1864, 124: 1868, 126: 1872}  # fmt: skip
_LEVEL0.update({48 + i: w for i, w in enumerate((3331, 3354, 3356, 3358, 3360, 3362, 3364, 3366, 3368, 3370))})
_LETTERS = (3586, 3593, 3594, 3610, 3617, 3619, 3621, 3628, 3634, 3637, 3638, 3656, 3665, 3696, 3708, 3710, 3721,
            3722, 3729, 3737, 3743, 3746, 3748, 3750, 3751, 3753)  # fmt: skip
_LEVEL0.update({65 + i: w for i, w in enumerate(_LETTERS)})
_LEVEL0.update({97 + i: w for i, w in enumerate(_LETTERS)})
_LEVEL2 = {65 + i: 18 for i in range(26)}
_LEVEL4 = {39: 32786, 45: 33298}
_TABLES = (_LEVEL0, _LEVEL2, _LEVEL4)


def _weight(table: Mapping[int, int], text: str, index: int) -> int | None:
    if index >= len(text):
        return 1
    code = ord(text[index])
    return table.get(code, 0) if code < 128 else None  # beyond the tables: JavaScript's undefined


def _less_than(lhs: str, rhs: str) -> bool:
    level, i, j = 0, 0, 0
    while level < len(_TABLES):
        if level == len(_TABLES) - 1 and i != j:
            return i > j
        first, second = _weight(_TABLES[level], lhs, i), _weight(_TABLES[level], rhs, j)
        if first == 1 and second == 1:
            i, j, level = 0, 0, level + 1
        elif first == second:
            i, j = i + 1, j + 1
        elif first == 0:
            i += 1
        elif second == 0:
            j += 1
        else:
            return first is not None and second is not None and first < second
    return False


def compare_header(lhs: str, rhs: str) -> int:
    """``compareHeader``: -1 when ``lhs`` sorts first, else 1."""
    return -1 if _less_than(lhs, rhs) else 1


# ---------------------------------------------------------------------------------------------------- XML

ValueProcessor = Callable[[str, str], Any]


def first_char_lower(name: str) -> str:
    """xml2js's ``firstCharLowerCase``."""
    return name[:1].lower() + name[1:]


def parse_booleans(value: str) -> Any:
    """xml2js's ``parseBooleans``."""
    return value.lower() == "true" if re.fullmatch(r"true|false", value, re.IGNORECASE) else value


def parse_numbers(value: str) -> Any:
    """xml2js's ``parseNumbers``: a number's text as ``parseInt`` (a whole number) or ``parseFloat`` reads it."""
    stripped = value.strip()
    if not re.fullmatch(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", stripped):
        return value
    number = float(stripped)
    return parse_int(stripped) if number.is_integer() else number


def parse_xml(xml: Any, *, dashless: bool = False, values: ValueProcessor | None = None) -> Any:
    """``new Parser({explicitArray: false, tagNameProcessors: [sanitizeXmlName, firstCharLowerCase (, the first
    '-' dropped)], valueProcessors}).parseStringPromise(xml)``; ``None`` for a blank or broken document."""
    source = xml.decode("utf-8", "replace") if isinstance(xml, bytes) else ("" if xml is None else str(xml))
    try:
        parsed = parse(source, ParseOptions(explicit_array=False))
    except SaxError:
        return None
    if not isinstance(parsed, dict):
        return parsed

    def tag(name: str) -> str:
        name = first_char_lower(name)
        return name.replace("-", "", 1) if dashless else name

    def shape(name: str, value: Any) -> Any:
        if isinstance(value, list):
            return [shape(name, v) for v in value]
        if isinstance(value, str):
            return values(value, name) if values and value and not value.isspace() else value
        if not isinstance(value, dict):
            return value
        out: dict[str, Any] = {}
        for key, inner in value.items():
            if key == "$":
                out[key] = inner
            elif key == "_":
                out[key] = shape(name, inner)
            else:
                out[tag(key)] = shape(tag(key), inner)
        return out

    return shape("", parsed)


# ---------------------------------------------------------------------------------------------------- headers

_BOOLEAN_HEADERS = ("x-ms-delete-type-permanent", "x-ms-incremental-copy", "x-ms-server-encrypted",
                    "x-ms-blob-sealed", "x-ms-request-server-encrypted", "x-ms-has-immutability-policy",
                    "x-ms-has-legal-hold")  # fmt: skip
_NUMBER_HEADERS = ("x-ms-tag-count", "content-length", "x-ms-blob-sequence-number", "x-ms-copy-progress",
                   "x-ms-blob-committed-block-count")  # fmt: skip
_META = "x-ms-meta-"


def camel_case(name: str) -> str:
    """change-case's ``camelCase`` (words split at anything not a letter or digit, and at a lower-to-upper step)."""
    spaced = re.sub(r"([a-z0-9])([A-Z])", r"\1 \2", name)
    words = [w.lower() for w in re.split(r"[^A-Za-z0-9]+", spaced) if w]
    return "".join(w if i == 0 else w[:1].upper() + w[1:] for i, w in enumerate(words))


def parse_headers(headers: Mapping[str, Any]) -> dict[str, Any]:
    """``parseHeaders``: each response header camel-cased (``x-ms-`` dropped), flags and counts typed, the
    ``x-ms-meta-`` headers as ``metadata``."""
    result: dict[str, Any] = {}
    metadata: dict[str, Any] = {}
    for key, value in headers.items():
        if key.startswith(_META):
            metadata[key[len(_META) :]] = value
            continue
        name = camel_case(key[len("x-ms-") :] if key.startswith("x-ms-") else key).replace("-", "", 1)
        if key in _BOOLEAN_HEADERS:
            value = parse_booleans(str(value))
        elif key in _NUMBER_HEADERS:
            value = parse_numbers(str(value))
        result[name] = value
    if metadata:
        result["metadata"] = metadata
    return result


# ---------------------------------------------------------------------------------------------------- errors


def service_error(call: RoutingCall, error: Mapping[str, Any], *, message: Any, description: Any) -> NodeApiError:
    """``new NodeApiError(this.getNode(), error, {message, description})`` for a service's error object."""
    return NodeApiError(
        call.node_name,
        "" if message is None else str(message),
        description=None if description is None else str(description),
        item_index=call.item_index,
    )


__all__ = [
    "camel_case",
    "compare_header",
    "first_char_lower",
    "parse_booleans",
    "parse_headers",
    "parse_numbers",
    "parse_xml",
    "service_error",
]
