"""Template parsing: ``=Hello {{ $json.name }}`` into literal text and ``{{ … }}`` JavaScript segments.

As n8n's expression splitter (``@n8n/tournament``): a segment ends at the first ``}}``, so ``{{ {a: {b: 1}} }}``
is invalid syntax there and here; a backslash before ``{{`` or ``}}`` escapes it; an unclosed ``{{`` is code.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from functools import lru_cache

from weft.expressions.extend import mask_code, rewrite_calls
from weft.expressions.statements import Statements, split_statements


@dataclass(frozen=True, slots=True)
class Segment:
    """One ``{{ … }}`` part: JavaScript code (stripped)."""

    code: str

    @property
    def statements(self) -> Statements:
        """The code split after its first statement, the segment's value (n8n: ``{{ 1 + 2; }}`` is 3)."""
        return split_statements(self.code)


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
        body += "".join(_unreached(segment) for segment in self.segments)
        head = f"var __s=__weft.str,__c=__weft.seg,{_BLOCKED};"
        return f"(function(){{{head}return __weft.wrap(function(){{{body}}});}})()"


#: What n8n's expressions see instead of these globals (``Expression.initializeGlobalContext``): an empty object
#: for the blocked ones, a process without its environment, and nothing for what n8n does not provide.
_BLOCKED = ",".join(
    [
        *(
            f"{name}={{}}"
            for name in (
                "eval uneval setTimeout setInterval setImmediate clearImmediate queueMicrotask Function require module"
                " Buffer __dirname __filename fetch XMLHttpRequest Promise Generator GeneratorFunction AsyncFunction"
                " AsyncGenerator AsyncGeneratorFunction WebAssembly Reflect Proxy escape unescape"
            ).split()
        ),
        "process={env:{}}",
        "btoa=undefined,atob=undefined",
    ]
)


def _segment_js(segment: Segment) -> str:
    statements = segment.statements
    if not statements.first.strip() or statements.stray:
        # n8n: "Not a expression statement", or a bracket closing nothing: a syntax error (Weft's own parentheses
        # must not close for the user's, as in `1 ) ( 2`)
        return "(\n)"
    # Newlines let a trailing `// comment` in the segment end before the closing parenthesis.
    return f"(\n{rewrite_calls(statements.first)}\n)"


def _unreached(segment: Segment) -> str:
    """The statements after a segment's first, in a function after the ``return``: parsed (a syntax error there is
    the template's, as in n8n), never run."""
    rest = segment.statements.rest
    return f"(function(){{\n{rest}\n}});" if mask_code(rest).strip() else ""


@lru_cache(maxsize=8192)
def parse_template(text: str) -> Template:
    """Split ``text`` (without the leading ``=``) into literal strings and segments, as n8n's splitter does.

    A segment ends at the first ``}}``, even inside a JavaScript string (``{{ '}}' }}`` is a syntax error in n8n
    too); ``{{`` or ``}}`` after an odd number of backslashes does not count. An unclosed ``{{`` runs to the end.
    """
    parts: list[str | Segment] = []
    pos, length = 0, len(text)
    opening = True
    while pos < length:
        found = _find_unescaped(text, "{{" if opening else "}}", pos)
        if found < 0:
            break
        chunk = text[pos:found]
        if not opening:
            parts.append(Segment(_unescape_code(chunk).strip()))
        elif chunk:
            parts.append(_BACKSLASH_PAIRS.sub(r"\\", chunk))
        pos, opening = found + 2, not opening
    rest = text[pos:]
    if not opening:
        parts.append(Segment(_unescape_code(rest).strip()))
    elif rest:
        parts.append(rest)
    return Template(tuple(parts))


_BACKSLASH_PAIRS = re.compile(r"\\\\")


def _find_unescaped(text: str, brackets: str, pos: int) -> int:
    """Index of the next ``brackets`` at or after ``pos`` not preceded by an odd number of backslashes, or -1."""
    while True:
        found = text.find(brackets, pos)
        if found < 0:
            return -1
        slashes = found - len(text[:found].rstrip("\\"))
        if slashes % 2 == 0:
            return found
        pos = found + 2


def _unescape_code(code: str) -> str:
    # n8n's escapeCode: the first ``\}}`` of a segment is a literal ``}}``.
    return code.replace("\\}}", "}}", 1)
