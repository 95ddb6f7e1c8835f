"""JavaScript string semantics the splitters and loaders need: UTF-16 lengths and indices, ``trim()``, key order.

LangChain measures and cuts text in UTF-16 code units (``text.length``, ``split("")``). :func:`utf16_view` turns
a string into one whose characters are those code units (a character outside the Basic Multilingual Plane becomes
its two surrogates), so Python's ``len``, slicing, ``find`` and ``split`` behave as JavaScript's;
:func:`from_utf16_view` joins the surrogate pairs again (a pair cut in two stays two lone surrogates, as in n8n).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Iterable, Mapping
from typing import Any

#: ``String.prototype.trim``'s whitespace: WhiteSpace and LineTerminator of ECMAScript.
_JS_SPACE = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_ARRAY_INDEX = re.compile(r"0|[1-9][0-9]*")


def js_trim(text: str) -> str:
    return text.strip(_JS_SPACE)


def utf16_view(text: str) -> str:
    """``text`` with one character per UTF-16 code unit (unchanged when it has no astral character)."""
    if text.isascii() or all(ord(c) < 0x10000 for c in text):
        return text
    units = array("H", text.encode("utf-16-le"))
    return "".join(map(chr, units))


def from_utf16_view(text: str) -> str:
    """The inverse of :func:`utf16_view`: surrogate pairs become characters again."""
    if all(not 0xD800 <= ord(c) <= 0xDFFF for c in text):
        return text
    return text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "surrogatepass")


def js_keys(obj: Mapping[str, Any]) -> list[str]:
    """``Object.keys`` order: array-index keys ascending, then the others in insertion order."""
    indices = sorted((k for k in obj if _ARRAY_INDEX.fullmatch(k) and int(k) < 2**32 - 1), key=int)
    return indices + [k for k in obj if k not in set(indices)]


def js_values(obj: Mapping[str, Any]) -> list[Any]:
    """``Object.values`` in JavaScript's key order."""
    return [obj[k] for k in js_keys(obj)]


def js_truthy(value: Any) -> bool:
    """JavaScript truthiness of a JSON value (objects and arrays, even empty, are true)."""
    if isinstance(value, dict | list):
        return True
    if isinstance(value, float) and value != value:  # NaN
        return False
    return bool(value)


def js_includes(values: Iterable[Any], value: Any) -> bool:
    """``Array.prototype.includes``: objects by identity, primitives by strict equality."""
    for candidate in values:
        if isinstance(value, dict | list) or isinstance(candidate, dict | list):
            if candidate is value:
                return True
        elif type(candidate) is type(value) and candidate == value:
            return True
    return False


__all__ = ["from_utf16_view", "js_includes", "js_keys", "js_trim", "js_truthy", "js_values", "utf16_view"]
