"""The common cases of the ``jsonrepair`` library, which n8n's ``jsonParse(…, {repairJSON: true})`` uses (Set's
JSON Output): single-quoted strings, unquoted keys and values (``{a: Ada}`` → ``{"a": "Ada"}``), Python's
``None``/``True``/``False``, trailing or missing commas, comments, and unclosed objects, arrays and strings.

:func:`repair_json` returns JSON text, or raises :class:`ValueError` where the text is beyond repair.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

_NUMBER = re.compile(r"-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?")
_KEYWORDS = {"true": "true", "false": "false", "null": "null", "True": "true", "False": "false", "None": "null"}
_QUOTES = {'"': '"', "'": "'", "\u201c": "\u201d", "\u2018": "\u2019", "`": "`"}


class _Repair:
    def __init__(self, text: str) -> None:
        self.text = text
        self.i = 0

    def skip(self) -> None:
        """Whitespace and ``//`` or ``/* */`` comments."""
        while self.i < len(self.text):
            if self.text[self.i].isspace():
                self.i += 1
            elif self.text.startswith("//", self.i):
                end = self.text.find("\n", self.i)
                self.i = len(self.text) if end < 0 else end
            elif self.text.startswith("/*", self.i):
                end = self.text.find("*/", self.i + 2)
                self.i = len(self.text) if end < 0 else end + 2
            else:
                return

    def peek(self) -> str:
        self.skip()
        return self.text[self.i] if self.i < len(self.text) else ""

    def value(self) -> str:
        char = self.peek()
        if char == "{":
            return self.container("}", self.member)
        if char == "[":
            return self.container("]", self.value)
        if char in _QUOTES:
            return self.string()
        match = _NUMBER.match(self.text, self.i)
        if match and not self._word_continues(match.end()):
            self.i = match.end()
            return match.group()
        return self.symbol(stops=",}]\n")

    def _word_continues(self, end: int) -> bool:
        return end < len(self.text) and (self.text[end].isalnum() or self.text[end] in "_$")

    def container(self, close: str, element: Callable[[], str]) -> str:
        self.i += 1
        parts: list[str] = []
        while True:
            char = self.peek()
            if char in ("", close):
                self.i += 1 if char else 0
                break
            if char == ",":  # a leading, doubled or trailing comma
                self.i += 1
                continue
            if char in "}]":  # a mismatched closing bracket ends this container
                break
            parts.append(element())
        return ("{" if close == "}" else "[") + ",".join(parts) + close

    def member(self) -> str:
        key = self.string() if self.peek() in _QUOTES else json.dumps(self.symbol(stops=":,}\n", raw=True))
        if self.peek() == ":":
            self.i += 1
        if self.peek() in (",", "}", ""):
            return f"{key}:null"
        return f"{key}:{self.value()}"

    def string(self) -> str:
        close = _QUOTES[self.text[self.i]]
        self.i += 1
        chars: list[str] = []
        while self.i < len(self.text) and self.text[self.i] != close:
            if self.text[self.i] == "\\" and self.i + 1 < len(self.text):
                escaped = self.text[self.i + 1]
                chars.append(json.loads(f'"\\{escaped}"') if escaped in '"\\/bfnrt' else escaped)
                self.i += 2
                continue
            chars.append(self.text[self.i])
            self.i += 1
        self.i += 1
        return json.dumps("".join(chars), ensure_ascii=False)

    def symbol(self, *, stops: str, raw: bool = False) -> str:
        start = self.i
        while self.i < len(self.text) and self.text[self.i] not in stops:
            self.i += 1
        word = self.text[start : self.i].strip()
        if not word:
            raise ValueError(f"Unexpected character at position {start}")
        if raw:
            return word
        return _KEYWORDS.get(word) or json.dumps(word, ensure_ascii=False)


def repair_json(text: str) -> str:
    """Valid JSON text for ``text`` as ``jsonrepair`` would make it; :class:`ValueError` if it cannot."""
    repair = _Repair(text)
    result = repair.value()
    if repair.peek():
        raise ValueError(f"Unexpected character {repair.peek()!r} at position {repair.i}")
    json.loads(result)
    return result
