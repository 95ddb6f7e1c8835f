"""How the chain nodes run their items (batches) and shape the Basic LLM Chain's answers."""

from __future__ import annotations

import pytest

from weft.ai.nodes.chains._batches import Batching, run_in_batches
from weft.ai.nodes.chains.chain_llm import format_response


async def test_a_batch_runs_at_once_and_is_read_in_item_order() -> None:
    events: list[str] = []

    async def work(index: int) -> int:
        events.append(f"start {index}")
        if index == 1:
            raise ValueError("item 1 failed")
        return index * 10

    def read(index: int, result: int | Exception) -> None:
        events.append(f"read {index}: {result}")

    await run_in_batches(3, Batching(size=2), work, read)
    assert events == ["start 0", "start 1", "read 0: 0", "read 1: item 1 failed", "start 2", "read 2: 20"]


async def test_a_reader_that_raises_stops_the_later_batches() -> None:
    started: list[int] = []

    async def work(index: int) -> int:
        started.append(index)
        return index

    def read(index: int, result: int | Exception) -> None:
        raise RuntimeError(f"stop at {index}")

    with pytest.raises(RuntimeError, match="stop at 0"):
        await run_in_batches(4, Batching(size=1), work, read)
    assert started == [0]


@pytest.mark.parametrize(
    ("answer", "unwrap", "item"),
    [
        ("  Paris \n", False, {"text": "Paris"}),
        (["a", 1], False, {"data": ["a", 1]}),
        ({"answer": 2.0}, True, {"answer": 2.0}),
        ({"answer": 2.0}, False, {"text": '{"answer":2}'}),
        (42, False, {"response": {"text": 42}}),
    ],
)
def test_an_answer_becomes_the_item_as_n8n_formats_it(answer: object, unwrap: bool, item: dict) -> None:
    assert format_response(answer, unwrap=unwrap) == item
