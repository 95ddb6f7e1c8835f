"""Airtable's record list (``GET /v0/<base>/<table>``) for the Airtable Trigger's tests: ``filterByFormula``'s
``IS_AFTER({field}, DATETIME_PARSE("<time>", …))`` is applied to the records the test put in
:attr:`AirtableState.records` (as times); two records a page, with ``offset``."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error

HOST = "api.airtable.com"
TOKEN = "pat-trigger-test"
PAGE = 2


@dataclass
class AirtableState:
    records: list[dict[str, Any]] = field(default_factory=list)
    queries: list[dict[str, str]] = field(default_factory=list)


def _time(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def install(server: FakeApiServer, token: str = TOKEN) -> AirtableState:
    state = AirtableState()

    def listing(request: ApiRequest) -> ApiReply:
        if request.headers.get("authorization") != f"Bearer {token}":
            return json_error(401, {"error": {"type": "AUTHENTICATION_REQUIRED", "message": "Authentication required"}})
        if request.params["table"] != "tblTasks":
            return json_error(404, {"error": {"type": "TABLE_NOT_FOUND", "message": "Could not find table"}})
        state.queries.append(dict(request.query))
        records = list(state.records)
        formula = request.query.get("filterByFormula", "")
        found = re.search(r'IS_AFTER\(\{(?P<field>[^}]+)\}, DATETIME_PARSE\("(?P<time>[^"]+)"', formula)
        if found:
            name, after = found.group("field"), found.group("time")
            records = [r for r in records if name in r["fields"] and _time(r["fields"][name]) > _time(after)]
        records = records[: int(request.query.get("maxRecords", "100000"))]
        start = int(request.query.get("offset", "0"))
        body: dict[str, Any] = {"records": records[start : start + PAGE]}
        if start + PAGE < len(records):
            body["offset"] = str(start + PAGE)
        return ApiReply(body=body)

    server.route("GET", r"/v0/(?P<base>app\w+)/(?P<table>\w+)", listing, host=HOST)
    return state
