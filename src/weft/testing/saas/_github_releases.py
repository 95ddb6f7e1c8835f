"""The fake GitHub API's releases: list (in pages), get, create, update and delete. Writes answer from the
request and change nothing."""

from __future__ import annotations

from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._github_common import fields, not_found, page, repo_of, validation
from weft.testing.saas._github_data import RELEASES, release


def list_releases(request: ApiRequest) -> ApiReply:
    repo_of(request)
    return page(request, RELEASES)


def _release_of(request: ApiRequest) -> dict[str, Any]:
    repo_of(request)
    found = next((r for r in RELEASES if str(r["id"]) == request.params["id"]), None)
    require(found is not None, not_found())
    return dict(found or {})


def get_release(request: ApiRequest) -> ApiReply:
    return ApiReply(body=_release_of(request))


def create_release(request: ApiRequest) -> ApiReply:
    repo_of(request)
    body = fields(request)
    require(bool(body.get("tag_name")), validation("Release", "tag_name"))
    created = release(5, str(body["tag_name"]), bool(body.get("draft")))
    created.update({k: body[k] for k in ("name", "body", "prerelease", "target_commitish") if k in body})
    return ApiReply(status=201, body=created)


def update_release(request: ApiRequest) -> ApiReply:
    found = _release_of(request)
    found.update(fields(request))
    return ApiReply(body=found)


def delete_release(request: ApiRequest) -> ApiReply:
    _release_of(request)
    return ApiReply(status=204)
