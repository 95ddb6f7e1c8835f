"""The PGVector store and node on the test PostgreSQL with pgvector (``WEFT_TEST_DATABASE_URL``; skipped without,
failed without under ``CI=true``).

``bash scripts/start_postgres.sh`` starts the server (pgserver's PostgreSQL, a dev extra) with pgvector enabled.
Each test uses tables of its own.
"""

from __future__ import annotations

import json
import os
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any
from urllib.parse import urlsplit

import psycopg
import pytest

from weft.ai.retrieval.backend_errors import VectorStoreBackendError
from weft.ai.retrieval.demo_embeddings import HashedEmbeddings
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.errors import VectorDimensionError
from weft.ai.retrieval.pgvector import PGVectorSettings, PGVectorStore
from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.nodes.registry import default_registry
from weft.testing.service_servers import in_ci
from weft.testing.workflows import connect, node, workflow

LC = "@n8n/n8n-nodes-langchain."
URL = os.environ.get("WEFT_TEST_DATABASE_URL", "")


def _missing_pgvector() -> str:
    """Why these tests cannot run here ("" when they can)."""
    start = "`WEFT_TEST_DATABASE_URL=$(bash scripts/start_postgres.sh)` starts one with pgserver's PostgreSQL"
    if not URL.startswith("postgres"):
        return f"needs WEFT_TEST_DATABASE_URL of a PostgreSQL server with pgvector: {start}"
    try:
        with psycopg.connect(URL, connect_timeout=5) as connection:
            row = connection.execute("SELECT 1 FROM pg_extension WHERE extname = 'vector'").fetchone()
    except psycopg.Error as error:
        return f"cannot connect to WEFT_TEST_DATABASE_URL ({error}): {start}"
    return "" if row else f"the database of WEFT_TEST_DATABASE_URL has no 'vector' extension: {start}"


MISSING = _missing_pgvector()

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.skipif(bool(MISSING) and not in_ci(), reason=MISSING),
]


@pytest.fixture(autouse=True)
def _server_in_ci() -> None:
    """Under ``CI=true`` the server is started by ``scripts/test``: a missing one fails instead of skipping."""
    if MISSING:
        pytest.fail(MISSING)


@pytest.fixture
def table() -> Iterator[str]:
    """A fresh table name (and collection table ``<name>_c``), dropped afterwards."""
    name = "t_" + uuid.uuid4().hex[:12]
    yield name
    with psycopg.connect(URL, autocommit=True) as conn:
        conn.execute(f"DROP TABLE IF EXISTS {name} CASCADE")
        conn.execute(f"DROP TABLE IF EXISTS {name}_c CASCADE")


@pytest.fixture
async def conn() -> AsyncIterator[Any]:
    connection = await psycopg.AsyncConnection.connect(URL, autocommit=True)
    yield connection
    await connection.close()


def store(conn: Any, table: str, **settings: Any) -> PGVectorStore:
    return PGVectorStore(PGVectorSettings(table_name=table, **settings), connection=conn)


async def count(conn: Any, table: str) -> int:
    row = await (await conn.execute(f"SELECT count(*) FROM {table}")).fetchone()
    return int(row[0])


DOCS = [
    Document(page_content="cats purr and sleep", metadata={"animal": "cat", "legs": 4}),
    Document(page_content="dogs bark at the mailman", metadata={"animal": "dog", "legs": 4}),
    Document(page_content="birds sing in the morning", metadata={"animal": "bird", "legs": 2}),
]


async def filled(conn: Any, table: str, **settings: Any) -> PGVectorStore:
    pg = store(conn, table, **settings)
    embeddings = HashedEmbeddings(64)
    await pg.add_vectors(await embeddings.embed_documents([d.page_content for d in DOCS]), DOCS)
    return pg


async def test_insert_then_search_scores_by_distance(conn: Any, table: str) -> None:
    pg = await filled(conn, table)
    hits = await pg.search(await HashedEmbeddings(64).embed_query("why do dogs bark"), 2)
    assert [h.document.page_content for h in hits] == ["dogs bark at the mailman", "cats purr and sleep"]
    assert hits[0].score < hits[1].score  # cosine distance: nearer is smaller
    assert hits[0].document.metadata == {"animal": "dog", "legs": 4}
    assert uuid.UUID(str(hits[0].document.id))
    columns = await (
        await conn.execute(
            "SELECT column_name, data_type FROM information_schema.columns WHERE table_name = %s", (table,)
        )
    ).fetchall()
    assert dict(columns) == {"id": "uuid", "text": "text", "metadata": "jsonb", "embedding": "USER-DEFINED"}


async def test_metadata_filter_and_operators(conn: Any, table: str) -> None:
    pg = await filled(conn, table)
    query = await HashedEmbeddings(64).embed_query("dogs bark")
    assert [h.document.metadata["animal"] for h in await pg.search(query, 4, {"animal": "bird"})] == ["bird"]
    assert {h.document.metadata["animal"] for h in await pg.search(query, 4, {"legs": {"lt": 3}})} == {"bird"}
    found = await pg.search(query, 4, {"animal": {"in": ["cat", "dog"]}})
    assert {h.document.metadata["animal"] for h in found} == {"cat", "dog"}
    # a key is a value, never SQL: an attacker's key matches nothing instead of rewriting the query
    assert await pg.search(query, 4, {"animal' = 'animal' OR '1' = '1": "x"}) == []


async def test_collections_keep_their_documents_apart(conn: Any, table: str) -> None:
    await filled(conn, table, collection_name="one", collection_table=f"{table}_c")
    other = store(conn, table, collection_name="two", collection_table=f"{table}_c")
    query = await HashedEmbeddings(64).embed_query("cats")
    assert await other.search(query, 4) == []
    await other.add_vectors([query], [Document(page_content="two's own", metadata={})])
    assert [h.document.page_content for h in await other.search(query, 4)] == ["two's own"]
    assert await count(conn, table) == 4


async def test_another_dimension_is_refused_and_nothing_is_written(conn: Any, table: str) -> None:
    pg = await filled(conn, table)
    with pytest.raises(VectorDimensionError, match=r"32 dimensions, but the vector store .* holds vectors of 64"):
        await pg.add_vectors([[0.1] * 32], [Document(page_content="short")])
    with pytest.raises(VectorDimensionError, match="different numbers of dimensions"):
        await pg.add_vectors([[0.1] * 64, [0.1] * 32], [Document(page_content="a"), Document(page_content="b")])
    assert await count(conn, table) == 3


async def test_a_failed_insert_leaves_no_table_behind(conn: Any, table: str) -> None:
    pg = store(conn, table)
    with pytest.raises(VectorStoreBackendError, match="PGVector table"):
        await pg.add_vectors([[float("nan")]], [Document(page_content="NaN is not a vector value")])
    row = await (await conn.execute("SELECT to_regclass(%s)", (table,))).fetchone()
    assert row == (None,)  # the CREATE TABLE of the same transaction was rolled back too


async def test_a_query_of_another_dimension_is_a_clear_error(conn: Any, table: str) -> None:
    pg = await filled(conn, table)
    with pytest.raises(VectorStoreBackendError, match="different vector dimensions") as caught:
        await pg.search([0.5] * 8, 2)
    assert "embedding model" in str(caught.value.description)


@pytest.mark.parametrize("name", ["x; DROP TABLE users", 'a"b', "a.b.c", ""])
def test_a_table_name_is_never_sql(conn: Any, name: str) -> None:
    with pytest.raises(VectorStoreBackendError, match="not a plain PostgreSQL name"):
        PGVectorStore(PGVectorSettings(table_name=name), connection=conn)


# ---------------------------------------------------------------------------------------------- the node


def credentials() -> dict[str, Any]:
    parts = urlsplit(URL)
    return {
        "host": parts.hostname,
        "port": parts.port or 5432,
        "database": parts.path.lstrip("/"),
        "user": parts.username,
        "password": parts.password or "",
    }


def pg_node(name: str, parameters: dict[str, Any]) -> dict[str, Any]:
    return node(
        name, LC + "vectorStorePGVector", parameters, version=1.3, credentials={"postgres": {"id": "p", "name": "PG"}}
    )


def insert_then_load(table: str, options: dict[str, Any]) -> dict[str, Any]:
    texts = [("cats purr and sleep", "cat"), ("dogs bark at the mailman", "dog"), ("dogs dig in the garden", "dog")]
    items = ", ".join(f"{{json: {{text: {t!r}, animal: {a!r}}}}}" for t, a in texts)
    loader_metadata = {"metadataValues": [{"name": "animal", "value": "={{ $json.animal }}"}]}
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Data", "n8n-nodes-base.code", {"jsCode": f"return [{items}];"}, version=2),
        pg_node("Insert", {"mode": "insert", "tableName": table}),
        node("Embeddings", "weft.embeddingsDemo", {"dimensions": 64}),
        node(
            "Loader",
            LC + "documentDefaultDataLoader",
            {"jsonMode": "expressionData", "jsonData": "={{ $json.text }}", "options": {"metadata": loader_metadata}},
            version=1.1,
        ),
        node("One", "n8n-nodes-base.limit", {"maxItems": 1}, version=1),
        pg_node("Load", {"mode": "load", "tableName": table, "prompt": "dogs bark", "topK": 5, "options": options}),
        connect("Start", "Data"),
        connect("Data", "Insert"),
        connect("Insert", "One"),
        connect("One", "Load"),
        connect("Embeddings", "Insert", type_="ai_embedding"),
        connect("Embeddings", "Load", type_="ai_embedding"),
        connect("Loader", "Insert", type_="ai_document"),
    )


async def run(wf: dict[str, Any]) -> dict[str, Any]:
    services = LocalServices(credentials={"PG": credentials()})
    return dict(await run_workflow(wf, registry=default_registry(), services=services))


def output(result: dict[str, Any], name: str) -> list[dict[str, Any]]:
    items: list[dict[str, Any]] = result["data"]["resultData"]["runData"][name][0]["data"]["main"][0]
    return [item["json"] for item in items]


async def test_node_inserts_then_loads_with_a_metadata_filter(table: str) -> None:
    options = {"metadata": {"metadataValues": [{"name": "animal", "value": "dog"}]}}
    result = await run(insert_then_load(table, options))
    assert result["status"] == "success", json.dumps(result["data"]["resultData"].get("error"))
    assert len(output(result, "Insert")) == 3
    loaded = output(result, "Load")
    assert [d["document"]["pageContent"] for d in loaded] == ["dogs bark at the mailman", "dogs dig in the garden"]
    assert loaded[0]["document"]["metadata"]["animal"] == "dog"
    assert 0 <= loaded[0]["score"] < loaded[1]["score"]


async def test_node_distance_strategy_and_column_names(table: str) -> None:
    columns = {
        "values": {
            "idColumnName": "pk",
            "vectorColumnName": "vec",
            "contentColumnName": "body",
            "metadataColumnName": "meta",
        }
    }
    wf = insert_then_load(table, {"distanceStrategy": "euclidean", "columnNames": columns})
    wf["nodes"][2]["parameters"]["options"] = {"columnNames": columns}
    result = await run(wf)
    assert result["status"] == "success", json.dumps(result["data"]["resultData"].get("error"))
    assert output(result, "Load")[0]["document"]["pageContent"] == "dogs bark at the mailman"
    with psycopg.connect(URL) as conn:
        names = {
            r[0]
            for r in conn.execute("SELECT column_name FROM information_schema.columns WHERE table_name = %s", (table,))
        }
    assert names == {"pk", "vec", "body", "meta"}


async def test_node_as_tool_answers_the_query(table: str) -> None:
    wf = insert_then_load(table, {})
    wf["nodes"][6]["parameters"] = {
        "mode": "retrieve-as-tool",
        "tableName": table,
        "toolDescription": "animals",
        "topK": 1,
    }
    set_input = node(
        "Query", "n8n-nodes-base.set", {"mode": "raw", "jsonOutput": '{"input": "do dogs bark"}'}, version=3.4
    )
    wf["nodes"].append(set_input)
    wf["connections"]["One"]["main"][0] = [{"node": "Query", "type": "main", "index": 0}]
    wf["connections"]["Query"] = {"main": [[{"node": "Load", "type": "main", "index": 0}]]}
    result = await run(wf)
    assert result["status"] == "success", json.dumps(result["data"]["resultData"].get("error"))
    response = output(result, "Load")[0]["response"]
    assert len(response) == 1
    assert json.loads(response[0]["text"])["pageContent"] == "dogs bark at the mailman"


async def test_node_names_itself_in_a_dimension_error(table: str) -> None:
    first = await run(insert_then_load(table, {}))
    assert first["status"] == "success"
    wf = insert_then_load(table, {})
    wf["nodes"][3]["parameters"]["dimensions"] = 32
    result = await run(wf)
    error = result["data"]["resultData"]["error"]
    assert result["status"] == "error"
    assert "32 dimensions" in error["message"] and "holds vectors of 64" in error["message"]
    assert error["node"]["name"] == "Insert"
    with psycopg.connect(URL) as conn:
        assert conn.execute(f"SELECT count(*) FROM {table}").fetchone() == (3,)
