"""rss-parser 3.13's items, in Python: RSS 2.0, 0.9x and 1.0 (RDF) items and Atom entries, read with xml2js's
default options (:mod:`weft.nodes.xml.xml2js`), with their fields, ``content`` / ``contentSnippet``,
``guid``, ``categories`` and ``isoDate`` as rss-parser builds them."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Any

from weft.nodes.xml.build import BuildOptions, build
from weft.nodes.xml.xml2js import ParseOptions, parse

_ITEM_FIELDS: tuple[str | tuple[str, str] | tuple[str, str, bool], ...] = (
    *(("author", "creator"), ("dc:creator", "creator"), ("dc:date", "date"), ("dc:language", "language")),
    *(("dc:rights", "rights"), ("dc:source", "source"), ("dc:title", "title")),
    *("title", "link", "pubDate", "author", "summary", ("content:encoded", "content:encoded", True)),
    *("enclosure", "dc:creator", "dc:date", "comments"),
)
_PODCAST_ITEM_FIELDS = (
    *("author", "subtitle", "summary", "explicit", "duration", "image", "episode", "image", "season", "keywords"),
    "episodeType",
)
_BLOCK_TAG = re.compile(r"([^\n])</?(h|br|p|ul|ol|li|blockquote|section|table|tr|div)(?:.|\n)*?>([^\n])")
_ANY_TAG = re.compile(r"<(?:.|\n)*?>")


class FeedError(ValueError):
    """rss-parser's rejection ("Feed not recognized as RSS 1 or 2.")."""


def parse_feed_items(xml: str, custom_fields: list[str]) -> list[dict[str, Any]]:
    """The ``items`` of ``parser.parseString(xml)``; raises SaxError or :class:`FeedError` as rss-parser rejects."""
    result = parse(xml, ParseOptions())
    if not result:
        raise FeedError("Unable to parse XML.")
    if "feed" in result:
        entries = result["feed"].get("entry") or [] if isinstance(result["feed"], dict) else []
        return [_atom_item(entry, custom_fields) for entry in entries]
    rss = result.get("rss")
    version = rss.get("$", {}).get("version", "") if isinstance(rss, dict) else ""
    if isinstance(rss, dict) and (re.match(r"^2", version) or re.search(r"0\.9", version)):
        channel = rss["channel"][0]
        items = channel.get("item") or [] if isinstance(channel, dict) else []
    elif "rdf:RDF" in result:
        items = result["rdf:RDF"].get("item") or []
    else:
        raise FeedError("Feed not recognized as RSS 1 or 2.")
    fields = [*_ITEM_FIELDS, *custom_fields]
    built = [_rss_item(item if isinstance(item, dict) else {}, fields) for item in items]
    if isinstance(rss, dict) and re.match(r"^2", version) and rss["$"].get("xmlns:itunes"):
        for item, entry in zip(items, built, strict=True):
            _itunes(item if isinstance(item, dict) else {}, entry)
    return built


def _itunes(xml: dict[str, Any], entry: dict[str, Any]) -> None:
    """rss-parser's ``decorateItunes`` for an item of a feed that declares the iTunes namespace."""
    itunes: dict[str, Any] = {}
    entry["itunes"] = itunes
    _copy(xml, itunes, [(f"itunes:{name}", name) for name in _PODCAST_ITEM_FIELDS])
    image = (xml.get("itunes:image") or [None])[0]
    if isinstance(image, dict) and isinstance(image.get("$"), dict) and image["$"].get("href"):
        itunes["image"] = image["$"]["href"]


def _copy(xml: dict[str, Any], dest: dict[str, Any], fields: Any) -> None:
    for field in fields:
        source, target, snippet = (field, field, False) if isinstance(field, str) else (*field[:2], len(field) > 2)
        if source in xml:
            dest[target] = xml[source][0]
        value = dest.get(target)
        if isinstance(value, dict) and isinstance(value.get("_"), str):
            dest[target] = value = value["_"]
        if snippet and isinstance(value, str) and value:
            dest[target + "Snippet"] = snippet_of(value)


def _rss_item(xml: dict[str, Any], fields: list[Any]) -> dict[str, Any]:
    item: dict[str, Any] = {}
    _copy(xml, item, fields)
    if "enclosure" in xml:
        item["enclosure"] = xml["enclosure"][0].get("$") if isinstance(xml["enclosure"][0], dict) else None
    if "description" in xml:
        item["content"] = content_of(xml["description"][0])
        item["contentSnippet"] = snippet_of(item["content"]) if isinstance(item["content"], str) else item["content"]
    if "guid" in xml:
        guid = xml["guid"][0]
        item["guid"] = guid["_"] if isinstance(guid, dict) and guid.get("_") else guid
    if isinstance(xml.get("$"), dict) and xml["$"].get("rdf:about"):
        item["rdf:about"] = xml["$"]["rdf:about"]
    if "category" in xml:
        item["categories"] = xml["category"]
    _set_iso_date(item)
    return item


def _atom_item(entry: Any, custom_fields: list[str]) -> dict[str, Any]:
    entry = entry if isinstance(entry, dict) else {}
    item: dict[str, Any] = {}
    _copy(entry, item, custom_fields)
    if entry.get("title"):
        title = entry["title"][0] or ""
        title = title["_"] if isinstance(title, dict) and title.get("_") else title
        if title:
            item["title"] = title
    if entry.get("link"):
        item["link"] = _link(entry["link"], "alternate", 0)
    for key in ("published", "updated"):
        if "pubDate" not in item and entry.get(key) and entry[key][0]:
            item["pubDate"] = _iso(str(entry[key][0]))
    author = (entry.get("author") or [None])[0]
    if isinstance(author, dict) and author.get("name"):
        item["author"] = author["name"][0]
    if entry.get("content"):
        item["content"] = content_of(entry["content"][0])
        item["contentSnippet"] = snippet_of(item["content"])
    if entry.get("summary"):
        item["summary"] = content_of(entry["summary"][0])
    if "id" in entry:
        item["id"] = entry["id"][0]
    _set_iso_date(item)
    return item


def _link(links: list[Any], rel: str, fallback: int) -> Any:
    for link in links:
        if isinstance(link, dict) and link.get("$", {}).get("rel") == rel:
            return link["$"].get("href")
    if fallback < len(links) and isinstance(links[fallback], dict):
        return links[fallback].get("$", {}).get("href")
    return None


def content_of(content: Any) -> Any:
    """rss-parser's ``getContent``: the text, or the element written back as XML inside a ``div``."""
    if isinstance(content, dict) and isinstance(content.get("_"), str):
        return content["_"]
    if isinstance(content, dict):
        return build(content, BuildOptions(root_name="div", headless=True, pretty=False))
    return content


def snippet_of(text: str) -> str:
    """rss-parser's ``getSnippet``: tags stripped (block tags become line breaks), entities decoded, trimmed."""
    stripped = _ANY_TAG.sub("", _BLOCK_TAG.sub(r"\1\n\3", text))
    return html.unescape(stripped).strip()


def _iso(text: str) -> str | None:
    moment = js_date(text)
    return None if moment is None else moment.isoformat(timespec="milliseconds").replace("+00:00", "Z")


def js_date(text: str) -> datetime | None:
    """``new Date(text)`` for the date forms feeds use (RFC 822 and ISO 8601), in UTC; ``None`` if invalid."""
    text = text.strip()
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        try:
            moment = parsedate_to_datetime(text)
        except (TypeError, ValueError, IndexError):
            return None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC) if "T" not in text else moment.astimezone()
    return moment.astimezone(UTC)


def _set_iso_date(item: dict[str, Any]) -> None:
    date = item.get("pubDate") or item.get("date")
    if isinstance(date, str) and date:
        iso = _iso(date)
        if iso is not None:
            item["isoDate"] = iso


__all__ = ["FeedError", "content_of", "js_date", "parse_feed_items", "snippet_of"]
