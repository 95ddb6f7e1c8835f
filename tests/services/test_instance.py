"""The instance: crash recovery, activation and its webhook table, schedules, pruning, test webhooks."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from weft.db import Store
from weft.errors import WorkflowDefinitionError
from weft.nodes.schedules.schedule import cron_expressions, schedule_item, timezone_of
from weft.services.errors import ActivationError
from weft.services.instance import Instance
from weft.services.scheduler import Pruner
from weft.testing.workflows import connect, node, workflow
from weft.workflow import NodeModel


def hook(path: str, method: str = "POST", name: str = "Hook", **extra: Any) -> dict[str, Any]:
    return node(name, "n8n-nodes-base.webhook", {"httpMethod": method, "path": path}, version=2, **extra)


async def test_recover_marks_running_executions_crashed(instance: Instance) -> None:
    left = instance.store.executions.create({"name": "x"}, "webhook", "running")
    assert await instance.recover_on_startup() == [left]
    stored = instance.store.executions.get(left, include_data=False)
    assert stored is not None and stored.status == "crashed"


async def test_activation_fills_the_webhook_table(instance: Instance) -> None:
    data = workflow(hook("orders"), hook(":id/items", "GET", "Items", webhookId="w1"))
    stored = instance.store.workflows.create(data)
    await instance.active.activate(stored.id)
    assert instance.active.table.match("POST", "orders") is not None
    dynamic = instance.active.table.match("GET", "w1/42/items")
    assert dynamic is not None and dynamic.params == {"id": "42"}
    assert instance.active.table.methods("orders") == ["POST"]
    assert [w.path for w in instance.store.webhooks.list(workflow_id=stored.id)] == ["orders", ":id/items"]
    await instance.active.deactivate(stored.id)
    assert instance.active.table.match("POST", "orders") is None


async def test_a_taken_path_and_a_workflow_without_trigger_are_refused(instance: Instance) -> None:
    first = instance.store.workflows.create(workflow(hook("same")))
    second = instance.store.workflows.create(workflow(hook("same")))
    await instance.active.activate(first.id)
    with pytest.raises(WorkflowDefinitionError, match="already used"):
        await instance.active.activate(second.id)
    plain = instance.store.workflows.create(workflow(node("Start", "n8n-nodes-base.manualTrigger")))
    with pytest.raises(ActivationError, match="no node to start the workflow"):
        await instance.active.activate(plain.id)


def test_schedule_rules_become_seconds_first_cron() -> None:
    rules = [
        {"field": "seconds", "secondsInterval": 10},
        {"field": "minutes", "minutesInterval": 5},
        {"field": "hours", "hoursInterval": 2, "triggerAtMinute": 15},
        {"field": "days", "triggerAtHour": 9, "triggerAtMinute": 30},
        {"field": "weeks", "triggerAtDay": [1, 5], "triggerAtHour": 8},
        {"field": "months", "triggerAtDayOfMonth": 3, "triggerAtHour": 7},
        {"field": "cronExpression", "expression": "0 12 * * 1"},
    ]
    model = NodeModel(name="S", type="n8n-nodes-base.scheduleTrigger", parameters={"rule": {"interval": rules}})
    assert cron_expressions(model) == [
        "*/10 * * * * *",
        "0 */5 * * * *",
        "0 15 */2 * * *",
        "0 30 9 */1 * *",
        "0 0 8 * * 1,5",
        "0 0 7 3 */1 *",
        "0 0 12 * * 1",
    ]


def test_schedule_item_has_n8n_fields() -> None:
    item = schedule_item(datetime(2024, 3, 1, 13, 5, 9, tzinfo=UTC), timezone_of("Europe/Berlin"))
    assert item["timestamp"] == "2024-03-01T14:05:09.000+01:00"
    assert item["Readable date"] == "March 1st 2024, 2:05:09 pm" and item["Day of week"] == "Friday"
    assert (item["Hour"], item["Minute"], item["Second"]) == ("14", "05", "09")
    assert item["Timezone"] == "Europe/Berlin (UTC+01:00)"


async def test_an_active_schedule_fires(instance: Instance) -> None:
    trigger = node(
        "Every second",
        "n8n-nodes-base.scheduleTrigger",
        {"rule": {"interval": [{"field": "seconds", "secondsInterval": 1}]}},
        version=1.2,
    )
    stored = instance.store.workflows.create(
        workflow(trigger, node("After", position=(200, 0)), connect("Every second", "After"))
    )
    instance.schedules.sync({})
    instance.active.listeners.append(instance.schedules.sync)
    await instance.active.activate(stored.id)
    for _ in range(60):
        rows = instance.store.executions.list(workflow_id=stored.id, statuses=["success"])
        if rows:
            break
        await asyncio.sleep(0.05)
    assert rows and rows[0].mode == "trigger"
    await instance.active.deactivate(stored.id)


async def test_pruning_by_count_keeps_unfinished(instance: Instance, store: Store) -> None:
    for status in ("success", "error", "waiting", "success"):
        store.executions.create({"name": "p"}, "trigger", status)
    pruner = Pruner(instance.runner)
    object.__setattr__(instance.runner.settings, "executions_data_prune_max_count", 1)
    pruned = await pruner.prune()
    assert len(pruned) == 2
    assert sorted(e.status for e in store.executions.list()) == ["success", "waiting"]
    future = datetime.now(UTC) + timedelta(hours=1000)
    assert store.executions.prune(1, 0, now=future) != []


async def test_test_webhooks_are_taken_once(instance: Instance) -> None:
    urls = await instance.test_webhooks.listen(workflow(hook("try-me")))
    assert urls == ["http://127.0.0.1:5678/webhook-test/try-me"]
    assert await instance.test_webhooks.methods("try-me") == ["POST"]
    assert await instance.test_webhooks.take("POST", "try-me") is not None
    assert await instance.test_webhooks.take("POST", "try-me") is None


async def test_a_slow_refresh_never_hides_a_workflow_a_newer_one_found(instance: Instance) -> None:
    """A refresh that read the database before a workflow was activated finishes after one that read it after:
    the newer table stays, and the second caller (whose own reload found nothing new) is told to look again."""
    active, real_db = instance.active, instance.active.runner.db
    release, called, calls = asyncio.Event(), asyncio.Event(), []

    async def gated(fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(fn)
        called.set()
        result = await real_db(fn, *args, **kwargs)
        if len(calls) == 1:
            await release.wait()
        return result

    data = workflow(hook("late"))
    active.runner.db = gated  # type: ignore[method-assign,assignment]
    try:
        slow = asyncio.create_task(active.refresh())
        await called.wait()
        instance.store.workflows.import_workflow(data, activate=True)  # activated by "another process"
        fast = asyncio.create_task(active.refresh())
        for _ in range(2000):  # until the second refresh finished (unserialized) or queued behind the first
            if fast.done() or getattr(active._lock, "_waiters", None):
                break
            await asyncio.sleep(0.005)
        release.set()
        await slow
        assert await fast is True
    finally:
        active.runner.db = real_db  # type: ignore[method-assign]
    assert active.table.match("POST", "late") is not None
