"""A fake of English Wikipedia's API (``https://en.wikipedia.org/w/api.php``) for the Wikipedia tool: ``list=search``
finds pages by title words, ``prop=extracts`` answers a page's plain-text extract (a page that does not exist
comes back ``missing``, as Wikipedia answers it). The query ``server error`` answers 500."""

from __future__ import annotations

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

HOST = "en.wikipedia.org"
PAGES = {
    "Weaving": (101, "Weaving is a method of textile production in which two sets of yarns are interlaced."),
    "Loom": (102, None),  # listed by search, but its page is gone: Wikipedia answers it as missing
    "Jacquard machine": (103, "The Jacquard machine is a device fitted to a loom that simplifies weaving."),
    "Warp and weft": (104, "Warp and weft are the two basic components used in weaving. " * 80),
}


def api(request: ApiRequest) -> ApiReply:
    query = request.query
    require(query.get("action") == "query" and query.get("format") == "json", json_error(400, {"error": "bad"}))
    if query.get("list") == "search":
        words = query.get("srsearch", "").lower()
        if words == "server error":
            return ApiReply(status=500, text="Internal error")
        found = [t for t in PAGES if any(w in t.lower() for w in words.split())]
        results = [{"ns": 0, "title": t, "pageid": PAGES[t][0], "snippet": t} for t in found]
        return ApiReply(
            body={"batchcomplete": "", "query": {"searchinfo": {"totalhits": len(results)}, "search": results}}
        )
    require(query.get("prop") == "extracts" and query.get("explaintext") == "true", json_error(400, {"error": "bad"}))
    title = query.get("titles", "")
    page_id, extract = PAGES.get(title, (None, None))
    if page_id is None or extract is None:
        return ApiReply(
            body={"batchcomplete": "", "query": {"pages": {"-1": {"ns": 0, "title": title, "missing": ""}}}}
        )
    page = {"pageid": page_id, "ns": 0, "title": title, "extract": extract}
    return ApiReply(body={"batchcomplete": "", "query": {"pages": {str(page_id): page}}})


def install(server: FakeApiServer) -> None:
    server.route("GET", "/w/api.php", api, host=HOST)


__all__ = ["HOST", "install"]
