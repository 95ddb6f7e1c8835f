"""The one pretty-printer (``JSON.stringify(value, null, 2)``'s layout): :func:`pretty_json` writes exactly what
``json.dumps(value, indent=2, ensure_ascii=False)`` writes, which the CLI (``execute --json``, ``export:workflow``,
``audit``, ``export:credentials --pretty``), the HTTP Request tool and the structured output parser's messages
printed before they shared it; ``js_json(value, indent=2)`` goes through it with JavaScript's numbers."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from weft.workflow.jsjson import js_json, normalize_numbers, pretty_json

_SCALARS: list[Any] = [0, -1, 2**60, 1.5, 2.0, 1e-05, 1.5e20, float("nan"), True, False, None, "", 'é "q" \n \u2028']


def _value(rng: random.Random, depth: int) -> Any:
    kind = rng.randrange(6 if depth < 5 else 1)
    if kind == 0:
        return rng.choice(_SCALARS)
    if kind in (1, 2):
        return {f"k{i}é": _value(rng, depth + 1) for i in range(rng.randrange(4))}
    if kind == 3:
        return tuple(_value(rng, depth + 1) for _ in range(rng.randrange(3)))
    return [_value(rng, depth + 1) for _ in range(rng.randrange(4))]


@pytest.mark.parametrize(
    "value",
    [
        {},
        [],
        "text",
        3.0,
        {"a": [], "b": {}, "c": [1, [2, {"d": None}]], "e": "ü"},
        [{"json": {"n": 1, "x": [1.0, 2.5]}, "pairedItem": {"item": 0}}] * 3,
        {3: "int key", 2.5: "float key", True: "bool key", None: "null key"},
        ({"t": (1, 2)}, [()]),
    ],
)
def test_pretty_json_is_json_dumps_indent_2(value: Any) -> None:
    assert pretty_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_pretty_json_matches_json_dumps_on_many_shapes() -> None:
    rng = random.Random(23)  # fixed seed: the same shapes every run
    for _ in range(300):
        value = _value(rng, 0)
        assert pretty_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


def test_js_json_indented_is_pretty_json_with_javascript_numbers() -> None:
    value = {"whole": 2.0, "half": 0.5, "tiny": 1e-07, "big": 1e21, "list": [1.0, {"deep": 3.0}], "s": "1e-05"}
    assert js_json(value, indent=2) == (
        '{\n  "whole": 2,\n  "half": 0.5,\n  "tiny": 1e-7,\n  "big": 1e+21,\n'
        '  "list": [\n    1,\n    {\n      "deep": 3\n    }\n  ],\n  "s": "1e-05"\n}'
    )
    plain = {"a": [1.0, 2.5, {"b": "é"}], "c": []}
    assert js_json(plain, indent=2) == json.dumps(normalize_numbers(plain), indent=2, ensure_ascii=False)


def test_values_json_cannot_write_fail_as_json_dumps_does() -> None:
    with pytest.raises(TypeError):
        pretty_json({"a": [object()]})
