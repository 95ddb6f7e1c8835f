"""Large run data is encoded in a worker thread, in slices (:mod:`weft.db.large_json`), and still stored whole:
the text is exactly what ``dumps`` makes, and an execution of many items saved by the runner reads back equal, on
SQLite (the stdlib writer, writing in a thread while the loop's writes wait) and on PostgreSQL."""

from __future__ import annotations

import asyncio
import json
import math
from pathlib import Path
from typing import Any

import pytest

from weft.db import Store, large_json
from weft.db.base import dumps
from weft.db.large_json import LARGE_VALUES, dumps_in_slices, dumps_off_loop, is_large
from weft.db.lite import LiteExecutions
from weft.services.prepared import prepare
from weft.services.runner import WorkflowRunner
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow
from weft.workflow import Item

VALUES: list[Any] = [
    None,
    'ünï “code”\n\\"',
    [],
    {},
    [[]],
    {"a": {}},
    list(range(5000)),
    [{"json": {"i": n, "s": "é" * (n % 7), "f": n / 3, "b": n % 2 == 0, "n": None}} for n in range(3000)],
    {"body": {"items": [{"i": n} for n in range(3000)]}, "tail": [1, [2, [3, [4]]]]},
    [[n] * (n % 50) for n in range(400)],  # elements of varied size: slices grow and shrink
    [{"big": list(range(2000))}, 1, {"big": list(range(3000))}, "x" * 10_000, 2],
    {1: "int key", None: "null key", 2.5: [1], False: {"x": (1, 2)}},  # keys as the C encoder writes them
    (1, (2, (3,)), []),
    [math.nan, math.inf, -math.inf, 10**30, -0.0, 1e-300],
    json.loads("[" * 200 + "]" * 200),  # deeper than the walk: the rest in one call
]


@pytest.fixture
def small_slices(monkeypatch: pytest.MonkeyPatch) -> None:
    """Slices of about 64 characters, so that even these values are encoded in many calls."""
    monkeypatch.setattr(large_json, "SLICE_CHARS", 64)


@pytest.mark.parametrize("value", VALUES, ids=range(len(VALUES)))
def test_the_text_is_exactly_dumps_text(value: Any, small_slices: None) -> None:
    assert dumps_in_slices(value) == dumps(value)


@pytest.mark.parametrize("value", VALUES[6:9], ids=range(3))
def test_the_text_is_exactly_dumps_text_with_the_real_slices(value: Any) -> None:
    assert dumps_in_slices(value) == dumps(value)


def test_what_json_cannot_write_fails_as_with_dumps() -> None:
    for value in ([1, {"x": object()}], {"k": {("tuple", "key"): 1}}):
        with pytest.raises(TypeError):
            dumps(value)
        with pytest.raises(TypeError):
            dumps_in_slices(value)


def test_small_data_is_left_to_the_repository() -> None:
    small = {"runData": {"Set": [{"data": {"main": [[{"json": {"i": n}} for n in range(50)]]}}]}}
    assert not is_large(small) and is_large([small] * (LARGE_VALUES // 100))
    assert asyncio.run(dumps_off_loop(small)) is None
    assert is_large({"body": {"items": list(range(LARGE_VALUES + 1))}})


async def test_a_cancellation_while_encoding_lets_the_text_through_and_comes_after() -> None:
    """A stop or a timeout that arrives while the data is encoded: the text is still made and returned (so the
    execution is saved), and the cancellation reaches the caller at its next ``await``."""
    value = [{"json": {"i": n}} for n in range(LARGE_VALUES)]
    got: list[str | None] = []

    async def save() -> None:
        got.append(await dumps_off_loop(value))
        await asyncio.sleep(0)
        got.append("not cancelled")

    task = asyncio.ensure_future(save())
    await asyncio.sleep(0)  # the encoding has started in its thread
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert got == [dumps(value)]


# ---------------------------------------------------------------- stored through the runner


@pytest.fixture
def settings(db_url: str, tmp_path: Path) -> Settings:
    return Settings(user_folder=tmp_path, database_url=db_url, encryption_key="test-key")


def _set_workflow() -> dict[str, Any]:
    assignment = {"id": "a", "name": "double", "value": "={{ $json.i * 2 }}", "type": "number"}
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Set", "n8n-nodes-base.set", {"assignments": {"assignments": [assignment]}}, version=3.4),
        connect("Start", "Set"),
    )


async def test_a_large_execution_is_stored_whole(inline_runner: WorkflowRunner) -> None:
    items: list[Item] = [{"json": {"i": n, "text": f"ünï {n}"}} for n in range(LARGE_VALUES // 2)]
    prepared = prepare(_set_workflow(), inline_runner.registry)
    big = asyncio.ensure_future(inline_runner.run(prepared, mode="trigger", trigger_items=items))
    small = [await inline_runner.run(prepared, mode="trigger", trigger_items=[{"json": {"i": n}}]) for n in range(3)]
    result = await big
    assert result.saved and is_large(result.run["data"])
    if inline_runner.settings.database_url.startswith("sqlite"):
        assert isinstance(inline_runner.executions, LiteExecutions)  # the inline writer, here writing in a thread
    store: Store = inline_runner.store
    stored = store.executions.get(result.execution_id)
    assert stored is not None and stored.status == "success" and stored.finished
    data: Any = stored.data
    assert data == json.loads(dumps(result.run["data"]))
    assert len(data["resultData"]["runData"]["Set"][0]["data"]["main"][0]) == len(items)
    for done in small:  # the small ones saved meanwhile (inline, queued behind the large write) are there too
        row = store.executions.get(done.execution_id)
        assert row is not None and row.status == "success" and row.data == json.loads(dumps(done.run["data"]))
