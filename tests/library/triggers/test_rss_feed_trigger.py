"""RSS Feed Trigger: a feed on a fake host (through the fake as HTTPS proxy), polled by a real server."""

from __future__ import annotations

from typing import Any

from tests.library.triggers.conftest import (
    Clock,
    activate,
    create_workflow,
    drive_poll,
    manual_run,
    output,
    static_data,
)
from tests.server.conftest import LiveServer

from weft.testing.fake_api import ApiReply, FakeApiServer

NODE = "RSS Feed Trigger"
FEED = "https://news.weft.example/feed.xml"


def _feed(*entries: tuple[str, str]) -> str:
    items = "".join(
        f"<item><title>{title}</title><link>https://news.weft.example/{title}</link><pubDate>{date}</pubDate></item>"
        for title, date in entries
    )
    return f'<?xml version="1.0"?><rss version="2.0"><channel><title>News</title>{items}</channel></rss>'


class _Feed:
    def __init__(self, fake: FakeApiServer) -> None:
        self.entries: list[tuple[str, str]] = []
        fake.route("GET", "/feed.xml", self.answer, host="news.weft.example")

    def answer(self, request: Any) -> ApiReply:
        return ApiReply(text=_feed(*self.entries), content_type="application/rss+xml")


def _node() -> dict[str, Any]:
    parameters = {"pollTimes": {"item": [{"mode": "everyMinute"}]}, "feedUrl": FEED}
    return {"name": NODE, "type": "n8n-nodes-base.rssFeedReadTrigger", "typeVersion": 1, "parameters": parameters}


def test_items_newer_than_the_last_seen_start_one_execution_each_poll(
    server: LiveServer, fake: FakeApiServer, clock: Clock
) -> None:
    feed = _Feed(fake)
    feed.entries = [("old", "Sun, 01 Mar 2026 10:00:00 GMT")]
    clock.set("2026-03-01T12:00:00Z")
    workflow = create_workflow(server, _node())
    assert activate(server, workflow["id"]).status_code == 200  # its first poll: nothing newer than activation
    assert static_data(server, workflow["id"])[f"node:{NODE}"]["lastItemDate"] == "2026-03-01T10:00:00.000Z"

    feed.entries = [("fresh", "Sun, 01 Mar 2026 12:05:00 GMT"), *feed.entries]
    clock.set("2026-03-01T12:06:00Z")
    execution_id = drive_poll(server, workflow["id"], NODE)
    assert execution_id is not None
    assert [row["title"] for row in output(server, execution_id, NODE)] == ["fresh"]
    assert static_data(server, workflow["id"])[f"node:{NODE}"]["lastItemDate"] == "2026-03-01T12:05:00.000Z"
    assert drive_poll(server, workflow["id"], NODE) is None  # seen: not emitted twice


def test_a_manual_run_answers_the_first_item(server: LiveServer, fake: FakeApiServer) -> None:
    feed = _Feed(fake)
    feed.entries = [("first", "Sun, 01 Mar 2026 10:00:00 GMT"), ("second", "Sat, 28 Feb 2026 10:00:00 GMT")]
    workflow = create_workflow(server, _node())
    run = manual_run(server, workflow["id"])
    assert [item["json"]["title"] for item in run["data"]["resultData"]["runData"][NODE][0]["data"]["main"][0]] == [
        "first"
    ]
