"""The Code node's Python (Code 2, ``language: pythonNative`` / ``python``): n8n's task-runner conventions.

Each run starts a real confined child process (weft.sandbox_py); the escapes are in tests/security/.
"""

from __future__ import annotations

from typing import Any

import pytest

ITEMS = [{"n": 1}, {"n": 2}]


async def _python(run_node: Any, code: str, mode: str = "runOnceForAllItems", **extra: Any) -> Any:
    params = {"language": "pythonNative", "mode": mode, "pythonCode": code}
    return await run_node("code", params, ITEMS, version=2, **extra)


def _error(run: Any) -> dict[str, Any]:
    return run["data"]["resultData"]["runData"]["Node"][0]["error"]  # type: ignore[no-any-return]


async def test_all_items_reads_items_and_returns_items(run_node, out):
    run = await _python(run_node, "return [{'json': {'double': i['json']['n'] * 2}} for i in _items]")
    assert out(run) == [
        [{"json": {"double": 2}, "pairedItem": {"item": 0}}, {"json": {"double": 4}, "pairedItem": {"item": 1}}]
    ]


async def test_all_items_bare_dictionaries_become_items(run_node, js):
    run = await _python(run_node, "out = []\nfor i in _items:\n    out.append({'m': i['json']['n'] + 10})\nreturn out")
    assert js(run) == [{"m": 11}, {"m": 12}]


async def test_all_items_one_dictionary_is_one_item(run_node, js):
    run = await _python(run_node, "return {'total': sum(i['json']['n'] for i in _items)}")
    assert js(run) == [{"total": 3}]


async def test_all_items_none_is_no_items(run_node, out):
    run = await _python(run_node, "x = 1", alwaysOutputData=False)
    assert out(run) == [[]]


async def test_each_item_reads_item_and_pairs_to_it(run_node, out):
    run = await _python(run_node, "return {'json': {'n': _item['json']['n'] + 1}}", "runOnceForEachItem")
    assert out(run) == [[{"json": {"n": 2}, "pairedItem": {"item": 0}}, {"json": {"n": 3}, "pairedItem": {"item": 1}}]]


async def test_each_item_none_drops_the_item_and_bare_dict_is_json(run_node, out):
    code = "if _item['json']['n'] == 1:\n    return None\nreturn {'seen': _item['json']['n']}"
    run = await _python(run_node, code, "runOnceForEachItem")
    assert out(run) == [[{"json": {"seen": 2}, "pairedItem": {"item": 1}}]]


async def test_the_other_modes_accessor_is_undefined(run_node):
    run = await _python(run_node, "return _item", "runOnceForAllItems")
    assert _error(run)["message"] == "name '_item' is not defined"
    assert _error(run)["description"] == "NameError: name '_item' is not defined [line 1]"


async def test_legacy_python_language_runs_too(run_node, js):
    run = await run_node("code", {"language": "python", "pythonCode": "return _items"}, ITEMS, version=2)
    assert js(run) == ITEMS


async def test_code_1_runs_javascript_whatever_the_language(run_node, js):
    params = {"language": "pythonNative", "pythonCode": "return []", "jsCode": "return [{json: {js: true}}]"}
    run = await run_node("code", params, ITEMS, version=1)
    assert js(run) == [{"js": True}]


async def test_an_exception_is_the_node_error_with_its_type_and_line(run_node):
    run = await _python(run_node, "x = 1\nraise ValueError('no good')")
    assert _error(run)["message"] == "no good"
    assert _error(run)["description"] == "ValueError: no good [line 2]"


async def test_continue_on_fail_gives_the_error_item(run_node, js):
    run = await _python(run_node, "return 1 / 0", continueOnFail=True)
    assert js(run) == [{"error": "division by zero"}]


async def test_syntax_error_names_the_line(run_node):
    run = await _python(run_node, "return [\n")
    assert "line 1" in _error(run)["message"]
    assert _error(run)["message"].startswith("'[' was never closed")


async def test_imports_are_refused_unless_allowed(run_node, js, monkeypatch):
    run = await _python(run_node, "import json\nreturn {'s': json.dumps(1)}")
    assert _error(run)["message"] == "Security violations detected"
    assert _error(run)["description"] == (
        "Line 1: Import of standard library module 'json' is disallowed. Allowed stdlib modules: none"
    )
    monkeypatch.setenv("N8N_RUNNERS_STDLIB_ALLOW", "json,math")
    run = await _python(run_node, "import json\nimport math\nreturn {'s': json.dumps(math.floor(2.5))}")
    assert js(run) == [{"s": "2"}]


async def test_external_packages_are_refused_with_their_list(run_node, monkeypatch):
    monkeypatch.setenv("N8N_RUNNERS_EXTERNAL_ALLOW", "numpy")
    run = await _python(run_node, "import pandas")
    assert _error(run)["description"] == (
        "Line 1: Import of external package 'pandas' is disallowed. Allowed external packages: numpy"
    )


async def test_denied_builtins_are_not_there(run_node):
    run = await _python(run_node, "return {'x': eval('1+1')}")
    assert _error(run)["message"] == "name 'eval' is not defined"


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("return 5", "Code doesn't return items properly"),
        ("return [{'json': 5}]", "A 'json' property isn't a dictionary [item 0]"),
        ("return [{'json': {}, 'other': 1}]", "Invalid output format [item 0]"),
    ],
)
async def test_results_are_validated_in_pythons_words(run_node, code, message):
    run = await _python(run_node, code)
    assert _error(run)["message"] == message


async def test_each_item_json_must_be_a_dictionary(run_node):
    run = await _python(run_node, "return 7", "runOnceForEachItem")
    assert _error(run)["message"] == "A 'json' property isn't a dictionary [item 0]"


async def test_print_goes_to_the_log(run_node, js, caplog):
    caplog.set_level("INFO", logger="weft.code.python")
    run = await _python(run_node, "print('hello', 1, {'a': [1]})\nreturn _items")
    assert js(run) == ITEMS
    assert "[Node 'Node'] 'hello' 1 {\"a\": [1]}" in caplog.text


async def test_n8n_python_enabled_false_refuses_with_n8ns_words(run_node, monkeypatch):
    monkeypatch.setenv("N8N_PYTHON_ENABLED", "false")
    run = await _python(run_node, "return _items")
    assert _error(run)["message"].startswith("This instance disallows Python execution because it has the environment")


async def test_weft_python_code_disabled_refuses_and_says_how(run_node, monkeypatch):
    monkeypatch.setenv("WEFT_PYTHON_CODE", "disabled")
    run = await _python(run_node, "return _items")
    assert _error(run)["message"] == "Python Code is disabled on this instance (WEFT_PYTHON_CODE=disabled)"
    monkeypatch.setenv("WEFT_PYTHON_CODE", "sometimes")
    run = await _python(run_node, "return _items")
    assert _error(run)["message"] == "WEFT_PYTHON_CODE must be one of auto, enabled, disabled, not 'sometimes'"


async def test_each_item_continue_on_fail_is_one_error_item_for_the_run(run_node, out):
    # n8n's runner fails the task as a whole: one error item, not one per input item
    code = "if _item['json']['n'] == 2:\n    raise KeyError('n')\nreturn _item"
    run = await _python(run_node, code, "runOnceForEachItem", continueOnFail=True)
    assert [item["json"] for item in out(run)[0]] == [{"error": "'n'"}]


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("x = {}\nx['self'] = x\nreturn [x]", "The returned data cannot be sent back: Circular reference detected"),
        (
            "return [{'v': float('nan')}]",
            "The returned data cannot be sent back: Out of range float values are not JSON compliant",
        ),
    ],
)
async def test_data_that_is_not_json_is_a_clear_error(run_node, code, message):
    run = await _python(run_node, code)
    assert _error(run)["message"] == message


async def test_values_json_cannot_hold_become_their_text(run_node, js):
    run = await _python(run_node, "return [{'s': {1}, 'b': b'x'}]")
    assert js(run) == [{"s": "{1}", "b": "b'x'"}]
