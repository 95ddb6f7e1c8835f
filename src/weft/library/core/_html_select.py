"""CSS selection as cheerio's ``$(selector)`` on a lexbor document (selectolax), with cheerio-select's extensions:
``:contains(text)`` and jQuery's positional filters (``:first``, ``:last``, ``:eq(n)``, ``:nth(n)``, ``:gt(n)``,
``:lt(n)``, ``:even``, ``:odd``), which apply to the elements matched so far."""

from __future__ import annotations

import re
from typing import Any

from selectolax.lexbor import LexborHTMLParser, LexborNode, SelectolaxError

_POSITIONAL = re.compile(r":(first|last|even|odd|eq|nth|gt|lt)(?:\((-?\d+)\))?(?![\w-])")
_CONTAINS = re.compile(r":contains\(")


class SelectorError(ValueError):
    """A selector lexbor cannot read."""


def select(document: LexborHTMLParser, selector: Any) -> list[LexborNode]:
    """The matching elements in document order (an empty selector matches nothing)."""
    text = "" if selector is None else str(selector)
    if not text.strip():
        return []
    if not _POSITIONAL.search(text):
        return _css(document, text)
    found: dict[int, LexborNode] = {}
    for group in _groups(text):
        found.update((node.mem_id, node) for node in _select_group(document, group.strip()))
    root = document.root
    order = {node.mem_id: index for index, node in enumerate(root.traverse())} if root is not None else {}
    return sorted(found.values(), key=lambda node: order.get(node.mem_id, -1))


def _select_group(root: LexborHTMLParser | LexborNode, group: str) -> list[LexborNode]:
    match = _POSITIONAL.search(group)
    if match is None:
        return _css(root, group)
    head, rest = group[: match.start()], group[match.end() :]
    picked = _pick(_css(root, head or "*"), match.group(1), int(match.group(2) or 0))
    rest = rest.strip()
    if not rest:
        return picked
    out: list[LexborNode] = []
    for node in picked:  # what follows the filter is read below each picked element
        if rest.startswith(">"):
            out.extend(child for child in _select_group(node, rest[1:].strip()) if child.parent == node)
        elif rest[0] not in "+~":
            out.extend(_select_group(node, rest))
    return out


def _pick(nodes: list[LexborNode], name: str, number: int) -> list[LexborNode]:
    size = len(nodes)
    index = number + size if number < 0 else number
    if name == "first":
        return nodes[:1]
    if name == "last":
        return nodes[-1:]
    if name in ("eq", "nth"):
        return [nodes[index]] if 0 <= index < size else []
    if name == "gt":
        return nodes[max(index + 1, 0) :]
    if name == "lt":
        return nodes[: max(index, 0)]
    return nodes[0::2] if name == "even" else nodes[1::2]


def _css(root: LexborHTMLParser | LexborNode, selector: str) -> list[LexborNode]:
    try:
        return list(root.css(_CONTAINS.sub(":lexbor-contains(", selector)))
    except (SelectolaxError, ValueError) as error:
        raise SelectorError(f"{selector!r} is not a CSS selector lexbor can read ({error})") from None


def _groups(selector: str) -> list[str]:
    """The comma-separated selectors (commas inside brackets, parentheses and quotes do not split)."""
    groups: list[str] = []
    depth, quote, start = 0, "", 0
    for index, char in enumerate(selector):
        if quote:
            quote = "" if char == quote else quote
        elif char in "\"'":
            quote = char
        elif char in "([":
            depth += 1
        elif char in ")]":
            depth -= 1
        elif char == "," and depth == 0:
            groups.append(selector[start:index])
            start = index + 1
    groups.append(selector[start:])
    return groups


__all__ = ["SelectorError", "select"]
