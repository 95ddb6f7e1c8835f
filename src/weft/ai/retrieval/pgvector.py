"""PGVector: documents and vectors in a PostgreSQL table with the ``vector`` extension (LangChain's ``PGVectorStore``).

The table is LangChain's: ``id uuid DEFAULT gen_random_uuid() PRIMARY KEY, text text, metadata jsonb, embedding
vector`` (column names configurable), created when missing; with a collection, a collection table ``(uuid, name,
cmetadata)`` and a ``collection_id`` column referencing it, the collection's row created on first use, as
LangChain does. Searches order by the distance operator of the strategy (``<=>`` cosine, ``<#>`` inner product,
``<->`` euclidean) and score each document by that distance (smaller is nearer), as n8n shows it.

Unlike LangChain, a write is one transaction (table, collection row and every row, or nothing), vectors whose
length differs from the table's are refused before anything is written, and names are quoted identifiers, never
SQL text: a table name is one or two plain identifiers (``schema.table``), folded to lower case as PostgreSQL folds
LangChain's unquoted names, so Weft and n8n share tables.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from weft.ai.retrieval.backend_errors import VectorStoreBackendError
from weft.ai.retrieval.documents import Document
from weft.ai.retrieval.embeddings import Vector
from weft.ai.retrieval.errors import VectorDimensionError
from weft.ai.retrieval.vector_store import ScoredDocument

#: LangChain's rows per ``INSERT``.
CHUNK_SIZE = 500
OPERATORS = {"cosine": "<=>", "innerProduct": "<#>", "euclidean": "<->"}
_PLAIN = re.compile(r"^[A-Za-z_][A-Za-z0-9_$]*$")
_COMPARISONS = {"gt": ">", "gte": ">=", "lt": "<", "lte": "<="}


@dataclass(frozen=True, kw_only=True)
class PGVectorColumns:
    id: str = "id"
    vector: str = "embedding"
    content: str = "text"
    metadata: str = "metadata"


@dataclass(frozen=True, kw_only=True)
class PGVectorSettings:
    table_name: str = "n8n_vectors"
    collection_name: str | None = None
    """With ``collection_table``: the collection the documents belong to (``None``: no collections)."""
    collection_table: str | None = None
    columns: PGVectorColumns = field(default_factory=PGVectorColumns)
    distance_strategy: str = "cosine"


def table_identifier(name: str, what: str = "table") -> Any:
    """``name`` (``table`` or ``schema.table``) as a quoted SQL identifier, folded as PostgreSQL folds it."""
    from psycopg import sql

    parts = name.split(".")
    if not name or len(parts) > 2 or not all(_PLAIN.match(p) for p in parts):
        raise VectorStoreBackendError(
            f"The {what} name {name!r} is not a plain PostgreSQL name",
            description="Use letters, digits and underscores (optionally 'schema.table'), starting with a letter.",
        )
    return sql.Identifier(*(p.lower() for p in parts))


def vector_literal(vector: Sequence[float]) -> str:
    """pgvector's text form of a vector (LangChain's ``[${embedding.join(",")}]``)."""
    return "[" + ",".join(repr(float(x)) for x in vector) + "]"


Connect = Callable[[], Awaitable[Any]]


class PGVectorStore:
    """A :class:`~weft.ai.retrieval.vector_store.VectorStore` on PostgreSQL: each call on a psycopg
    ``AsyncConnection`` from ``connect`` (closed after it), or on ``connection`` when one is given (kept open)."""

    def __init__(self, settings: PGVectorSettings, *, connect: Connect | None = None, connection: Any = None) -> None:
        if settings.distance_strategy not in OPERATORS:
            raise VectorStoreBackendError(
                f"Unknown distance strategy: {settings.distance_strategy}",
                description="Choose Cosine, Inner Product or Euclidean.",
            )
        if connect is None and connection is None:
            raise ValueError("PGVectorStore needs connect or connection")
        self._connect = connect
        self.connection = connection
        self.settings = settings
        self.table = table_identifier(settings.table_name)
        self.collection_table = (
            table_identifier(settings.collection_table, "collection table") if settings.collection_table else None
        )

    # ------------------------------------------------------------------ schema

    async def ensure_tables(self, conn: Any) -> None:
        """LangChain's ``ensureTableInDatabase`` and ``ensureCollectionTableInDatabase``."""
        from psycopg import sql

        c = self.settings.columns
        await self._run(conn, "CREATE EXTENSION IF NOT EXISTS vector", ())
        await self._run(
            conn,
            sql.SQL(
                "CREATE TABLE IF NOT EXISTS {} ({} uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY, "
                "{} text, {} jsonb, {} vector)"
            ).format(self.table, *map(sql.Identifier, (c.id, c.content, c.metadata, c.vector))),
            (),
        )
        if self.collection_table is None:
            return
        table = str(self.settings.collection_table).split(".")[-1].lower()
        own = self.settings.table_name.split(".")[-1].lower()
        await self._run(
            conn,
            sql.SQL(
                "CREATE TABLE IF NOT EXISTS {} (uuid uuid NOT NULL DEFAULT gen_random_uuid() PRIMARY KEY, "
                "name character varying, cmetadata jsonb)"
            ).format(self.collection_table),
            (),
        )
        await self._run(
            conn,
            sql.SQL("CREATE INDEX IF NOT EXISTS {} ON {} (name)").format(
                sql.Identifier(f"idx_{table}_name"), self.collection_table
            ),
            (),
        )
        await self._run(
            conn, sql.SQL("ALTER TABLE {} ADD COLUMN IF NOT EXISTS collection_id uuid").format(self.table), ()
        )
        await self._add_foreign_key(conn, f"{own}_collection_id_fkey")

    async def _add_foreign_key(self, conn: Any, name: str) -> None:
        from psycopg import sql

        if not await self._rows(conn, "SELECT 1 FROM pg_constraint WHERE conname = %s", (name,)):
            await self._run(
                conn,
                sql.SQL(
                    "ALTER TABLE {} ADD CONSTRAINT {} FOREIGN KEY (collection_id) REFERENCES {}(uuid) ON DELETE CASCADE"
                ).format(self.table, sql.Identifier(name), self.collection_table),
                (),
            )

    async def collection_id(self, conn: Any) -> str | None:
        """The collection's uuid, its row created when missing (LangChain's ``getOrCreateCollection``)."""
        from psycopg import sql

        if self.collection_table is None:
            return None
        name = self.settings.collection_name or "langchain"
        found = await self._rows(
            conn, sql.SQL("SELECT uuid FROM {} WHERE name = %s").format(self.collection_table), (name,)
        )
        if found:
            return str(found[0][0])
        created = await self._rows(
            conn,
            sql.SQL("INSERT INTO {}(uuid, name, cmetadata) VALUES (gen_random_uuid(), %s, NULL) RETURNING uuid").format(
                self.collection_table
            ),
            (name,),
        )
        return str(created[0][0])

    async def stored_dimensions(self, conn: Any) -> int | None:
        """The length of the table's vectors (``None``: no vector yet)."""
        from psycopg import sql

        rows = await self._rows(
            conn,
            sql.SQL("SELECT vector_dims({}) FROM {} WHERE {} IS NOT NULL LIMIT 1").format(
                sql.Identifier(self.settings.columns.vector), self.table, sql.Identifier(self.settings.columns.vector)
            ),
            (),
        )
        return int(rows[0][0]) if rows else None

    # ------------------------------------------------------------------ protocol

    async def add_vectors(self, vectors: Sequence[Vector], documents: Sequence[Document]) -> None:
        """Create the tables if needed and insert every row, in one transaction."""
        if len(vectors) != len(documents):
            raise VectorDimensionError(f"{len(vectors)} vectors were given for {len(documents)} documents")
        async with self.session() as conn, conn.transaction():
            await self.ensure_tables(conn)
            if documents:
                self._check_dimensions(await self.stored_dimensions(conn), vectors)
                collection = await self.collection_id(conn)
                for start in range(0, len(documents), CHUNK_SIZE):
                    await self._insert(
                        conn, vectors[start : start + CHUNK_SIZE], documents[start : start + CHUNK_SIZE], collection
                    )

    def _check_dimensions(self, current: int | None, vectors: Sequence[Vector]) -> None:
        from weft.ai.retrieval.vector_store import InMemoryVectorStore

        lengths = sorted({len(v) for v in vectors})
        if len(lengths) != 1 or lengths[0] == 0:
            raise VectorDimensionError(
                f"The embeddings to store have different numbers of dimensions ({', '.join(map(str, lengths))})",
                description="Every vector of a store must have the same length; use one embedding model.",
            )
        InMemoryVectorStore.check_length(self.settings.table_name, current, lengths[0])

    async def _insert(
        self, conn: Any, vectors: Sequence[Vector], documents: Sequence[Document], collection: str | None
    ) -> None:
        from psycopg import sql

        c = self.settings.columns
        names = [c.content, c.vector, c.metadata] + (["collection_id"] if collection else [])
        row = sql.SQL("(" + ", ".join(["%s"] * len(names)) + ")")
        values: list[Any] = []
        for vector, document in zip(vectors, documents, strict=True):
            values += [document.page_content.replace("\0", ""), vector_literal(vector), json.dumps(document.metadata)]
            if collection:
                values.append(collection)
        query = sql.SQL("INSERT INTO {} ({}) VALUES {}").format(
            self.table, sql.SQL(", ").join(map(sql.Identifier, names)), sql.SQL(", ").join([row] * len(documents))
        )
        await self._run(conn, query, values)

    async def search(self, query: Vector, k: int, filter: Any = None) -> list[ScoredDocument]:
        """The ``k`` rows nearest to ``query`` (the tables created when missing, as LangChain does), with distances."""
        async with self.session() as conn:
            async with conn.transaction():
                await self.ensure_tables(conn)
                collection = await self.collection_id(conn)
            return await self._nearest(conn, query, k, filter, collection)

    async def _nearest(
        self, conn: Any, query: Vector, k: int, filter: Any, collection: str | None
    ) -> list[ScoredDocument]:
        from psycopg import sql

        c = self.settings.columns
        clauses: list[Any] = []
        params: list[Any] = [vector_literal(query)]
        if collection:
            clauses.append(sql.SQL("collection_id = %s"))
            params.append(collection)
        for clause, values in filter_clauses(sql.Identifier(c.metadata), filter):
            clauses.append(clause)
            params += values
        where = sql.SQL("WHERE ") + sql.SQL(" AND ").join(clauses) if clauses else sql.SQL("")
        operator = OPERATORS[self.settings.distance_strategy]
        text = sql.SQL(
            "SELECT {}, {}, {}, {} " + operator + " %s AS _distance FROM {} {} ORDER BY _distance ASC LIMIT %s"
        ).format(*map(sql.Identifier, (c.id, c.content, c.metadata, c.vector)), self.table, where)
        rows = await self._rows(conn, text, [*params, max(int(k), 0)])
        return [
            ScoredDocument(
                document=Document(page_content=content, metadata=metadata or {}, id=str(id_)), score=float(d)
            )
            for id_, content, metadata, d in rows
            if d is not None and content is not None
        ]

    # ------------------------------------------------------------------ queries

    @contextlib.asynccontextmanager
    async def session(self) -> AsyncIterator[Any]:
        """The connection to use: the given one, or a new one closed afterwards."""
        import psycopg

        if self.connection is not None:
            yield self.connection
            return
        assert self._connect is not None
        try:
            conn = await self._connect()
        except psycopg.Error as error:
            raise query_error(error, self.settings) from error
        try:
            yield conn
        finally:
            await conn.close()

    async def _run(self, conn: Any, query: Any, params: Sequence[Any]) -> None:
        await self._rows(conn, query, params, fetch=False)

    async def _rows(self, conn: Any, query: Any, params: Sequence[Any], fetch: bool = True) -> list[tuple[Any, ...]]:
        import psycopg

        try:
            cursor = await conn.execute(query, params)
            return list(await cursor.fetchall()) if fetch else []
        except psycopg.Error as error:
            raise query_error(error, self.settings) from error


def filter_clauses(metadata: Any, filter: Any) -> list[tuple[Any, list[Any]]]:
    """LangChain's ``buildFilterClauses``: ``{key: value}`` equality, or ``{key: {in, notIn, gt, …, neq}}``."""
    from psycopg import sql

    if not isinstance(filter, Mapping):
        return []
    out: list[tuple[Any, list[Any]]] = []
    for key, value in filter.items():
        text = sql.SQL("{}->>{}").format(metadata, sql.Literal(str(key)))
        if not isinstance(value, Mapping):
            out.append((sql.SQL("{} = %s").format(text), [_text(value)]))
            continue
        for name, negate in (("in", ""), ("notIn", "NOT ")):
            if isinstance(value.get(name), list) and value[name]:
                marks = sql.SQL(", ".join(["%s"] * len(value[name])))
                out.append((sql.SQL("{} " + negate + "IN ({})").format(text, marks), [_text(v) for v in value[name]]))
        for name, op in _COMPARISONS.items():
            if isinstance(value.get(name), int | float) and not isinstance(value.get(name), bool):
                out.append((sql.SQL("({})::numeric " + op + " %s").format(text), [value[name]]))
        if "neq" in value:
            out.append((sql.SQL("({0} IS NULL OR {0} != %s)").format(text), [_text(value["neq"])]))
    return out


def _text(value: Any) -> str:
    """A filter value as ``->>`` yields it (text): JSON for objects, ``true``/``false`` for booleans."""
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or value is None or isinstance(value, list | dict):
        return json.dumps(value)
    return str(value)


def query_error(error: Exception, settings: PGVectorSettings) -> VectorStoreBackendError:
    """A failed statement as a node error naming the table and saying what to fix."""
    message = str(error).split("\n")[0]
    description = "Check the PostgreSQL credential and the table's settings."
    if 'extension "vector" is not available' in message or "could not open extension control file" in message:
        description = "Install pgvector on the PostgreSQL server (Debian: postgresql-<version>-pgvector)."
    elif "permission denied to create extension" in message:
        description = "Ask a superuser to run 'CREATE EXTENSION vector' in this database once."
    elif "different vector dimensions" in message:
        description = "Use the embedding model (and Dimensions) the table was filled with, or another table."
    elif "does not exist" in message:
        description = f"Check the column names of table {settings.table_name!r} (Options > Column Names)."
    return VectorStoreBackendError(f"PGVector table {settings.table_name!r}: {message}", description=description)


__all__ = [
    "CHUNK_SIZE",
    "OPERATORS",
    "PGVectorColumns",
    "PGVectorSettings",
    "PGVectorStore",
    "filter_clauses",
    "query_error",
    "table_identifier",
    "vector_literal",
]
