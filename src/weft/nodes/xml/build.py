"""xml2js's ``Builder.buildObject`` with xmlbuilder 11's validation, escaping and pretty printing (two-space
indent, ``\\n``, empty elements as ``<a/>``), in Python."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from weft.nodes.values import js_string

_NAME = re.compile(
    "^[:A-Z_a-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d\u2070-\u218f"
    "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff]"
    "[-.0-:A-Z_a-z\u00b7\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u037d\u037f-\u1fff\u200c\u200d\u203f\u2040\u2070-\u218f"
    "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff]*$"
)
_ILLEGAL = re.compile("[\0-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


class BuildError(ValueError):
    """xmlbuilder's error ("Invalid character in name")."""


@dataclass(frozen=True, kw_only=True)
class BuildOptions:
    """The xml2js ``Builder`` options the XML node offers."""

    attrkey: str = "$"
    charkey: str = "_"
    root_name: str | None = None
    headless: bool = False
    cdata: bool = False
    pretty: bool = True


@dataclass
class _Element:
    name: str
    attributes: dict[str, str] = field(default_factory=dict)
    children: list[_Element | tuple[str, str]] = field(default_factory=list)  # ("text" | "raw", value)


def build(obj: dict[str, Any], options: BuildOptions) -> str:
    """The XML text ``new xml2js.Builder(options).buildObject(obj)`` returns."""
    root_name = options.root_name if options.root_name is not None else "root"
    if len(obj) == 1 and root_name == "root":
        root_name = next(iter(obj))
        body: Any = obj[root_name]
    else:
        body = obj
    root = _Element(_checked_name(root_name))
    _render(root, body, options)
    lines: list[str] = [] if options.headless else ['<?xml version="1.0" encoding="UTF-8" standalone="yes"?>']
    if not options.pretty:
        return "".join([*lines, _compact(root)])
    _write(root, 0, lines)
    return "\n".join(lines)


def _checked_name(name: Any) -> str:
    return _checked_text_name(name if isinstance(name, str) else js_string(name))


@lru_cache(maxsize=4096)
def _checked_text_name(text: str) -> str:
    _checked_chars(text)
    if not _NAME.match(text):
        raise BuildError("Invalid character in name")
    return text


def _checked_chars(text: str) -> str:
    bad = _ILLEGAL.search(text)
    if bad is not None:
        index = len(text[: bad.start()].encode("utf-16-le")) // 2
        raise BuildError(f"Invalid character in string: {text} at index {index}")
    return text


def _requires_cdata(value: Any) -> bool:
    return isinstance(value, str) and any(c in value for c in "&<>")


def _text_child(element: _Element, value: Any, options: BuildOptions) -> None:
    if options.cdata and _requires_cdata(value):
        element.children.append(("raw", "<![CDATA[" + value.replace("]]>", "]]]]><![CDATA[>", 1) + "]]>"))
    else:
        element.children.append(("text", _checked_chars(js_string(value))))


def _child(parent: _Element, key: Any) -> _Element:
    element = _Element(_checked_name(key))
    parent.children.append(element)
    return element


def _render(element: _Element, obj: Any, options: BuildOptions) -> None:
    if not isinstance(obj, dict | list):
        if obj is not None:
            _text_child(element, obj, options)
        return
    if isinstance(obj, list):
        _render_list(element, obj, options)
        return
    for key, child in obj.items():
        if key == options.attrkey:
            if isinstance(child, dict):
                for attr, value in child.items():
                    if value is not None:
                        element.attributes[_checked_name(attr)] = _checked_chars(js_string(value))
        elif key == options.charkey:
            if child is not None:
                _text_child(element, child, options)
        elif isinstance(child, list):
            for entry in child:
                _render(_child(element, key), entry, options)
        elif isinstance(child, dict) or child is None:
            _render(_child(element, key), child, options)
        else:
            _text_child(_child(element, key), child, options)


def _render_list(element: _Element, obj: list[Any], options: BuildOptions) -> None:
    for child in obj:  # JavaScript's ``for key in child``: an object's keys, a string's indexes
        keys = child if isinstance(child, dict) else range(len(child)) if isinstance(child, str | list) else ()
        for key in keys:
            _render(_child(element, key), child[key], options)


def _escape_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\r", "&#xD;")


def _escape_attr(text: str) -> str:
    escaped = text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")
    return escaped.replace("\t", "&#x9;").replace("\n", "&#xA;").replace("\r", "&#xD;")


def _write(element: _Element, level: int, lines: list[str]) -> None:
    indent = "  " * level
    attrs = "".join(f' {name}="{_escape_attr(value)}"' for name, value in element.attributes.items())
    children = element.children
    if all(isinstance(c, tuple) and c[1] == "" for c in children):
        lines.append(f"{indent}<{element.name}{attrs}/>")
    elif len(children) == 1 and isinstance(children[0], tuple):
        lines.append(f"{indent}<{element.name}{attrs}>{_inline(children[0])}</{element.name}>")
    else:
        lines.append(f"{indent}<{element.name}{attrs}>")
        for child in children:
            if isinstance(child, tuple):
                lines.append("  " * (level + 1) + _inline(child))
            else:
                _write(child, level + 1, lines)
        lines.append(f"{indent}</{element.name}>")


def _compact(element: _Element) -> str:
    attrs = "".join(f' {name}="{_escape_attr(value)}"' for name, value in element.attributes.items())
    if all(isinstance(c, tuple) and c[1] == "" for c in element.children):
        return f"<{element.name}{attrs}/>"
    inner = "".join(_inline(c) if isinstance(c, tuple) else _compact(c) for c in element.children)
    return f"<{element.name}{attrs}>{inner}</{element.name}>"


def _inline(child: tuple[str, str]) -> str:
    kind, value = child
    return value if kind == "raw" else _escape_text(value)


__all__ = ["BuildError", "BuildOptions", "build"]
