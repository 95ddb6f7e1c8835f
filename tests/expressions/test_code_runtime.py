"""The Code node's runtime: results as n8n normalises them, n8n's error wording, console capture."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from expr_fixtures import make_context

from weft.errors import NodeOperationError
from weft.expressions import ExpressionContext, run_code, run_code_for_item
from weft.library.core.code import Code
from weft.nodes.contract import MISSING
from weft.workflow import NodeModel

RETRY_CODE = """const data = $execution.customData;
let count = Number(data.get('count') ?? 0);
count += 1;
data.set('count', String(count));
const needed = 4;

if (count < needed) {
  throw new Error(`simulated error, count = ${count}`);
}
return [{ json: { success: true, count } }];"""


def test_returns_items() -> None:
    result = run_code("return [{json: {a: 1}}, {json: {a: 2}}];", make_context())
    assert result.items == [{"json": {"a": 1}}, {"json": {"a": 2}}]


def test_plain_objects_become_items() -> None:
    assert run_code("return [{a: 1}, {b: 2}];", make_context()).items == [{"json": {"a": 1}}, {"json": {"b": 2}}]


def test_single_object_is_one_item() -> None:
    assert run_code("return {a: 1};", make_context()).items == [{"json": {"a": 1}}]


def test_input_items_can_be_changed_and_returned() -> None:
    code = "for (const item of $input.all()) { item.json.myNewField = 1; }\nreturn $input.all();"
    items = run_code(code, make_context()).items
    assert [i["json"]["myNewField"] for i in items] == [1, 1, 1]
    assert items[0]["json"]["name"] == "Ada"


def test_legacy_items_variable_and_node_references() -> None:
    code = (
        "const gen = $('Generate new items').all();\n"
        "return items.map((item, i) => ({json: {name: item.json.name, src: gen[i].json.letterOriginal}}));"
    )
    items = run_code(code, make_context()).items
    assert [i["json"] for i in items] == [
        {"name": "Ada", "src": "a"},
        {"name": "Bob", "src": "b"},
        {"name": "Cy", "src": "c"},
    ]


def test_console_is_captured() -> None:
    result = run_code("console.log('hello', {a: 1}, 2);\nreturn [];", make_context())
    assert result.logs == ['hello {"a":1} 2']
    assert result.items == []


def test_async_code() -> None:
    code = "const v = await Promise.resolve(21);\nreturn {json: {v: v * 2}};"
    assert run_code(code, make_context()).items == [{"json": {"v": 42}}]


def test_error_all_items_has_line() -> None:
    ctx = make_context(custom_data={"count": "2"})
    with pytest.raises(NodeOperationError) as info:
        run_code(RETRY_CODE, ctx)
    assert info.value.message == "simulated error, count = 3 [line 8]"
    assert ctx.custom_data == {"count": "3"}


def test_custom_data_set_and_get_across_runs() -> None:
    ctx = make_context(custom_data={})
    for _ in range(3):
        with pytest.raises(NodeOperationError):
            run_code(RETRY_CODE, ctx)
    assert run_code(RETRY_CODE, ctx).items == [{"json": {"success": True, "count": 4}}]
    assert ctx.custom_data == {"count": "4"}


def test_error_each_item_has_line_and_item() -> None:
    code = (
        "const country = $json.country;\n\nif (country === 'US') {\n"
        "  // the fifth line throws\n  throw new Error('This is an error');\n}\nreturn $json;"
    )
    ctx = make_context(connection_input=[{"json": {"country": "US"}}, {"json": {"country": "DE"}}])
    with pytest.raises(NodeOperationError) as info:
        run_code_for_item(code, ctx, 0)
    assert info.value.message == "This is an error [line 5]"  # n8n names no item (recorded: c019)
    assert run_code_for_item(code, ctx, 1).items == [{"json": {"country": "DE"}, "pairedItem": {"item": 1}}]


def test_type_error_description() -> None:
    with pytest.raises(NodeOperationError) as info:
        run_code("const a = undefined;\nreturn a.b;", make_context())
    assert info.value.message == "Cannot read properties of undefined (reading 'b') [line 2]"
    assert info.value.description == "TypeError"


def test_syntax_error() -> None:
    with pytest.raises(NodeOperationError) as info:
        run_code("return {;", make_context())
    assert info.value.description == "SyntaxError"


def test_each_item_returns_object_paired_to_its_input() -> None:
    ctx = make_context()
    results = [run_code_for_item("return {json: {n: $json.name, i: $itemIndex}};", ctx, i).items for i in range(3)]
    expected = [[{"json": {"n": n, "i": i}, "pairedItem": {"item": i}}] for i, n in enumerate(["Ada", "Bob", "Cy"])]
    assert results == expected


def test_each_item_null_drops_the_item() -> None:
    assert run_code_for_item("return null;", make_context(), 0).items == []


def test_each_item_array_is_refused() -> None:
    # n8n wraps the array as the item's json, then refuses it (recorded: c011)
    with pytest.raises(NodeOperationError, match="A 'json' property isn't an object \\[item 0\\]"):
        run_code_for_item("return [{}];", make_context(), 0)


@pytest.mark.parametrize(
    ("code", "message"),
    [
        ("return;", "Code doesn't return items properly"),
        ("return 5;", "Code doesn't return items properly"),
        ("return [1];", "Code doesn't return items properly"),
        ("return [{json: 1}];", "A 'json' property isn't an object [item 0]"),
        ("return [{json: {}, foo: 1}];", "Invalid output format [item 0]"),
        ("return [{json: {}}, {a: 1}];", "Unknown top-level item key: a [item 1]"),
        ("return [{json: {}}, {binary: {}}];", "Inconsistent item format"),
    ],
)
def test_bad_results(code: str, message: str) -> None:
    with pytest.raises(NodeOperationError) as info:
        run_code(code, make_context())
    assert info.value.message == message


def test_data_proxy_errors_inside_code_keep_their_message() -> None:
    # n8n 2.41 passes its data proxy's errors on without a line (recorded: c055)
    with pytest.raises(NodeOperationError) as info:
        run_code("\nreturn $('Unexecuted').all();", make_context())
    assert info.value.message == "Node 'Unexecuted' hasn't been executed"


def test_ten_thousand_items() -> None:
    code = "const out = [];\nfor (let i = 0; i < 10000; i++) out.push({ json: { i, name: 'item' + i } });\nreturn out;"
    ctx = make_context(connection_input=[{"json": {}}])
    items = run_code(code, ctx).items  # its speed is measured by bench/bench_expressions.py, not here
    assert len(items) == 10000 and items[9999] == {"json": {"i": 9999, "name": "item9999"}}


# ---------------------------------------------------------------------- the node class


class FakeExecuteContext:
    """The parts of ``ExecuteContext`` the Code node uses."""

    def __init__(self, parameters: dict[str, Any], ctx: ExpressionContext, *, continue_on_fail: bool = False) -> None:
        self.node = NodeModel(name="Current", type="n8n-nodes-base.code", parameters=parameters)
        self._ctx = ctx
        self._continue = continue_on_fail

    def get_node_parameter(self, name: str, item_index: int = 0, default: Any = MISSING, *, raw: bool = False) -> Any:
        value = self.node.parameters.get(name, Code.description.defaults.get(name, default))
        return value

    def get_input_data(self) -> list[Any]:
        return self._ctx.connection_input

    def expression_context(self) -> ExpressionContext:
        return self._ctx

    def continue_on_fail(self) -> bool:
        return self._continue


def _execute(parameters: dict[str, Any], **kwargs: Any) -> Any:
    fake = FakeExecuteContext(parameters, make_context(), **kwargs)
    return asyncio.run(Code().execute(fake))  # type: ignore[arg-type]


def test_node_all_items_default_mode() -> None:
    out = _execute({"jsCode": "return $input.all().map(i => ({json: {n: i.json.name}}));"})
    assert out == [[{"json": {"n": "Ada"}}, {"json": {"n": "Bob"}}, {"json": {"n": "Cy"}}]]


def test_node_each_item_continue_on_fail() -> None:
    code = "if ($json.name === 'Bob') throw new Error('bad');\nreturn {json: {ok: $json.name}};"
    out = _execute({"mode": "runOnceForEachItem", "jsCode": code}, continue_on_fail=True)
    assert out == [
        [
            {"json": {"ok": "Ada"}, "pairedItem": {"item": 0}},
            {"json": {"error": "bad [line 1]"}, "pairedItem": {"item": 1}},
            {"json": {"ok": "Cy"}, "pairedItem": {"item": 2}},
        ]
    ]


def test_node_each_item_error_stops() -> None:
    with pytest.raises(NodeOperationError, match=r"bad \[line 1\]$"):
        _execute({"mode": "runOnceForEachItem", "jsCode": "if ($itemIndex === 1) throw new Error('bad');\nreturn {};"})


def test_node_v1_is_javascript_whatever_the_language() -> None:
    # n8n's Code 1 reads no `language` (Python is version 2's; tests/nodes/test_python_code.py)
    out = _execute({"language": "python", "pythonCode": "return []"})
    assert out[0][0]["json"]["myNewField"] == 1
