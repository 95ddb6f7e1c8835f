"""Calls of n8n's extension functions, rewritten as n8n's expression compiler does.

n8n does not put ``toTitleCase`` or ``isEmpty`` on the built-in prototypes: it parses each expression and turns
every call ``x.name(args)`` of an extension name into ``extend(x, "name", [args])``, which picks the function by
the type of ``x`` at run time (a string's ``isEmpty`` is not an array's), falls back to a native method, and
fails with n8n's own messages (``toTitleCase can't be used on null value``). So ``$json.keys`` stays a plain
property read, and the Code node, which n8n does not rewrite, has no extension methods.

:func:`rewrite_calls` does the same on the source of one ``{{ }}`` segment, without a full parser: a forward
scan masks strings, template text, regular expressions and comments; each ``.name(`` left in the code is a call,
and a backward scan over the masked code finds where its receiver starts (a chain of names, literals, calls,
indexes and parenthesized groups). ``x.name(args)`` becomes ``__x.e(x,"name")(args)``, ``x.name?.(args)`` becomes
``__x.o(x,"name")?.(args)`` and ``x?.name(args)`` becomes ``__x.q(x,"name")?.(args)``; the runtime side is
``js/src/extensions/index.js``.
"""

from __future__ import annotations

import re
from functools import lru_cache

#: The extension names of n8n 2.41 (``js/src/extensions/index.js`` ``EXTENSION_NAMES``; a test keeps them equal).
EXTENSION_NAMES = frozenset(
    """
    removeDuplicates unique first last reverse pluck randomItem sum min max average isNotEmpty isEmpty compact
    smartJoin chunk renameKeys merge mergeIntoObject union difference intersection append toJsonString toInt
    toFloat toBoolean toDateTime beginningOf endOfMonth extract isBetween isDst isInLast isWeekend minus plus
    format diffTo diffToNow ceil floor round abs isInteger isEven isOdd hasField removeField
    removeFieldsContaining keepFieldsContaining urlEncode keys values hash removeMarkdown removeTags toDate
    toDecimalNumber toNumber toWholeNumber toSentenceCase toSnakeCase toTitleCase urlDecode quote
    replaceSpecialChars length isDomain isEmail isNumeric isUrl extractEmail extractDomain extractUrl
    extractUrlPath parseJson base64Encode base64Decode
    """.split()
)

#: ``.name(`` / ``?.name(`` / ``.name?.(``; the name is checked against :data:`EXTENSION_NAMES` afterwards (one
#: alternation of every name costs about 5 ms to compile, in every process that evaluates an expression).
_CALL = re.compile(r"(\?\.|\.)\s*([A-Za-z_$][\w$]*)\s*(\?\.)?\s*\(")
_MEMBER = re.compile(r"\.\s*([A-Za-z_$][\w$]*)")


def _is_ident(ch: str) -> bool:
    """A character of a JavaScript identifier (a regex over the whole ``\\u0080-\\uffff`` range costs 3 ms to
    compile at start-up)."""
    return ch.isalnum() or ch in "_$" or ch >= "\u0080"


#: Words that end a receiver: ``typeof x.isEmpty()`` calls on ``x``.
_KEYWORDS = frozenset("return typeof instanceof in of void delete case yield await throw else do new extends".split())
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}
_FILL = " "


def needs_rewrite(code: str) -> bool:
    return "$if" in code or any(m.group(1) in EXTENSION_NAMES for m in _MEMBER.finditer(code))


@lru_cache(maxsize=4096)
def rewrite_calls(code: str) -> str:
    """``code`` with each extension call routed through the runtime's ``__x`` (see the module docstring)."""
    if not needs_rewrite(code):
        return code
    if "$if" in code:
        code = _rewrite_ifs(code)
    masked = _mask(code)
    return _rewrite(code, masked)


_IF = re.compile(r"(?<![\w$.])\$if\s*\(")


def _rewrite_ifs(code: str) -> str:
    """n8n compiles ``$if(test, a[, b])`` to ``test ? a : b`` (``b`` false when missing): only one branch runs."""
    masked = _mask(code)
    for match in reversed(list(_IF.finditer(masked))):
        open_at = match.end() - 1
        close_at = _close_of(masked, open_at)
        if close_at < 0:
            continue
        args = _split_args(code, masked, open_at + 1, close_at)
        if len(args) not in (2, 3) or any(a.lstrip().startswith("...") for a in args):
            continue
        alternative = args[2] if len(args) == 3 else "false"
        ternary = f"(({args[0]})?({args[1]}):({alternative}))"
        code = code[: match.start()] + ternary + code[close_at + 1 :]
        masked = masked[: match.start()] + ternary + masked[close_at + 1 :]
    return code


def _close_of(masked: str, open_at: int) -> int:
    depth = 0
    for k in range(open_at, len(masked)):
        if masked[k] in "([{":
            depth += 1
        elif masked[k] in ")]}":
            depth -= 1
            if depth == 0:
                return k
    return -1


def _split_args(code: str, masked: str, start: int, end: int) -> list[str]:
    args, depth, last = [], 0, start
    for k in range(start, end):
        ch = masked[k]
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            args.append(code[last:k])
            last = k + 1
    args.append(code[last:end])
    return args


def mask_code(code: str) -> str:
    """``code`` with the bodies of its strings, regular expressions and comments blanked (same length)."""
    return _mask(code)


def _rewrite(code: str, masked: str) -> str:
    pieces: list[str] = []
    cursor = len(code)
    for match in reversed([m for m in _CALL.finditer(masked) if m.group(2) in EXTENSION_NAMES]):
        if match.end() > cursor:
            continue  # inside a receiver already rewritten
        dot = match.start()
        start = _receiver_start(masked, dot)
        if start is None:
            continue
        receiver = _rewrite(code[start:dot], masked[start:dot])
        name = match.group(2)
        if match.group(1) == "?.":
            call = f"__x.q({receiver},{name!r})?."
        elif match.group(3):
            call = f"__x.o({receiver},{name!r})?."
        else:
            call = f"__x.e({receiver},{name!r})"
        pieces[:0] = [call, code[match.end() - 1 : cursor]]
        cursor = start
    pieces.insert(0, code[:cursor])
    return "".join(pieces)


def _receiver_start(masked: str, dot: int) -> int | None:
    """Where the receiver of the member access at ``dot`` starts, or None when there is none."""
    k = _skip_space_back(masked, dot - 1)
    start: int | None = None
    while k >= 0:
        ch = masked[k]
        if ch in ")]":
            k = _open_of(masked, k)
            if k < 0:
                return None
            start = k
            k -= 1
            if k >= 0 and (masked[k] in ")]" or _is_ident(masked[k]) or masked[k] in "\"'`"):
                continue  # a call or an index: its callee or object is part of the receiver
        elif ch in "\"'`" or (ch == "/" and start is None):
            k = _literal_start(masked, k)
            if k < 0:
                return None
            start = k
            k -= 1
        elif _is_ident(ch):
            end = k
            while k >= 0 and _is_ident(masked[k]):
                k -= 1
            word = masked[k + 1 : end + 1]
            if word in _KEYWORDS:
                if word == "new" and start is not None:
                    start = k + 1
                break
            start = k + 1
        else:
            break
        j = _skip_space_back(masked, k)
        if j >= 0 and masked[j] == "." and not (j >= 1 and masked[j - 1] == "." and masked[j - 2 : j] != "?."):
            k = _skip_space_back(masked, j - 2 if j >= 1 and masked[j - 1] == "?" else j - 1)
            continue
        if j >= 2 and masked[j - 2 : j + 1] == "new" and (j < 3 or not _is_ident(masked[j - 3])):
            start = j - 2
        break
    return start


def _skip_space_back(masked: str, k: int) -> int:
    while k >= 0 and masked[k].isspace():
        k -= 1
    return k


def _open_of(masked: str, close: int) -> int:
    pairs = {")": "(", "]": "[", "}": "{"}
    depth: list[str] = []
    k = close
    while k >= 0:
        ch = masked[k]
        if ch in pairs:
            depth.append(pairs[ch])
        elif ch in "([{":
            if not depth or depth.pop() != ch:
                return -1
            if not depth:
                return k
        k -= 1
    return -1


def _literal_start(masked: str, end: int) -> int:
    """Start of the masked literal ending at ``end`` (its delimiters are kept, its body is filled)."""
    delimiter = masked[end]
    k = end - 1
    while k >= 0 and masked[k] == _FILL:
        k -= 1
    return k if k >= 0 and masked[k] == delimiter else -1


def _mask(code: str) -> str:
    """``code`` with the bodies of strings, template text, regex literals and comments blanked out."""
    out = list(code)
    i, n = 0, len(code)
    prev = ""  # last significant character of code, to tell a regex from a division
    stack: list[str] = []  # "${" while inside a template substitution, "{" for braces within it
    while i < n:
        ch = code[i]
        if ch in "\"'":
            i = _blank_until(code, out, i, ch)
            prev = ch
        elif ch == "`" or (ch == "}" and stack and stack[-1] == "${"):
            if ch == "}":
                stack.pop()
            i, opened = _blank_template(code, out, i)
            if opened:
                stack.append("${")
            prev = "`"
        elif code.startswith("//", i):
            while i < n and code[i] != "\n":
                out[i] = _FILL
                i += 1
        elif code.startswith("/*", i):
            end = code.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out[i:end] = _FILL * (end - i)
            i = end
        elif ch == "/" and prev in _REGEX_AFTER:
            i = _blank_regex(code, out, i)
            prev = "/"
        else:
            if ch == "{" and stack:
                stack.append("{")
            elif ch == "}" and stack:
                stack.pop()
            if not ch.isspace():
                prev = ch if not _is_ident(ch) else "a"
            i += 1
    return "".join(out)


def _blank_until(code: str, out: list[str], i: int, quote: str) -> int:
    j = i + 1
    while j < len(code) and code[j] != quote and code[j] != "\n":
        out[j] = _FILL
        if code[j] == "\\" and j + 1 < len(code):
            out[j + 1] = _FILL
            j += 1
        j += 1
    return j + 1


def _blank_template(code: str, out: list[str], i: int) -> tuple[int, bool]:
    """Blank template text from ``i`` (a backtick or the ``}`` ending a substitution) to the next ``${`` or end."""
    j = i + 1
    while j < len(code):
        if code[j] == "\\":
            out[j : j + 2] = _FILL * len(out[j : j + 2])
            j += 2
            continue
        if code[j] == "`":
            return j + 1, False
        if code.startswith("${", j):
            return j + 2, True
        out[j] = _FILL
        j += 1
    return j, False


def _blank_regex(code: str, out: list[str], i: int) -> int:
    j = i + 1
    in_class = False
    while j < len(code) and code[j] != "\n":
        ch = code[j]
        if ch == "\\":
            out[j : j + 2] = _FILL * len(out[j : j + 2])
            j += 2
            continue
        if ch == "[":
            in_class = True
        elif ch == "]":
            in_class = False
        elif ch == "/" and not in_class:
            break
        out[j] = _FILL
        j += 1
    return j + 1
