"""Regular expressions that come from a workflow (If, Filter, Switch ``regex`` conditions): one place, two engines.

A pattern a workflow author (or whoever fills the field an expression reads) wrote must not hold the server:
``^(a+)+$`` against 28 characters takes Python's ``re`` seconds, and every other request waits. So:

* a pattern RE2 can express runs on RE2 (``google-re2``), whose matching time is linear in the text, on the
  event loop, with no limit needed;
* a pattern RE2 cannot express (backreferences, lookaround) runs on the ``regex`` module, off the event loop in a
  user-code worker (:func:`weft.expressions.offload.run_off_loop`), and stops after :func:`regex_timeout` seconds
  (``WEFT_REGEX_TIMEOUT``, 1 s) with :class:`RegexTimedOut`, which nodes turn into :class:`RegexTimeoutError`
  naming themselves and the parameter;
* a pattern Weft builds from a user's text in Python's syntax (a file glob's extglobs ``+(a|aa)``) runs on the
  ``regex`` module with the same limit (:func:`compile_built_pattern`).

The pattern is JavaScript's (n8n uses ``new RegExp``): :func:`parse_literal` reads n8n's ``/pattern/flags`` form,
and :mod:`._syntax` rewrites the JavaScript syntax for each engine.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import Any

import re2
import regex

from weft.errors import NodeOperationError
from weft.expressions.offload import can_offload, run_off_loop
from weft.nodes.user_regex._syntax import RegexSyntaxError, translate

#: n8n's ``^/(.*?)/([gimusy]*)$`` (JavaScript's ``.`` stops at line terminators).
_LITERAL = re.compile("/([^\n\r\u2028\u2029]*?)/([gimusy]*)")
_FLAGS = set("dgimsuyv")
DEFAULT_TIMEOUT_S = 1.0
_timeout_s = DEFAULT_TIMEOUT_S


def configure_regex_timeout(seconds: float) -> None:
    """Set how long one match of a pattern that RE2 cannot run may take (``WEFT_REGEX_TIMEOUT``)."""
    global _timeout_s
    if seconds <= 0:
        raise ValueError(f"WEFT_REGEX_TIMEOUT must be a positive number of seconds, not {seconds}")
    _timeout_s = seconds


def regex_timeout() -> float:
    """Seconds one backtracking match may take."""
    return _timeout_s


class RegexTimedOut(Exception):
    """A backtracking match ran past :func:`regex_timeout`; :meth:`at` makes it the node's error."""

    def __init__(self, source: str, flags: str, limit_s: float) -> None:
        super().__init__(_timeout_message(source, flags, limit_s))
        self.source, self.flags, self.limit_s = source, flags, limit_s

    def at(self, node_name: str, parameter: str, item_index: int | None = None) -> RegexTimeoutError:
        return RegexTimeoutError(node_name, parameter, self.source, self.flags, self.limit_s, item_index=item_index)


class RegexTimeoutError(NodeOperationError):
    """A node's regular expression took longer than ``WEFT_REGEX_TIMEOUT`` on one value."""

    def __init__(
        self, node_name: str, parameter: str, source: str, flags: str, limit_s: float, *, item_index: int | None
    ) -> None:
        super().__init__(
            node_name,
            f"{_timeout_message(source, flags, limit_s)} in parameter '{parameter}' of node '{node_name}'",
            description="The pattern backtracks without end on this value (nested repetition such as (a+)+ together "
            "with a backreference or lookaround). Rewrite it without backreferences and lookaround, so that Weft runs "
            "it with its linear-time engine, or remove the nested repetition; WEFT_REGEX_TIMEOUT sets the limit.",
            item_index=item_index,
            parameter=parameter,
        )
        self.parameter = parameter


def _timeout_message(source: str, flags: str, limit_s: float) -> str:
    # n8n 2.41's words first (its `safeRegex` stops a match after 250 ms, on its event loop)
    return (
        f"Regular expression execution timed out: /{source}/{flags} took longer than {limit_s:g} s (WEFT_REGEX_TIMEOUT)"
    )


@dataclass(frozen=True, slots=True)
class UserRegex:
    """A compiled user pattern; :meth:`test` is JavaScript's ``RegExp.prototype.test`` on a fresh ``RegExp``."""

    source: str
    flags: str
    engine: str
    """``"re2"`` (linear time, on the loop) or ``"regex"`` (backtracking, off the loop with a time limit)."""
    _re2: Any = field(repr=False)
    _backtracking: Any = field(repr=False)
    mode: str = "search"
    """``search`` anywhere, ``match`` at the start (the sticky flag ``y``), or ``fullmatch`` the whole text."""

    def test(self, text: str) -> bool:
        """Whether the pattern matches ``text``."""
        return self._find(text) is not None

    def groups(self, text: str) -> tuple[str | None, ...] | None:
        """The groups of the match in ``text`` (``None`` for a group that took no part), or ``None``."""
        found = self._find(text)
        return None if found is None else tuple(found.groups())

    def _find(self, text: str) -> Any:
        mode = "match" if "y" in self.flags else self.mode
        if self._re2 is not None:
            try:
                return getattr(self._re2, mode)(text)
            except UnicodeEncodeError:  # a lone surrogate RE2 cannot read: the other engine can
                pass
        pattern = self._backtracking or _backtracking(self.source, self.flags)
        call = functools.partial(_limited, getattr(pattern, mode), text, _timeout_s)
        try:
            return run_off_loop(call) if can_offload() else call()
        except TimeoutError:
            raise RegexTimedOut(self.source, self.flags, _timeout_s) from None


def _limited(method: Any, text: str, limit_s: float) -> Any:
    # concurrent=True releases the GIL while matching, so the event loop goes on meanwhile
    return method(text, timeout=limit_s, concurrent=True)


def parse_literal(text: str) -> tuple[str, str]:
    """n8n's ``parseRegexPattern``: ``/source/flags`` as ``(source, flags)``, any other text as ``(text, "")``."""
    literal = _LITERAL.fullmatch(text)
    return (literal.group(1), literal.group(2)) if literal else (text, "")


@functools.lru_cache(maxsize=512)
def compile_user_regex(source: str, flags: str = "") -> UserRegex:
    """``new RegExp(source, flags)``: RE2 when it can express the pattern, else the ``regex`` module.

    :class:`RegexSyntaxError` when neither engine reads it (V8's ``Invalid regular expression``)."""
    if len(set(flags)) != len(flags) or not set(flags) <= _FLAGS:
        raise RegexSyntaxError(source, flags, f"Invalid flags supplied to RegExp constructor '{flags}'")
    linear = _re2(source, flags)
    if linear is not None:
        return UserRegex(source, flags, "re2", linear, None)
    return UserRegex(source, flags, "regex", None, _backtracking(source, flags))


@functools.lru_cache(maxsize=512)
def compile_built_pattern(pattern: str, source: str, *, whole: bool = False) -> UserRegex:
    """A pattern Weft built in Python's syntax from what a user wrote (a file glob, a date format), matched at the
    start of the text (``whole``: the whole text); ``source`` names it in errors. RE2 runs it when it can (the
    patterns use no ``\\Z`` and no ``$``: ``whole`` anchors the end), else the ``regex`` module with the limit."""
    mode = "fullmatch" if whole else "match"
    linear = _compile_re2(pattern)
    if linear is not None:
        return UserRegex(source, "", "re2", linear, None, mode)
    try:
        compiled = regex.compile(pattern, regex.V0 | regex.DOTALL)
    except regex.error as error:
        raise RegexSyntaxError(source, "", error.msg) from None
    return UserRegex(source, "", "regex", None, compiled, mode)


def _re2(source: str, flags: str) -> Any:
    return _compile_re2(translate(source, flags, re2=True))


def _compile_re2(pattern: str) -> Any:
    options = re2.Options()
    options.log_errors = False
    options.dot_nl = True  # built patterns are DOTALL; JavaScript's `.` is spelled out by the translation
    try:
        return re2.compile(pattern, options)
    except re2.error:
        return None


def _backtracking(source: str, flags: str) -> Any:
    try:
        return regex.compile(translate(source, flags, re2=False), regex.V0)
    except regex.error as error:
        raise RegexSyntaxError(source, flags, error.msg[:1].upper() + error.msg[1:]) from None


__all__ = [
    "DEFAULT_TIMEOUT_S",
    "RegexSyntaxError",
    "RegexTimedOut",
    "RegexTimeoutError",
    "UserRegex",
    "compile_built_pattern",
    "compile_user_regex",
    "configure_regex_timeout",
    "parse_literal",
    "regex_timeout",
]
