from __future__ import annotations

import pytest

ITEMS = [{"n": 0}, {"n": 1}, {"n": 2}]


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ({}, [{"json": {"n": 0}, "pairedItem": {"item": 0}}]),
        (
            {"maxItems": 2, "keep": "lastItems"},
            [{"json": {"n": 1}, "pairedItem": {"item": 1}}, {"json": {"n": 2}, "pairedItem": {"item": 2}}],
        ),
        ({"maxItems": 5}, [{"json": i, "pairedItem": {"item": i["n"]}} for i in ITEMS]),
    ],
)
async def test_limit(run_node, out, params, expected):
    run = await run_node("limit", params, ITEMS)
    assert out(run) == [expected]
