"""What is wrong with a template that does not parse, in the user's own terms: the description of n8n's
``invalid syntax`` error (n8n gives none).

Weft compiles each segment inside code of its own (``return (…);``), so the JavaScript engine's message may name a
``)`` or ``;`` the user never typed. Here each segment is parsed alone and the error placed in the user's text:
past its end it is ``Unexpected end of input``, and a message about a token names the user's token there.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from weft.expressions.extend import mask_code
from weft.expressions.template import Segment, Template

#: Where QuickJS puts a syntax error: ``at <input>:<line>:<column>`` (both from 1).
_POSITION = re.compile(r"at <input>:(\d+):(\d+)")
_OPERATOR = set("+-*/%=<>!&|^~?:.")
_LONGEST_QUOTED = 80
END_OF_INPUT = "Unexpected end of input"
_BRACES_HINT = ": the first }} ends the {{ }}, so write '} }' to close two braces"


def syntax_problem(template: Template, compile_js: Callable[[str], object]) -> str:
    """The first segment's problem, ``<problem> in {{ <segment> }}``; ``compile_js`` compiles JavaScript (raising on
    a syntax error) without running it."""
    for segment in template.segments:
        if not segment.code:
            return "Nothing between {{ and }}"
        problem = _segment_problem(segment, compile_js)
        if problem == END_OF_INPUT and _unclosed_brace(segment.code):
            return f"{problem} in {_quoted(segment)}{_BRACES_HINT}"
        if problem is not None:
            return f"{problem} in {_quoted(segment)}"
    return "The expression is not valid JavaScript"


def _segment_problem(segment: Segment, compile_js: Callable[[str], object]) -> str | None:
    statements = segment.statements
    if statements.stray:
        return f"Unexpected token '{statements.stray}'"
    if not statements.first.strip():
        return "No expression before the first ';'"
    problem = _parse_problem(statements.first, "(function(){return (\n", "\n)})", compile_js)
    if problem == END_OF_INPUT and statements.ended_by == ";":
        return "Unexpected token ';'"
    if problem is None and mask_code(statements.rest).strip():
        problem = _parse_problem(statements.rest, "(function(){\n", "\n})", compile_js)
    return problem


def _parse_problem(code: str, head: str, tail: str, compile_js: Callable[[str], object]) -> str | None:
    """``code`` compiled between ``head`` and ``tail`` (``head`` ends its first line): its problem, or None."""
    try:
        compile_js(head + code + tail)
    except Exception as exc:  # the engine's syntax error
        return _in_user_terms(str(exc), code)
    return None


def _in_user_terms(text: str, code: str, first_line: int = 2) -> str:
    """The message of the engine's syntax error ``text`` for ``code``, which starts at the beginning of line
    ``first_line`` of what was compiled: ``Unexpected end of input`` past its end, the user's token for a message
    naming one."""
    head = text.strip().splitlines()[0] if text.strip() else ""
    message = head.split(": ", 1)[-1] or "Invalid or unexpected token"
    found = _POSITION.search(text)
    if found is None:
        return _capitalized(message)
    lines = code.split("\n")
    line, column = int(found.group(1)) - first_line, int(found.group(2)) - 1
    token = _token_at(lines[line], column) if 0 <= line < len(lines) else ""
    if not token.strip():
        return END_OF_INPUT
    if "'" in message or "expecting" in message:  # it names a token, maybe one of Weft's: name the user's
        return f"Unexpected token '{token}'"
    return _capitalized(message)


def _token_at(line: str, column: int) -> str:
    """The token of ``line`` starting at ``column``: a word, a run of operator characters, or one character."""
    if not 0 <= column < len(line):
        return ""
    end = column + 1
    if line[column].isalnum() or line[column] in "_$":
        while end < len(line) and (line[end].isalnum() or line[end] in "_$"):
            end += 1
    elif line[column] in _OPERATOR:
        while end < len(line) and line[end] in _OPERATOR:
            end += 1
    return line[column:end]


def _unclosed_brace(code: str) -> bool:
    masked = mask_code(code)
    return masked.count("{") > masked.count("}")


def _capitalized(message: str) -> str:
    return message[:1].upper() + message[1:]


def _quoted(segment: Segment) -> str:
    code = " ".join(segment.code.split())
    if len(code) > _LONGEST_QUOTED:
        code = code[: _LONGEST_QUOTED - 1] + "…"
    return f"{{{{ {code} }}}}" if code else "{{ }}"


__all__ = ["END_OF_INPUT", "syntax_problem"]
