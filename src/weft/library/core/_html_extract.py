"""Extraction as the HTML and HTML Extract nodes do it with cheerio: a CSS selector over the parsed document and
one of text / html / attribute / value, then n8n's trim and clean-up options.

Documents are parsed by lexbor (selectolax; the HTML standard's algorithm, as cheerio's parse5) and selected by
:mod:`weft.library.core._html_select`. ``html`` is the first match's inner HTML (the standard's serialization,
as parse5's); ``text`` is cheerio 1.1's ``text()`` (every text node, ``script`` and ``style`` included, as n8n
2.41 has it) before 1.2 and html-to-text's conversion from 1.2.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode

from weft.errors import NodeOperationError
from weft.library.core._html_select import SelectorError, select
from weft.library.core._html_text import html_to_text
from weft.nodes.contract import ExecuteContext
from weft.nodes.paths import get_path
from weft.nodes.values import js_string
from weft.nodes.xml.xml2js import THREAD_THRESHOLD
from weft.workflow import Item

_ABSENT: Any = object()
_DEFAULT_VALUE = {"key": "", "cssSelector": "", "returnValue": "text", "returnArray": False}
_BOOLEAN = re.compile(
    r"^(?:autofocus|autoplay|async|checked|controls|defer|disabled|hidden|loop|multiple|open|readonly|required|scoped"
    r"|selected)$",
    re.IGNORECASE,
)


def load(html: Any) -> LexborHTMLParser:
    """The document cheerio's ``load`` would build from ``html`` (a non-string is read as JavaScript's String)."""
    return LexborHTMLParser(html if isinstance(html, str) else js_string(html))


def inner_html(node: LexborNode) -> str:
    return node.inner_html or ""


def text_of(nodes: list[LexborNode]) -> str:
    """cheerio's ``text()``: every text node below the elements, joined."""
    return "".join(node.text(deep=True) for node in nodes)


def attribute(node: LexborNode, name: str) -> str | None:
    """cheerio's ``attr(name)``: the value (a boolean attribute's own name), else an option's text for ``value``,
    ``on`` for a checkbox's or radio button's ``value``, else ``None``."""
    attributes = node.attributes
    if name in attributes:
        return name if _BOOLEAN.match(name) else attributes[name] or ""
    if name == "value" and node.tag == "option":
        return text_of([node])
    if name == "value" and node.tag == "input" and attributes.get("type") in ("radio", "checkbox"):
        return "on"
    return None


def value_of(node: LexborNode) -> str | None:
    """cheerio's ``val()``, as n8n 2.41 returns it (a multiple select's selected option texts joined by commas)."""
    if node.tag == "textarea":
        return text_of([node])
    if node.tag == "select":
        options = node.css("option")
        selected = [option for option in options if "selected" in option.attributes]
        if "multiple" in node.attributes:
            return ",".join(text_of([option]) for option in selected)
        first = [options[0]] if options and options[0].parent == node else []
        chosen = selected[:1] or first  # cheerio-select's :selected: a select's first option when none is
        return attribute(chosen[0], "value") if chosen else None
    if node.tag in ("input", "option"):
        return attribute(node, "value")
    return None


def get_value(
    nodes: list[LexborNode], value_data: dict[str, Any], options: dict[str, Any], version: float, legacy: bool = False
) -> Any:
    """n8n's ``getValue``: the extracted value with ``trimValues`` and ``cleanUpText`` applied (``legacy``: the
    HTML Extract node's, whose text may be empty and which only trims)."""
    kind = value_data.get("returnValue", "text")
    value: Any
    if legacy and kind == "text":
        value = text_of(nodes)
    elif kind == "attribute":
        value = attribute(nodes[0], js_string(value_data.get("attribute", ""))) if nodes else None
    elif kind == "html":
        value = (inner_html(nodes[0]) if nodes else "") or None
    elif kind == "value":
        value = value_of(nodes[0]) if nodes else None
    elif version <= 1.1:
        value = text_of(nodes) or None
    else:
        skip_selectors = js_string(value_data.get("skipSelectors") or "")
        skip = tuple(s.strip() for s in skip_selectors.split(",")) if skip_selectors else ()
        value = html_to_text(inner_html(nodes[0]) if nodes else "", skip)
    if value is None:
        return None
    if legacy:
        return value if options.get("trimValues") is False else value.strip()
    if options.get("trimValues"):  # the options' defaults (true) apply only once an option is added
        value = value.strip()
    if options.get("cleanUpText"):
        value = re.sub(r"\s+", " ", re.sub(r"(\r\n|\n|\r)", "", value.strip()))
    return value


async def extract_items(
    ctx: ExecuteContext, index: int, item: Item, *, version: float, legacy: bool = False
) -> list[Item]:
    """One output item per HTML document of the input item (a JSON field's string or strings, or a binary file)."""
    prop = ctx.get_node_parameter("dataPropertyName", index, "data")
    default = {} if version == 1 or legacy else {"values": [dict(_DEFAULT_VALUE)]}  # 1.1+: one empty value
    values = (ctx.get_node_parameter("extractionValues", index, default) or {}).get("values") or []
    options = ctx.get_node_parameter("options", index, {}) or {}
    if ctx.get_node_parameter("sourceData", index, "json") == "json":
        data = _json_source(item, prop, version, legacy)
        if data is _ABSENT:
            fix = f"Set the field that holds the HTML (the item has {sorted(item['json'])!r})."
            message = f'No property named "{js_string(prop)}" exists!'
            raise NodeOperationError(ctx.node.name, message, description=fix, item_index=index)
    else:
        ctx.assert_binary_data(index, prop)
        data = (await ctx.get_binary_data_buffer(index, prop)).decode("utf-8", "replace")
    out: list[Item] = []
    for html in data if isinstance(data, list) else [data]:
        work = (ctx, index, html, values, options, version, legacy)
        long = isinstance(html, str) and len(html) > THREAD_THRESHOLD  # read in a worker thread, the loop serving
        extracted = await asyncio.to_thread(_extracted, *work) if long else _extracted(*work)
        out.append({"json": extracted, "pairedItem": {"item": index}})
    return out


def _extracted(
    ctx: ExecuteContext,
    index: int,
    html: Any,
    values: list[dict[str, Any]],
    options: dict[str, Any],
    version: float,
    legacy: bool,
) -> dict[str, Any]:
    document = load(html)
    out: dict[str, Any] = {}
    for value_data in values:
        try:
            found = select(document, value_data.get("cssSelector"))
        except SelectorError as error:
            fix = "Fix the 'CSS Selector' of the extraction value (cheerio's selectors: CSS, :contains, :first, ...)."
            raise NodeOperationError(ctx.node.name, str(error), description=fix, item_index=index) from None
        key = js_string(value_data.get("key", ""))
        if value_data.get("returnArray"):
            out[key] = [get_value([node], value_data, options, version, legacy) for node in found]
            continue
        value = get_value(found, value_data, options, version, legacy)
        if value is None:  # undefined: the key is left out, as JSON leaves it
            out.pop(key, None)
        else:
            out[key] = value
    return out


def _json_source(item: Item, prop: Any, version: float, legacy: bool) -> Any:
    if version == 1 and not legacy:  # n8n's sanitizeDataPathKey: the key as is, or inside ['...']
        key = js_string(prop)
        if key not in item["json"] and len(key) > 3 and key[:2] in ("['", '["') and key[-2:] in ("']", '"]'):
            key = key[2:-2]
        return item["json"].get(key, _ABSENT)
    return get_path(item["json"], js_string(prop), default=_ABSENT)


__all__ = ["attribute", "extract_items", "get_value", "inner_html", "load", "text_of", "value_of"]
