"""Import and export of workflows and credentials (``weft import:workflow``, ``export:workflow``,
``import:credentials``), against the same database the server uses, whether or not it runs.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from weft.db.cipher import Cipher, load_encryption_key
from weft.db.credentials import CredentialInfo, CredentialsRepository
from weft.db.files import private_folder
from weft.db.store import Store
from weft.db.workflows import StoredWorkflow, WorkflowRepository
from weft.errors import ConfigurationError, WorkflowFileError
from weft.services.json_limits import UnreadableFileError, read_json_file
from weft.settings import Settings
from weft.workflow.jsjson import pretty_json
from weft.workflow.model import parse_workflow


def open_store(settings: Settings, *, upgrade: bool = True) -> Store:
    """The instance's database (migrated to the newest schema) with its repositories.

    The user folder is made 0700 first: it holds the database and the encryption key.
    """
    private_folder(settings.user_folder)
    return Store.open(settings.database_url, instance_cipher(settings), upgrade=upgrade)


def instance_cipher(settings: Settings) -> Cipher:
    """The cipher for credentials: ``WEFT_ENCRYPTION_KEY`` or the key in ``<user folder>/config``."""
    return Cipher(load_encryption_key(settings.user_folder, settings.encryption_key))


def import_workflow_file(
    workflows: WorkflowRepository, path: str | Path, *, activate: bool = False
) -> list[StoredWorkflow]:
    """Import one workflow, an array of workflows, or every ``*.json`` file of a folder.

    Workflows keep their JSON ``id`` (an existing workflow with that id is replaced). They are
    inactive unless ``activate`` is true, as n8n deactivates the workflows it imports.
    """
    source = Path(path)
    files = sorted(source.glob("*.json")) if source.is_dir() else [source]
    documents = [item for file in files for item in _workflow_documents(file)]
    return [workflows.import_workflow(item, activate=activate) for item in documents]


def export_workflow(
    workflows: WorkflowRepository, workflow_id: str | None = None, path: str | Path | None = None
) -> dict[str, Any] | list[dict[str, Any]]:
    """One workflow's JSON (or, without ``workflow_id``, an array of all), written to ``path`` when given.

    The export holds every field of the imported file, unknown ones included, so it imports back unchanged.
    """
    exported: dict[str, Any] | list[dict[str, Any]]
    if workflow_id is None:
        exported = [workflows.export_workflow(w.id) for w in workflows.list()]
    else:
        exported = workflows.export_workflow(workflow_id)
    if path is not None:
        target = Path(path)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(pretty_json(exported) + "\n", encoding="utf-8")
    return exported


def import_credentials_file(credentials: CredentialsRepository, path: str | Path) -> list[CredentialInfo]:
    """Import n8n's decrypted credentials export: a JSON array of ``{id, name, type, data}`` (or one object)."""
    source = Path(path)
    data = _read_json(source, what="credentials file")
    items = data if isinstance(data, list) else [data]
    return credentials.import_credentials(items, source=f"Credentials file {str(source)!r}")


def _workflow_documents(file: Path) -> list[dict[str, Any]]:
    data = _read_json(file, what="workflow file")
    items = data if isinstance(data, list) else [data]
    for index, item in enumerate(items):
        where = f"Workflow file {str(file)!r}" + (f" item {index}" if isinstance(data, list) else "")
        if not isinstance(item, dict) or "nodes" not in item:
            raise WorkflowFileError(f"{where} is not a workflow: expected an object with 'nodes' and 'connections'.")
        parse_workflow(item, source=where)  # validate every document before importing any
    return items


def _read_json(path: Path, *, what: str) -> Any:
    try:
        return read_json_file(path, what=what)
    except UnreadableFileError as exc:
        error = WorkflowFileError if what == "workflow file" else ConfigurationError
        raise error(exc.message) from None


__all__ = ["export_workflow", "import_credentials_file", "import_workflow_file", "instance_cipher", "open_store"]
