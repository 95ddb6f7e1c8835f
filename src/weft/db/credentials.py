"""Credentials, encrypted at rest, and their resolution for the nodes that reference them.

A node references a credential by type and ``{"id", "name"}`` (``node.credentials.openAiApi``). The
id wins; when no credential has that id (a workflow exported from another instance), the name and
type are tried, as n8n does when it imports workflows.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from weft.db.base import NotFoundError, new_id, to_iso
from weft.db.cipher import Cipher
from weft.db.engine import Database
from weft.db.orm import CredentialsEntity, utcnow
from weft.errors import ConfigurationError

_IMPORT_HINT = "create it with 'weft import:credentials --input FILE'"


@dataclass(frozen=True, kw_only=True)
class CredentialInfo:
    """A credential without its secret data (what listings show)."""

    id: str
    name: str
    type: str
    """The credential type, e.g. ``openAiApi`` or ``httpHeaderAuth``."""
    created_at: datetime
    updated_at: datetime

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "type": self.type,
            "createdAt": to_iso(self.created_at),
            "updatedAt": to_iso(self.updated_at),
        }


@dataclass(frozen=True, kw_only=True)
class Credential(CredentialInfo):
    """A credential with its decrypted data."""

    data: dict[str, Any]


class CredentialsRepository:
    """Credentials in one database, encrypted with ``cipher``."""

    def __init__(self, db: Database, cipher: Cipher) -> None:
        self._db = db
        self._cipher = cipher

    def create(self, name: str, type: str, data: Mapping[str, Any], *, id: str | None = None) -> CredentialInfo:
        """Store a new credential; ``id`` is generated when not given."""
        with self._db.transaction() as session:
            if id is not None and session.get(CredentialsEntity, id) is not None:
                raise ConfigurationError(f"A credential with id {id!r} already exists; update it instead.")
            row = CredentialsEntity(id=id or new_id(), name=name, type=type, data=self._cipher.encrypt(dict(data)))
            session.add(row)
            session.flush()
            return _info(row)

    def update(self, id: str, *, name: str | None = None, data: Mapping[str, Any] | None = None) -> CredentialInfo:
        with self._db.transaction() as session:
            row = _require(session, id)
            if name is not None:
                row.name = name
            if data is not None:
                row.data = self._cipher.encrypt(dict(data))
            row.updated_at = utcnow()
            session.flush()
            return _info(row)

    def get(self, id: str) -> Credential | None:
        """The credential with its data decrypted, or ``None``."""
        with self._db.sessions() as session:
            row = session.get(CredentialsEntity, id)
            return None if row is None else self._decrypted(row)

    def find(self, id_or_name: str, type: str) -> Credential | None:
        """The credential of ``type`` with that id, else the oldest of ``type`` with that name."""
        with self._db.sessions() as session:
            row = session.get(CredentialsEntity, id_or_name)
            if row is None or row.type != type:
                row = _by_name(session, id_or_name, type)
            return None if row is None else self._decrypted(row)

    def list(self, *, type: str | None = None) -> builtins.list[CredentialInfo]:
        """All credentials (of one type when given), without their data."""
        query = select(CredentialsEntity).order_by(CredentialsEntity.created_at, CredentialsEntity.id)
        if type is not None:
            query = query.where(CredentialsEntity.type == type)
        with self._db.sessions() as session:
            return [_info(row) for row in session.scalars(query)]

    def delete(self, id: str) -> bool:
        with self._db.transaction() as session:
            row = session.get(CredentialsEntity, id)
            if row is None:
                return False
            session.delete(row)
            return True

    def import_credentials(self, items: Iterable[Any], *, source: str = "credentials") -> builtins.list[CredentialInfo]:
        """Create or replace (by ``id``) credentials from n8n's decrypted export: ``[{id, name, type, data}]``."""
        checked = [_checked_import(item, index, source) for index, item in enumerate(items)]
        result = []
        with self._db.transaction() as session:
            for item in checked:
                row = session.get(CredentialsEntity, item["id"]) if item["id"] else None
                if row is None:
                    row = CredentialsEntity(id=item["id"] or new_id())
                    session.add(row)
                row.name, row.type = item["name"], item["type"]
                row.data = self._cipher.encrypt(item["data"])
                row.updated_at = utcnow()
                session.flush()
                result.append(_info(row))
        return result

    def resolve_credentials(
        self, node_name: str, credential_type: str, reference: Mapping[str, Any] | None
    ) -> dict[str, Any]:
        """The decrypted data of the credential a node references; :class:`ConfigurationError` says what is missing."""
        ref_id = str(reference.get("id") or "") if reference else ""
        ref_name = str(reference.get("name") or "") if reference else ""
        needs = f"Node {node_name!r} needs a credential of type {credential_type!r}"
        if not ref_id and not ref_name:
            raise ConfigurationError(
                f"{needs}, but none is set: select one in the node's 'credentials', or {_IMPORT_HINT}.",
                node_name=node_name,
                credential_type=credential_type,
            )
        with self._db.sessions() as session:
            row = session.get(CredentialsEntity, ref_id) if ref_id else None
            if row is not None and row.type != credential_type:
                raise ConfigurationError(
                    f"{needs}, but credential {ref_id!r} ({row.name!r}) is of type {row.type!r}: "
                    "select a credential of the right type.",
                    node_name=node_name,
                    credential_type=credential_type,
                )
            if row is None and ref_name:
                row = _by_name(session, ref_name, credential_type)
            if row is None:
                raise ConfigurationError(
                    f"{needs}, but none with {_describe(ref_id, ref_name)} exists: {_IMPORT_HINT}.",
                    node_name=node_name,
                    credential_type=credential_type,
                )
            return self._decrypted(row).data

    def update_oauth_token_data(
        self, node_name: str, credential_type: str, reference: Mapping[str, Any] | None, token: Mapping[str, Any]
    ) -> None:
        """Store a renewed OAuth2 token (``oauthTokenData``) in the credential a node references (n8n's
        ``updateCredentialsOauthTokenData``), encrypted like the rest of its data."""
        self.resolve_credentials(node_name, credential_type, reference)  # the same checks and errors
        ref_id = str(reference.get("id") or "") if reference else ""
        ref_name = str(reference.get("name") or "") if reference else ""
        with self._db.transaction() as session:
            row = session.get(CredentialsEntity, ref_id) if ref_id else None
            if row is None and ref_name:
                row = _by_name(session, ref_name, credential_type)
            if row is None:
                return
            data = self._decrypted(row).data
            data["oauthTokenData"] = dict(token)
            row.data = self._cipher.encrypt(data)
            row.updated_at = utcnow()

    def _decrypted(self, row: CredentialsEntity) -> Credential:
        data = self._cipher.decrypt(row.data, what=f"credential {row.name!r} (id {row.id!r}, type {row.type!r})")
        return Credential(
            id=row.id, name=row.name, type=row.type, created_at=row.created_at, updated_at=row.updated_at, data=data
        )


def _require(session: Session, id: str) -> CredentialsEntity:
    row = session.get(CredentialsEntity, id)
    if row is None:
        raise NotFoundError(f"Credential {id!r} does not exist.", credential_id=id)
    return row


def _by_name(session: Session, name: str, type: str) -> CredentialsEntity | None:
    query = (
        select(CredentialsEntity)
        .where(CredentialsEntity.name == name, CredentialsEntity.type == type)
        .order_by(CredentialsEntity.created_at, CredentialsEntity.id)
        .limit(1)
    )
    return session.scalars(query).first()


def _describe(ref_id: str, ref_name: str) -> str:
    parts = [f"id {ref_id!r}" if ref_id else "", f"name {ref_name!r}" if ref_name else ""]
    return " or ".join(p for p in parts if p)


def _checked_import(item: Any, index: int, source: str) -> dict[str, Any]:
    where = f"{source}[{index}]"
    if not isinstance(item, dict):
        raise ConfigurationError(f"{where} is not an object with 'name', 'type' and 'data'.")
    for field in ("name", "type"):
        if not isinstance(item.get(field), str) or not item[field]:
            raise ConfigurationError(f"{where} has no {field!r}: each credential needs 'name', 'type' and 'data'.")
    data = item.get("data")
    if isinstance(data, str):
        raise ConfigurationError(
            f"{where} ({item['name']!r}) holds encrypted data, which only the instance that wrote it can read: "
            "export it with 'n8n export:credentials --decrypted' and import that file."
        )
    if not isinstance(data, dict):
        raise ConfigurationError(f"{where} ({item['name']!r}) has no 'data' object.")
    raw_id = item.get("id")
    return {"id": str(raw_id) if raw_id else None, "name": item["name"], "type": item["type"], "data": data}


def _info(row: CredentialsEntity) -> CredentialInfo:
    return CredentialInfo(id=row.id, name=row.name, type=row.type, created_at=row.created_at, updated_at=row.updated_at)


__all__ = ["Credential", "CredentialInfo", "CredentialsRepository"]
