"""The in-memory store: n8n's scores to the last bit, its order, and refusing vectors that do not fit."""

from __future__ import annotations

import math
import random

import pytest

from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.errors import VectorDimensionError
from weft.ai.retrieval.vector_store import InMemoryStores, InMemoryVectorStore, js_slice_count


def langchain_cosine(a: list[float], b: list[float]) -> float:
    """LangChain's ``cosine`` (``@langchain/classic`` util/ml-distance), line for line."""
    p = p2 = q2 = 0.0
    for i in range(len(a)):
        p += a[i] * b[i]
        p2 += a[i] * a[i]
        q2 += b[i] * b[i]
    return p / (math.sqrt(p2) * math.sqrt(q2))


def docs(n: int, start: int = 0) -> list[Document]:
    return [Document(page_content=f"doc {i}", metadata={"n": i}) for i in range(start, start + n)]


@pytest.mark.parametrize("dims", [3, 16, 1536])
async def test_scores_are_langchains_to_the_last_bit(dims: int) -> None:
    rng = random.Random(dims)
    vectors = [[rng.uniform(-1, 1) * 10 ** rng.randint(-3, 3) for _ in range(dims)] for _ in range(120)]
    store = InMemoryVectorStore()
    await store.add_vectors(vectors[:50], docs(50))
    await store.add_vectors(vectors[50:], docs(70, 50))
    query = [rng.uniform(-1, 1) for _ in range(dims)]
    scores = store.scores(query)
    assert [float(s) for s in scores] == [langchain_cosine(query, v) for v in vectors]


async def test_best_first_ties_in_insertion_order() -> None:
    store = InMemoryVectorStore()
    await store.add_vectors([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [1.0, 1.0]], docs(4))
    hits = await store.search([1.0, 0.0], 3)
    assert [(h.document.page_content, round(h.score, 6)) for h in hits] == [
        ("doc 0", 1.0),
        ("doc 2", 1.0),
        ("doc 3", 0.707107),
    ]


async def test_results_are_copies() -> None:
    store = InMemoryVectorStore()
    await store.add_vectors([[1.0, 0.0]], docs(1))
    (hit,) = await store.search([1.0, 0.0], 4)
    hit.document.metadata["n"] = 99
    (again,) = await store.search([1.0, 0.0], 4)
    assert again.document.metadata == {"n": 0}


async def test_vectors_of_another_length_are_refused_and_nothing_is_written() -> None:
    store = InMemoryVectorStore("kb")
    await store.add_vectors([[1.0, 0.0]], docs(1))
    with pytest.raises(VectorDimensionError, match="3 dimensions, but the vector store 'kb' holds vectors of 2"):
        await store.add_vectors([[1.0, 0.0, 0.0]], docs(1, 1))
    with pytest.raises(VectorDimensionError, match="different numbers of dimensions"):
        await store.add_vectors([[1.0, 0.0], [1.0]], docs(2, 1))
    with pytest.raises(VectorDimensionError, match="The query's embedding has 3 dimensions"):
        await store.search([1.0, 0.0, 0.0], 4)
    assert len(store) == 1


async def test_an_empty_store_finds_nothing() -> None:
    assert await InMemoryVectorStore().search([1.0], 4) == []


def test_limit_as_javascript_slices() -> None:
    assert [js_slice_count(5, k) for k in (0, 2, 9, -1, 2.7, float("inf"))] == [0, 2, 5, 4, 2, 5]


def test_stores_by_key() -> None:
    stores = InMemoryStores()
    assert stores.get("a") is stores.get("a")
    stores.drop("a")
    assert stores.keys() == []


async def test_retriever_asks_the_store_for_its_limit() -> None:
    from weft.ai.retrieval.retrievers import StoreRetriever

    asked: list[tuple[str, int]] = []

    class Store:
        async def similarity_search(self, query: str, k: int, filter: object = None) -> list[Document]:
            asked.append((query, k))
            return docs(k)

    found = await StoreRetriever(Store(), 2).get_relevant_documents("cats")
    assert asked == [("cats", 2)] and [d.page_content for d in found] == ["doc 0", "doc 1"]
