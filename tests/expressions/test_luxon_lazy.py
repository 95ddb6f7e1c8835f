"""Luxon and the Intl polyfills load on first use: by the source scan, or by the sandbox asking for them."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from expr_fixtures import make_context

import weft.expressions.runtime as runtime
from weft.expressions import evaluate

DATE_EXPRESSIONS = [
    "={{ DateTime.fromISO('2024-03-05T10:00:00Z').toFormat('yyyy LLL dd') }}",
    "={{ Duration.fromObject({hours: 2}).as('minutes') }}",
    "={{ (1234.5).toLocaleString('en-US') }}",
]


def _in_fresh_thread(expression: str) -> Any:
    """Each thread has its own sandbox: a new thread starts without Luxon loaded."""
    result: dict[str, Any] = {}

    def run() -> None:
        result["value"] = evaluate(expression, make_context(), 0)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join(30)
    return result["value"]


@pytest.mark.parametrize("expression", DATE_EXPRESSIONS)
def test_the_sandbox_asks_for_luxon_when_the_scan_misses_it(expression: str, monkeypatch: pytest.MonkeyPatch) -> None:
    expected = _in_fresh_thread(expression)
    monkeypatch.setattr(runtime, "needs_luxon", lambda source: False)
    assert _in_fresh_thread(expression) == expected


def test_plain_expressions_do_not_load_luxon() -> None:
    assert not runtime.needs_luxon("$json.a + 1")
    assert runtime.needs_luxon("DateTime.now()")


@pytest.mark.parametrize(
    ("expression", "value"),
    [
        ("={{ (1234567.891).format('de-DE') }}", "1.234.567,891"),
        (
            "={{ DateTime.fromISO('2024-03-15', {zone: 'UTC'}).setLocale('fr').toFormat('cccc d LLLL') }}",
            "vendredi 15 mars",
        ),
        ("={{ (1234.5).toLocaleString('en-GB', {style: 'currency', currency: 'GBP'}) }}", "£1,234.50"),
        ("={{ (1234.5).format('xx-YY') }}", "1,234.5"),  # no data for the locale: English, as n8n's ICU falls back
    ],
)
def test_locale_data_loads_on_demand(expression: str, value: str) -> None:
    assert _in_fresh_thread(expression) == value
