"""Glob patterns as n8n's file nodes match them (``fast-glob`` with ``micromatch``/``picomatch`` syntax).

``*`` and ``?`` match within one path segment and never a leading dot; ``**`` matches any number of folders
(hidden ones excepted); ``{a,b}`` and ``{1..3}`` expand; ``[abc]`` is a character class and ``(a|b)`` a group
(extglobs ``@( ) !( ) +( ) *( ) ?( )`` where ``extglob`` is on); a backslash makes the next character literal.
Only files are returned (links to files count), each once, as the pattern spells its folder.

fast-glob returns files in the order the operating system lists a folder, which differs from one disk to the
next; Weft returns them sorted by path, so the same files give the same items everywhere (docs/differences.md).
The walk blocks on the disk: callers run :func:`glob_files` in a worker thread.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator

from weft.nodes.user_regex import UserRegex, compile_built_pattern

_MAGIC = set("*?[]{}()!+@")


def escape_brackets_and_parens(selector: str) -> str:
    """n8n 2.41's ``escapeBracketsAndParens``: ``[ ] ( )`` made literal (idempotent for escaped ones)."""
    return re.sub(r"\\?([()\[\]])", r"\\\1", selector)


def escape_parens(selector: str) -> str:
    """n8n 2.8.4's ``escapeSpecialCharacters``: ``( )`` made literal."""
    return re.sub(r"[()]", r"\\\g<0>", selector)


# --------------------------------------------------------------------------- braces


def _brace_split(body: str) -> list[str] | None:
    parts, depth, start, i = [], 0, 0, 0
    while i < len(body):
        char = body[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(body[start:i])
            start = i + 1
        i += 1
    parts.append(body[start:])
    if len(parts) > 1:
        return parts
    found = re.fullmatch(r"(-?\d+)\.\.(-?\d+)", body) or re.fullmatch(r"([a-zA-Z])\.\.([a-zA-Z])", body)
    if not found:
        return None
    first, last = found.groups()
    if first.lstrip("-").isdigit():
        low, high = int(first), int(last)
        step = 1 if high >= low else -1
        return [str(n) for n in range(low, high + step, step)]
    step = 1 if ord(last) >= ord(first) else -1
    return [chr(c) for c in range(ord(first), ord(last) + step, step)]


def expand_braces(pattern: str) -> list[str]:
    """Brace expansion (``a{b,c}`` → ``ab``, ``ac``; ``{1..3}``), escaped braces left alone."""
    i, depth, open_at = 0, 0, -1
    while i < len(pattern):
        char = pattern[i]
        if char == "\\":
            i += 2
            continue
        if char == "{":
            if depth == 0:
                open_at = i
            depth += 1
        elif char == "}" and depth:
            depth -= 1
            if depth == 0:
                options = _brace_split(pattern[open_at + 1 : i])
                if options is not None:
                    head, tail = pattern[:open_at], pattern[i + 1 :]
                    return [x for option in options for x in expand_braces(head + option + tail)]
        i += 1
    return [pattern]


# --------------------------------------------------------------------------- one segment → regex


def _class(segment: str, start: int) -> tuple[str, int] | None:
    end = segment.find("]", start + 2 if segment[start + 1 : start + 2] in ("!", "^") else start + 1)
    if end < 0:
        return None
    body = segment[start + 1 : end]
    negate = body[:1] in ("!", "^")
    body = (body[1:] if negate else body).replace("[", "\\[")
    return ("[^" if negate else "[") + body + "]", end + 1


def _segment_regex(segment: str, extglob: bool) -> UserRegex:
    out, i, depth = [], 0, 0
    while i < len(segment):
        char = segment[i]
        if char == "\\" and i + 1 < len(segment):
            out.append(re.escape(segment[i + 1]))
            i += 2
            continue
        if extglob and char in "@!+*?" and segment[i + 1 : i + 2] == "(":
            out.append({"@": "(?:", "!": "(?!(?:", "+": "(?:", "*": "(?:", "?": "(?:"}[char])
            out.append("\0" + char)  # marks the group's kind for its closing parenthesis
            depth += 1
            i += 2
            continue
        if char == "*":
            out.append("[^/]*")
        elif char == "?":
            out.append("[^/]")
        elif char == "[" and (found := _class(segment, i)):
            out.append(found[0])
            i = found[1]
            continue
        elif char == "(":
            out.append("(?:")
            out.append("\0(")
            depth += 1
        elif char == ")" and depth:
            out.append(")")
            out.append("\0)")
            depth -= 1
        elif char == "|" and depth:
            out.append("|")
        else:
            out.append(re.escape(char))
        i += 1
    # +(a|aa) backtracks: the match runs with WEFT_REGEX_TIMEOUT (RegexTimedOut), not for ever
    return compile_built_pattern(_close_groups(out), segment, whole=True)


def _close_groups(parts: list[str]) -> str:
    """Turn the markers of :func:`_segment_regex` into the closing of each group kind."""
    text: list[str] = []
    kinds: list[str] = []
    for part in parts:
        if part.startswith("\0") and part != "\0)":
            kinds.append(part[1])
            continue
        if part == "\0)":
            kind = kinds.pop() if kinds else "("
            text[-1] = {"!": "\x01", "+": ")+", "*": ")*", "?": ")?"}.get(kind, ")")
            continue
        text.append(part)
    joined = "".join(text)
    while (at := joined.find("\x01")) >= 0:  # !(x): not x followed by the rest of the segment
        rest = joined[at + 1 :]
        joined = joined[:at] + ")" + rest.replace("\x01", ")") + r"\Z)[^/]*?" + rest
    return joined


def _is_magic(segment: str) -> bool:
    i = 0
    while i < len(segment):
        if segment[i] == "\\":
            i += 2
            continue
        if segment[i] in _MAGIC:
            return True
        i += 1
    return False


def _unescape(segment: str) -> str:
    return re.sub(r"\\(.)", r"\1", segment)


# --------------------------------------------------------------------------- walking


def _matches(regex: UserRegex, name: str, segment: str) -> bool:
    explicit = segment.startswith((".", "\\.", "!("))  # picomatch lets a leading !( ) match dot files too
    if name.startswith(".") and not explicit:
        return False
    return regex.test(name)


def _walk(folder: str, shown: str, parts: list[str], extglob: bool) -> Iterator[str]:
    if not parts:
        return
    segment, rest = parts[0], parts[1:]
    if segment == "**":
        yield from _walk(folder, shown, rest, extglob) if rest else _all_files(folder, shown)
        if rest:
            for entry in _entries(folder):
                if not entry.name.startswith(".") and _is_dir(entry):
                    yield from _walk(entry.path, shown + entry.name + "/", parts, extglob)
        return
    if not _is_magic(segment):
        name = _unescape(segment)
        path = os.path.join(folder, name)
        if not rest:
            if os.path.isfile(path):
                yield shown + name
        elif os.path.isdir(path):
            yield from _walk(path, shown + name + "/", rest, extglob)
        return
    regex = _segment_regex(segment, extglob)
    for entry in _entries(folder):
        if not _matches(regex, entry.name, segment):
            continue
        if not rest:
            if _is_file(entry):
                yield shown + entry.name
        elif _is_dir(entry):
            yield from _walk(entry.path, shown + entry.name + "/", rest, extglob)


def _all_files(folder: str, shown: str) -> Iterator[str]:
    for entry in _entries(folder):
        if entry.name.startswith("."):
            continue
        if _is_file(entry):
            yield shown + entry.name
        elif _is_dir(entry):
            yield from _all_files(entry.path, shown + entry.name + "/")


def _entries(folder: str) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(folder or ".") as listing:
            return list(listing)
    except OSError:  # fast-glob skips folders it cannot read (suppressErrors for EACCES/ENOENT)
        return []


def _is_file(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()
    except OSError:
        return False


def _is_dir(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def glob_files(pattern: str, *, extglob: bool = True) -> list[str]:
    """The files ``pattern`` matches, sorted, each once, spelled with the pattern's own folder."""
    found: dict[str, None] = {}
    for expanded in expand_braces(pattern):
        absolute = expanded.startswith("/")
        parts = [p for p in expanded.split("/") if p]
        base: list[str] = []
        while len(parts) > 1 and not _is_magic(parts[0]) and parts[0] != "**":
            base.append(_unescape(parts.pop(0)))
        shown = ("/" if absolute else "") + "".join(b + "/" for b in base)
        folder = shown or "."
        for path in _walk(folder, shown, parts, extglob):
            found.setdefault(path, None)
    return sorted(found)


__all__ = ["escape_brackets_and_parens", "escape_parens", "expand_braces", "glob_files"]
