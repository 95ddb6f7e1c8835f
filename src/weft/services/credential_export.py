"""Exporting credentials as n8n's ``export:credentials`` does: its entity shape, encrypted unless asked otherwise.

An encrypted export holds each credential's stored ``data`` string (a Fernet token of this instance's key: only an
instance with the same key can read it). A decrypted one holds the plain ``data`` object, the format
``import:credentials`` of Weft and of n8n takes.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from sqlalchemy import select

from weft.db.base import to_iso
from weft.db.files import private_file
from weft.db.orm import CredentialsEntity
from weft.db.store import Store
from weft.errors import ConfigurationError
from weft.services.import_export import instance_cipher
from weft.settings import Settings
from weft.workflow.jsjson import pretty_json


class NoCredentialsError(ConfigurationError):
    """No credential matches the export's filter (n8n's message)."""

    def __init__(self) -> None:
        super().__init__("No credentials found with specified filters")


def export_credentials(
    store: Store, settings: Settings, credential_id: str | None = None, *, decrypted: bool = False
) -> list[dict[str, Any]]:
    """The credentials (one when ``credential_id`` is given) as n8n's entities, oldest first."""
    query = select(CredentialsEntity).order_by(CredentialsEntity.created_at, CredentialsEntity.id)
    if credential_id is not None:
        query = query.where(CredentialsEntity.id == credential_id)
    with store.db.sessions() as session:
        rows = list(session.scalars(query))
    if not rows:
        raise NoCredentialsError()
    cipher = instance_cipher(settings) if decrypted else None
    exported = []
    for row in rows:
        data: Any = row.data
        if cipher is not None:
            data = cipher.decrypt(row.data, what=f"credential {row.name!r} (id {row.id!r}, type {row.type!r})")
        exported.append(
            {
                "updatedAt": to_iso(row.updated_at),
                "createdAt": to_iso(row.created_at),
                "id": row.id,
                "name": row.name,
                "data": data,
                "type": row.type,
                "isManaged": False,
                "isGlobal": False,
                "isResolvable": False,
                "resolvableAllowFallback": False,
                "resolverId": None,
            }
        )
    return exported


def credentials_json(value: Any, *, pretty: bool) -> str:
    """``JSON.stringify(value, null, pretty ? 2 : undefined)``."""
    if pretty:
        return pretty_json(value)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"))


def write_private(path: str | Path, text: str) -> None:
    """Write ``text`` to ``path``, a file only its owner may read (it holds credentials)."""
    target = private_file(Path(path))
    target.write_text(text, encoding="utf-8")


def write_separate(credentials: list[dict[str, Any]], folder: str | Path, *, pretty: bool) -> int:
    """One ``<id>.json`` per credential in ``folder``; how many were written."""
    names = [f"{credential['id']}.json" for credential in credentials]
    for credential, name in zip(credentials, names, strict=True):
        if Path(name).name != name:  # an imported id such as '../x' must not leave the folder
            raise ConfigurationError(
                f"Credential {credential['id']!r} has an id that is not a file name: export it without --separate."
            )
    for credential, name in zip(credentials, names, strict=True):
        write_private(Path(folder) / name, credentials_json(credential, pretty=pretty))
    return len(credentials)


__all__ = ["NoCredentialsError", "credentials_json", "export_credentials", "write_private", "write_separate"]
