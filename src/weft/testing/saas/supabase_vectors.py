"""The vector side of the fake Supabase project (host ``weft.supabase.example``, beside
:mod:`weft.testing.saas.supabase`): table ``documents`` (``id``, ``content``, ``metadata``, ``embedding``) and
the RPC ``match_documents`` of Supabase's LangChain guide.

The table holds fixed rows whose embeddings are the oracle's fake embeddings of their content (16 dimensions).
Inserts (``POST /rest/v1/documents``, upserts with ``Prefer: return=representation``) answer the rows they would
write, with ids from 1001, and change nothing, so recorded cases stay independent. ``POST
/rest/v1/rpc/match_documents`` with ``query_embedding``, ``match_count`` and ``filter`` answers the rows whose
metadata contains the filter, nearest first, ``similarity`` = 1 - cosine distance, as the SQL function does.
Errors are PostgREST's: a wrong key (401), an unknown function (404, PGRST202), another dimension (400, 22000).
"""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require
from weft.testing.saas.pinecone import DIMENSION, cosine, embed
from weft.testing.saas.supabase import HOST, KEY

DOCUMENTS = [
    (1, "Cats purr when they are content and sleep most of the day", {"animal": "cat", "source": "pets.md"}),
    (2, "Dogs bark at the mailman and love long walks", {"animal": "dog", "source": "pets.md"}),
    (3, "Parrots can learn words and live for decades", {"animal": "bird", "source": "birds.md"}),
    (4, "Holidays are requested through the people portal", {"source": "handbook.md"}),
]


def _error(status: int, code: str, message: str, details: str | None = None, hint: str | None = None) -> ApiReply:
    return json_error(status, {"code": code, "details": details, "hint": hint, "message": message})


def _authorized(request: ApiRequest) -> None:
    good = request.headers.get("apikey") == KEY and request.headers.get("authorization") == f"Bearer {KEY}"
    require(
        good,
        _error(401, "PGRST301", "Invalid API key", hint="Double check your Supabase `anon` or `service_role` API key."),
    )


def _dimension_error(length: int) -> ApiReply:
    return _error(400, "22000", f"expected {DIMENSION} dimensions, not {length}")


def install(server: FakeApiServer) -> None:
    rows: list[dict[str, Any]] = [
        {"id": id_, "content": content, "metadata": metadata, "embedding": embed(content)}
        for id_, content, metadata in DOCUMENTS
    ]

    def insert(request: ApiRequest) -> ApiReply:
        _authorized(request)
        body = request.body if isinstance(request.body, list) else [request.body]
        answered: list[dict[str, Any]] = []
        for offset, row in enumerate(body):
            require(isinstance(row, dict), _error(400, "PGRST102", "Empty or invalid json"))
            embedding = row.get("embedding") or []
            require(len(embedding) == DIMENSION, _dimension_error(len(embedding)))
            answered.append({"id": row.get("id", 1001 + offset), **{k: v for k, v in row.items() if k != "id"}})
        if "return=representation" in request.headers.get("prefer", ""):
            return ApiReply(status=201, body=answered)
        return ApiReply(status=201)

    def match(request: ApiRequest) -> ApiReply:
        _authorized(request)
        body: dict[str, Any] = request.body if isinstance(request.body, dict) else {}
        query: Any = body.get("query_embedding")
        require(
            isinstance(query, list),
            _error(
                404,
                "PGRST202",
                "Could not find the function public.match_documents without parameters in the schema cache",
                hint="Perhaps you meant to call the function public.match_documents(filter, match_count, "
                "query_embedding)",
            ),
        )
        require(len(query) == DIMENSION, _dimension_error(len(query)))
        wanted: dict[str, Any] = body["filter"] if isinstance(body.get("filter"), dict) else {}
        hits = [
            (cosine(query, row["embedding"]), row)
            for row in rows
            if all(row["metadata"].get(k) == v for k, v in wanted.items())
        ]
        hits.sort(key=lambda hit: (-hit[0], hit[1]["id"]))
        count = body.get("match_count")
        limited = hits if count is None else hits[: int(count)]
        return ApiReply(
            body=[
                {"id": r["id"], "content": r["content"], "metadata": r["metadata"], "similarity": s} for s, r in limited
            ]
        )

    def unknown_function(request: ApiRequest) -> ApiReply:
        _authorized(request)
        name = request.params["name"]
        return _error(
            404,
            "PGRST202",
            f"Could not find the function public.{name}(filter, match_count, query_embedding) in the schema cache",
            hint="Perhaps you meant to call the function public.match_documents",
        )

    server.route("POST", r"/rest/v1/documents", insert, host=HOST)
    server.route("POST", r"/rest/v1/rpc/(?P<name>[^/]+)", unknown_function, host=HOST)
    server.route("POST", r"/rest/v1/rpc/match_documents", match, host=HOST)
