"""Persistence (L5): SQLAlchemy 2 models, Alembic migrations and one repository per aggregate.

Synchronous by design (see :mod:`weft.db.engine`): the asyncio server calls repository methods
through ``asyncio.to_thread``. Nothing here reads the environment; URLs, keys and folders are
passed in by the composition roots (``weft.settings`` → server / CLI).

The names below are imported on first use (PEP 562), so that importing one module of the package (say
``weft.db.lite``) does not import SQLAlchemy.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from weft._lazy import lazy_exports

if TYPE_CHECKING:
    from weft.db.base import NotFoundError, new_id
    from weft.db.cipher import Cipher, DecryptionError, load_encryption_key
    from weft.db.credentials import Credential, CredentialInfo, CredentialsRepository
    from weft.db.engine import Database, create_db_engine, normalize_url
    from weft.db.executions import UNFINISHED_STATUSES, ExecutionRepository, StoredExecution, empty_run_data
    from weft.db.instance_settings import SettingsRepository
    from weft.db.memory import ChatMemoryRepository
    from weft.db.migrate import current_revision, head_revision, upgrade_database
    from weft.db.save_policy import SaveDefaults, should_save
    from weft.db.store import Store
    from weft.db.webhooks import StoredWebhook, WebhookMatch, WebhookRepository, WebhookSpec
    from weft.db.workflows import StoredWorkflow, WorkflowRepository

_EXPORTS = {
    "ChatMemoryRepository": "weft.db.memory",
    "Cipher": "weft.db.cipher",
    "Credential": "weft.db.credentials",
    "CredentialInfo": "weft.db.credentials",
    "CredentialsRepository": "weft.db.credentials",
    "Database": "weft.db.engine",
    "DecryptionError": "weft.db.cipher",
    "ExecutionRepository": "weft.db.executions",
    "NotFoundError": "weft.db.base",
    "SaveDefaults": "weft.db.save_policy",
    "SettingsRepository": "weft.db.instance_settings",
    "Store": "weft.db.store",
    "StoredExecution": "weft.db.executions",
    "StoredWebhook": "weft.db.webhooks",
    "StoredWorkflow": "weft.db.workflows",
    "UNFINISHED_STATUSES": "weft.db.executions",
    "WebhookMatch": "weft.db.webhooks",
    "WebhookRepository": "weft.db.webhooks",
    "WebhookSpec": "weft.db.webhooks",
    "WorkflowRepository": "weft.db.workflows",
    "create_db_engine": "weft.db.engine",
    "current_revision": "weft.db.migrate",
    "empty_run_data": "weft.db.executions",
    "head_revision": "weft.db.migrate",
    "load_encryption_key": "weft.db.cipher",
    "new_id": "weft.db.base",
    "normalize_url": "weft.db.engine",
    "should_save": "weft.db.save_policy",
    "upgrade_database": "weft.db.migrate",
}


__getattr__ = lazy_exports(__name__, _EXPORTS, globals())

__all__ = [
    "UNFINISHED_STATUSES",
    "ChatMemoryRepository",
    "Cipher",
    "Credential",
    "CredentialInfo",
    "CredentialsRepository",
    "Database",
    "DecryptionError",
    "ExecutionRepository",
    "NotFoundError",
    "SaveDefaults",
    "SettingsRepository",
    "Store",
    "StoredExecution",
    "StoredWebhook",
    "StoredWorkflow",
    "WebhookMatch",
    "WebhookRepository",
    "WebhookSpec",
    "WorkflowRepository",
    "create_db_engine",
    "current_revision",
    "empty_run_data",
    "head_revision",
    "load_encryption_key",
    "new_id",
    "normalize_url",
    "should_save",
    "upgrade_database",
]
