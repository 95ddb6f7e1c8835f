"""Template parsing: ``=Hello {{ $json.name }}`` into literal text and ``{{ … }}`` JavaScript segments.

A segment ends at the first ``}}`` that is outside JavaScript strings, template literals and braces, so
``{{ "}}" }}`` and ``{{ {a: {b: 1}} }}`` are single segments. An unclosed ``{{`` is literal text.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from functools import lru_cache

from weft.expressions.extend import rewrite_calls


@dataclass(frozen=True, slots=True)
class Segment:
    """One ``{{ … }}`` part: JavaScript code (stripped)."""

    code: str


@dataclass(frozen=True, slots=True)
class Template:
    """A parsed template (the parameter value without its leading ``=``)."""

    parts: tuple[str | Segment, ...]

    @property
    def is_single(self) -> bool:
        """Exactly one segment and no text around it: the raw value is returned (number, object …)."""
        return len(self.parts) == 1 and isinstance(self.parts[0], Segment)

    @property
    def is_literal(self) -> bool:
        """No segment at all: the text itself is the value."""
        return not any(isinstance(p, Segment) for p in self.parts)

    @property
    def text(self) -> str:
        return "".join(p for p in self.parts if isinstance(p, str))

    @property
    def segments(self) -> list[Segment]:
        return [p for p in self.parts if isinstance(p, Segment)]

    def to_js(self) -> str:
        """JavaScript source of a function that evaluates the template, wrapped by the runtime's ``wrap``."""
        if self.is_single:
            body = f"return {_segment_js(self.parts[0])};"  # type: ignore[arg-type]
        else:
            # Each segment on its own: a segment that fails as n8n swallows renders as "" (__weft.seg rethrows
            # the others), as n8n's evaluator wraps every `{{ }}` in its own try/catch.
            pieces = ['var r="";']
            for part in self.parts:
                if isinstance(part, Segment):
                    pieces.append(f"try{{r+=__s({_segment_js(part)})}}catch(e){{__c(e)}}")
                elif part:
                    pieces.append(f"r+={json.dumps(part)};")
            body = "".join(pieces) + "return r;"
        return f"(function(){{var __s=__weft.str,__c=__weft.seg;return __weft.wrap(function(){{{body}}});}})()"


def _segment_js(segment: Segment) -> str:
    if not segment.code:
        return "undefined"
    # Newlines let a trailing `// comment` in the segment end before the closing parenthesis.
    return f"(\n{rewrite_calls(segment.code)}\n)"


@lru_cache(maxsize=8192)
def parse_template(text: str) -> Template:
    """Split ``text`` (without the leading ``=``) into literal strings and segments."""
    parts: list[str | Segment] = []
    pos = 0
    length = len(text)
    while pos < length:
        start = text.find("{{", pos)
        if start < 0:
            break
        end = find_segment_end(text, start + 2)
        if end < 0:
            break
        if start > pos:
            parts.append(text[pos:start])
        parts.append(Segment(text[start + 2 : end].strip()))
        pos = end + 2
    if pos < length:
        parts.append(text[pos:])
    return Template(tuple(parts))


def find_segment_end(text: str, pos: int) -> int:
    """Index of the ``}}`` closing the segment that starts at ``pos``, or -1."""
    stack: list[str] = []  # open contexts: quote chars, "{" for braces, "${" for template substitutions
    i = pos
    length = len(text)
    while i < length:
        ch = text[i]
        top = stack[-1] if stack else None
        if top in ("'", '"', "`"):
            if ch == "\\":
                i += 2
                continue
            if ch == top:
                stack.pop()
            elif top == "`" and ch == "$" and text.startswith("${", i):
                stack.append("${")
                i += 1
            i += 1
            continue
        if ch in "'\"`":
            stack.append(ch)
        elif ch == "{":
            stack.append("{")
        elif ch == "}":
            if not stack and text.startswith("}}", i):
                return i
            if stack:
                stack.pop()
        i += 1
    return -1
