"""A fake Azure Cosmos DB SQL API (``https://weftcosmos.documents.azure.com/dbs/weftdb/…``): containers
(``colls``) and items (``docs``), as Cosmos DB answers. Every request must carry the master-key signature Cosmos
DB computes (HMAC-SHA256 of the account key over the verb, resource type, resource id and the request's own
``x-ms-date``): a wrong one gets Cosmos DB's 401. Lists come in pages of ``x-ms-max-item-count`` (2 when not
given: Cosmos DB's default is larger) with an ``x-ms-continuation`` token; the container ``throttled`` answers
429 with ``x-ms-retry-after-ms``. It keeps no state: writes are answered from the request, reads from fixed data."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import re
from typing import Any
from urllib.parse import unquote

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, Rejected, json_error, require

ACCOUNT = "weftcosmos"
DATABASE = "weftdb"
KEY = base64.b64encode(b"weft-fake-cosmos-db-master-key-0001").decode()
HOST = f"{ACCOUNT}.documents.azure.com"
DEFAULT_PAGE = 2
_TYPES = ("dbs", "colls", "sprocs", "udfs", "triggers", "users", "permissions", "docs")
_ACTIVITY = "ActivityId: 00000000-0000-4000-8000-00000000c05d, Microsoft.Azure.Documents.Common/2.14.0"
_TS = 1717200000


def _system(rid: str, self_link: str) -> dict[str, Any]:
    return {"_rid": rid, "_self": self_link, "_etag": f'"{rid}-etag"', "_ts": _TS}


def _container(number: int, name: str, key: str) -> dict[str, Any]:
    rid = f"wEfT{number}A=="
    return {"id": name, "indexingPolicy": {"indexingMode": "consistent", "automatic": True,
            "includedPaths": [{"path": "/*"}], "excludedPaths": [{"path": '/"_etag"/?'}]},
            "partitionKey": {"paths": [f"/{key}"], "kind": "Hash", "version": 2},
            "conflictResolutionPolicy": {"mode": "LastWriterWins", "conflictResolutionPath": "/_ts"},
            **_system(rid, f"dbs/wEfT==/colls/{rid}/"), "_docs": "docs/", "_sprocs": "sprocs/",
            "_triggers": "triggers/", "_udfs": "udfs/", "_conflicts": "conflicts/"}  # fmt: skip


CONTAINERS = {c["id"]: c for c in (_container(1, "orders", "customerId"), _container(2, "people", "id"),
                                   _container(3, "throttled", "id"))}  # fmt: skip


def _doc(container: str, number: int, body: dict[str, Any]) -> dict[str, Any]:
    rid = f"wEfT{container[:2]}{number}AAAA=="
    return {**body, **_system(rid, f"dbs/wEfT==/colls/{container}/docs/{rid}/"), "_attachments": "attachments/"}


DOCS: dict[str, list[dict[str, Any]]] = {
    "orders": [_doc("orders", i, {"id": f"o{i}", "customerId": f"c{(i + 1) // 2}", "total": i * 10.5,
                                  "status": "paid" if i % 2 else "open"}) for i in range(1, 6)],
    "people": [_doc("people", i, {"id": f"u{i}", "name": name, "age": age})
              for i, (name, age) in enumerate((("Ada", 36), ("Alan", 41), ("Grace", 85)), start=1)],
    "throttled": [],
}  # fmt: skip


def _error(status: int, code: str, message: str, **headers: str) -> ApiReply:
    return json_error(status, {"code": code, "message": f"{message}\r\n{_ACTIVITY}"}, **headers)


def _listed_errors(status: int, code: str, *errors: str, **headers: str) -> ApiReply:
    return _error(status, code, "Message: " + json.dumps({"Errors": list(errors)}), **headers)


def _not_found() -> ApiReply:
    return _error(404, "NotFound", "Entity with the specified id does not exist in the system. More info: "
                  "https://aka.ms/cosmosdb-tsg-not-found")  # fmt: skip


def signature(key: str, verb: str, kind: str, resource_id: str, date: str) -> str:
    """Cosmos DB's master-key signature."""
    payload = f"{verb.lower()}\n{kind.lower()}\n{resource_id}\n{date.lower()}\n\n"
    return base64.b64encode(hmac.new(base64.b64decode(key), payload.encode(), hashlib.sha256).digest()).decode()


def _resource(path: str) -> tuple[str, str]:
    """The resource type and id Cosmos DB signs for a path (a feed's id is its parent's)."""
    segments = [s for s in path.split("/") if s]
    if len(segments) % 2:
        return segments[-1], "/".join(segments[:-1])
    return segments[-2], "/".join(segments)


def _authorized(request: ApiRequest) -> None:
    date = request.headers.get("x-ms-date", "")
    require(bool(date) and request.headers.get("x-ms-version") == "2018-12-31",
            _error(401, "Unauthorized", "Required Header authorization is missing. Ensure a valid Authorization "
                   "token is passed."))  # fmt: skip
    kind, resource_id = _resource(request.path)
    want = signature(KEY, request.method, kind, resource_id, date)
    given = unquote(request.headers.get("authorization", ""))
    require(
        given == f"type=master&ver=1.0&sig={want}" and kind in _TYPES,
        _error(401, "Unauthorized", "The input authorization token can't serve the request. The wrong key is being "
               f"used or the expected payload is not built as per the protocol. For more info: "
               f"https://aka.ms/cosmosdb-tsg-mac-signature. Server used the following payload to sign: "
               f"'{request.method.lower()}\n{kind}\n{resource_id}\n{date.lower()}\n\n'"),
    )  # fmt: skip


def _page(request: ApiRequest, entries: list[dict[str, Any]], key: str) -> ApiReply:
    size = int(request.headers.get("x-ms-max-item-count") or DEFAULT_PAGE)
    size = len(entries) if size < 0 else max(size, 1)
    start = int(request.headers.get("x-ms-continuation", "0").removeprefix("+RID:~page") or 0)
    chunk = entries[start : start + size]
    headers = {"x-ms-item-count": str(len(chunk)), "x-ms-request-charge": "2.3"}
    if start + size < len(entries):
        headers["x-ms-continuation"] = f"+RID:~page{start + size}"
    body = {"_rid": "wEfT==", key: chunk, "_count": len(chunk)}
    return ApiReply(body=body, headers=headers)


def _container_named(request: ApiRequest) -> dict[str, Any]:
    found = CONTAINERS.get(request.params["coll"])
    require(found is not None, _not_found())
    assert found is not None
    return found


def list_containers(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return _page(request, list(CONTAINERS.values()), "DocumentCollections")


def get_container(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=_container_named(request))


def delete_container(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _container_named(request)
    return ApiReply(status=204)


def create_container(request: ApiRequest) -> ApiReply:
    _authorized(request)
    body = request.body if isinstance(request.body, dict) else {}
    name = str(body.get("id") or "")
    require(bool(name), _error(400, "BadRequest", "The input content is invalid because the required properties - "
                               "'id; ' - are missing"))  # fmt: skip
    require(name not in CONTAINERS, _error(409, "Conflict", "Entity with the specified id already exists in the "
                                           "system."))  # fmt: skip
    created = _container(9, name, "id")
    created.update({k: body[k] for k in ("partitionKey", "indexingPolicy") if k in body})
    return ApiReply(status=201, body=created)


def list_docs(request: ApiRequest) -> ApiReply:
    _authorized(request)
    name = _container_named(request)["id"]
    if name == "throttled":
        return _listed_errors(429, "429", "Request rate is large. More Request Units may be needed, so no changes "
                              "were made. Please retry this request later. Learn more: "
                              "http://aka.ms/cosmosdb-error-429", **{"x-ms-retry-after-ms": "1000"})  # fmt: skip
    return _page(request, DOCS[name], "Documents")


def _partition_value(request: ApiRequest, container: dict[str, Any]) -> Any:
    given = request.headers.get("x-ms-documentdb-partitionkey")
    require(given is not None, _listed_errors(400, "BadRequest", "PartitionKey value must be supplied for this "
                                              "operation."))  # fmt: skip
    try:
        values = json.loads(given or "")
    except ValueError:
        values = None
    require(isinstance(values, list) and len(values) == 1, _listed_errors(
        400, "BadRequest", "The partition key supplied in x-ms-partitionkey header has fewer components than "
        "defined in the the collection."))  # fmt: skip
    assert isinstance(values, list)
    return values[0]


def _key_of(container: dict[str, Any]) -> str:
    return str(container["partitionKey"]["paths"][0]).lstrip("/")


def post_docs(request: ApiRequest) -> ApiReply:
    _authorized(request)
    container = _container_named(request)
    if request.headers.get("x-ms-documentdb-isquery", "").lower() == "true":
        return _query(request, container)
    body = request.body if isinstance(request.body, dict) else {}
    value = _partition_value(request, container)
    require(str(body.get(_key_of(container))) == str(value), _listed_errors(
        400, "BadRequest", "PartitionKey extracted from document doesn't match the one specified in the header. "
        "Learn more: https://aka.ms/CosmosDB/sql/errors/wrong-pk-value"))  # fmt: skip
    require(bool(body.get("id")), _listed_errors(400, "BadRequest", "The input content is invalid because the "
                                                 "required properties - 'id; ' - are missing"))  # fmt: skip
    return ApiReply(status=201, body=_doc(container["id"], 9, body))


def _found_doc(request: ApiRequest, container: dict[str, Any]) -> dict[str, Any]:
    value = _partition_value(request, container)
    key = _key_of(container)
    for doc in DOCS[container["id"]]:
        if doc["id"] == request.params["doc"] and str(doc.get(key)) == str(value):
            return doc
    raise Rejected(_not_found())


def get_doc(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=_found_doc(request, _container_named(request)))


def replace_doc(request: ApiRequest) -> ApiReply:
    _authorized(request)
    container = _container_named(request)
    old = _found_doc(request, container)
    body = request.body if isinstance(request.body, dict) else {}
    require(body.get("id") == old["id"], _listed_errors(400, "BadRequest", "The value of the 'id' property in the "
                                                         "document must match the id in the URI."))  # fmt: skip
    fresh = {k: v for k, v in body.items() if not k.startswith("_")}
    return ApiReply(body={**fresh, **{k: v for k, v in old.items() if k.startswith("_")}})


def delete_doc(request: ApiRequest) -> ApiReply:
    _authorized(request)
    _found_doc(request, _container_named(request))
    return ApiReply(status=204)


_SELECT = re.compile(r"SELECT \* FROM c(?: WHERE c\.(\w+) (=|>) (@\w+|\d+|'[^']*'))?", re.IGNORECASE)


def _query(request: ApiRequest, container: dict[str, Any]) -> ApiReply:
    """``SELECT * FROM c`` with at most one ``WHERE c.<field> = | > <value or @parameter>``."""
    require("application/query+json" in request.headers.get("content-type", ""), _error(
        400, "BadRequest", "The specified content type is not supported for query requests."))  # fmt: skip
    body = request.body if isinstance(request.body, dict) else {}
    match = _SELECT.fullmatch(str(body.get("query") or "").strip())
    near = str(body.get("query") or "").split(" ")[2:3] or [""]
    syntax = {"errors": [{"severity": "Error", "code": "SC1001", "message": f"Syntax error, incorrect syntax near "
                          f"'{near[0]}'."}]}  # fmt: skip
    require(match is not None, _error(400, "BadRequest", "Message: " + json.dumps(syntax)))
    assert match is not None
    field, operator, wanted = match.groups()
    params = {p.get("name"): p.get("value") for p in body.get("parameters") or [] if isinstance(p, dict)}
    if wanted is not None:
        require(not wanted.startswith("@") or wanted in params, _error(
            400, "BadRequest", "Message: " + json.dumps({"errors": [{"severity": "Error", "code": "SC2001",
            "message": f"Identifier '{wanted}' could not be resolved."}]})))  # fmt: skip
    value = params.get(wanted) if wanted and wanted.startswith("@") else _literal(wanted)
    docs = DOCS[container["id"]]
    if field is not None:
        docs = [d for d in docs if _matches(d.get(field), operator, value)]
    return _page(request, docs, "Documents")


def _literal(text: str | None) -> Any:
    if text is None:
        return None
    return text.strip("'") if text.startswith("'") else int(text)


def _matches(found: Any, operator: str, value: Any) -> bool:
    if operator == "=":
        return bool(found == value) and type(found) is type(value)
    try:
        return bool(found > value)
    except TypeError:
        return False


def install(server: FakeApiServer) -> None:
    base = rf"/dbs/{DATABASE}/colls"
    coll = r"(?P<coll>[^/]+)"
    server.route("GET", base, list_containers, host=HOST)
    server.route("POST", base, create_container, host=HOST)
    server.route("GET", rf"{base}/{coll}", get_container, host=HOST)
    server.route("DELETE", rf"{base}/{coll}", delete_container, host=HOST)
    server.route("GET", rf"{base}/{coll}/docs", list_docs, host=HOST)
    server.route("POST", rf"{base}/{coll}/docs", post_docs, host=HOST)
    server.route("GET", rf"{base}/{coll}/docs/(?P<doc>[^/]+)", get_doc, host=HOST)
    server.route("PUT", rf"{base}/{coll}/docs/(?P<doc>[^/]+)", replace_doc, host=HOST)
    server.route("DELETE", rf"{base}/{coll}/docs/(?P<doc>[^/]+)", delete_doc, host=HOST)


__all__ = ["ACCOUNT", "CONTAINERS", "DATABASE", "DOCS", "HOST", "KEY", "install", "signature"]
