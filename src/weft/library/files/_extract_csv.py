"""A CSV parser with csv-parse's semantics (the library n8n's Extract from File and Spreadsheet File read CSV with),
fed text chunk by chunk so a large file is never held whole.

What n8n sets is what is followed: ``delimiter``, ``from_line``, ``to`` (records after the header), ``bom``,
``columns`` (the first record names the fields), ``relax_quotes``, ``skip_empty_lines`` and
``skip_records_with_error``; quotes are ``"`` and escape themselves; the record delimiter is the first of ``\\r\\n``,
``\\n`` or ``\\r`` met outside quotes. Errors carry csv-parse's messages (``Invalid Closing Quote: …``,
``Invalid Record Length: …``, ``Quote Not Closed: …``).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any


class CsvError(Exception):
    """A csv-parse error: ``code`` and message as csv-parse words them."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(kw_only=True)
class CsvOptions:
    delimiter: str = ","
    from_line: int = 1
    to: int = -1
    columns: bool = True
    relax_quotes: bool = False
    skip_empty_lines: bool = False
    skip_records_with_error: bool = False


@dataclass
class _State:
    quoting: bool = False
    was_quoting: bool = False
    escaping: bool = False
    was_row_delimiter: bool = False
    enabled: bool = True
    has_error: bool = False
    chars: list[str] = field(default_factory=list)
    record: list[str] = field(default_factory=list)


class CsvParser:
    """``feed`` text, iterate the records it completes; ``end`` for the rest. Records are lists of strings, or
    objects keyed by the header when ``columns`` is on."""

    def __init__(self, options: CsvOptions) -> None:
        self.options = options
        self.lines = 1
        self.records = 0
        self.skipped = 0
        self.stopped = False
        self.record_delimiter = ""
        self.columns: list[str] | None = None
        self._index_keys: bool | None = None
        self.expected_length: int | None = None
        self._state = _State(enabled=options.from_line == 1)
        self._pending = ""
        self._out: list[Any] = []
        self._special = re.compile("[" + re.escape(options.delimiter[:1] or ",") + '"\r\n]')
        self._line_pattern: re.Pattern[str] | None = None
        if len(options.delimiter) == 1:
            d = re.escape(options.delimiter)
            field_ = f'"(?:[^"]|"")*"|[^"{d}\r\n]*'
            self._line_pattern = re.compile(f"(?:{field_})(?:{d}(?:{field_}))*")
            self._field_pattern = re.compile(f"(?:^|{d})({field_})")

    def feed(self, text: str) -> Iterator[Any]:
        self._parse(self._pending + text, end=False)
        yield from self._drain()

    def end(self) -> Iterator[Any]:
        self._parse(self._pending, end=True)
        yield from self._drain()

    def _drain(self) -> Iterator[Any]:
        yield from self.take()

    def take(self) -> list[Any]:
        """The records completed and not yet handed out (after an error: those before it)."""
        out, self._out = self._out, []
        return out

    # -- the character loop (csv-parse's ``parse``)

    def _parse(self, buf: str, *, end: bool) -> None:
        self._pending = ""
        if self.stopped:
            return
        state, size, pos = self._state, len(buf), 0
        lookahead = max(len(self.options.delimiter), 2)
        while pos < size:
            line_end = self._simple_line(buf, pos, size)
            if line_end is not None:
                pos = line_end
                if self.stopped:
                    return
                continue
            if not end and pos + lookahead >= size:
                self._pending = buf[pos:]
                return
            if not state.escaping:
                run = self._plain_run(buf, pos, size)
                if run > pos:
                    pos = run
                    continue
            if state.was_row_delimiter:
                self.lines += 1
                state.was_row_delimiter = False
            if not state.quoting and not self.record_delimiter:
                self._discover_record_delimiter(buf, pos)
            pos = self._step(buf, pos)
            if self.stopped:
                return
        if end:
            self._finish()

    def _simple_line(self, buf: str, pos: int, size: int) -> int | None:
        """A whole line without quotes or stray line breaks, at the start of a record, split at once (the common
        case); where the next one starts, or ``None`` to let the character loop handle it."""
        state, delimiter = self._state, self.record_delimiter
        if not delimiter or state.quoting or state.chars or state.record or state.was_quoting or state.escaping:
            return None
        found = buf.find(delimiter, pos)
        if found == -1:
            return None
        line = buf[pos:found]
        if "\r" in line or "\n" in line:
            return None
        fields = self._quoted_fields(line) if '"' in line else line.split(self.options.delimiter)
        if fields is None:
            return None
        if state.was_row_delimiter:
            self.lines += 1
        state.was_row_delimiter = True
        if not state.enabled:  # before from_line: the character loop's rules
            state.record, state.chars = fields[:-1], [fields[-1]] if fields[-1] else []
            self._on_record_delimiter()
        elif line or not self.options.skip_empty_lines:
            self._accept(fields)
            if self.options.to != -1 and self.records >= self.options.to:
                self.stopped = True
        return found + len(delimiter)

    def _quoted_fields(self, line: str) -> list[str] | None:
        """The fields of a line whose quotes are all well formed (whole quoted fields, ``""`` inside); else
        ``None`` (the character loop then finds the error, or the field that goes on past the line)."""
        if self._line_pattern is None or not self._line_pattern.fullmatch(line):
            return None
        return [f[1:-1].replace('""', '"') if f[:1] == '"' else f for f in self._field_pattern.findall(line)]

    def _plain_run(self, buf: str, pos: int, size: int) -> int:
        """Take the characters from ``pos`` that need no decision (up to the next quote, or outside quotes the
        next delimiter, quote or line break) as one piece; where they end. Line breaks inside quotes are counted
        as the character loop counts them: a line starts at the character after a break."""
        state = self._state
        if state.quoting:
            end = buf.find('"', pos)
            end = size if end == -1 else end
        else:
            found = self._special.search(buf, pos)
            end = size if found is None else found.start()
        if end <= pos:
            return pos
        piece = buf[pos:end]
        breaks = piece.count("\r") + piece.count("\n")
        if breaks:
            last = piece[-1] in "\r\n"
            self.lines += (1 if state.was_row_delimiter else 0) + breaks - (1 if last else 0)
            state.was_row_delimiter = last
        elif state.was_row_delimiter:
            self.lines += 1
            state.was_row_delimiter = False
        state.chars.append(piece)
        return end

    def _step(self, buf: str, pos: int) -> int:
        """Handle the character at ``pos``; the position of the next one."""
        state, chr_ = self._state, buf[pos]
        if chr_ in "\r\n" and not state.was_row_delimiter:
            state.was_row_delimiter = True
        if state.escaping:
            state.escaping = False
            state.chars.append(chr_)
            return pos + 1
        if state.quoting and chr_ == '"' and pos + 1 < len(buf) and buf[pos + 1] == '"':
            state.escaping = True
            return pos + 1
        if chr_ == '"':
            handled = self._quote(buf, pos)
            if handled is not None:
                return handled
        if not state.quoting:
            length = self._record_delimiter_at(buf, pos)
            if length:
                self._on_record_delimiter()
                return pos + length
            delimiter = self.options.delimiter
            if buf.startswith(delimiter, pos):
                self._on_field()
                return pos + len(delimiter)
        state.chars.append(chr_)
        return pos + 1

    def _quote(self, buf: str, pos: int) -> int | None:
        """A quote: opens or closes a quoted field (``None``: it is an ordinary character)."""
        state = self._state
        if state.quoting:
            after = pos + 1
            if (
                after >= len(buf)
                or buf.startswith(self.options.delimiter, after)
                or self._record_delimiter_at(buf, after, discover=True)
            ):
                state.quoting, state.was_quoting = False, True
                return pos + 1
            if not self.options.relax_quotes:
                self._error(
                    "CSV_INVALID_CLOSING_QUOTE",
                    f'Invalid Closing Quote: got "{buf[after]}" at line {self.lines} instead of delimiter, record '
                    "delimiter, trimable character (if activated) or comment",
                )
                return pos + 1
            state.quoting, state.was_quoting = False, True
            state.chars.insert(0, '"')
            return None
        if state.chars:
            if not self.options.relax_quotes:
                value = "".join(state.chars)
                column = len(state.record)
                self._error(
                    "INVALID_OPENING_QUOTE",
                    f"Invalid Opening Quote: a quote is found on field {column} at line {self.lines}, value is "
                    f'"{value}"',
                )
            return None
        state.quoting = True
        return pos + 1

    def _discover_record_delimiter(self, buf: str, pos: int) -> None:
        if buf.startswith("\r\n", pos):
            self.record_delimiter = "\r\n"
        elif buf[pos] in "\r\n":
            self.record_delimiter = buf[pos]

    def _record_delimiter_at(self, buf: str, pos: int, *, discover: bool = False) -> int:
        if not self.record_delimiter:
            if not discover or pos >= len(buf):
                return 0
            return 2 if buf.startswith("\r\n", pos) else 1 if buf[pos] in "\r\n" else 0
        return len(self.record_delimiter) if buf.startswith(self.record_delimiter, pos) else 0

    def _on_record_delimiter(self) -> None:
        state = self._state
        if not state.enabled and self.lines + (1 if state.was_row_delimiter else 0) >= self.options.from_line:
            state.enabled = True
            state.chars, state.record = [], []
            return
        empty = not state.was_quoting and not state.record and not state.chars
        if self.options.skip_empty_lines and empty:
            return
        self._on_field()
        self._on_record()
        if self.options.to != -1 and self.records >= self.options.to:
            self.stopped = True

    def _finish(self) -> None:
        state = self._state
        if state.quoting:
            self._error(
                "CSV_QUOTE_NOT_CLOSED",
                f"Quote Not Closed: the parsing is finished with an opening quote at line {self.lines}",
            )
        elif state.was_quoting or state.record or state.chars:
            self._on_field()
            self._on_record()

    def _on_field(self) -> None:
        state = self._state
        state.record.append("".join(state.chars))
        state.chars, state.was_quoting = [], False

    def _on_record(self) -> None:
        state = self._state
        record, state.record = state.record, []
        if state.enabled:
            self._accept(record)

    def _accept(self, record: list[str]) -> None:
        """A complete record: the header, or a row (checked against the header's length)."""
        state = self._state
        if self.options.columns and self.columns is None:
            self.columns = record
            self.expected_length = len(record)
            return
        if self.expected_length is None:
            self.expected_length = len(record)
        if len(record) != self.expected_length:
            self._length_error(len(record))
        if state.has_error:
            state.has_error = False
            return
        self.records += 1
        self._out.append(record if self.columns is None else self._keyed(record))

    def _keyed(self, record: list[str]) -> dict[str, str]:
        """The record as an object keyed by the header (keys in JavaScript's order, worked out once)."""
        columns = self.columns or []
        if self._index_keys is None:
            self._index_keys = bool(_index_keys(columns))
        keyed = dict(zip(columns, record, strict=False))
        return js_key_order(keyed) if self._index_keys else keyed

    def _length_error(self, got: int) -> None:
        if self.columns is not None:
            words = f"columns length is {len(self.columns)}, got {got} on line {self.lines}"
            self._error("CSV_RECORD_INCONSISTENT_COLUMNS", f"Invalid Record Length: {words}")
        else:
            words = f"expect {self.expected_length}, got {got} on line {self.lines}"
            self._error("CSV_RECORD_INCONSISTENT_FIELDS_LENGTH", f"Invalid Record Length: {words}")

    def _error(self, code: str, message: str) -> None:
        if self.options.skip_records_with_error:
            self._state.has_error = True
            self.skipped += 1
            return
        raise CsvError(code, message)


def _index_keys(keys: Any) -> list[str]:
    return [k for k in keys if k.isdigit() and (k == "0" or not k.startswith("0")) and int(k) < 2**32 - 1]


def js_key_order(data: dict[str, Any]) -> dict[str, Any]:
    """The object's keys in JavaScript's order: array-index keys ascending first, then the rest as inserted."""
    indexes = _index_keys(data)
    if not indexes:
        return data
    ordered = {k: data[k] for k in sorted(indexes, key=int)}
    ordered.update((k, v) for k, v in data.items() if k not in ordered)
    return ordered


__all__ = ["CsvError", "CsvOptions", "CsvParser", "js_key_order"]
