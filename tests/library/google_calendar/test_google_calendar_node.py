"""The Google Calendar node against the fake Calendar API (``weft.testing.saas.google_calendar``, served as the
HTTPS proxy for ``www.googleapis.com/calendar/v3``): dates read in the workflow's timezone and sent in UTC, the
recurrence rule, pages by ``pageToken``, n8n's key order from 1.3, typed errors, and the date helpers (with a
fixed "now"). Recorded cases s621-s632 hold the outputs to real n8n."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tests.library.fakes import service_fixture

from weft.engine import run_workflow
from weft.engine.services import LocalServices
from weft.library.google.calendar.calendar_node import sorted_keys
from weft.library.google.calendar.times import add_next_occurrence, add_timezone, local_day, utc_text
from weft.testing.saas import FakeSaasServer

CREDENTIALS = {"googleCalendarOAuth2Api": {"oauthTokenData": {"access_token": "calendar-test-token"}}}
PRIMARY = {"__rl": True, "mode": "list", "value": "ada@weft.example"}


saas = service_fixture("google_calendar")


async def _run(params: dict[str, Any], version: float = 1.3, **node: Any) -> tuple[list[Any], Any]:
    workflow = {
        "name": "calendar",
        "nodes": [
            {"name": "T", "type": "n8n-nodes-base.manualTrigger", "typeVersion": 1, "parameters": {}},
            {"name": "Calendar", "type": "n8n-nodes-base.googleCalendar", "typeVersion": version,
             "parameters": {"calendar": PRIMARY, **params},
             "credentials": {"googleCalendarOAuth2Api": {"id": "1", "name": "c"}}, **node},
        ],
        "connections": {"T": {"main": [[{"node": "Calendar", "type": "main", "index": 0}]]}},
        "settings": {"executionOrder": "v1", "timezone": "Europe/Berlin"},
    }  # fmt: skip
    run = await run_workflow(workflow, services=LocalServices(credentials=CREDENTIALS))
    task = run["data"]["resultData"]["runData"]["Calendar"][0]
    return [i["json"] for i in (task.get("data") or {"main": [[]]})["main"][0]], task.get("error")


async def test_create_sends_dates_in_utc_with_the_workflow_s_timezone(saas: FakeSaasServer) -> None:
    fields = {"attendees": ["a@x.example, b@x.example"], "repeatFrecuency": "weekly", "repeatHowManyTimes": 3}
    items, error = await _run(
        {"start": "2025-04-01T10:00:00", "end": "2025-04-01T11:00:00", "additionalFields": fields}
    )
    assert error is None and items[0]["start"]["dateTime"] == "2025-04-01T10:00:00+02:00"
    body = saas.requests[-1].body
    assert body["start"] == {"dateTime": "2025-04-01T08:00:00Z", "timeZone": "Europe/Berlin"}
    assert body["attendees"] == [{"email": "a@x.example"}, {"email": "b@x.example"}]
    assert body["recurrence"] == ["RRULE:FREQ=WEEKLY;COUNT=3;"]
    assert saas.requests[-1].headers["authorization"] == "Bearer calendar-test-token"


async def test_return_all_follows_page_tokens_with_pages_of_100(saas: FakeSaasServer) -> None:
    params = {
        "operation": "getAll",
        "returnAll": True,
        "timeMin": "2025-03-01T00:00:00",
        "timeMax": "2025-04-01T00:00:00",
    }
    items, error = await _run(params)
    assert error is None and len(items) == 9
    assert [(r.query["maxResults"], r.query.get("pageToken")) for r in saas.requests] == [
        ("100", None), ("100", "p4"), ("100", "p8")]  # fmt: skip
    assert saas.requests[0].query["timeMin"] == "2025-02-28T23:00:00Z"
    assert saas.requests[0].query["singleEvents"] == "true"
    assert list(items[0])[:4] == ["id", "summary", "start", "end"]


async def test_both_repeat_options_are_a_typed_error_naming_them(saas: FakeSaasServer) -> None:
    fields = {"repeatHowManyTimes": 2, "repeatUntil": "2025-05-01T00:00:00"}
    _, error = await _run({"start": "2025-04-01T10:00:00", "end": "2025-04-01T11:00:00", "additionalFields": fields})
    assert error["message"] == "You can set either 'Repeat How Many Times' or 'Repeat Until' but not both"
    assert len(saas.requests) == 0


async def test_a_missing_event_fails_with_n8n_s_message(saas: FakeSaasServer) -> None:
    items, error = await _run({"operation": "get", "eventId": "nothere"}, onError="continueRegularOutput")
    assert error is None and items == [{"error": "The resource you are requesting could not be found"}]


def test_dates_are_read_in_the_zone_unless_they_carry_an_offset() -> None:
    assert utc_text("2025-01-15T09:30:00", "America/New_York") == "2025-01-15T14:30:00Z"
    assert utc_text("2025-01-15T09:30:00+01:00", "America/New_York") == "2025-01-15T08:30:00Z"
    assert utc_text("not a date", "UTC") == "Invalid date"
    assert local_day("2025-01-15T23:30:00Z", "Asia/Tokyo") == "2025-01-16"
    assert add_timezone("2025-01-15T09:30:00Z", "Asia/Tokyo") == "2025-01-15T09:30:00Z"
    assert add_timezone("2025-01-15T09:30:00", "Asia/Tokyo") == "2025-01-15T00:30:00Z"


def test_the_next_occurrence_of_a_running_series_after_now() -> None:
    event = {"recurrence": ["RRULE:FREQ=WEEKLY"], "start": {"dateTime": "2025-01-06T09:00:00Z", "timeZone": "UTC"},
             "end": {"dateTime": "2025-01-06T09:30:00Z", "timeZone": "UTC"}}  # fmt: skip
    ended = {**event, "recurrence": ["RRULE:FREQ=WEEKLY;UNTIL=20250201T000000Z"]}
    now = datetime(2025, 3, 4, tzinfo=UTC)
    found = add_next_occurrence([event, ended], now)
    assert found[0]["nextOccurrence"]["start"]["dateTime"] == "2025-03-10T09:00:00Z"
    assert found[0]["nextOccurrence"]["end"]["dateTime"] == "2025-03-10T09:30:00Z"
    assert "nextOccurrence" not in found[1]


def test_keys_are_ordered_as_n8n_orders_them() -> None:
    row = {"kind": 1, "end": 2, "id": 3, "Zeta": 4, "alpha": 5, "summary": 6}
    assert list(sorted_keys(row)) == ["id", "summary", "end", "alpha", "kind", "Zeta"]


async def test_a_calendar_id_that_is_no_address_is_n8n_s_typed_error(saas: FakeSaasServer) -> None:
    by_id = {"__rl": True, "mode": "id", "value": "primary"}
    _, error = await _run({"operation": "get", "eventId": "kickoff0001", "calendar": by_id})
    assert error["message"] == "ERROR: ID parameter's value is invalid"
    assert len(saas.requests) == 0
