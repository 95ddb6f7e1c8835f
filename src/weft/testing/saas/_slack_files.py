"""The fake Slack API's files: ``files.info``, ``files.list``, ``files.upload``, and the external upload
(``files.getUploadURLExternal``, the bytes posted to :data:`UPLOAD_HOST`, ``files.completeUploadExternal``)."""

from __future__ import annotations

import zlib
from typing import Any

from weft.testing.fake_api import ApiReply, ApiRequest, require
from weft.testing.saas import _slack_data as data
from weft.testing.saas._slack_common import Args, classic_page, fail, find_channel, ok, parse_args

UPLOAD_HOST = "files.slack.com"


def files_info(request: ApiRequest, args: Args) -> ApiReply:
    found = data.FILE_BY_ID.get(str(args.get("file") or ""))
    require(found is not None, fail("file_not_found"))
    return ok(file=found, comments=[], response_metadata={"next_cursor": ""})


def files_list(request: ApiRequest, args: Args) -> ApiReply:
    files = [f for f in data.FILES if not args.get("channel") or args["channel"] in f["channels"]]
    files = [f for f in files if not args.get("user") or f["user"] == args["user"]]
    args = {**args, "count": min(int(args.get("count") or 100), 2)}
    page, paging = classic_page(files, args)
    return ok(files=page, paging=paging)


def _uploaded(fid: str, name: str, title: str, size: int, channels: list[str]) -> dict[str, Any]:
    kind = name.rpartition(".")[2] if "." in name else "text"
    return {**data.FILES[2], "id": fid, "name": name, "title": title, "size": size, "filetype": kind,
            "pretty_type": kind.upper(), "user": data.BOT_USER, "created": 1735700000, "timestamp": 1735700000,
            "url_private": f"https://files.slack.com/files-pri/{data.TEAM}-{fid}/{name}",
            "permalink": f"https://{data.DOMAIN}.slack.com/files/{data.BOT_USER}/{fid}/{name}",
            "channels": channels}  # fmt: skip


def files_upload(request: ApiRequest, args: Args) -> ApiReply:
    upload = args.get("file")
    content = upload["bytes"] if isinstance(upload, dict) else str(args.get("content") or "").encode()
    require(bool(content), fail("no_file_data"))
    name = upload["filename"] if isinstance(upload, dict) else str(args.get("filename") or "-.txt")
    channels = [c for c in str(args.get("channels") or "").split(",") if c]
    fid = f"F{zlib.crc32(content) % 10**9:09d}"
    return ok(file=_uploaded(fid, name, str(args.get("title") or name), len(content), channels))


def upload_url(request: ApiRequest, args: Args) -> ApiReply:
    name, length = str(args.get("filename") or ""), str(args.get("length") or "")
    require(bool(name) and length.isdigit(), fail("invalid_arguments"))
    fid = f"F{zlib.crc32(f'{name}:{length}'.encode()) % 10**9:09d}"
    return ok(upload_url=f"https://{UPLOAD_HOST}/upload/v1/{fid}/{name}", file_id=fid)


def upload_bytes(request: ApiRequest) -> ApiReply:
    upload = parse_args(request).get("file")
    require(isinstance(upload, dict), ApiReply(status=400, text="no file"))
    assert isinstance(upload, dict)
    return ApiReply(text=f"OK - {len(upload['bytes'])}")


def complete_upload(request: ApiRequest, args: Args) -> ApiReply:
    files = args.get("files")
    require(isinstance(files, list) and bool(files), fail("invalid_arguments"))
    assert isinstance(files, list)
    channels = [c for c in str(args.get("channels") or args.get("channel_id") or "").split(",") if c]
    done = []
    for entry in files:
        fid = str(entry.get("id"))
        done.append({"id": fid, "title": entry.get("title") or ""})
    for channel in channels:
        find_channel({"channel": channel})
    return ok(files=done)
