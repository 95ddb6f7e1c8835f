"""E-mail address lists as nodemailer reads them (its ``addressparser`` and ``MimeNode.getAddresses``), which the
Brevo node's recipient and sender checks run: ``Name <a@b.c>, d@e.f; "Last, First" <g@h.i>``, groups
(``team: a@b.c, d@e.f;``) flattened, duplicates dropped, domains lower-cased (and punycoded)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

_OPERATORS = {'"': '"', "(": ")", "<": ">", ",": "", ":": ";", ";": ""}
_NO_BREAK_AFTER = (" ", "\t", "\r", "\n", ",", ";")
_STRICT = re.compile(r"^[^@\s]+@[^@\s]+$")
_LOOSE = re.compile(r"\s*\b[^@\s]+@[^\s]+\b\s*")


@dataclass
class _Token:
    kind: str
    value: str
    no_break: bool = False


@dataclass
class _Tokenizer:
    text: str
    expecting: str = ""
    escaped: bool = False
    node: _Token | None = None
    tokens: list[_Token] = field(default_factory=list)

    def run(self) -> list[_Token]:
        for index, char in enumerate(self.text):
            self._char(char, self.text[index + 1] if index + 1 < len(self.text) else None)
        return [token for token in self.tokens if _trimmed(token)]

    def _char(self, char: str, following: str | None) -> None:
        if not self.escaped and self.expecting and char == self.expecting:
            self.tokens.append(_Token("operator", char, bool(following) and following not in _NO_BREAK_AFTER))
            self.node, self.expecting = None, ""
            return
        if not self.escaped and not self.expecting and char in _OPERATORS:
            self.tokens.append(_Token("operator", char))
            self.node, self.expecting = None, _OPERATORS[char]
            return
        if not self.escaped and self.expecting in ('"', "'") and char == "\\":
            self.escaped = True
            return
        if self.node is None:
            self.node = _Token("text", "")
            self.tokens.append(self.node)
        char = " " if char == "\n" else char
        if ord(char) >= 0x21 or char in (" ", "\t"):
            self.node.value += char
        self.escaped = False


def _trimmed(token: _Token) -> bool:
    token.value = token.value.strip()
    return bool(token.value)


def _collect(tokens: list[_Token]) -> tuple[dict[str, list[str]], list[bool], bool]:
    """The tokens of one address into its ``address``, ``comment``, ``group`` and ``text`` parts."""
    data: dict[str, list[str]] = {"address": [], "comment": [], "group": [], "text": []}
    quoted: list[bool] = []
    state, inside_quotes, is_group = "text", False, False
    for index, token in enumerate(tokens):
        previous = tokens[index - 1] if index else None
        if token.kind == "operator":
            state, inside_quotes, is_group = _operator(token.value, state, inside_quotes, is_group)
            continue
        value = re.sub(r"^[^<]*<\s*", "", token.value) if state == "address" else token.value
        if previous is not None and previous.no_break and data[state]:
            data[state][-1] += value
            if state == "text" and inside_quotes:
                quoted[-1] = True
        else:
            data[state].append(value)
            if state == "text":
                quoted.append(inside_quotes)
    return data, quoted, is_group


def _operator(value: str, state: str, inside_quotes: bool, is_group: bool) -> tuple[str, bool, bool]:
    if value == "<":
        return "address", False, is_group
    if value == "(":
        return "comment", False, is_group
    if value == ":":
        return "group", False, True
    if value == '"':
        return "text", not inside_quotes, is_group
    return "text", False, is_group


def _extract_address(data: dict[str, list[str]], quoted: list[bool]) -> None:
    """No ``<address>``: the last unquoted text that is an address (strictly, else loosely)."""
    for index in range(len(data["text"]) - 1, -1, -1):
        if not quoted[index] and _STRICT.match(data["text"][index]):
            data["address"] = [data["text"].pop(index)]
            quoted.pop(index)
            return
    for index in range(len(data["text"]) - 1, -1, -1):
        if quoted[index]:
            continue
        match = _LOOSE.search(data["text"][index])
        if match:
            data["address"] = [match.group(0).strip()]
            text = data["text"][index]
            data["text"][index] = (text[: match.start()] + " " + text[match.end() :]).strip()
            return
        data["text"][index] = data["text"][index].strip()


def _handle(tokens: list[_Token], depth: int) -> list[dict[str, Any]]:
    data, quoted, is_group = _collect(tokens)
    if not data["text"] and data["comment"]:
        data["text"], data["comment"] = data["comment"], []
    if is_group:
        members: list[dict[str, Any]] = []
        for member in parse(",".join(data["group"]), depth + 1) if data["group"] else []:
            members.extend(member["group"] if "group" in member else [member])
        return [{"name": " ".join(data["text"]) or "", "group": members}]
    if not data["address"] and data["text"]:
        _extract_address(data, quoted)
    if not data["text"] and data["comment"]:
        data["text"], data["comment"] = data["comment"], []
    if len(data["address"]) > 1:
        data["text"] = data["text"] + data["address"][1:]
        data["address"] = data["address"][:1]
    text, address = " ".join(data["text"]), " ".join(data["address"])
    found = {"address": address or text or "", "name": text or address or ""}
    if found["address"] == found["name"]:
        found["name" if "@" in found["address"] else "address"] = ""
    return [found]


def parse(text: str, depth: int = 0) -> list[dict[str, Any]]:
    """nodemailer's ``addressparser``: ``[{name, address}]`` or ``[{name, group: [...]}]``."""
    if depth > 50:
        return []
    groups: list[list[_Token]] = [[]]
    for token in _Tokenizer(text).run():
        if token.kind == "operator" and token.value in (",", ";"):
            groups.append([])
        else:
            groups[-1].append(token)
    parsed = [entry for tokens in groups if tokens for entry in _handle(tokens, depth)]
    for index in range(len(parsed) - 2, -1, -1):
        current, following = parsed[index], parsed[index + 1]
        if (
            current.get("address") == ""
            and current.get("name")
            and "group" not in current
            and following.get("address")
            and following.get("name")
        ):
            following["name"] = f"{current['name']}, {following['name']}"
            parsed.pop(index)
    return parsed


def normalize_address(address: str) -> str:
    """``MimeNode._normalizeAddress``: control characters and ``<>`` out, the domain lower-cased and punycoded."""
    address = re.sub(r"[\x00-\x1f<>]+", " ", address).strip()
    at = address.rfind("@")
    if at < 0:
        return address
    user, domain = address[:at], address[at + 1 :].lower()
    if not re.search(r"[\x80-\uffff]", user):
        try:
            domain = domain.encode("idna").decode("ascii")
        except UnicodeError:
            pass
    if " " in user:
        user = ("" if user.startswith('"') else '"') + user + ("" if user.endswith('"') else '"')
    return f"{user}@{domain}"


def addresses(text: str) -> list[dict[str, str]]:
    """The addresses of a header value (``getAddresses``): groups flattened, each address once, nameless
    entries left out; each as Brevo's ``{email, name?}``."""
    unique: list[dict[str, str]] = []

    def add(entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            if entry.get("address"):
                entry["address"] = normalize_address(str(entry["address"]))
                if not any(u["address"] == entry["address"] for u in unique):
                    unique.append(entry)
            elif "group" in entry:
                add(entry["group"])

    add(parse(text))
    out: list[dict[str, str]] = []
    for entry in unique:
        found = {"email": entry["address"]}
        if entry.get("name"):
            found["name"] = entry["name"]
        out.append(found)
    return out


__all__ = ["addresses", "normalize_address", "parse"]
