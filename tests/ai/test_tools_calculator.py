"""Calculator: a safe evaluator with JavaScript number formatting; the node runs standalone and as a tool."""

from __future__ import annotations

import pytest

from weft.ai.agent_catalog import agent_registry
from weft.ai.tools._math import CalculatorError, evaluate_math, js_number
from weft.ai.tools.calculator import CALCULATOR_DESCRIPTION
from weft.engine import run_workflow
from weft.nodes.tool_names import node_name_to_tool_name
from weft.testing.workflows import connect, node, output_json, workflow


@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("12345 * 6789", "83810205"),
        ("5 / 2", "2.5"),
        ("0.1 + 0.2", "0.30000000000000004"),
        ("2 + 3 ^ 2", "11"),
        ("2 ** 10", "1024"),
        ("(1 + 2) * -3", "-9"),
        ("10 % 3", "1"),
        ("7 // 2", "3"),
        ("sqrt(16) + abs(-2) + floor(2.7) + ceil(0.2)", "9"),
        ("round(2.5)", "3"),
        ("pi", "3.141592653589793"),
        ("log(e)", "1"),
        ("1e21", "1e+21"),
        ("0.000012345", "0.000012345"),
        ("1e-7", "1e-7"),
        ("1 / 0", "Infinity"),
        ("0 / 0", "NaN"),
    ],
)
def test_values_are_formatted_as_javascript_prints_them(expression: str, expected: str) -> None:
    assert js_number(evaluate_math(expression)) == expected


def test_huge_powers_do_not_hang() -> None:
    assert js_number(evaluate_math("9 ** 9 ** 9")) == "Infinity"
    assert js_number(evaluate_math("9^9^9^9")) == "Infinity"


@pytest.mark.parametrize(
    "expression",
    ["__import__('os')", "x + 1", "'a' * 3", "[1, 2]", "(lambda: 1)()", "1 if 1 else 2", "", "2 +", "a.b"],
)
def test_anything_but_arithmetic_is_refused(expression: str) -> None:
    with pytest.raises(CalculatorError):
        evaluate_math(expression)


@pytest.mark.parametrize(
    ("name", "expected"),
    [("Test Node", "Test_Node"), ("Test.Node", "Test_Node"), ("Test!Node", "Test_Node"), ("a-b_c", "a-b_c")],
)
def test_node_names_become_tool_names(name: str, expected: str) -> None:
    assert node_name_to_tool_name(name) == expected


def test_long_tool_names_are_cut_to_64_without_trailing_separators() -> None:
    name = node_name_to_tool_name("a" * 63 + " b" + "c" * 10)
    assert name == "a" * 63 and len(name) == 63


async def test_calculator_runs_standalone() -> None:
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Calculator", "@n8n/n8n-nodes-langchain.toolCalculator"),
        connect("Start", "Calculator"),
        pin_data={"Start": [{"input": "2 * 21"}, {"input": "1/4"}]},
    )
    run = await run_workflow(wf, registry=agent_registry())
    assert output_json(run, "Calculator") == [{"response": "42"}, {"response": "0.25"}]


async def test_calculator_standalone_error_names_the_problem() -> None:
    wf = workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Calculator", "@n8n/n8n-nodes-langchain.toolCalculator"),
        connect("Start", "Calculator"),
        pin_data={"Start": [{"input": "import os"}]},
    )
    run = await run_workflow(wf, registry=agent_registry())
    assert run["status"] == "error"
    assert run["data"]["resultData"]["error"]["message"].startswith("Cannot parse 'import os'")


def test_description_is_n8ns() -> None:
    assert CALCULATOR_DESCRIPTION.startswith("Useful for getting the result of a math expression.")


@pytest.mark.parametrize(
    ("text", "expected"),
    [("What is 12345 * 6789? Use the calculator.", "83810205"), ("hi and compute 6 * 7", "42")],
)
def test_one_arithmetic_run_in_prose_is_evaluated(text: str, expected: str) -> None:
    from weft.ai.tools._math import evaluate_lenient

    assert js_number(evaluate_lenient(text)) == expected


@pytest.mark.parametrize("text", ["x + 1", "1 + 2 and 3 * 4", "no numbers here"])
def test_prose_without_exactly_one_arithmetic_run_still_fails(text: str) -> None:
    from weft.ai.tools._math import evaluate_lenient

    with pytest.raises(CalculatorError):
        evaluate_lenient(text)
