"""RSS Read against feeds served on 127.0.0.1 (weft.testing.feeds through the HTTP echo server)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from weft.testing.http_echo import HttpEchoServer


@pytest.fixture
def feeds() -> Iterator[HttpEchoServer]:
    with HttpEchoServer() as server:
        yield server


async def test_rss2_items(run_node, js, feeds):
    run = await run_node("rssFeedRead", {"url": feeds.url + "/feed/rss"}, [{}], version=1.2)
    first, second = js(run)
    assert first["title"] == "First & foremost" and first["creator"] == "Ada Lovelace"
    assert first["categories"] == ["engines", "python"] and first["guid"] == "news-1"
    assert first["content"] == "<p>The <b>first</b> story.</p>" and first["contentSnippet"] == "The first story."
    assert first["enclosure"] == {"url": "http://127.0.0.1/a.mp3", "length": "1234", "type": "audio/mpeg"}
    assert first["isoDate"] == "2026-03-02T09:30:00.000Z"
    assert second["isoDate"] == "2026-03-01T07:00:00.000Z" and second["creator"] == "grace@example.com (Grace Hopper)"
    assert feeds.requests[0]["path"] == "/feed/rss"


async def test_atom_custom_fields_and_v1_reads_once(run_node, js, out, feeds):
    run = await run_node("rssFeedRead", {"url": feeds.url + "/feed/atom"}, [{}, {}], version=1)
    assert [row["title"] for row in js(run)] == ["Atom entry one", "Atom entry two"]
    assert out(run)[0][0]["pairedItem"] == [{"item": 0}, {"item": 1}]
    assert js(run)[0]["link"] == "http://127.0.0.1/atom/1" and js(run)[0]["pubDate"] == "2026-03-01T09:00:00.000Z"
    params = {"url": feeds.url + "/feed/rss", "options": {"customFields": "custom:rating"}}
    run = await run_node("rssFeedRead", params, [{}], version=1.1)
    assert [row["custom:rating"] for row in js(run)] == ["5", "3"]


@pytest.mark.parametrize(
    ("path", "message"),
    [("/feed/not-a-feed", "Feed not recognized as RSS 1 or 2."), ("/feed/broken", "Unexpected close tag")],
)
async def test_not_a_feed(run_node, feeds, path, message):
    run = await run_node("rssFeedRead", {"url": feeds.url + path}, [{}], version=1.2)
    assert run["data"]["resultData"]["error"]["message"].startswith(message)


async def test_bad_url_and_refused_connection(run_node):
    run = await run_node("rssFeedRead", {"url": "not a url"}, [{}], version=1.2)
    assert run["data"]["resultData"]["error"]["message"] == 'The provided "URL" is not valid!'
    run = await run_node("rssFeedRead", {"url": "http://127.0.0.1:9/feed"}, [{}], version=1.2)
    assert run["data"]["resultData"]["error"]["message"].startswith("It was not possible to connect to the URL.")


async def test_error_status_is_n8n_2_41s_message(run_node, feeds):
    # n8n 2.41.1 (its request helper) says this; 2.8.4's rss-parser said "Status code 404"
    run = await run_node("rssFeedRead", {"url": feeds.url + "/status/404"}, [{}], version=1.2)
    assert run["data"]["resultData"]["error"]["message"] == "Request failed with status code 404"


async def test_ignore_ssl_reads_a_self_signed_https_feed(run_node, js):
    from weft.testing.smtp_server import self_signed_context

    with HttpEchoServer(tls=self_signed_context()) as server:
        run = await run_node("rssFeedRead", {"url": server.url + "/feed/rss"}, [{}], version=1.2)
        assert "certificate" in str(run["data"]["resultData"]["error"]).lower()
        params = {"url": server.url + "/feed/rss", "options": {"ignoreSSL": True}}
        run = await run_node("rssFeedRead", params, [{}], version=1.2)
        assert [row["title"] for row in js(run)] == ["First & foremost", "Second story"]


async def test_podcast_items_get_itunes_fields(run_node, js, feeds):
    run = await run_node("rssFeedRead", {"url": feeds.url + "/feed/podcast"}, [{}], version=1.2)
    [episode] = js(run)
    assert episode["itunes"] == {  # as rss-parser 3.13 prints it for this feed
        "summary": "First ",  # xml2js keeps the text beside the <b> element
        "explicit": "false",
        "duration": "00:31:02",
        "image": "http://127.0.0.1/e1.png",
        "episode": "1",
    }
    assert episode["isoDate"] == "2026-03-03T11:00:00.000Z"
