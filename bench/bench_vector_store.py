"""The Simple Vector Store's in-memory store: inserting chunks and answering queries, beside plain numpy.

Vectors come from a deterministic local function (words hashed into ``--dims`` dimensions, no HTTP), computed
before the clock starts. Two workloads, each timed ``--repeat`` times (median reported):

* ``insert``: ``--chunks`` documents added to a fresh :class:`InMemoryVectorStore` in batches of 200 (the insert
  mode's default Embedding Batch Size);
* ``query``:  ``--queries`` searches for the 4 nearest documents (the Get Many default Limit) in the filled store.

The baseline does the same with plain numpy: ``np.vstack`` of the batches, and ``M @ q / (norms * |q|)`` with
``argsort``. Weft's store accumulates each dot product dimension by dimension, so its scores are n8n's to the
last bit (LangChain's ``cosine`` loop); the baseline's BLAS sums round differently.

With a PostgreSQL URL (``--database-url``, else ``WEFT_TEST_DATABASE_URL``) whose database has pgvector (``bash
scripts/start_postgres.sh``), a ``pgvector`` row is added: the same chunks inserted into a fresh table by
:class:`~weft.ai.retrieval.pgvector.PGVectorStore` in one transaction (batches of 200 as the node embeds them,
500 rows an ``INSERT``), and the same queries (cosine, no index: an exact scan, as the node's table has none) on
one open connection. The table is dropped afterwards. Usage::

    .venv/bin/python bench/bench_vector_store.py [--chunks 10000] [--queries 1000] [--dims 64] [--repeat 5]
                                                 [--database-url postgresql://weft:weft@127.0.0.1:54329/weft]
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import os
import re
import statistics
import sys
import time
import uuid

import numpy as np

from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.vector_store import InMemoryVectorStore

WORDS = (
    "cats purr rockets launch bread rises volcano lava ocean waves forest trees river stone cloud rain "
    "engine wheel music drums paper ink garden seeds winter snow market price"
).split()


def embed(text: str, dims: int) -> list[float]:
    """Word counts hashed into ``dims`` dimensions (the recorded cases' fake model, widened)."""
    vector = [0.0] * dims
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % dims] += 1.0
    if not any(vector):
        vector[0] = 1.0
    return vector


def texts(count: int, seed: int) -> list[str]:
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS, size=12)) + f" chunk{i}" for i in range(count)]


def bench_weft(vectors: list[list[float]], docs: list[Document], queries: list[list[float]]) -> tuple[float, float]:
    store = InMemoryVectorStore("bench")
    started = time.perf_counter()
    for start in range(0, len(docs), 200):
        asyncio.run(store.add_vectors(vectors[start : start + 200], docs[start : start + 200]))
    inserted = time.perf_counter() - started

    async def search_all() -> None:
        for query in queries:
            await store.search(query, 4)

    started = time.perf_counter()
    asyncio.run(search_all())
    return inserted, time.perf_counter() - started


def bench_numpy(vectors: list[list[float]], queries: list[list[float]]) -> tuple[float, float]:
    started = time.perf_counter()
    blocks = [np.asarray(vectors[i : i + 200]) for i in range(0, len(vectors), 200)]
    matrix = np.vstack(blocks)
    norms = np.linalg.norm(matrix, axis=1)
    inserted = time.perf_counter() - started
    started = time.perf_counter()
    for query in queries:
        q = np.asarray(query)
        scores = matrix @ q / (norms * np.linalg.norm(q))
        np.argsort(-scores, kind="stable")[:4]
    return inserted, time.perf_counter() - started


def bench_pgvector(
    url: str, vectors: list[list[float]], docs: list[Document], queries: list[list[float]]
) -> tuple[float, float]:
    """Insert every chunk into a fresh table (one transaction), then run the queries; the table is dropped."""
    import psycopg

    from weft.ai.retrieval.pgvector import PGVectorSettings, PGVectorStore

    async def run() -> tuple[float, float]:
        table = "bench_" + uuid.uuid4().hex[:12]
        conn = await psycopg.AsyncConnection.connect(url, autocommit=True)
        try:
            store = PGVectorStore(PGVectorSettings(table_name=table), connection=conn)
            started = time.perf_counter()
            await store.add_vectors(vectors, docs)
            inserted = time.perf_counter() - started
            started = time.perf_counter()
            for query in queries:
                await store.search(query, 4)
            return inserted, time.perf_counter() - started
        finally:
            await conn.execute(f"DROP TABLE IF EXISTS {table}")
            await conn.close()

    return asyncio.run(run())


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--queries", type=int, default=1_000)
    parser.add_argument("--dims", type=int, default=64)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--database-url", default=os.environ.get("WEFT_TEST_DATABASE_URL", ""))
    args = parser.parse_args(argv)
    chunk_texts = texts(args.chunks, 1)
    vectors = [embed(t, args.dims) for t in chunk_texts]
    docs = [Document(page_content=t, metadata={"n": i}) for i, t in enumerate(chunk_texts)]
    queries = [embed(t, args.dims) for t in texts(args.queries, 2)]
    runs = {
        "weft": [bench_weft(vectors, docs, queries) for _ in range(args.repeat)],
        "numpy": [bench_numpy(vectors, queries) for _ in range(args.repeat)],
    }
    if args.database_url.startswith("postgres"):
        runs["pgvector"] = [bench_pgvector(args.database_url, vectors, docs, queries) for _ in range(args.repeat)]
    shown = [a if not a.startswith("postgres") else "<url>" for a in argv]
    print("command: .venv/bin/python bench/bench_vector_store.py " + " ".join(shown))
    print(f"{args.chunks} chunks, {args.queries} queries, {args.dims} dimensions, median of {args.repeat} runs")
    print(f"{'':10}{'insert chunks/s':>18}{'queries/s':>14}")
    for name, results in runs.items():
        insert = statistics.median(r[0] for r in results)
        query = statistics.median(r[1] for r in results)
        print(f"{name:10}{args.chunks / insert:18,.0f}{args.queries / query:14,.0f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
