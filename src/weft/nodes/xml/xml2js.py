"""xml2js (0.6) in Python: ``parse`` shapes XML as its ``Parser`` does, ``build`` writes XML as its ``Builder``
(xmlbuilder 11, pretty printed) does. Used by the XML node and by RSS Read (rss-parser reads feeds with xml2js).

Parsing runs on :mod:`weft.nodes.xml.sax` (sax-js's strict rules and messages), which never expands a
document type's entities. Element and attribute names ``__proto__``, ``constructor`` and ``prototype`` become
``sanitized_<name>``, as n8n 2.41 has them (its ``sanitizeXmlName``).
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass
from typing import Any

from weft.nodes.xml.sax import SaxParser

_DANGEROUS = frozenset({"__proto__", "constructor", "prototype"})
_RUNS = re.compile(r"\s{2,}")


@dataclass(frozen=True, kw_only=True)
class ParseOptions:
    """xml2js ``Parser`` options (its "0.2" defaults)."""

    attrkey: str = "$"
    charkey: str = "_"
    explicit_array: bool = True
    explicit_root: bool = True
    ignore_attrs: bool = False
    merge_attrs: bool = False
    normalize: bool = False
    normalize_tags: bool = False
    trim: bool = False


def sanitize_xml_name(name: str) -> str:
    """n8n's ``sanitizeXmlName``: a name that would reach an object's prototype gets a prefix."""
    return f"sanitized_{name}" if name in _DANGEROUS else name


#: Documents longer than this are parsed in a worker thread, so the event loop goes on serving meanwhile.
THREAD_THRESHOLD = 64 * 1024


async def parse_off_loop(text: str, options: ParseOptions) -> Any:
    """:func:`parse`, in a worker thread for a long document."""
    if len(text) <= THREAD_THRESHOLD:
        return parse(text, options)
    return await asyncio.to_thread(parse, text, options)


def parse(text: str, options: ParseOptions) -> Any:
    """What ``new xml2js.Parser(options).parseStringPromise(text)`` resolves to (``None`` for blank input).

    Raises :class:`~weft.nodes.xml.sax.SaxError` with sax's message where xml2js rejects.
    """
    if text.strip() == "":
        return None
    if text.startswith("\ufeff"):
        text = text[1:]
    handler = _Shaper(options)
    SaxParser(handler).parse(text)
    return handler.result


class _Shaper:
    """xml2js's ``onopentag`` / ``onclosetag`` / ``ontext``: a stack of objects built as the document streams."""

    def __init__(self, options: ParseOptions) -> None:
        self.o = options
        self.stack: list[tuple[str, dict[str, Any]]] = []
        self.result: Any = None

    def open_tag(self, name: str, attributes: dict[str, str]) -> None:
        obj: dict[str, Any] = {self.o.charkey: ""}
        if not self.o.ignore_attrs:
            for key, value in attributes.items():
                processed = sanitize_xml_name(key)
                if self.o.merge_attrs:
                    self._assign(obj, processed, value)
                else:
                    obj.setdefault(self.o.attrkey, {})[processed] = value
        tag = name.lower() if self.o.normalize_tags else name
        self.stack.append((sanitize_xml_name(tag), obj))

    def text(self, text: str, cdata: bool) -> None:
        if self.stack:
            obj = self.stack[-1][1]
            obj[self.o.charkey] = obj.get(self.o.charkey, "") + text
            if cdata:
                obj["\0cdata"] = True

    def close_tag(self) -> bool:
        name, obj = self.stack.pop()
        cdata = obj.pop("\0cdata", False)
        value: Any = obj
        charkey = self.o.charkey
        empty: str | None = None
        chars = obj.get(charkey, "")
        if isinstance(chars, str) and (not chars or chars.isspace()) and not cdata:
            empty = obj.pop(charkey, None)
        else:
            if self.o.trim:
                chars = chars.strip()
            if self.o.normalize:
                chars = _RUNS.sub(" ", chars).strip()
            obj[charkey] = chars
            if len(obj) == 1:
                value = chars
        if isinstance(value, dict) and not value:
            value = empty
        if self.stack:
            self._assign(self.stack[-1][1], name, value)
            return False
        self.result = {name: value} if self.o.explicit_root else value
        return True

    def _assign(self, obj: dict[str, Any], key: str, value: Any) -> None:
        if key not in obj:
            obj[key] = [value] if self.o.explicit_array else value
        elif isinstance(obj[key], list):
            obj[key].append(value)
        else:
            obj[key] = [obj[key], value]


__all__ = ["THREAD_THRESHOLD", "ParseOptions", "parse", "parse_off_loop", "sanitize_xml_name"]
