"""Users, login sessions and public API keys (n8n's ``user`` and ``user_api_keys``).

Secrets never reach the database in a usable form: passwords arrive already hashed (bcrypt, by the service),
session tokens and API keys are stored as their SHA-256, so a copy of the database logs nobody in. Lookups go
by that digest and the stored digest is compared again in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import delete, select

from weft.db.base import to_iso
from weft.db.engine import Database
from weft.db.orm import ApiKeyEntity, AuthSessionEntity, UserEntity, utcnow

OWNER_ROLE = "global:owner"


def digest(secret: str) -> str:
    """The SHA-256 (hex) a session token or API key is stored and looked up as."""
    return hashlib.sha256(secret.encode("utf-8")).hexdigest()


@dataclass(frozen=True, kw_only=True)
class StoredUser:
    id: str
    email: str
    first_name: str
    last_name: str
    password_hash: str | None
    role: str
    disabled: bool
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, row: UserEntity) -> StoredUser:
        return cls(
            id=row.id,
            email=row.email,
            first_name=row.first_name,
            last_name=row.last_name,
            password_hash=row.password,
            role=row.role,
            disabled=row.disabled,
            created_at=row.created_at,
            updated_at=row.updated_at,
        )

    def to_json(self) -> dict[str, Any]:
        """n8n's public user (``toPublic``), without the password."""
        return {
            "id": self.id,
            "email": self.email,
            "firstName": self.first_name,
            "lastName": self.last_name,
            "createdAt": to_iso(self.created_at),
            "updatedAt": to_iso(self.updated_at),
            "role": self.role,
            "isOwner": self.role == OWNER_ROLE,
            "isPending": self.password_hash is None,
            "disabled": self.disabled,
            "mfaEnabled": False,
            "signInType": "email",
            "personalizationAnswers": None,
        }


@dataclass(frozen=True, kw_only=True)
class StoredApiKey:
    id: str
    user_id: str
    label: str
    hint: str
    scopes: list[str]
    audience: str
    expires_at: int | None
    created_at: datetime
    updated_at: datetime

    @classmethod
    def of(cls, row: ApiKeyEntity) -> StoredApiKey:
        return cls(
            id=row.id,
            user_id=row.user_id,
            label=row.label,
            hint=row.hint,
            scopes=list(row.scopes),
            audience=row.audience,
            expires_at=row.expires_at,
            created_at=row.created_at,
            updated_at=row.updated_at,
        )

    def to_json(self) -> dict[str, Any]:
        """n8n's redacted key: ``apiKey`` is six ``*`` and the last four characters."""
        return {
            "id": self.id,
            "label": self.label,
            "apiKey": "******" + self.hint,
            "scopes": self.scopes,
            "audience": self.audience,
            "userId": self.user_id,
            "expiresAt": self.expires_at,
            "createdAt": to_iso(self.created_at),
            "updatedAt": to_iso(self.updated_at),
        }


class UserRepository:
    """Users, their sessions and their API keys in one database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    # -- users ------------------------------------------------------------------------------------------------

    def owner(self) -> StoredUser | None:
        """The instance owner once set up (a user with the owner role and a password)."""
        with self._db.sessions() as session:
            row = session.scalars(
                select(UserEntity).where(UserEntity.role == OWNER_ROLE, UserEntity.password.is_not(None))
            ).first()
            return None if row is None else StoredUser.of(row)

    def by_email(self, email: str) -> StoredUser | None:
        with self._db.sessions() as session:
            row = session.scalars(select(UserEntity).where(UserEntity.email == email.lower())).first()
            return None if row is None else StoredUser.of(row)

    def get(self, user_id: str) -> StoredUser | None:
        with self._db.sessions() as session:
            row = session.get(UserEntity, user_id)
            return None if row is None else StoredUser.of(row)

    def set_owner(self, *, email: str, first_name: str, last_name: str, password_hash: str) -> StoredUser:
        """Give the (single) owner row these details, creating it if needed."""
        with self._db.transaction() as session:
            row = session.scalars(select(UserEntity).where(UserEntity.role == OWNER_ROLE)).first()
            if row is None:
                row = UserEntity(id=str(uuid.uuid4()), role=OWNER_ROLE, disabled=False)
                session.add(row)
            row.email, row.first_name, row.last_name, row.password = email.lower(), first_name, last_name, password_hash
            session.flush()
            return StoredUser.of(row)

    def reset(self) -> None:
        """n8n's ``user-management:reset``: every user, session and key is removed; the owner must be set up again."""
        with self._db.transaction() as session:
            session.execute(delete(ApiKeyEntity))
            session.execute(delete(AuthSessionEntity))
            session.execute(delete(UserEntity))

    # -- sessions ---------------------------------------------------------------------------------------------

    def create_session(self, user_id: str, token: str, expires_at: datetime) -> None:
        with self._db.transaction() as session:
            session.add(AuthSessionEntity(id=digest(token), user_id=user_id, expires_at=expires_at))

    def session_user(self, token: str) -> StoredUser | None:
        """The user of an unexpired session ``token``, or ``None``."""
        key = digest(token)
        with self._db.sessions() as session:
            row = session.get(AuthSessionEntity, key)
            if row is None or not hmac.compare_digest(row.id, key) or row.expires_at <= utcnow():
                return None
            user = session.get(UserEntity, row.user_id)
            return None if user is None or user.disabled else StoredUser.of(user)

    def delete_session(self, token: str) -> None:
        with self._db.transaction() as session:
            session.execute(delete(AuthSessionEntity).where(AuthSessionEntity.id == digest(token)))

    def delete_expired_sessions(self) -> int:
        with self._db.transaction() as session:
            result = session.execute(delete(AuthSessionEntity).where(AuthSessionEntity.expires_at <= utcnow()))
            return int(getattr(result, "rowcount", 0) or 0)

    # -- API keys ---------------------------------------------------------------------------------------------

    def create_api_key(
        self, user_id: str, *, key: str, label: str, scopes: list[str], audience: str, expires_at: int | None
    ) -> StoredApiKey:
        with self._db.transaction() as session:
            row = ApiKeyEntity(
                id=str(uuid.uuid4()),
                user_id=user_id,
                label=label,
                api_key=digest(key),
                hint=key[-4:],
                scopes=scopes,
                audience=audience,
                expires_at=expires_at,
            )
            session.add(row)
            session.flush()
            return StoredApiKey.of(row)

    def api_keys(self, user_id: str) -> list[StoredApiKey]:
        with self._db.sessions() as session:
            rows = session.scalars(
                select(ApiKeyEntity).where(ApiKeyEntity.user_id == user_id).order_by(ApiKeyEntity.created_at)
            )
            return [StoredApiKey.of(row) for row in rows]

    def update_api_key(self, user_id: str, key_id: str, *, label: str, scopes: list[str]) -> bool:
        with self._db.transaction() as session:
            row = session.get(ApiKeyEntity, key_id)
            if row is None or row.user_id != user_id:
                return False
            row.label, row.scopes = label, scopes
            return True

    def delete_api_key(self, user_id: str, key_id: str) -> bool:
        with self._db.transaction() as session:
            row = session.get(ApiKeyEntity, key_id)
            if row is None or row.user_id != user_id:
                return False
            session.delete(row)
            return True

    def api_key_owner(self, key: str) -> tuple[StoredUser, StoredApiKey] | None:
        """The user and key record of an API ``key`` (expiry is the caller's check), or ``None``."""
        hashed = digest(key)
        with self._db.sessions() as session:
            row = session.scalars(select(ApiKeyEntity).where(ApiKeyEntity.api_key == hashed)).first()
            if row is None or not hmac.compare_digest(row.api_key, hashed):
                return None
            user = session.get(UserEntity, row.user_id)
            return None if user is None or user.disabled else (StoredUser.of(user), StoredApiKey.of(row))


__all__ = ["OWNER_ROLE", "StoredApiKey", "StoredUser", "UserRepository", "digest"]
