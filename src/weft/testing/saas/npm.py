"""A fake npm registry: package documents (``/<name>``, ``/<name>/<version>``), search (``/-/v1/search``) and
distribution tags (``/-/package/<name>/dist-tags``, ``PUT`` one with the version as the body). A token, when
sent, must be the right one (npm's credential is optional)."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, FakeApiServer, json_error, require

TOKEN = "npm-test-token"
TIMES = {
    "created": "2023-01-01T00:00:00.000Z",
    "modified": "2024-04-01T00:00:00.000Z",
    "1.0.0": "2023-01-01T00:00:00.000Z",
    "1.1.0": "2023-06-01T00:00:00.000Z",
    "2.0.0-beta.1": "2024-04-01T00:00:00.000Z",
    "1.0.1": "2023-02-01T00:00:00.000Z",
}
TAGS = {"latest": "1.1.0", "beta": "2.0.0-beta.1"}


def _version(name: str, version: str) -> dict[str, Any]:
    return {"name": name, "version": version, "description": "Weaves things", "license": "MIT",
            "dist": {"tarball": f"https://registry.example/{name}/-/{name}-{version}.tgz"}}  # fmt: skip


def _authorized(request: ApiRequest) -> None:
    given = request.headers.get("authorization")
    require(given in (None, f"Bearer {TOKEN}"), json_error(401, {"error": "invalid token"}))


def _missing(name: str) -> ApiReply:
    return json_error(404, {"error": "Not found"}) if name != "weft-fake" else ApiReply(status=500)


def package(request: ApiRequest) -> ApiReply:
    _authorized(request)
    name = request.params["name"]
    if name not in ("weft-fake", "@weft/fake"):
        return json_error(404, {"error": "Not found"})
    versions = {v: _version(name, v) for v in TIMES if v[0].isdigit()}
    return ApiReply(body={"_id": name, "name": name, "dist-tags": TAGS, "versions": versions, "time": TIMES})


def version(request: ApiRequest) -> ApiReply:
    _authorized(request)
    name, wanted = request.params["name"], request.params["version"]
    wanted = TAGS.get(wanted, wanted)
    if name not in ("weft-fake", "@weft/fake") or wanted not in TIMES:
        return json_error(404, {"error": f"version not found: {wanted}"})
    return ApiReply(body=_version(name, wanted))


def search(request: ApiRequest) -> ApiReply:
    _authorized(request)
    text = request.query.get("text", "")
    size, start = int(request.query.get("size") or 20), int(request.query.get("from") or 0)
    names = [n for n in ("weft-fake", "weft-fake-cli", "@weft/fake", "loom") if text and text in n]
    objects = [{"package": {**_version(n, "1.1.0"), "date": "2023-06-01T00:00:00.000Z"}, "score": {"final": 0.5},
                "searchScore": 1.0} for n in names[start : start + size]]  # fmt: skip
    return ApiReply(body={"objects": objects, "total": len(names), "time": "Mon Apr 01 2024"})


def dist_tags(request: ApiRequest) -> ApiReply:
    _authorized(request)
    return ApiReply(body=TAGS) if request.params["name"] in ("weft-fake", "@weft/fake") else _missing("x")


def set_dist_tag(request: ApiRequest) -> ApiReply:
    require(request.headers.get("authorization") == f"Bearer {TOKEN}", json_error(401, {"error": "auth required"}))
    given = request.raw_body.decode()
    require(given in TIMES, json_error(400, {"error": f"version not found: {given}"}))
    return ApiReply(status=201, body={"ok": "dist-tags updated"})


def install(server: FakeApiServer, prefix: str = "/npm") -> None:
    name = r"(?P<name>@[^/]+/[^/]+|[^@/][^/]*)"
    server.route("GET", rf"{prefix}/-/v1/search", search)
    server.route("GET", rf"{prefix}/-/package/{name}/dist-tags", dist_tags)
    server.route("PUT", rf"{prefix}/-/package/{name}/dist-tags/(?P<tag>[^/]+)", set_dist_tag)
    server.route("GET", rf"{prefix}/{name}", package)
    server.route("GET", rf"{prefix}/{name}/(?P<version>[^/]+)", version)


__all__ = ["TOKEN", "install"]
