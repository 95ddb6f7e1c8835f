"""Persistence (L5): SQLAlchemy 2 models, Alembic migrations and one repository per aggregate.

Synchronous by design (see :mod:`weft.db.engine`): the asyncio server calls repository methods
through ``asyncio.to_thread``. Nothing here reads the environment; URLs, keys and folders are
passed in by the composition roots (``weft.settings`` → server / CLI).
"""

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
