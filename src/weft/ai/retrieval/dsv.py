"""d3-dsv's ``dsvFormat(delimiter).parse`` (what LangChain's CSV loader reads CSV with), in JavaScript's terms.

Only the delimiter's first character counts; quoted fields may hold delimiters, new lines and ``""``; the first
row names the columns; a missing or empty value is ``""``.
"""

from __future__ import annotations

_EOF, _EOL = object(), object()


class _Tokens:
    """d3-dsv's ``token()`` closure: fields, ``_EOL`` at a line end, ``_EOF`` at the end."""

    def __init__(self, text: str, delimiter: str) -> None:
        self.text, self.delimiter = text, delimiter[:1]
        n = len(text)
        if n and text[n - 1] == "\n":
            n -= 1
        if n and text[n - 1] == "\r":
            n -= 1
        self.n, self.i, self.eof, self.eol = n, 0, n <= 0, False

    def _at(self, index: int) -> str:
        return self.text[index] if 0 <= index < len(self.text) else ""

    def next(self) -> object:
        if self.eof:
            return _EOF
        if self.eol:
            self.eol = False
            return _EOL
        start = self.i
        return self._quoted(start) if self._at(start) == '"' else self._plain(start)

    def _quoted(self, start: int) -> str:
        while True:  # while (I++ < N && text[I] !== '"' || text[++I] === '"');
            before = self.i
            self.i += 1
            if before < self.n and self._at(self.i) != '"':
                continue
            self.i += 1
            if self._at(self.i) != '"':
                break
        end = self.i
        if end >= self.n:
            self.eof = True
        else:
            char = self._at(self.i)
            self.i += 1
            self._line_end(char)
        return self.text[start + 1 : end - 1].replace('""', '"')

    def _plain(self, start: int) -> str:
        while self.i < self.n:
            index = self.i
            char = self.text[index]
            self.i += 1
            if not self._line_end(char) and char != self.delimiter:
                continue
            return self.text[start:index]
        self.eof = True
        return self.text[start : self.n]

    def _line_end(self, char: str) -> bool:
        if char == "\n":
            self.eol = True
        elif char == "\r":
            self.eol = True
            if self._at(self.i) == "\n":
                self.i += 1
        return char in "\r\n" and char != ""


def parse_rows(text: str, delimiter: str) -> list[list[str]]:
    """d3-dsv's ``parseRows``."""
    tokens = _Tokens(text, delimiter)
    rows: list[list[str]] = []
    token = tokens.next()
    while token is not _EOF:
        row: list[str] = []
        while token is not _EOL and token is not _EOF:
            row.append(str(token))
            token = tokens.next()
        rows.append(row)
        token = tokens.next()
    return rows


def parse(text: str, delimiter: str) -> tuple[list[str], list[dict[str, str]]]:
    """d3-dsv's ``parse``: (columns, rows as ``{column: value}``)."""
    rows = parse_rows(text, delimiter)
    if not rows:
        return [], []
    columns = rows[0]
    objects = [
        {name: (values[i] if i < len(values) else "") or "" for i, name in enumerate(columns)} for values in rows[1:]
    ]
    return columns, objects


__all__ = ["parse", "parse_rows"]
