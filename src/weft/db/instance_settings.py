"""Instance-wide settings kept in the database (the ``settings`` table): JSON values by key."""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, select

from weft.db.engine import Database
from weft.db.orm import SettingsEntity


class SettingsRepository:
    """Key/value settings shared by every process using the database."""

    def __init__(self, db: Database) -> None:
        self._db = db

    def get(self, key: str, default: Any = None) -> Any:
        with self._db.sessions() as session:
            row = session.get(SettingsEntity, key)
            return default if row is None else row.value

    def set(self, key: str, value: Any) -> None:
        with self._db.transaction() as session:
            row = session.get(SettingsEntity, key)
            if row is None:
                session.add(SettingsEntity(key=key, value=value))
            else:
                row.value = value

    def delete(self, key: str) -> bool:
        """Whether this call deleted it: of concurrent calls, one only (one statement, its row count)."""
        with self._db.transaction() as session:
            result = session.execute(delete(SettingsEntity).where(SettingsEntity.key == key))
            return bool(getattr(result, "rowcount", 0) == 1)

    def all(self) -> dict[str, Any]:
        with self._db.sessions() as session:
            return {row.key: row.value for row in session.scalars(select(SettingsEntity).order_by(SettingsEntity.key))}


__all__ = ["SettingsRepository"]
