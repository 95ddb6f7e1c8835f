"""LangChain's f-string prompt templates: ``{name}`` is a value, ``{{`` and ``}}`` are braces.

The chains build their system messages as LangChain does: the user's template with its braces doubled (n8n 2.41
escapes them, so a ``{`` in the template is a brace), then ``{format_instructions}`` and, for some nodes,
``{categories}`` filled in. Values are inserted as they are (a string) or as JSON (anything else).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from weft.errors import WeftError


class PromptTemplateError(WeftError):
    """A template names a value it was not given, or has an unmatched brace (LangChain's message)."""


def escape_braces(text: str) -> str:
    """``{`` and ``}`` doubled, so the template shows them as written."""
    return re.sub(r"[{}]", lambda match: match.group(0) * 2, text)


def format_fstring(template: str, values: Mapping[str, Any]) -> str:
    """``template`` with its variables filled in (LangChain's ``parseFString`` + ``interpolateFString``)."""
    out: list[str] = []
    index = 0
    while index < len(template):
        char = template[index]
        if char in "{}" and template.startswith(char * 2, index):
            out.append(char)
            index += 2
        elif char == "{":
            end = template.find("}", index)
            if end < 0:
                raise PromptTemplateError("Unclosed '{' in template.")
            out.append(_value(values, template[index + 1 : end]))
            index = end + 1
        elif char == "}":
            raise PromptTemplateError("Single '}' in template.")
        else:
            found = [i for i in (template.find("{", index), template.find("}", index)) if i >= 0]
            end = min(found) if found else len(template)
            out.append(template[index:end])
            index = end
    return "".join(out)


def _value(values: Mapping[str, Any], name: str) -> str:
    if name not in values:
        raise PromptTemplateError(f"(f-string) Missing value for input {name}")
    value = values[name]
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)


__all__ = ["PromptTemplateError", "escape_braces", "format_fstring"]
