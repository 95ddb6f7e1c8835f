"""Fixed documents the HTTP echo server serves for the RSS Read and GraphQL tests and recorded cases.

``FIXTURE_ROUTES`` maps a path to ``(status, content type, body)``: an RSS 2.0 feed, a podcast, an Atom feed, an RDF
(RSS 1.0) feed, a page that is not a feed, and a GraphQL endpoint that answers with ``errors``.
"""

from __future__ import annotations

RSS2 = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:content="http://purl.org/rss/1.0/modules/content/"
     xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:custom="http://example.com/custom">
  <channel>
    <title>Weft News</title>
    <link>http://127.0.0.1/news</link>
    <description>All the news about workflows</description>
    <language>en</language>
    <lastBuildDate>Mon, 02 Mar 2026 10:00:00 GMT</lastBuildDate>
    <item>
      <title>First &amp; foremost</title>
      <link>http://127.0.0.1/news/1</link>
      <pubDate>Mon, 02 Mar 2026 09:30:00 GMT</pubDate>
      <dc:creator>Ada Lovelace</dc:creator>
      <category>engines</category>
      <category>python</category>
      <guid isPermaLink="false">news-1</guid>
      <description><![CDATA[<p>The <b>first</b> story.</p>]]></description>
      <content:encoded><![CDATA[<p>The <b>first</b> story, <a href="http://127.0.0.1/x">in full</a>.</p>
<p>Second paragraph &amp; more.</p>]]></content:encoded>
      <custom:rating>5</custom:rating>
      <comments>http://127.0.0.1/news/1#comments</comments>
      <enclosure url="http://127.0.0.1/a.mp3" length="1234" type="audio/mpeg"/>
    </item>
    <item>
      <title>Second story</title>
      <link>http://127.0.0.1/news/2</link>
      <pubDate>Sun, 01 Mar 2026 08:00:00 +0100</pubDate>
      <author>grace@example.com (Grace Hopper)</author>
      <guid>http://127.0.0.1/news/2</guid>
      <description>Plain text   description
 over two lines</description>
      <custom:rating>3</custom:rating>
    </item>
  </channel>
</rss>
"""

ATOM = """<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <title>Weft Atom</title>
  <link href="http://127.0.0.1/atom"/>
  <updated>2026-03-02T10:00:00Z</updated>
  <id>urn:uuid:weft-atom</id>
  <entry>
    <title>Atom entry one</title>
    <link href="http://127.0.0.1/atom/1"/>
    <id>urn:uuid:entry-1</id>
    <updated>2026-03-02T09:00:00Z</updated>
    <published>2026-03-01T09:00:00Z</published>
    <author><name>Ada</name></author>
    <summary>Short summary</summary>
    <content type="html">&lt;p&gt;Entry &lt;em&gt;one&lt;/em&gt; content&lt;/p&gt;</content>
  </entry>
  <entry>
    <title type="text">Atom entry two</title>
    <link rel="alternate" href="http://127.0.0.1/atom/2"/>
    <id>urn:uuid:entry-2</id>
    <updated>2026-02-28T09:00:00Z</updated>
    <summary>Only a summary</summary>
  </entry>
</feed>
"""

RDF = """<?xml version="1.0"?>
<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/">
  <channel rdf:about="http://127.0.0.1/rdf">
    <title>Weft RDF</title>
    <link>http://127.0.0.1/rdf</link>
    <description>RSS 1.0</description>
  </channel>
  <item rdf:about="http://127.0.0.1/rdf/1">
    <title>RDF item</title>
    <link>http://127.0.0.1/rdf/1</link>
    <description>An RDF item</description>
  </item>
</rdf:RDF>
"""

PODCAST = """<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd">
  <channel>
    <title>Weft Cast</title>
    <itunes:author>Weft</itunes:author>
    <item>
      <title>Episode 1</title>
      <enclosure url="http://127.0.0.1/e1.mp3" length="99" type="audio/mpeg"/>
      <itunes:duration>00:31:02</itunes:duration>
      <itunes:explicit>false</itunes:explicit>
      <itunes:episode>1</itunes:episode>
      <itunes:image href="http://127.0.0.1/e1.png"/>
      <itunes:summary>First <b>episode</b></itunes:summary>
      <pubDate>Tue, 03 Mar 2026 06:00:00 -0500</pubDate>
    </item>
  </channel>
</rss>
"""

NOT_A_FEED = "<html><head><title>Not a feed</title></head><body><p>Hello</p></body></html>"
BROKEN = '<?xml version="1.0"?><rss version="2.0"><channel><title>Broken</title><item></channel></rss>'
GRAPHQL_ERRORS = (
    '{"errors":[{"message":"Cannot query field \\"nope\\" on type \\"Query\\"."},{"message":"Second"}],"data":null}'
)

#: ``path -> (status, content type, body)``.
FIXTURE_ROUTES: dict[str, tuple[int, str, str]] = {
    "/feed/rss": (200, "application/rss+xml; charset=utf-8", RSS2),
    "/feed/atom": (200, "application/atom+xml; charset=utf-8", ATOM),
    "/feed/rdf": (200, "application/rdf+xml; charset=utf-8", RDF),
    "/feed/podcast": (200, "application/rss+xml; charset=utf-8", PODCAST),
    "/feed/not-a-feed": (200, "text/html; charset=utf-8", NOT_A_FEED),
    "/feed/broken": (200, "application/xml", BROKEN),
    "/graphql/errors": (200, "application/json", GRAPHQL_ERRORS),
    "/graphql/text": (200, "text/plain", "not json"),
}
