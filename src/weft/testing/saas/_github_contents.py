"""The fake GitHub API's repository contents: get a file (base64) or list a folder, create or update a file (the
file's current ``sha`` required to update it) and delete a file. Writes answer from the request and change
nothing."""

from __future__ import annotations

import base64
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas._github_common import OWNER, REPO, TIME, error, fields, not_found, repo_of, validation
from weft.testing.saas._github_data import FILES, entry, file_content, sha


def get_contents(request: ApiRequest) -> ApiReply:
    repo_of(request)
    path = request.params["path"].strip("/")
    if path in FILES:
        return ApiReply(body=file_content(path))
    inside = sorted(p for p in FILES if ("/" in p and p.rsplit("/", 1)[0] == path) or (not path and "/" not in p))
    dirs = sorted({p.split("/")[0] for p in FILES if "/" in p}) if not path else []
    require(bool(inside or dirs), not_found())
    return ApiReply(body=[entry(d, "dir") for d in dirs] + [entry(p, "file") for p in inside])


def _commit(path: str, message: str) -> dict[str, Any]:
    return {"sha": "c0ffee" + sha(path)[6:], "message": message, "author": {"name": "Weft Bot", "date": TIME},
            "html_url": f"https://github.com/{OWNER}/{REPO}/commit/c0ffee"}  # fmt: skip


def put_contents(request: ApiRequest) -> ApiReply:
    repo_of(request)
    path, body = request.params["path"], fields(request)
    require(bool(body.get("message")), validation("Commit", "message"))
    require(isinstance(body.get("content"), str), validation("Commit", "content"))
    if path in FILES:
        missing = error(422, 'Invalid request.\n\n"sha" wasn\'t supplied.')
        require("sha" in body, missing)
        require(body["sha"] == sha(path), error(409, f"{path} does not match {body['sha']}"))
    content = base64.b64decode(str(body["content"]))
    written = {**entry(path, "file"), "size": len(content), "sha": sha(path + str(len(content)))}
    return ApiReply(
        status=200 if path in FILES else 201, body={"content": written, "commit": _commit(path, body["message"])}
    )


def delete_contents(request: ApiRequest) -> ApiReply:
    repo_of(request)
    path, body = request.params["path"], fields(request)
    require(path in FILES, not_found())
    require(body.get("sha") == sha(path), error(409, f"{path} does not match {body.get('sha')}"))
    return ApiReply(body={"content": None, "commit": _commit(path, str(body.get("message")))})
