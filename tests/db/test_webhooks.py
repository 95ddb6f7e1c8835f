from collections.abc import Callable
from typing import Any

import pytest

from weft.db import Store, WebhookSpec
from weft.errors import WorkflowDefinitionError

MakeWorkflow = Callable[..., dict[str, Any]]


@pytest.fixture
def two_workflows(store: Store, make_workflow: MakeWorkflow) -> tuple[str, str]:
    a = store.workflows.create(make_workflow("A", id="wfA")).id
    b = store.workflows.create(make_workflow("B", id="wfB")).id
    return a, b


def test_static_paths(store: Store, two_workflows: tuple[str, str]) -> None:
    a, _ = two_workflows
    store.webhooks.register(a, [WebhookSpec(method="post", path="/orders/new/", node="Webhook")])
    match = store.webhooks.find("POST", "orders/new")
    assert match is not None
    assert (match.webhook.workflow_id, match.webhook.node, match.webhook.method) == (a, "Webhook", "POST")
    assert match.params == {}
    assert store.webhooks.find("GET", "orders/new") is None
    assert store.webhooks.methods("/orders/new") == ["POST"]


def test_dynamic_paths_match_by_webhook_id_and_segments(store: Store, two_workflows: tuple[str, str]) -> None:
    a, _ = two_workflows
    store.webhooks.register(
        a,
        [
            WebhookSpec(method="GET", path="user/:id", node="ById", webhook_id="abc"),
            WebhookSpec(method="GET", path="user/me", node="Static"),
            WebhookSpec(method="GET", path=":kind/:id", node="Generic", webhook_id="abc"),
        ],
    )
    match = store.webhooks.find("GET", "abc/user/42")
    assert match is not None and match.webhook.node == "ById" and match.params == {"id": "42"}
    generic = store.webhooks.find("GET", "abc/team/7")
    assert generic is not None and generic.params == {"kind": "team", "id": "7"}
    assert store.webhooks.find("GET", "user/me").webhook.node == "Static"  # type: ignore[union-attr]
    assert store.webhooks.find("GET", "abc/user/42/extra") is None


def test_dynamic_path_needs_a_webhook_id(store: Store, two_workflows: tuple[str, str]) -> None:
    with pytest.raises(WorkflowDefinitionError, match="webhookId"):
        store.webhooks.register(two_workflows[0], [WebhookSpec(method="GET", path="u/:id", node="W")])


def test_a_path_taken_by_another_workflow_is_refused(store: Store, two_workflows: tuple[str, str]) -> None:
    a, b = two_workflows
    store.webhooks.register(a, [WebhookSpec(method="POST", path="hook", node="Webhook")])
    with pytest.raises(WorkflowDefinitionError, match=r"'hook' of node 'Other' is already used .* 'wfA'"):
        store.webhooks.register(b, [WebhookSpec(method="POST", path="hook", node="Other")])
    # Re-registering the same workflow replaces its webhooks.
    store.webhooks.register(a, [WebhookSpec(method="POST", path="hook", node="Webhook")])
    store.webhooks.register(b, [WebhookSpec(method="GET", path="hook", node="Other")])
    assert store.webhooks.methods("hook") == ["GET", "POST"]


def test_two_nodes_on_the_same_path_are_refused(store: Store, two_workflows: tuple[str, str]) -> None:
    specs = [WebhookSpec(method="POST", path="x", node="One"), WebhookSpec(method="POST", path="x", node="Two")]
    with pytest.raises(WorkflowDefinitionError, match="both listen"):
        store.webhooks.register(two_workflows[0], specs)


def test_unregister(store: Store, two_workflows: tuple[str, str]) -> None:
    a, b = two_workflows
    store.webhooks.register(a, [WebhookSpec(method="POST", path="a", node="W")])
    store.webhooks.register(b, [WebhookSpec(method="POST", path="b", node="W")])
    assert store.webhooks.unregister(a) == 1
    assert [w.path for w in store.webhooks.list()] == ["b"]
    assert [w.path for w in store.webhooks.list(workflow_id=b)] == ["b"]
