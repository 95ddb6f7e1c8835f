"""User regular expressions read as JavaScript reads them: each case is checked against a real JavaScript engine
(QuickJS, which Weft's expressions run on) doing ``new RegExp(source, flags).test(text)``."""

from __future__ import annotations

import json

import pytest
import quickjs

from weft.nodes.user_regex import RegexSyntaxError, compile_user_regex, parse_literal

CASES = [
    (r"^(a+)+$", "", "aaaa"),
    (r"abc$", "", "abc\n"),
    (r"abc$", "m", "abc\nx"),
    (r"a.c", "", "a\nc"),
    (r"a.c", "s", "a\nc"),
    (r"a.c", "", "a\u2028c"),
    (r"\s", "", "\u00a0"),
    (r"[\s]", "", "\u3000"),
    (r"\S", "", " \u00a0"),
    (r"[^\s]", "", "\ufeff"),
    (r"\u0041", "", "A"),
    (r"\x41", "", "A"),
    (r"\cA", "", "\x01"),
    (r"\a\e", "", "ae"),
    (r"(?<y>\d{4})-X", "i", "2024-x"),
    (r"[^]", "", "\n"),
    (r"[]", "", "x"),
    (r"a{,2}", "", "a{,2}"),
    (r"a{2}", "", "aa"),
    (r"}]", "", "}]"),
    (r"\/path\/", "", "/path/"),
    (r"[\b]", "", "\b"),
    (r"\bfoo\b", "", "a foo b"),
    (r"\u{1F600}", "u", "\U0001f600"),
    (r"\uD83D\uDE00", "", "\U0001f600"),
    (r"^abc", "y", "xabc"),
    (r"\p{Lu}", "u", "\u00c9"),
    (r"[a-z]+", "i", "ABC"),
    (r"^b", "m", "a\nb"),
    (r"[[]", "", "["),
    (r"[a&&b]", "", "&"),
    (r"\0", "", "\x00"),
    (r"\d+", "", "\u0663"),
    (r"\w", "", "\u00e9"),
    (r"[\d-z]", "", "-"),
    # the backtracking engine: backreferences and lookaround
    (r"^(a|a)+\1$", "", "aaa"),
    (r"(?=foo)f", "", "foo"),
    (r"(?<!x)y", "", "ay"),
    (r"(?<n>a)\k<n>", "", "aa"),
    (r"(\d)\1", "", "\u0663\u0663"),
    (r"(\w)\1", "", "\u00e9\u00e9"),
    (r"(x)\1\b", "", "xx\u00e9"),
    (r"(a)\1", "i", "aA"),
]


@pytest.fixture(scope="module")
def javascript() -> quickjs.Context:
    return quickjs.Context()


@pytest.mark.parametrize(("source", "flags", "text"), CASES)
def test_matches_as_javascript_does(javascript: quickjs.Context, source: str, flags: str, text: str) -> None:
    expected = javascript.eval(f"new RegExp({json.dumps(source)}, {json.dumps(flags)}).test({json.dumps(text)})")
    assert compile_user_regex(source, flags).test(text) is expected


def test_n8n_literal_form() -> None:
    assert parse_literal("/abc/gi") == ("abc", "gi")
    assert parse_literal("/a/b/m") == ("a/b", "m")
    assert parse_literal("abc") == ("abc", "")
    assert parse_literal("/a\nb/i") == ("/a\nb/i", "")  # JavaScript's `.` stops at the line break
    assert parse_literal("/abc/x") == ("/abc/x", "")


@pytest.mark.parametrize(
    ("source", "flags", "reason"),
    [("(", "", "Missing )"), ("a", "gg", "Invalid flags supplied to RegExp constructor 'gg'"), ("\\", "", "\\ at end")],
)
def test_invalid_patterns_say_so(source: str, flags: str, reason: str) -> None:
    with pytest.raises(RegexSyntaxError) as raised:
        compile_user_regex(source, flags)
    assert str(raised.value).startswith(f"Invalid regular expression: /{source}/{flags}: ")
    assert reason.lower() in str(raised.value).lower()
