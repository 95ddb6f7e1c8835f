"""Publishing (n8n 2's word for activating) and unpublishing stored workflows, outside the server.

n8n 2 publishes a version from the workflow's history (``activeVersionId``); Weft keeps no history, so the
current version is the only one that can be published. Publishing checks the workflow as activation does (a
trigger, free webhook paths) and registers its webhooks; a running server picks the change up within seconds.
"""

from __future__ import annotations

from weft.db.base import NotFoundError
from weft.db.store import Store
from weft.db.workflows import StoredWorkflow
from weft.errors import ConfigurationError
from weft.services.activation import activate_workflow
from weft.services.runner import WorkflowRunner


def publish_workflow(runner: WorkflowRunner, workflow_id: str, version_id: str | None = None) -> StoredWorkflow:
    """Activate the workflow; ``version_id``, when given, must be its current version (n8n's messages)."""
    stored = runner.store.workflows.get(workflow_id)
    if stored is None:
        raise NotFoundError(f'Workflow "{workflow_id}" not found.', workflow_id=workflow_id)
    if version_id and version_id != stored.version_id:
        raise ConfigurationError(
            f'Version "{version_id}" not found for workflow "{workflow_id}". Weft keeps only the current version '
            f"({stored.version_id}): publish it without --versionId.",
            workflow_id=workflow_id,
        )
    return activate_workflow(runner, workflow_id)


def unpublish_workflow(store: Store, workflow_id: str) -> StoredWorkflow:
    """Deactivate the workflow and unregister its webhooks."""
    if store.workflows.get(workflow_id) is None:
        raise NotFoundError(f'Workflow "{workflow_id}" not found.', workflow_id=workflow_id)
    store.webhooks.unregister(workflow_id)
    return store.workflows.deactivate(workflow_id)


def unpublish_all(store: Store) -> list[StoredWorkflow]:
    """Deactivate every active workflow; the ones that were active."""
    return [unpublish_workflow(store, workflow.id) for workflow in store.workflows.list(active=True)]


__all__ = ["publish_workflow", "unpublish_all", "unpublish_workflow"]
