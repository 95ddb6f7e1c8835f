"""The code of one ``{{ }}`` segment as n8n reads it: a program whose first statement is the value.

n8n (``@n8n/tournament``) parses a segment as a JavaScript program and evaluates its first statement, which must
be an expression: ``{{ 1 + 2; }}`` is 3, ``{{ 1; 2 }}`` is 1 (what follows the first statement must parse but
never runs), ``{{ ; }}`` and ``{{ let x = 1; x }}`` are invalid syntax, and a segment that starts with ``{`` is
put in parentheses first, so ``{{ {a: 1}; }}`` is invalid syntax too (recorded: e102). Weft finds the end of the
first statement without a parser, on the code with its strings, comments and regular expressions masked: the first
``;`` outside brackets, or a line break between two values, where JavaScript inserts the ``;`` (``{{ 1⏎2 }}``).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from weft.expressions.extend import mask_code

#: Words after which a line break does not end the statement (they need what follows).
_CONTINUING_WORDS = frozenset(
    "typeof instanceof in of new delete void await yield return throw case do else extends".split()
)
#: Words that continue the value before them on the next line (``a⏎in b``).
_INFIX_WORDS = frozenset({"in", "instanceof"})
_OPENING = {"(": ")", "[": "]", "{": "}"}


@dataclass(frozen=True, slots=True)
class Statements:
    """A segment split as n8n's parser splits it."""

    first: str
    """The first statement: the code whose value the segment has (without the ``;`` ending it)."""
    rest: str
    """The statements after it: they must parse, but never run."""
    stray: str | None = None
    """A closing bracket that closes nothing (no JavaScript parses it; Weft's own brackets must not match it)."""
    ended_by: str = ""
    """What ended the first statement: ``;``, a line break, or nothing (the end of the segment)."""


@lru_cache(maxsize=4096)
def split_statements(code: str) -> Statements:
    """``code`` (a segment, stripped) split after its first statement; see the module docstring."""
    if code.startswith("{"):
        return Statements(code, "", _stray(mask_code(code)))
    masked = mask_code(code)
    depth = 0
    for index, char in enumerate(masked):
        if char in _OPENING:
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth < 0:
                return Statements(code, "", char)
        elif depth == 0 and (char == ";" or (char == "\n" and _line_ends_statement(masked, index))):
            rest = code[index + 1 :]
            return Statements(code[:index], rest, _stray(mask_code(rest)), char)
    return Statements(code, "")


def _stray(masked: str) -> str | None:
    depth = 0
    for char in masked:
        if char in _OPENING:
            depth += 1
        elif char in ")]}":
            depth -= 1
            if depth < 0:
                return char
    return None


def _line_ends_statement(masked: str, newline: int) -> bool:
    """Whether JavaScript inserts a ``;`` at this line break: a value ends before it and another starts after it."""
    before = masked[:newline].rstrip()
    after = masked[newline + 1 :].lstrip()
    if not before or not after:
        return False
    last, first = before[-1], after[0]
    if _word_char(last):
        word = _last_word(before)
        if word in _CONTINUING_WORDS:
            return False
    elif last not in ")]}\"'`":
        return False
    if _word_char(first):
        return _first_word(after) not in _INFIX_WORDS
    # not `{`: `function f()⏎{ … }` and `class A⏎{ … }` go on; `!=` compares
    return first in "\"'~" or (first == "!" and after[1:2] != "=")


def _word_char(char: str) -> bool:
    return char.isalnum() or char in "_$" or char >= "\u0080"


def _last_word(text: str) -> str:
    start = len(text)
    while start > 0 and _word_char(text[start - 1]):
        start -= 1
    return text[start:]


def _first_word(text: str) -> str:
    end = 0
    while end < len(text) and _word_char(text[end]):
        end += 1
    return text[:end]


__all__ = ["Statements", "split_statements"]
