"""All repositories of one database, built once by the composition root (server, CLI, worker)."""

from __future__ import annotations

from dataclasses import dataclass

from weft.db.cipher import Cipher
from weft.db.claims import ClaimRepository
from weft.db.credentials import CredentialsRepository
from weft.db.engine import Database
from weft.db.executions import ExecutionRepository
from weft.db.instance_settings import SettingsRepository
from weft.db.memory import ChatMemoryRepository
from weft.db.tags import TagRepository
from weft.db.users import UserRepository
from weft.db.webhooks import WebhookRepository
from weft.db.workflows import WorkflowRepository


@dataclass(frozen=True, kw_only=True)
class Store:
    """The database and its repositories."""

    db: Database
    workflows: WorkflowRepository
    executions: ExecutionRepository
    credentials: CredentialsRepository
    webhooks: WebhookRepository
    memory: ChatMemoryRepository
    settings: SettingsRepository
    users: UserRepository
    tags: TagRepository
    claims: ClaimRepository
    """Queue mode's claims on executions (PostgreSQL)."""

    @classmethod
    def open(cls, url: str, cipher: Cipher, *, upgrade: bool = True) -> Store:
        """Connect to ``url``, migrate it to the newest schema unless ``upgrade`` is false, build the repositories."""
        db = Database(url)
        if upgrade:
            try:
                db.upgrade()
            except BaseException:
                db.close()
                raise
        return cls(
            db=db,
            workflows=WorkflowRepository(db),
            executions=ExecutionRepository(db),
            credentials=CredentialsRepository(db, cipher),
            webhooks=WebhookRepository(db),
            memory=ChatMemoryRepository(db),
            settings=SettingsRepository(db),
            users=UserRepository(db),
            tags=TagRepository(db),
            claims=ClaimRepository(db),
        )

    def close(self) -> None:
        self.db.close()


__all__ = ["Store"]
