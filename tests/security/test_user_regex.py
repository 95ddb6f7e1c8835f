"""A regular expression from a workflow cannot hold the server: ``^(a+)+$`` against 40 characters would take
Python's ``re`` hours (and stop every other request meanwhile). Patterns RE2 can express run on RE2 (linear time);
the others (backreferences, lookaround) run off the event loop and stop at ``WEFT_REGEX_TIMEOUT`` with a clear
error naming the node and the parameter."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from weft.engine import EngineOptions, run_workflow
from weft.nodes.files.access import FileAccess
from weft.nodes.user_regex import (
    DEFAULT_TIMEOUT_S,
    RegexTimedOut,
    compile_user_regex,
    configure_regex_timeout,
)
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow

CATASTROPHIC = "^(a+)+$"
#: A backreference: RE2 cannot run it, and the backtracking engine explodes on EVIL (2^40 paths).
EXPLODING = r"^(a|a)+\1$"
EVIL = "a" * 40 + "!"
ITEMS = [{"json": {"text": EVIL}}, {"json": {"text": "aaaa"}}]


@pytest.fixture
def short_limit() -> Iterator[float]:
    configure_regex_timeout(0.05)
    yield 0.05
    configure_regex_timeout(DEFAULT_TIMEOUT_S)


def _filter(pattern: str) -> dict[str, Any]:
    condition = {"leftValue": "={{ $json.text }}", "rightValue": pattern, "operator": {"type": "string"}}
    condition["operator"]["operation"] = "regex"
    options = {"caseSensitive": True, "typeValidation": "strict", "version": 2}
    return {"options": options, "conditions": [condition], "combinator": "and"}


def _nodes(pattern: str) -> dict[str, tuple[str, float, dict[str, Any]]]:
    """Every node that matches a user pattern: name -> (type, version, parameters)."""
    legacy_rule = {"operation": "regex", "value2": pattern, "output": 0}
    extra = {"fallbackOutput": "extra"}
    return {
        "If": ("if", 2.2, {"conditions": _filter(pattern)}),
        "Filter": ("filter", 2.2, {"conditions": _filter(pattern)}),
        "Switch": ("switch", 3.2, {"rules": {"values": [{"conditions": _filter(pattern)}]}, "options": extra}),
        "If v1": (
            "if",
            1,
            {"conditions": {"string": [{"value1": "={{ $json.text }}", "operation": "regex", "value2": pattern}]}},
        ),
        "Switch v1": (
            "switch",
            1,
            {
                "dataType": "string",
                "value1": "={{ $json.text }}",
                "rules": {"rules": [legacy_rule]},
                "fallbackOutput": 3,
            },
        ),
    }


async def _run(name: str, kind: str, version: float, parameters: dict[str, Any]) -> dict[str, Any]:
    data = workflow(
        node("Trigger", "n8n-nodes-base.manualTrigger"),
        node("Input", "n8n-nodes-base.noOp"),
        node(name, f"n8n-nodes-base.{kind}", parameters, version=version),
        connect("Trigger", "Input"),
        connect("Input", name),
        pin_data={"Input": ITEMS},
    )
    run: dict[str, Any] = await run_workflow(data)
    return run


def _texts(run: dict[str, Any], name: str) -> list[list[str]]:
    outputs = run["data"]["resultData"]["runData"][name][0]["data"]["main"]
    return [[item["json"]["text"] for item in items or []] for items in outputs]


def test_the_catastrophic_pattern_runs_on_the_linear_engine() -> None:
    assert compile_user_regex(CATASTROPHIC).engine == "re2"
    assert compile_user_regex(*("(?<year>\\d{4})-x", "i")).engine == "re2"
    assert compile_user_regex(EXPLODING).engine == "regex"


@pytest.mark.parametrize("name", list(_nodes(CATASTROPHIC)))
async def test_the_catastrophic_pattern_gives_the_right_answer_in_every_node(name: str, short_limit: float) -> None:
    # with a 50 ms limit for backtracking, only the linear engine can answer at all
    kind, version, parameters = _nodes(CATASTROPHIC)[name]
    run = await _run(name, kind, version, parameters)
    assert run["status"] == "success", run["data"]["resultData"].get("error")
    outputs = _texts(run, name)
    assert outputs[0] == ["aaaa"]
    assert EVIL in [text for output in outputs[1:] for text in output]


@pytest.mark.parametrize("name", list(_nodes(EXPLODING)))
async def test_a_backtracking_pattern_stops_at_the_limit_with_a_clear_error(name: str, short_limit: float) -> None:
    kind, version, parameters = _nodes(EXPLODING)[name]
    run = await _run(name, kind, version, parameters)
    assert run["status"] == "error"
    error = run["data"]["resultData"]["error"]
    assert error["node"]["name"] == name
    assert f"/{EXPLODING}/ took longer than 0.05 s (WEFT_REGEX_TIMEOUT)" in error["message"]
    assert f"of node '{name}'" in error["message"]
    parameter = error["context"]["parameter"]
    assert parameter in error["message"] and parameter in (
        "conditions",
        "conditions.string",
        "rules.values",
        "rules.rules",
    )
    assert "linear-time engine" in error["description"]


def test_the_backtracking_engine_raises_the_typed_timeout(short_limit: float) -> None:
    compiled = compile_user_regex(EXPLODING)
    with pytest.raises(RegexTimedOut) as raised:
        compiled.test(EVIL)
    error = raised.value.at("If", "conditions", 3)
    assert error.node_name == "If" and error.item_index == 3 and error.parameter == "conditions"
    assert compiled.test("aa!") is False and compiled.test("aaaa") is True  # quick inputs still answer


def _read_files(folder: Path, glob: str) -> Any:
    data = workflow(
        node("Trigger", "n8n-nodes-base.manualTrigger"),
        node("Read", "n8n-nodes-base.readBinaryFiles", {"fileSelector": f"{folder}/{glob}"}),
        connect("Trigger", "Read"),
    )
    return run_workflow(data, options=EngineOptions(file_access=FileAccess(allowed=(str(folder),))))


@pytest.fixture
def evil_file(tmp_path: Path) -> Path:
    """A folder holding a file whose name extglobs backtrack on (someone could create it with Write File)."""
    folder = tmp_path / "files"
    folder.mkdir()
    (folder / ("a" * 40 + "c")).write_text("x")
    (folder / "aab").write_text("y")
    return folder


async def test_file_globs_run_on_the_linear_engine(evil_file: Path, short_limit: float) -> None:
    run = await _read_files(evil_file, "+(a|aa)+(a|aa)b")
    assert run["status"] == "success"
    assert [
        item["binary"]["data"]["fileName"]
        for item in run["data"]["resultData"]["runData"]["Read"][0]["data"]["main"][0]
    ] == ["aab"]


async def test_a_backtracking_file_glob_stops_at_the_limit(evil_file: Path, short_limit: float) -> None:
    run = await _read_files(evil_file, "!(x)+(a|aa)+(a|aa)b")  # !( ) is a lookahead: backtracking
    error = run["data"]["resultData"]["error"]
    assert "Regular expression execution timed out: /!(x)+(a|aa)+(a|aa)b/ took longer than 0.05 s" in error["message"]
    assert "in parameter 'fileSelector' of node 'Read'" in error["message"]


async def test_a_date_format_of_many_tokens_runs_on_the_linear_engine() -> None:
    # "From Format" of 16 unix-millisecond tokens against 60 digits: 10^14 ways to split them for a backtracker
    parameters = {"action": "calculate", "value": "1" * 60 + "a", "duration": 1, "options": {"fromFormat": "x" * 16}}
    data = workflow(
        node("Trigger", "n8n-nodes-base.manualTrigger"),
        node("Date", "n8n-nodes-base.dateTime", parameters),
        connect("Trigger", "Date"),
    )
    run = await run_workflow(data)
    message = run["data"]["resultData"]["error"]["message"]
    assert message == 'Date input cannot be parsed. Please recheck the value and the "From Format" field.'


def test_the_limit_is_a_setting() -> None:
    assert Settings.from_env({}).regex_timeout == 1
    assert Settings.from_env({"WEFT_REGEX_TIMEOUT": "0.2"}).regex_timeout == 0.2
