"""A strict XML tokenizer that behaves as sax-js (1.x, strict mode), the parser under xml2js.

It reports what xml2js listens to (open tag with its attributes, close tag, text, CDATA) to a
:class:`SaxHandler`, and fails with sax's own messages and positions (``Unexpected close tag\\nLine: 0\\nColumn:
14\\nChar: >``). Like sax it never reads or expands a document type's entity declarations: ``&name;`` is one of
HTML's named entities, a character reference or an error, so an entity bomb or an external entity
(``SYSTEM "file:///etc/passwd"``) is refused as an "Invalid character entity" and nothing is fetched or grown.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from html.entities import name2codepoint

from weft.nodes.xml.sax_tags import (
    ATTRIBUTE,
    END_TAG,
    FAST_TOKEN,
    NAME_START,
    START_TAG,
    SaxError,
    SaxHandler,
    TagStates,
)

_TEXT_RUN = re.compile(r"[^<&]*")
_WHITESPACE = " \n\r\t"
_XML_ENTITIES = {"amp": "&", "lt": "<", "gt": ">", "quot": '"', "apos": "'"}
#: sax's ``ENTITIES`` (HTML 4's named entities and ``apos``), used in strict mode too.
_ENTITIES = {**{name: chr(point) for name, point in name2codepoint.items()}, "apos": "'"}


def _is_xml_char(num: int) -> bool:
    return num in (0x9, 0xA, 0xD) or 0x20 <= num <= 0xD7FF or 0xE000 <= num <= 0xFFFD or 0x10000 <= num <= 0x10FFFF


def _attributes(text: str) -> dict[str, str]:
    attributes: dict[str, str] = {}
    if text:
        for attr in ATTRIBUTE.finditer(text):
            value = attr.group(2) if attr.group(2) is not None else attr.group(3)
            attributes.setdefault(attr.group(1), value)  # sax keeps the first of a repeated attribute
    return attributes


class SaxParser(TagStates):
    """Feeds one document to a handler (``parse``); see the module docstring."""

    def __init__(self, handler: SaxHandler) -> None:
        self.handler = handler
        self.s = ""
        self.i = 0
        self.state = "BEGIN"
        self.text_node = ""
        self.tags: list[str] = []
        self.saw_root = self.closed_root = False
        self.doctype: str | bool = False
        self.tag_name = self.attrib_name = self.attrib_value = self.entity = self.q = ""
        self.sgml = self.cdata = ""
        self.attributes: dict[str, str] = {}
        self.done = False

    # ------------------------------------------------------------------ positions and errors

    def fail(self, message: str, at_end: bool = False) -> SaxError:
        end = len(self.s) if at_end else self.i
        consumed = self.s[:end]
        line = consumed.count("\n")
        column = end - (consumed.rfind("\n") + 1)
        char = "" if at_end else self.s[end - 1]
        return SaxError(f"{message}\nLine: {line}\nColumn: {column}\nChar: {char}")

    def close_text(self) -> None:
        if self.text_node:
            self.handler.text(self.text_node, False)
        self.text_node = ""

    # ------------------------------------------------------------------ driver

    def parse(self, text: str) -> None:
        """Tokenize ``text`` to the end, or until the handler says it is done; raise :class:`SaxError`."""
        self.s = text
        handlers: dict[str, Callable[[str], None]] = {}
        size = len(text)
        while self.i < size and not self.done:
            if self.state == "TEXT" and self.saw_root and not self.closed_root:
                self._fast_run()
                if self.i >= size or self.done:
                    break
            c = text[self.i]
            self.i += 1
            handler = handlers.get(self.state)
            if handler is None:
                handler = handlers[self.state] = getattr(self, "_" + self.state)
            handler(c)
        if self.done:
            return
        if self.saw_root and not self.closed_root:
            raise self.fail("Unclosed root tag", at_end=True)
        if self.state not in ("BEGIN", "BEGIN_WHITESPACE", "TEXT"):
            raise self.fail("Unexpected end", at_end=True)
        self.close_text()

    def _BEGIN(self, c: str) -> None:
        self.state = "BEGIN_WHITESPACE"
        if c != "\ufeff":
            self._BEGIN_WHITESPACE(c)

    def _BEGIN_WHITESPACE(self, c: str) -> None:
        if c == "<":
            self.state = "OPEN_WAKA"
        elif c not in _WHITESPACE:
            raise self.fail("Non-whitespace before first tag.")

    def _TEXT(self, c: str) -> None:
        if self.saw_root and not self.closed_root:
            run = _TEXT_RUN.match(self.s, self.i - 1)
            assert run is not None
            self.text_node += run.group()
            self.i = run.end()
            if self.i >= len(self.s):
                return
            c = self.s[self.i]
            self.i += 1
        if c == "<":
            if not self._whole_tag():
                self.state = "OPEN_WAKA"
            return
        if c not in _WHITESPACE and (not self.saw_root or self.closed_root):
            raise self.fail("Text data outside of root node.")
        if c == "&":
            self.state = "TEXT_ENTITY"
        else:
            self.text_node += c

    def _fast_run(self) -> None:
        """Inside the root, text, the five XML entities and well-formed tags in one regular expression each, until
        something else comes (a comment, CDATA, another entity, a malformed tag: the states take over)."""
        text, handler, tags, i = self.s, self.handler, self.tags, self.i
        pending = self.text_node
        match_token = FAST_TOKEN.match
        while True:
            match = match_token(text, i)
            if match is None:
                break
            kind = match.lastindex
            if kind == 1:
                pending += match.group(1)
            elif kind == 2:
                pending += _XML_ENTITIES[match.group(2)]
            elif kind == 6 and tags and tags[-1] == match.group(6):  # the end tag of the open element
                if pending:
                    handler.text(pending, False)
                    pending = ""
                tags.pop()
                i = match.end()
                if not tags:
                    self.closed_root = True
                if handler.close_tag():
                    self.done = True
                    break
                continue
            elif kind == 5 and not match.group(5):  # a start tag (its last group, the slash, always takes part)
                if pending:
                    handler.text(pending, False)
                    pending = ""
                name = match.group(3)
                tags.append(name)
                handler.open_tag(name, _attributes(match.group(4)))
            else:  # a self-closing tag, or an end tag that does not match: the general path (and its errors)
                break
            i = match.end()
        self.text_node, self.i = pending, i

    def _whole_tag(self) -> bool:
        """A well-formed start or end tag at the ``<`` just read, taken in one step (the states would produce the
        same events); anything else is left to the states, which report sax's errors where sax does."""
        start = self.i - 1
        match = START_TAG.match(self.s, start)
        if match is not None:
            self.attributes = _attributes(match.group(2))
            self.tag_name, self.i = match.group(1), match.end()
            self._open(bool(match.group(3)))
            return True
        match = END_TAG.match(self.s, start)
        if match is not None:
            self.tag_name, self.i = match.group(1), match.end()
            self._close()
            return True
        return False

    def _OPEN_WAKA(self, c: str) -> None:
        if c == "!":
            self.state, self.sgml = "SGML_DECL", ""
        elif c in _WHITESPACE:
            return
        elif NAME_START.match(c):
            self.state, self.tag_name = "OPEN_TAG", c
        elif c == "/":
            self.state, self.tag_name = "CLOSE_TAG", ""
        elif c == "?":
            self.state = "PROC_INST"
        else:
            raise self.fail("Unencoded <")

    def _SGML_DECL(self, c: str) -> None:
        decl = self.sgml + c
        if decl == "--":
            self.state, self.sgml = "COMMENT", ""
        elif isinstance(self.doctype, str) and self.sgml:
            self.state, self.sgml = "DOCTYPE_DTD", ""
        elif decl.upper() == "[CDATA[":
            self.close_text()
            self.state, self.sgml, self.cdata = "CDATA", "", ""
        elif decl.upper() == "DOCTYPE":
            if self.doctype is not False or self.saw_root:
                raise self.fail("Inappropriately located doctype declaration")
            self.state, self.doctype, self.sgml = "DOCTYPE", "", ""
        elif c == ">":
            self.close_text()
            self.state, self.sgml = "TEXT", ""
        elif c in "\"'":
            self.state, self.q, self.sgml = "SGML_DECL_QUOTED", c, decl
        else:
            self.sgml = decl

    def _SGML_DECL_QUOTED(self, c: str) -> None:
        if c == self.q:
            self.state, self.q = "SGML_DECL", ""
        self.sgml += c

    def _DOCTYPE(self, c: str) -> None:
        if c == ">":
            self.close_text()
            self.state, self.doctype = "TEXT", True
        elif c == "[":
            self.state = "DOCTYPE_DTD"
        elif c in "\"'":
            self.state, self.q = "DOCTYPE_QUOTED", c

    def _DOCTYPE_QUOTED(self, c: str) -> None:
        if c == self.q:
            self.state, self.q = "DOCTYPE", ""

    def _DOCTYPE_DTD(self, c: str) -> None:
        if c == "]":
            self.state = "DOCTYPE"
        elif c == "<":
            self.state = "OPEN_WAKA"
        elif c in "\"'":
            self.state, self.q = "DOCTYPE_DTD_QUOTED", c

    def _DOCTYPE_DTD_QUOTED(self, c: str) -> None:
        if c == self.q:
            self.state, self.q = "DOCTYPE_DTD", ""

    def _COMMENT(self, c: str) -> None:
        if c == "-":
            self.state = "COMMENT_ENDING"

    def _COMMENT_ENDING(self, c: str) -> None:
        self.state = "COMMENT_ENDED" if c == "-" else "COMMENT"
        if c == "-":
            self.close_text()

    def _COMMENT_ENDED(self, c: str) -> None:
        if c != ">":
            raise self.fail("Malformed comment")
        self.state = "DOCTYPE_DTD" if isinstance(self.doctype, str) else "TEXT"

    def _CDATA(self, c: str) -> None:
        end = self.s.find("]", self.i - 1)
        end = len(self.s) if end < 0 else end
        self.cdata += self.s[self.i - 1 : end]
        self.i = min(end + 1, len(self.s))
        if end < len(self.s):
            self.state = "CDATA_ENDING"

    def _CDATA_ENDING(self, c: str) -> None:
        if c == "]":
            self.state = "CDATA_ENDING_2"
        else:
            self.cdata += "]" + c
            self.state = "CDATA"

    def _CDATA_ENDING_2(self, c: str) -> None:
        if c == ">":
            if self.cdata:
                self.handler.text(self.cdata, True)
            self.state, self.cdata = "TEXT", ""
        elif c == "]":
            self.cdata += "]"
        else:
            self.cdata += "]]" + c
            self.state = "CDATA"

    def _PROC_INST(self, c: str) -> None:
        if c == "?":
            self.state = "PROC_INST_ENDING"

    def _PROC_INST_ENDING(self, c: str) -> None:
        if c == ">":
            self.close_text()
        self.state = "TEXT" if c == ">" else "PROC_INST"

    def parse_entity(self) -> str:
        """sax's ``parseEntity``: a named entity (as is, then lower-cased) or a character reference."""
        entity = self.entity
        if entity in _ENTITIES:
            return _ENTITIES[entity]
        lower = entity.lower()
        if lower in _ENTITIES:
            return _ENTITIES[lower]
        num: int | None = None
        if lower.startswith("#x"):
            digits, base = lower[2:], 16
        elif lower.startswith("#"):
            digits, base = lower[1:], 10
        else:
            raise self.fail("Invalid character entity")
        stripped = digits.lstrip("0")
        try:
            num = int(stripped or "0", base)
        except ValueError:
            num = None
        canonical = None if num is None else (format(num, "x") if base == 16 else str(num))
        if num is None or canonical != stripped or not _is_xml_char(num):
            raise self.fail("Invalid character entity")
        return chr(num)


__all__ = ["SaxError", "SaxHandler", "SaxParser"]
