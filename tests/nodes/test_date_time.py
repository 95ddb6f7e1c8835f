"""Date & Time: version 2 on the sandbox's Luxon, version 1 on Weft's moment (recorded: n490-n499)."""

from __future__ import annotations

from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import pytest

from weft.library.core._date_time_moment import add, format_moment, iso_string, parse_default, parse_format

UTC_ZONE = ZoneInfo("UTC")
MOMENT = datetime(2024, 3, 5, 14, 7, 9, 45000, tzinfo=ZoneInfo("Europe/Berlin"))


@pytest.mark.parametrize(
    ("fmt", "text"),
    [
        ("YYYY-MM-DD HH:mm:ss.SSS", "2024-03-05 14:07:09.045"),
        ("dddd, MMMM Do YYYY, h:mm a", "Tuesday, March 5th 2024, 2:07 pm"),
        ("ddd MMM D YY [at] k A Z ZZ", "Tue Mar 5 24 at 14 PM +01:00 +0100"),
        ("Q W E DDD DDDD", "1 10 2 65 065"),
        ("L LT", "03/05/2024 2:07 PM"),
        ("X x", "1709644029 1709644029045"),
        ("", "2024-03-05T14:07:09+01:00"),
    ],
)
def test_moment_format(fmt, text):
    assert format_moment(MOMENT, fmt) == text


def test_moment_parsing():
    assert parse_default("2024-01-02", UTC_ZONE) == datetime(2024, 1, 2, tzinfo=UTC_ZONE)
    assert iso_string(parse_default("2024-01-02 03:04:05.5+02:00", UTC_ZONE)) == "2024-01-02T01:04:05.500Z"
    assert iso_string(parse_default("Tue, 02 Jan 2024 03:04:05 GMT", UTC_ZONE)) == "2024-01-02T03:04:05.000Z"
    assert parse_default("not a date", UTC_ZONE) is None
    parsed = parse_format("31/12/1999 11:30 pm", "DD/MM/YYYY hh:mm a", UTC_ZONE, strict=True)
    assert parsed == datetime(1999, 12, 31, 23, 30, tzinfo=UTC_ZONE)
    assert parse_format("1999-12-31", "DD/MM/YYYY", UTC_ZONE, strict=True) is None


def test_moment_add_clamps_month_ends_and_keeps_wall_time_for_days():
    assert add(datetime(2024, 1, 31, tzinfo=UTC), 1, "months") == datetime(2024, 2, 29, tzinfo=UTC)
    assert add(datetime(2024, 1, 31, tzinfo=UTC), 1, "quarters") == datetime(2024, 4, 30, tzinfo=UTC)
    berlin = datetime(2024, 3, 30, 12, tzinfo=ZoneInfo("Europe/Berlin"))  # DST starts on the 31st
    assert add(berlin, 1, "days").hour == 12
    assert add(berlin, 24, "hours").hour == 13


DATES = [{"d": "2024-03-10T01:30:45.123Z"}]


async def test_v2_add_and_format_in_the_workflow_timezone(run_node, js):
    run = await run_node(
        "dateTime", {"operation": "addToDate", "magnitude": "={{ $json.d }}", "duration": 2}, DATES, typeVersion=2
    )
    assert js(run) == [{"newDate": "2024-03-11T20:30:45.123-04:00"}]  # New York: two calendar days, across DST
    params = {"operation": "formatDate", "date": "={{ $json.d }}", "format": "custom", "customFormat": "yyyy LLL dd"}
    assert js(await run_node("dateTime", params, DATES, typeVersion=2)) == [{"formattedDate": "2024 Mar 10"}]


async def test_v2_between_extract_and_round(run_node, js):
    between = {
        "operation": "getTimeBetweenDates",
        "startDate": "2024-01-01",
        "endDate": "={{ $json.d }}",
        "units": ["month", "day"],
    }
    assert js(await run_node("dateTime", between, DATES, typeVersion=2)) == [
        {"timeDifference": {"months": 2, "days": 9.065762355072463}}
    ]
    extract = {"operation": "extractDate", "date": "={{ $json.d }}", "part": "week"}
    assert js(await run_node("dateTime", extract, DATES, typeVersion=2)) == [{"datePart": 10}]
    round_up = {"operation": "roundDate", "date": "={{ $json.d }}", "mode": "roundUp"}
    assert js(await run_node("dateTime", round_up, DATES, typeVersion=2)) == [
        {"roundedDate": "2024-04-01T00:00:00.000-04:00"}
    ]


async def test_v2_errors(run_node, js):
    bad = {"operation": "formatDate", "date": "no date here"}
    run = await run_node("dateTime", bad, DATES, typeVersion=2)
    assert run["data"]["resultData"]["error"]["message"] == "Invalid date format"
    zone = {"operation": "getCurrentDate", "options": {"timezone": "Nowhere/City"}}
    run = await run_node("dateTime", zone, DATES, typeVersion=2, onError="continueRegularOutput")
    assert js(run) == [{"error": "The timezone Nowhere/City is not valid. Please check the timezone."}]


async def test_v1_format_and_calculate(run_node, js):
    fmt = {
        "value": "={{ $json.d }}",
        "custom": True,
        "toFormat": "YYYY-MM-DD HH:mm",
        "dataPropertyName": "x",
        "options": {"toTimezone": "Asia/Tokyo"},
    }
    assert js(await run_node("dateTime", fmt, DATES))[0]["x"] == "2024-03-10 10:30"
    calc = {"action": "calculate", "value": "2024-01-31", "duration": 1, "timeUnit": "months"}
    assert js(await run_node("dateTime", calc, DATES))[0]["data"] == "2024-02-29T00:00:00.000Z"
    run = await run_node("dateTime", {"value": "nope"}, DATES)
    assert "could not be recognized" in run["data"]["resultData"]["error"]["message"]


async def test_v1_custom_format_left_empty_is_moments_default(run_node, js):
    params = {"value": "2024-01-02T03:04:05Z", "custom": True}
    assert js(await run_node("dateTime", params, DATES))[0]["data"] == "2024-01-02T03:04:05+00:00"
    assert js(await run_node("dateTime", {"value": "2024-01-02T03:04:05Z"}, DATES))[0]["data"] == "01/02/2024"
