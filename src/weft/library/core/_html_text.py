"""HTML to plain text as html-to-text 9's ``convert`` does with its default options (the HTML node 1.2's "Text").

The HTML (an element's serialized inner HTML) is parsed by lexbor and read from its ``body``. Then html-to-text's
default formatters: blocks and their line breaks (``p`` 2/2, ``h1``-``h3`` 3/2 and ``h4``-``h6`` 2/2 upper-cased,
``div`` and the other blocks 1/1, ``table`` 2/2 with its cells inline), lists with `` * `` / `` 1. `` prefixes
(nested lists 1/1), ``blockquote`` with ``> ``, ``pre`` kept as is, ``hr`` as 80 dashes, ``br``, links as
``text [href]``, images as ``alt [src]``; ``script`` and ``style`` are left out, and so is what the ``skip``
selectors match. Builders: :mod:`weft.library.core._html_text_builder`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from selectolax.lexbor import LexborHTMLParser, LexborNode

from weft.library.core._html_select import select
from weft.library.core._html_text_builder import WIDTH, TextBuilder

_BLOCKS = {"article", "aside", "div", "footer", "form", "header", "main", "nav", "section"}
_HEADINGS = {"h1": 3, "h2": 3, "h3": 3, "h4": 2, "h5": 2, "h6": 2}


def html_to_text(html: str, skip: tuple[str, ...] = ()) -> str:
    """``convert(html, {selectors: skip.map(s => ({selector: s, format: 'skip'}))})``."""
    document = LexborHTMLParser(html)
    skipped: set[int] = set()
    for selector in skip:
        if selector:
            skipped.update(node.mem_id for node in select(document, selector))
    builder = TextBuilder()
    if document.body is not None:
        _walk(_children(document.body), builder, skipped)
    return builder.result()


def _children(node: LexborNode) -> Iterable[LexborNode]:
    return node.iter(include_text=True)


def _walk(nodes: Iterable[LexborNode], builder: TextBuilder, skipped: set[int]) -> None:
    for node in nodes:
        if node.is_element_node:
            if node.mem_id not in skipped and node.tag not in ("script", "style"):
                _format(node, builder, skipped)
        elif node.is_text_node:
            builder.add_inline(node.text_content or "")


def _format(tag: LexborNode, builder: TextBuilder, skipped: set[int]) -> None:
    name = tag.tag or ""

    def walk() -> None:
        _walk(_children(tag), builder, skipped)

    if name == "br":
        builder.line_break()
    elif name == "a":
        _anchor(tag, builder, walk)
    elif name == "img":
        alt, src = _attr(tag, "alt"), _attr(tag, "src")
        builder.add_inline(alt if not src else f"[{src}]" if not alt else f"{alt} [{src}]", transform_words=False)
    elif name == "hr":
        builder.open_block(2)
        builder.add_inline("-" * WIDTH)
        builder.close_block(2)
    elif name in ("ul", "ol"):
        _list(tag, builder, skipped)
    elif name in _HEADINGS:
        builder.open_block(_HEADINGS[name])
        builder.transforms.append(str.upper)
        walk()
        builder.transforms.pop()
        builder.close_block(2)
    elif name == "blockquote":
        builder.open_block(2, reserved=2)
        walk()
        builder.close_block(2, lambda text: "\n".join("> " + line for line in text.strip("\n").split("\n")))
    elif name in ("p", "table", "pre") or name in _BLOCKS:
        lines = 1 if name in _BLOCKS else 2
        builder.open_block(lines, pre=name == "pre")
        walk()
        builder.close_block(lines)
    else:
        walk()


def _attr(tag: LexborNode, name: str) -> str:
    return tag.attributes.get(name) or ""


def _anchor(tag: LexborNode, builder: TextBuilder, walk: Callable[[], None]) -> None:
    href = _attr(tag, "href")
    href = href[len("mailto:") :] if href.startswith("mailto:") else href
    if not href or href.startswith("#"):
        walk()
        return
    seen: list[str] = []

    def capture(word: str) -> str:
        seen.append(word)
        return word

    builder.transforms.append(capture)
    walk()
    builder.transforms.pop()
    builder.add_inline(f" [{href}]" if "".join(seen) else href, transform_words=False)


def _list(tag: LexborNode, builder: TextBuilder, skipped: set[int]) -> None:
    nested = tag.parent is not None and tag.parent.tag == "li"
    counter = _counter(tag)
    entries: list[tuple[LexborNode, str]] = []
    for child in _children(tag):
        if child.is_text_node and not (child.text_content or "").strip():
            continue  # whitespace between items (a comment is an empty item, as in html-to-text)
        if child.is_element_node and child.tag == "li":
            prefix = counter()
            entries.append((child, prefix.lstrip() if nested else prefix))
        else:
            entries.append((child, ""))
    if not entries:
        return
    builder.open_list(1 if nested else 2, max(len(prefix) for _, prefix in entries))
    for entry, prefix in entries:
        builder.open_list_item(prefix)
        _walk([entry], builder, skipped)
        builder.close_list_item()
    builder.close_list(1 if nested else 2)


def _counter(tag: LexborNode) -> Callable[[], str]:
    if tag.tag == "ul":
        return lambda: " * "
    start = _attr(tag, "start") or "1"
    number = [int(start) if start.lstrip("-").isdigit() else 1]
    kind = _attr(tag, "type") or "1"

    def next_prefix() -> str:
        value = number[0]
        number[0] += 1
        return f" {_index(value, kind)}. "

    return next_prefix


def _index(value: int, kind: str) -> str:
    if kind in ("a", "A"):
        letters = ""
        while value > 0:
            value, rest = divmod(value - 1, 26)
            letters = chr(ord(kind) + rest) + letters
        return letters
    if kind in ("i", "I"):
        roman = _roman(value)
        return roman if kind == "I" else roman.lower()
    return str(value)


def _roman(value: int) -> str:
    out = ""
    for number, letters in ((1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"), (50, "L")):
        out, value = out + letters * (value // number), value % number
    for number, letters in ((40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        out, value = out + letters * (value // number), value % number
    return out


__all__ = ["html_to_text"]
