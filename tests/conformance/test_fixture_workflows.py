"""n8n's ``execution-engine/__tests__/workflows/*.json``: run each workflow, compare pinned nodes with pin data."""

from __future__ import annotations

from typing import Any

from tests.conformance._fixture_items import error_outputs, paired_items_fix
from tests.conformance._fixture_workflows import always_output_data_multiple_outputs, retry_and_continue_on_error

from weft.engine import run_workflow


def _outputs(run: dict[str, Any], name: str) -> list[dict[str, Any]]:
    """Output-0 items of every run of ``name``, flattened."""
    runs = run["data"]["resultData"]["runData"].get(name, [])
    return [item for task in runs for item in ((task.get("data") or {}).get("main") or [[]])[0] or []]


def _assert_pinned_outputs(run: dict[str, Any], expected: dict[str, list[dict[str, Any]]]) -> None:
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    for name, items in expected.items():
        actual = _outputs(run, name)
        assert [i["json"] for i in actual] == [i["json"] for i in items], name
        for got, want in zip(actual, items, strict=True):
            if "pairedItem" in want:  # a pinned item without pairedItem pins the json only
                assert got.get("pairedItem") == want["pairedItem"], name


async def test_always_output_data_multiple_outputs() -> None:
    """n8n's repository pins only the false branch's item here, but n8n 2.8.4 and 2.41.1 themselves also send
    ``{}`` down the empty true output (``ensureAlwaysOutputData`` looks at output 0 only; recorded case f902), so
    the NoOp runs a second time with it. Weft does what the released versions do."""
    workflow, expected = always_output_data_multiple_outputs()
    expected["No Operation, do nothing"].append({"json": {}, "pairedItem": {"item": 0}})
    _assert_pinned_outputs(await run_workflow(workflow), expected)


async def test_retry_and_continue_on_error() -> None:
    workflow, expected = retry_and_continue_on_error()
    _assert_pinned_outputs(await run_workflow(workflow), expected)


async def test_error_outputs() -> None:
    workflow, expected = error_outputs()
    _assert_pinned_outputs(await run_workflow(workflow), expected)


async def test_paired_items_fix() -> None:
    """ "IF" (v1, alwaysOutputData) sends its 3 items to the unconnected false output and ``{}`` down the empty
    true one, as n8n does (recorded case f902), so "Set1" runs and resolves ``$('Set').item``."""
    workflow, expected = paired_items_fix()
    _assert_pinned_outputs(await run_workflow(workflow), expected)
