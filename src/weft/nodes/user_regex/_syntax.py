"""JavaScript regular-expression syntax rewritten for RE2 or for the ``regex`` module.

n8n builds every user pattern with ``new RegExp(source, flags)``. The rewrite keeps JavaScript's meaning where the
two engines read the same text differently: ``\\s`` and ``.`` use JavaScript's whitespace and line terminators,
``$`` without the ``m`` flag is the end of the input only, ``\\uXXXX``/``\\xHH``/``\\cX`` are characters, an
identity escape (``\\a``, ``\\e``) is the letter itself, ``(?<name>`` is a named group, ``[^]`` is any character
and ``[]`` none, a ``{`` that starts no quantifier is literal. Backreferences and lookaround are written in the
``regex`` module's syntax; RE2 refuses them, which sends the pattern to the backtracking engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

#: JavaScript's ``\s``: WhiteSpace and LineTerminator (ECMA-262), as code-point ranges.
_SPACE: tuple[tuple[int, int], ...] = ((0x09, 0x0D), (0x20, 0x20), (0xA0, 0xA0), (0x1680, 0x1680), (0x2000, 0x200A))
_SPACE += ((0x2028, 0x2029), (0x202F, 0x202F), (0x205F, 0x205F), (0x3000, 0x3000), (0xFEFF, 0xFEFF))
#: What JavaScript's ``.`` does not match without the ``s`` flag.
_LINE_END = ((0x0A, 0x0A), (0x0D, 0x0D), (0x2028, 0x2029))
_QUANTIFIER = re.compile(r"\{\d+(?:,\d*)?\}")
_GROUP_NAME = re.compile(r"\(\?<([A-Za-z_$][\w$]*)>")
_HEX = "0123456789abcdefABCDEF"
_SIMPLE = {"t": 0x09, "n": 0x0A, "v": 0x0B, "f": 0x0C, "r": 0x0D}


class RegexSyntaxError(ValueError):
    """The pattern is not a regular expression (V8 would throw a ``SyntaxError``)."""

    def __init__(self, source: str, flags: str, reason: str) -> None:
        super().__init__(f"Invalid regular expression: /{source}/{flags}: {reason}")
        self.source = source
        self.flags = flags
        self.reason = reason


@dataclass(slots=True)
class _Writer:
    """One pass over ``source``: appends the target engine's text to ``out``."""

    source: str
    flags: str
    re2: bool
    out: list[str]
    in_class: bool = False

    def char(self, code: int) -> str:
        if self.re2:
            return f"\\x{{{code:x}}}"
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"

    def ranges(self, ranges: tuple[tuple[int, int], ...]) -> str:
        return "".join(self.char(lo) if lo == hi else f"{self.char(lo)}-{self.char(hi)}" for lo, hi in ranges)

    def run(self) -> str:
        i = 0
        while i < len(self.source):
            if self.source[i] == "\\":
                i = self.escape(i)
            elif self.in_class:
                i = self.class_char(i)
            else:
                i = self.outside(i)
        if self.in_class:
            raise RegexSyntaxError(self.source, self.flags, "Unterminated character class")
        return "".join(self.out)

    def class_char(self, i: int) -> int:
        c = self.source[i]
        if c == "]":
            self.in_class = False
        self.out.append("\\" + c if c in "[&~|" else c)
        return i + 1

    def outside(self, i: int) -> int:
        c, rest = self.source[i], self.source[i:]
        if c == "[":
            return self.open_class(i)
        if c == "(" and (name := _GROUP_NAME.match(rest)):
            self.out.append(f"(?P<{name.group(1)}>")
            return i + name.end()
        if c == ".":
            self.out.append("(?s:.)" if "s" in self.flags else f"[^{self.ranges(_LINE_END)}]")
        elif c == "$":
            self.out.append("$" if "m" in self.flags else "\\z" if self.re2 else "\\Z")
        elif c == "{" and (quantifier := _QUANTIFIER.match(rest)):
            self.out.append(quantifier.group(0))
            return i + quantifier.end()
        elif c in "{}]":
            self.out.append("\\" + c)
        else:
            self.out.append(c)
        return i + 1

    def open_class(self, i: int) -> int:
        if self.source.startswith("[]", i):
            self.out.append(f"[^{self.char(0)}-{self.char(0x10FFFF)}]")  # matches nothing
            return i + 2
        if self.source.startswith("[^]", i):
            self.out.append("(?s:.)")
            return i + 3
        negated = self.source.startswith("[^", i)
        self.out.append("[^" if negated else "[")
        self.in_class = True
        return i + (2 if negated else 1)

    def escape(self, i: int) -> int:
        if i + 1 >= len(self.source):
            raise RegexSyntaxError(self.source, self.flags, "\\ at end of pattern")
        e = self.source[i + 1]
        if e in "dDwW" or (e in "bB" and not self.in_class):
            self.out.append(self.ascii_class(e))
        elif e == "b":  # [\b] is a backspace
            self.out.append(self.char(0x08))
        elif e in "sS":
            self.space(e == "S")
        elif e in _SIMPLE:
            self.out.append(self.char(_SIMPLE[e]))
        elif e == "0" and not self.source[i + 2 : i + 3].isdigit():
            self.out.append(self.char(0))
        elif e in "cxuk123456789pP":
            return self.special(i, e)
        else:
            self.out.append(re.escape(e))  # an identity escape: the character itself
        return i + 2

    def ascii_class(self, e: str) -> str:
        """RE2's ``\\d``, ``\\w`` and ``\\b`` are ASCII as JavaScript's; the ``regex`` module's are Unicode."""
        if self.re2 or (self.in_class and e in "DW"):  # a negated set cannot go inside a class: the engine's is close
            return "\\" + e
        if e in "bB":
            return f"(?a:\\{e})"
        spelled = "0-9" if e in "dD" else "A-Za-z0-9_"
        if self.in_class:
            return spelled
        return f"[^{spelled}]" if e in "DW" else f"[{spelled}]"

    def space(self, negated: bool) -> None:
        if self.in_class:  # a negated set cannot go inside a class: the engine's own \S is close enough
            self.out.append("\\S" if negated else self.ranges(_SPACE))
        else:
            self.out.append(("[^" if negated else "[") + self.ranges(_SPACE) + "]")

    def special(self, i: int, e: str) -> int:
        rest = self.source[i + 2 :]
        if e == "c" and rest[:1].isascii() and rest[:1].isalpha():
            self.out.append(self.char(ord(rest[0]) % 32))
            return i + 3
        if e == "x" and len(rest) >= 2 and all(h in _HEX for h in rest[:2]):
            self.out.append(self.char(int(rest[:2], 16)))
            return i + 4
        if e == "u":
            return self.unicode(i, rest)
        if e == "k" and (name := re.match(r"<([A-Za-z_$][\w$]*)>", rest)):
            self.out.append(f"(?P={name.group(1)})")
            return i + 2 + name.end()
        if e.isdigit():
            digits = re.match(r"\d+", self.source[i + 1 :]).group(0)  # type: ignore[union-attr]
            self.out.append(f"\\g<{digits}>")  # a backreference; RE2 refuses it
            return i + 1 + len(digits)
        if e in "pP" and "u" in self.flags and (prop := re.match(r"\{[\w=]+\}", rest)):
            self.out.append("\\" + e + prop.group(0))
            return i + 2 + prop.end()
        self.out.append(re.escape(e) if e != "c" else "\\\\c")  # \c without a letter is a backslash and a c
        return i + 2

    def unicode(self, i: int, rest: str) -> int:
        braced = re.match(r"\{([0-9a-fA-F]+)\}", rest) if "u" in self.flags else None
        if braced and int(braced.group(1), 16) <= 0x10FFFF:
            self.out.append(self.char(int(braced.group(1), 16)))
            return i + 2 + braced.end()
        if len(rest) < 4 or not all(h in _HEX for h in rest[:4]):
            self.out.append("u")
            return i + 2
        code = int(rest[:4], 16)
        low = re.match(r"\\u(d[c-f][0-9a-f]{2})", rest[4:], re.I)
        if 0xD800 <= code <= 0xDBFF and low:  # a surrogate pair is one character
            self.out.append(self.char(0x10000 + ((code - 0xD800) << 10) + (int(low.group(1), 16) - 0xDC00)))
            return i + 12
        self.out.append(self.char(code))
        return i + 6


def translate(source: str, flags: str, *, re2: bool) -> str:
    """``source`` with JavaScript ``flags`` as a pattern for RE2 (``re2=True``) or the ``regex`` module."""
    prefix = "".join(f for f in "im" if f in flags)
    body = _Writer(source, flags, re2, []).run()
    return f"(?{prefix}){body}" if prefix else body


__all__ = ["RegexSyntaxError", "translate"]
