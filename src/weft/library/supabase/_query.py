"""PostgREST filters as n8n's Supabase node builds them (``GenericFunctions.ts`` of n8n 2.41): conditions as query
parameters (``column=op.value``), ``or=(…)``/``and=(…)`` groups, and the "String" filter with ``$1`` parameters;
names and values holding PostgREST's reserved characters are quoted."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote

from weft.errors import WeftError
from weft.nodes.values import js_string

_RESERVED = re.compile(r'[,.():"&?=\\]')
_CONDITIONS = {"eq", "gt", "gte", "ilike", "is", "lt", "lte", "like", "neq"}
_SEARCH_FUNCTIONS = {"fts", "plfts", "phfts", "wfts"}


class FilterError(WeftError, ValueError):
    """A condition or parameter the node cannot send (n8n's ``UserError``)."""


def quoted(value: Any) -> str:
    """n8n's ``quotePostgrestComponent``."""
    text = js_string(value)
    if not _RESERVED.search(text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def operator(condition: Mapping[str, Any]) -> str:
    kind = js_string(condition.get("condition"))
    if kind != "fullText":
        if kind not in _CONDITIONS:
            raise FilterError(f'Unsupported filter condition: "{kind}"')
        return kind
    function = js_string(condition.get("searchFunction"))
    if function not in _SEARCH_FUNCTIONS:
        raise FilterError(f'Unsupported search function: "{function}"')
    return function


def each_condition(conditions: list[Mapping[str, Any]]) -> dict[str, str]:
    """``column=op.value`` for each condition (all must match)."""
    return {quoted(c.get("keyName")): f"{operator(c)}.{js_string(c.get('keyValue'))}" for c in conditions}


def equal_conditions(conditions: list[Mapping[str, Any]]) -> dict[str, str]:
    """The Get operation's ``column=eq.value``."""
    return {quoted(c.get("keyName")): f"eq.{js_string(c.get('keyValue'))}" for c in conditions}


def grouped(conditions: list[Mapping[str, Any]]) -> str:
    """``(a.eq.1,b.gt.2)`` for ``or=``/``and=``."""
    parts = [f"{quoted(c.get('keyName'))}.{operator(c)}.{quoted(c.get('keyValue'))}" for c in conditions]
    return f"({','.join(parts)})"


def filter_string(template: str, parameters: list[Mapping[str, Any]]) -> str:
    """The "String" filter: the template URI-encoded (JavaScript's ``encodeURI``), ``$n`` replaced by the n-th
    parameter, quoted and URI-component-encoded."""
    encoded = quote(template, safe="-_.!~*'();/?:@&=+$,#")
    if not parameters:
        return encoded

    def replace(match: re.Match[str]) -> str:
        position = int(match.group(1)) - 1
        if position < 0 or position >= len(parameters):
            raise FilterError(
                f"Filters (String) references parameter ${match.group(1)}, but only {len(parameters)} "
                "parameter(s) were provided"
            )
        return quote(quoted(parameters[position].get("value")), safe="-_.!~*'()")

    return re.sub(r"\$(\d+)", replace, encoded)


__all__ = ["FilterError", "each_condition", "equal_conditions", "filter_string", "grouped", "quoted"]
