"""A fake Metabase API: ``POST /api/session`` gives the session token the ``X-Metabase-Session`` header must carry;
questions (cards, their results as JSON rows or CSV), metrics, databases (``{data: […]}``) and alerts. Stateless."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

USER, PASSWORD, SESSION = "admin@example.com", "metabase-pass", "mb-session-0001"

CARDS = [
    {"id": 1, "name": "Orders by month", "display": "line", "database_id": 1, "collection_id": None,
     "description": "Orders per month", "archived": False, "creator_id": 1},
    {"id": 2, "name": "Top products", "display": "table", "database_id": 1, "collection_id": 3,
     "description": None, "archived": False, "creator_id": 1},
]  # fmt: skip
ROWS = [{"month": "2024-01", "orders": 12}, {"month": "2024-02", "orders": 17}]
METRICS = [{"id": 7, "name": "Revenue", "table_id": 4, "archived": False, "definition": {"aggregation": [["sum"]]}}]
DATABASES = [
    {"id": 1, "name": "Sample Database", "engine": "h2", "description": "Some example data", "creator_id": None,
     "timezone": "UTC", "created_at": "2024-01-01T00:00:00Z", "updated_at": "2024-01-02T00:00:00Z",
     "native_permissions": "write", "is_sample": True},
    {"id": 2, "name": "Warehouse", "engine": "postgres", "description": None, "creator_id": 1,
     "timezone": "Europe/Berlin", "created_at": "2024-02-01T00:00:00Z", "updated_at": "2024-02-02T00:00:00Z",
     "native_permissions": "write", "is_sample": False},
]  # fmt: skip
FIELDS = [{"id": 11, "name": "ID", "display_name": "ID", "base_type": "type/BigInteger", "table_name": "ORDERS"}]
ALERTS = [{"id": 3, "card": {"id": 1, "name": "Orders by month"}, "alert_condition": "rows", "archived": False}]


def _session(request: ApiRequest) -> None:
    require(
        request.headers.get("x-metabase-session") == SESSION,
        ApiReply(status=401, text="Unauthenticated", content_type="text/plain"),
    )


def session(request: ApiRequest) -> ApiReply:
    body = request.body if isinstance(request.body, dict) else {}
    if body.get("username") != USER or body.get("password") != PASSWORD:
        return json_error(401, {"errors": {"password": "did not match stored password"}})
    return ApiReply(body={"id": SESSION})


def _one(items: list[dict[str, Any]], key: str) -> ApiReply:
    found = next((i for i in items if str(i["id"]) == key), None)
    return ApiReply(body=found) if found else ApiReply(status=404, text="Not found.", content_type="text/plain")


def install(server: FakeApiServer, prefix: str = "/metabase") -> None:
    def guarded(handler: Any) -> Any:
        def answer(request: ApiRequest) -> ApiReply:
            _session(request)
            reply: ApiReply = handler(request)
            return reply

        return answer

    server.route("POST", rf"{prefix}/api/session", session)
    server.route("GET", rf"{prefix}/api/card/?", guarded(lambda r: ApiReply(body=CARDS)))
    server.route("GET", rf"{prefix}/api/card/(?P<id>\w+)", guarded(lambda r: _one(CARDS, r.params["id"])))
    server.route("POST", rf"{prefix}/api/card/(?P<id>\w+)/query/(?P<format>\w+)", guarded(_result))
    server.route("GET", rf"{prefix}/api/metric/?", guarded(lambda r: ApiReply(body=METRICS)))
    server.route("GET", rf"{prefix}/api/metric/(?P<id>\w+)", guarded(lambda r: _one(METRICS, r.params["id"])))
    server.route("GET", rf"{prefix}/api/database/?", guarded(lambda r: ApiReply(body={"data": DATABASES, "total": 2})))
    server.route("POST", rf"{prefix}/api/database/?", guarded(_add_database))
    server.route("GET", rf"{prefix}/api/database/(?P<id>\w+)/fields", guarded(lambda r: ApiReply(body=FIELDS)))
    server.route("GET", rf"{prefix}/api/alert/?", guarded(lambda r: ApiReply(body=ALERTS)))
    server.route("GET", rf"{prefix}/api/alert/(?P<id>\w+)", guarded(lambda r: _one(ALERTS, r.params["id"])))


def _result(request: ApiRequest) -> ApiReply:
    if not any(str(c["id"]) == request.params["id"] for c in CARDS):
        return ApiReply(status=404, text="Not found.", content_type="text/plain")
    if request.params["format"] == "csv":
        text = "month,orders\n" + "".join(f"{r['month']},{r['orders']}\n" for r in ROWS)
        return ApiReply(text=text, content_type="text/csv")
    return ApiReply(body=ROWS)


def _add_database(request: ApiRequest) -> ApiReply:
    body = request.body if isinstance(request.body, dict) else {}
    require(bool(body.get("name")), json_error(400, {"errors": {"name": "value must be a non-blank string."}}))
    created = {"id": 9, "created_at": "2024-03-01T00:00:00Z", "timezone": None, **body}
    return ApiReply(body=created)


__all__ = ["PASSWORD", "SESSION", "USER", "install"]
