"""A fake Pinecone: the control plane at ``https://api.pinecone.io`` (list and describe indexes) and the data plane
of index ``weft-docs`` (16 dimensions, cosine) at its own host: ``/vectors/upsert``, ``/query``, ``/vectors/delete``.

Namespaces ``""`` and ``handbook`` hold fixed documents whose vectors are the oracle's fake embeddings of their
text (word counts hashed into 16 dimensions), so a search with the fake model's query embedding finds them. Those
two namespaces never change: upserts and deletes there are answered and dropped, so recorded cases stay
independent. Other namespaces keep what is upserted (per server), so a case can insert then search; it clears its
own namespace first (Options > Clear Namespace). Errors are Pinecone's bodies: a wrong key (401), an unknown index
(404), a vector of another dimension (400).
"""

from __future__ import annotations

import hashlib
import math
import re
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

CONTROL = "api.pinecone.io"
KEY = "pinecone-test-key"
INDEX = "weft-docs"
DATA_HOST = "weft-docs-a1b2c3d.svc.aped-4627-b74a.pinecone.io"
DIMENSION = 16
SEEDED: dict[str, list[tuple[str, str, dict[str, Any]]]] = {
    "": [
        ("doc-1", "Cats purr when they are content and sleep most of the day", {"animal": "cat", "page": 1}),
        ("doc-2", "Dogs bark at the mailman and love long walks", {"animal": "dog", "page": 2}),
        ("doc-3", "Parrots can learn words and live for decades", {"animal": "bird", "page": 3}),
    ],
    "handbook": [
        ("hb-1", "Holidays are requested through the people portal", {"section": "leave"}),
        ("hb-2", "Expenses are reimbursed at the end of each month", {"section": "money"}),
    ],
}


def embed(text: str) -> list[float]:
    """The oracle's fake embedding (``fake_llm.embed``)."""
    vector = [0.0] * DIMENSION
    for word in re.findall(r"[a-z0-9]+", text.lower()):
        if len(word) >= 3:
            vector[int(hashlib.md5(word.encode()).hexdigest(), 16) % DIMENSION] += 1.0
    if not any(vector):
        vector[0] = 1.0
    return vector


def cosine(a: list[float], b: list[float]) -> float:
    norms = math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))
    return sum(x * y for x, y in zip(a, b, strict=True)) / norms if norms else 0.0


def _error(status: int, code: str, message: str) -> ApiReply:
    return json_error(status, {"error": {"code": code, "message": message}, "status": status})


def _index_body() -> dict[str, Any]:
    return {
        "name": INDEX,
        "vector_type": "dense",
        "metric": "cosine",
        "dimension": DIMENSION,
        "status": {"ready": True, "state": "Ready"},
        "host": DATA_HOST,
        "spec": {"serverless": {"region": "us-east-1", "cloud": "aws"}},
        "deletion_protection": "disabled",
        "tags": None,
    }


def _authorized(request: ApiRequest) -> None:
    require(request.headers.get("api-key") == KEY, _error(401, "UNAUTHENTICATED", "Invalid API Key"))


def _matches(metadata: dict[str, Any], filter: Any) -> bool:
    """Pinecone's metadata filter: ``{key: value}``, ``{key: {"$eq"|"$ne"|"$in"|"$nin": …}}``, ``$and``/``$or``."""
    if not isinstance(filter, dict):
        return True
    for key, wanted in filter.items():
        if key in ("$and", "$or"):
            results = [_matches(metadata, part) for part in wanted]
            if not (all(results) if key == "$and" else any(results)):
                return False
            continue
        value = metadata.get(key)
        ops = wanted if isinstance(wanted, dict) else {"$eq": wanted}
        for op, operand in ops.items():
            ok = {
                "$eq": value == operand,
                "$ne": value != operand,
                "$in": isinstance(operand, list) and value in operand,
                "$nin": isinstance(operand, list) and value not in operand,
            }.get(op, False)
            if not ok:
                return False
    return True


def install(server: FakeApiServer) -> None:
    seeded: dict[str, dict[str, tuple[list[float], dict[str, Any]]]] = {
        ns: {i: (embed(t), {**m, "text": t}) for i, t, m in docs} for ns, docs in SEEDED.items()
    }
    written: dict[str, dict[str, tuple[list[float], dict[str, Any]]]] = {}

    def list_indexes(request: ApiRequest) -> ApiReply:
        _authorized(request)
        return ApiReply(body={"indexes": [_index_body()]})

    def describe(request: ApiRequest) -> ApiReply:
        _authorized(request)
        name = request.params["name"]
        require(name == INDEX, _error(404, "NOT_FOUND", f"Resource {name} not found"))
        return ApiReply(body=_index_body())

    def upsert(request: ApiRequest) -> ApiReply:
        _authorized(request)
        body = request.body if isinstance(request.body, dict) else {}
        vectors = body.get("vectors") or []
        namespace = str(body.get("namespace") or "")
        for vector in vectors:
            values = vector.get("values") or []
            require(
                len(values) == DIMENSION,
                json_error(
                    400,
                    {
                        "code": 3,
                        "message": f"Vector dimension {len(values)} does not match the dimension of the index "
                        f"{DIMENSION}",
                        "details": [],
                    },
                ),
            )
        if namespace not in seeded:
            store = written.setdefault(namespace, {})
            for vector in vectors:
                store[str(vector["id"])] = (list(vector["values"]), dict(vector.get("metadata") or {}))
        return ApiReply(body={"upsertedCount": len(vectors)})

    def query(request: ApiRequest) -> ApiReply:
        _authorized(request)
        body = request.body if isinstance(request.body, dict) else {}
        namespace = str(body.get("namespace") or "")
        vector = body.get("vector") or []
        require(
            len(vector) == DIMENSION,
            json_error(
                400,
                {
                    "code": 3,
                    "message": f"Vector dimension {len(vector)} does not match the dimension of the index {DIMENSION}",
                    "details": [],
                },
            ),
        )
        records = seeded.get(namespace, written.get(namespace, {}))
        scored = [
            (cosine(vector, values), id_, metadata)
            for id_, (values, metadata) in records.items()
            if _matches(metadata, body.get("filter"))
        ]
        scored.sort(key=lambda hit: (-hit[0], hit[1]))
        matches = [
            {
                "id": id_,
                "score": round(score, 7),
                "values": [],
                **({"metadata": m} if body.get("includeMetadata") else {}),
            }
            for score, id_, m in scored[: int(body.get("topK") or 10)]
        ]
        return ApiReply(body={"results": [], "matches": matches, "namespace": namespace, "usage": {"readUnits": 1}})

    def delete(request: ApiRequest) -> ApiReply:
        _authorized(request)
        body = request.body if isinstance(request.body, dict) else {}
        namespace = str(body.get("namespace") or "")
        if namespace not in seeded:
            require(namespace in written, _error(404, "NOT_FOUND", f"Namespace not found: {namespace}"))
            if body.get("deleteAll"):
                written.pop(namespace, None)
            for id_ in body.get("ids") or []:
                written.get(namespace, {}).pop(str(id_), None)
        return ApiReply(body={})

    server.route("GET", r"/indexes", list_indexes, host=CONTROL)
    server.route("GET", r"/indexes/(?P<name>[^/]+)", describe, host=CONTROL)
    server.route("POST", r"/vectors/upsert", upsert, host=DATA_HOST)
    server.route("POST", r"/query", query, host=DATA_HOST)
    server.route("POST", r"/vectors/delete", delete, host=DATA_HOST)
