"""sax-js's tag, attribute and entity states, for :class:`weft.nodes.xml.sax.SaxParser`."""

from __future__ import annotations

import re
from typing import Protocol

_START = (
    ":_A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c-\u200d\u2070-\u218f"
    "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd"
)
_BODY = _START + "\u00b7\u0300-\u036f\u203f-\u2040.0-9\\-"
NAME_START = re.compile(f"[{_START}]")
NAME_BODY = re.compile(f"[{_BODY}]")
_ENTITY_START = re.compile(f"[#{_START}]")
_ENTITY_BODY = re.compile(f"[#{_BODY}]")
_WHITESPACE = " \n\r\t"
_NAME = f"[{_START}][{_BODY}]*"
_VALUE = "(?:\"([^\"&<]*)\"|'([^'&<]*)')"
#: A start tag whose attribute values hold no ``&`` or ``<`` (the fast path of SaxParser._whole_tag).
START_TAG = re.compile(
    f"<({_NAME})((?:[ \t\r\n]+{_NAME}[ \t\r\n]*=[ \t\r\n]*(?:\"[^\"&<]*\"|'[^'&<]*'))*)[ \t\r\n]*(/?)>"
)
ATTRIBUTE = re.compile(f"({_NAME})[ \t\r\n]*=[ \t\r\n]*{_VALUE}")
END_TAG = re.compile(f"</({_NAME})[ \t\r\n]*>")
#: Text, one of the five XML entities, a start tag or an end tag (groups 1; 2; 3-5; 6).
FAST_TOKEN = re.compile("([^<&]+)|&(amp|lt|gt|quot|apos);|" + START_TAG.pattern + "|" + END_TAG.pattern)


class SaxError(Exception):
    """sax's error: the message with ``Line``, ``Column`` and ``Char`` appended, as xml2js rejects with it."""


class SaxHandler(Protocol):
    def open_tag(self, name: str, attributes: dict[str, str]) -> None:
        """An element starts."""
        ...

    def close_tag(self) -> bool:
        """The current element ends; returning ``True`` stops parsing (the root closed: xml2js is done)."""
        ...

    def text(self, text: str, cdata: bool) -> None: ...


class TagStates:
    """The states from ``<name`` to ``>`` and ``</name>``, and ``&entity;`` in text and attribute values."""

    handler: SaxHandler
    state: str
    tag_name: str
    attrib_name: str
    attrib_value: str
    entity: str
    q: str
    text_node: str
    attributes: dict[str, str]
    tags: list[str]
    saw_root: bool
    closed_root: bool
    done: bool

    def fail(self, message: str, at_end: bool = False) -> SaxError:
        raise NotImplementedError  # SaxParser's

    def close_text(self) -> None:
        raise NotImplementedError  # SaxParser's

    def parse_entity(self) -> str:
        raise NotImplementedError  # SaxParser's

    def _OPEN_TAG(self, c: str) -> None:
        if NAME_BODY.match(c):
            self.tag_name += c
            return
        self.attributes = {}
        if c == ">":
            self._open(False)
        elif c == "/":
            self.state = "OPEN_TAG_SLASH"
        else:
            if c not in _WHITESPACE:
                raise self.fail("Invalid character in tag name")
            self.state = "ATTRIB"

    def _OPEN_TAG_SLASH(self, c: str) -> None:
        if c != ">":
            raise self.fail("Forward-slash in opening tag not followed by >")
        self._open(True)

    def _ATTRIB(self, c: str) -> None:
        if c in _WHITESPACE:
            return
        if c == ">":
            self._open(False)
        elif c == "/":
            self.state = "OPEN_TAG_SLASH"
        elif NAME_START.match(c):
            self.attrib_name, self.attrib_value, self.state = c, "", "ATTRIB_NAME"
        else:
            raise self.fail("Invalid attribute name")

    def _ATTRIB_NAME(self, c: str) -> None:
        if c == "=":
            self.state = "ATTRIB_VALUE"
        elif c == ">":
            raise self.fail("Attribute without value")
        elif c in _WHITESPACE:
            self.state = "ATTRIB_NAME_SAW_WHITE"
        elif NAME_BODY.match(c):
            self.attrib_name += c
        else:
            raise self.fail("Invalid attribute name")

    def _ATTRIB_NAME_SAW_WHITE(self, c: str) -> None:
        if c == "=":
            self.state = "ATTRIB_VALUE"
        elif c not in _WHITESPACE:
            raise self.fail("Attribute without value")

    def _ATTRIB_VALUE(self, c: str) -> None:
        if c in _WHITESPACE:
            return
        if c not in "\"'":
            raise self.fail("Unquoted attribute value")
        self.q, self.state = c, "ATTRIB_VALUE_QUOTED"

    def _ATTRIB_VALUE_QUOTED(self, c: str) -> None:
        if c == self.q:
            if self.attrib_name not in self.attributes:  # sax keeps the first of a repeated attribute
                self.attributes[self.attrib_name] = self.attrib_value
            self.attrib_name = self.attrib_value = self.q = ""
            self.state = "ATTRIB_VALUE_CLOSED"
        elif c == "&":
            self.state = "ATTRIB_VALUE_ENTITY_Q"
        else:
            self.attrib_value += c

    def _ATTRIB_VALUE_CLOSED(self, c: str) -> None:
        if c in _WHITESPACE:
            self.state = "ATTRIB"
        elif c == ">":
            self._open(False)
        elif c == "/":
            self.state = "OPEN_TAG_SLASH"
        elif NAME_START.match(c):
            raise self.fail("No whitespace between attributes")
        else:
            raise self.fail("Invalid attribute name")

    def _TEXT_ENTITY(self, c: str) -> None:
        self._entity(c, "TEXT")

    def _ATTRIB_VALUE_ENTITY_Q(self, c: str) -> None:
        self._entity(c, "ATTRIB_VALUE_QUOTED")

    def _entity(self, c: str, back: str) -> None:
        if c == ";":
            value = self.parse_entity()
            if back == "TEXT":
                self.text_node += value
            else:
                self.attrib_value += value
            self.entity, self.state = "", back
        elif (_ENTITY_BODY if self.entity else _ENTITY_START).match(c):
            self.entity += c
        else:
            raise self.fail("Invalid character in entity name")

    def _CLOSE_TAG(self, c: str) -> None:
        if not self.tag_name:
            if c in _WHITESPACE:
                return
            if not NAME_START.match(c):
                raise self.fail("Invalid tagname in closing tag.")
            self.tag_name = c
        elif c == ">":
            self._close()
        elif NAME_BODY.match(c):
            self.tag_name += c
        else:
            if c not in _WHITESPACE:
                raise self.fail("Invalid tagname in closing tag")
            self.state = "CLOSE_TAG_SAW_WHITE"

    def _CLOSE_TAG_SAW_WHITE(self, c: str) -> None:
        if c == ">":
            self._close()
        elif c not in _WHITESPACE:
            raise self.fail("Invalid characters in closing tag")

    def _open(self, self_closing: bool) -> None:
        self.close_text()
        self.saw_root = True
        self.tags.append(self.tag_name)
        self.handler.open_tag(self.tag_name, self.attributes)
        self.state = "TEXT"
        if self_closing:
            self._close()
        self.attrib_name = self.attrib_value = ""

    def _close(self) -> None:
        name, self.tag_name, self.state = self.tag_name, "", "TEXT"
        if not self.tags:
            raise self.fail("Unmatched closing tag: " + name)
        if self.tags[-1] != name:
            raise self.fail("Unexpected close tag")
        self.close_text()
        self.tags.pop()
        if not self.tags:
            self.closed_root = True
        self.done = self.handler.close_tag()
