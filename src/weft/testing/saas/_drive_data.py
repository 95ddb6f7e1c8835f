"""The fake Google Drive's files and shared drives (:mod:`weft.testing.saas.google_drive`): full ``drive#file``
resources (what ``fields=*`` answers); keys starting with ``_`` are the fake's own (content, exports)."""

from __future__ import annotations

import hashlib
from typing import Any

FOLDER = "application/vnd.google-apps.folder"
ROOT = "0AFakeRootFolderUk9PVA"
OWNER = {
    "kind": "drive#user",
    "displayName": "Weft Tester",
    "me": True,
    "permissionId": "01234567890123456789",
    "emailAddress": "weft.tester@example.com",
}


def file_resource(
    file_id: str, name: str, mime: str, parents: list[str], content: bytes = b"", *, created: bool = False
) -> dict[str, Any]:
    """A ``drive#file`` as ``fields=*`` answers it (the fields n8n's outputs show)."""
    stamp = "2024-02-01T10:00:00.000Z" if created else "2024-01-15T09:30:00.000Z"
    folder = mime == FOLDER
    google = mime.startswith("application/vnd.google-apps")
    out: dict[str, Any] = {"kind": "drive#file", "id": file_id, "name": name, "mimeType": mime}
    out.update({"starred": False, "trashed": False, "explicitlyTrashed": False, "parents": parents})
    out.update({"spaces": ["drive"], "version": "3", "webViewLink": _link(file_id, mime)})
    out["iconLink"] = f"https://drive-thirdparty.googleusercontent.com/16/type/{mime}"
    out.update({"hasThumbnail": False, "viewedByMe": True, "createdTime": stamp, "modifiedTime": stamp})
    out.update({"modifiedByMe": True, "owners": [OWNER], "shared": False, "ownedByMe": True})
    if not folder and not google:
        out["webContentLink"] = f"https://drive.google.com/uc?id={file_id}&export=download"
        out["originalFilename"] = name
        out["fullFileExtension"] = out["fileExtension"] = name.rpartition(".")[2] if "." in name else ""
        out["md5Checksum"] = hashlib.md5(content).hexdigest()
        out["size"] = str(len(content))
    out["_content"] = content
    return out


def _link(file_id: str, mime: str) -> str:
    if mime == FOLDER:
        return f"https://drive.google.com/drive/folders/{file_id}"
    if mime == "application/vnd.google-apps.spreadsheet":
        return f"https://docs.google.com/spreadsheets/d/{file_id}/edit?usp=drivesdk"
    return f"https://drive.google.com/file/d/{file_id}/view?usp=drivesdk"


def _trashed(resource: dict[str, Any]) -> dict[str, Any]:
    return {**resource, "trashed": True, "explicitlyTrashed": True}


def _with_exports(resource: dict[str, Any], exports: dict[str, bytes]) -> dict[str, Any]:
    return {**resource, "_exports": exports}


def _in_drive(resource: dict[str, Any], drive_id: str) -> dict[str, Any]:
    return {**resource, "driveId": drive_id}


_XLSX = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
_ODS = "application/x-vnd.oasis.opendocument.spreadsheet"

FILES: list[dict[str, Any]] = [
    file_resource("1FoldReports000000000000001", "Reports", FOLDER, [ROOT]),
    file_resource("1FoldArchive000000000000002", "Archive", FOLDER, [ROOT]),
    file_resource("1FileReportCsv0000000000003", "report 2024.csv", "text/csv", ["1FoldReports000000000000001"],
                  b"region,total\nnorth,120\nsouth,80\n"),
    file_resource("1FileNotesTxt00000000000004", "notes.txt", "text/plain", [ROOT], b"hello drive\n"),
    _with_exports(
        file_resource("1FileBudgetSheet00000000005", "Budget", "application/vnd.google-apps.spreadsheet", [ROOT]),
        {"text/csv": b"item,cost\nrent,900\n", _XLSX: b"PK\x03\x04fake-xlsx", _ODS: b"PK\x03\x04fake-ods"},
    ),
    file_resource("1FilePhotoPng00000000000006", "photo.png", "image/png", ["1FoldReports000000000000001"],
                  b"\x89PNG\r\n\x1a\nfakepng"),
    _trashed(file_resource("1FileOldTxt0000000000000007", "old notes.txt", "text/plain", [ROOT], b"old\n")),
    _in_drive(file_resource("1FileTeamPlan00000000000008", "team plan.txt", "text/plain", ["0ATeamDriveOne00Uk9PVA"],
                            b"plan\n"), "0ATeamDriveOne00Uk9PVA"),
]  # fmt: skip

DRIVES: list[dict[str, Any]] = [
    {"kind": "drive#drive", "id": "0ATeamDriveOne00Uk9PVA", "name": "Team One",
     "createdTime": "2023-06-01T08:00:00.000Z", "hidden": False},
    {"kind": "drive#drive", "id": "0ATeamDriveTwo00Uk9PVA", "name": "Team Two",
     "createdTime": "2023-07-01T08:00:00.000Z", "hidden": False},
    {"kind": "drive#drive", "id": "0ATeamDriveThree0Uk9PVA", "name": "Team Three",
     "createdTime": "2023-08-01T08:00:00.000Z", "hidden": False},
    {"kind": "drive#drive", "id": "0ATeamDriveFour00Uk9PVA", "name": "Team Four",
     "createdTime": "2023-09-01T08:00:00.000Z", "hidden": False},
]  # fmt: skip

__all__ = ["DRIVES", "FILES", "FOLDER", "ROOT", "file_resource"]
