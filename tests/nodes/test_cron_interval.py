"""Cron and Interval (legacy timer triggers): their rules, a manual run, and firing in an active workflow."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from weft.engine import run_workflow
from weft.errors import NodeOperationError
from weft.nodes.schedules.cron import to_cron_expression
from weft.nodes.schedules.interval import interval_seconds
from weft.nodes.schedules.timers import timer_item, timer_rules
from weft.services.instance import Instance
from weft.settings import Settings
from weft.testing.workflows import connect, node, workflow
from weft.workflow import NodeModel


@pytest.fixture
async def instance(tmp_path: Path) -> AsyncIterator[Instance]:
    settings = Settings(user_folder=tmp_path, database_url=f"sqlite:///{tmp_path}/db.sqlite", encryption_key="k")
    opened = Instance.open(settings)
    await opened.start(background=False)
    yield opened
    await opened.close()


def _fields(expression: str) -> list[str]:
    second, *rest = expression.split()
    assert 0 <= int(second) < 60  # n8n's random second
    return rest


def test_cron_trigger_times_become_n8n_cron_expressions() -> None:
    assert _fields(to_cron_expression({"mode": "everyMinute"})) == ["*", "*", "*", "*", "*"]
    assert _fields(to_cron_expression({"mode": "everyHour", "minute": 7})) == ["7", "*", "*", "*", "*"]
    assert _fields(to_cron_expression({"mode": "everyX", "value": 5, "unit": "minutes"})) == ["*/5", "*", "*", "*", "*"]
    assert _fields(to_cron_expression({})) == ["0", "14", "*", "*", "*"]  # the defaults: every day at 14:00
    assert _fields(to_cron_expression({"mode": "everyWeek", "hour": 8, "minute": 1, "weekday": "5"}))[-1] == "5"
    assert _fields(to_cron_expression({"mode": "everyMonth", "dayOfMonth": 3}))[:3] == ["0", "14", "3"]
    assert to_cron_expression({"mode": "custom", "cronExpression": " 0 12 * * 1 "}) == "0 0 12 * * 1"
    hours = to_cron_expression({"mode": "everyX", "value": 2, "unit": "hours"}).split()
    assert 0 <= int(hours[1]) < 60 and hours[2] == "*/2"


def test_timer_rules_of_each_trigger() -> None:
    cron = NodeModel(
        name="C", type="n8n-nodes-base.cron", parameters={"triggerTimes": {"item": [{"mode": "everyDay"}]}}
    )
    assert len(timer_rules(cron)) == 1
    assert timer_rules(NodeModel(name="C", type="n8n-nodes-base.cron")) == []
    every = NodeModel(name="I", type="n8n-nodes-base.interval", parameters={"interval": 2, "unit": "minutes"})
    assert timer_rules(every) == ["@every 120"]
    assert timer_item(every, None, None) == {}  # type: ignore[arg-type]


def test_interval_refuses_what_n8n_refuses() -> None:
    with pytest.raises(NodeOperationError, match="at least 1 or higher"):
        interval_seconds(NodeModel(name="I", type="n8n-nodes-base.interval", parameters={"interval": 0}))
    with pytest.raises(NodeOperationError, match="too large"):
        interval_seconds(
            NodeModel(name="I", type="n8n-nodes-base.interval", parameters={"interval": 600, "unit": "hours"})
        )


async def test_manual_runs_give_one_empty_item(new_flow, js) -> None:
    for trigger in ("cron", "interval"):
        run = await new_flow().add("Node", trigger).run()
        assert run["status"] == "success"
        assert js(run) == [{}]


async def test_an_active_interval_fires(instance: Instance) -> None:
    trigger = node("Every second", "n8n-nodes-base.interval", {"interval": 1})
    stored = instance.store.workflows.create(
        workflow(trigger, node("After", position=(200, 0)), connect("Every second", "After"))
    )
    instance.schedules.sync({})
    instance.active.listeners.append(instance.schedules.sync)
    await instance.active.activate(stored.id)
    rows = []
    for _ in range(100):
        rows = instance.store.executions.list(workflow_id=stored.id, statuses=["success"])
        if rows:
            break
        await asyncio.sleep(0.05)
    await instance.active.deactivate(stored.id)
    assert rows and rows[0].mode == "trigger"
    data = instance.store.executions.get(rows[0].id)
    assert data is not None and data.data is not None
    assert data.data["resultData"]["runData"]["After"][0]["data"]["main"][0] == [
        {"json": {}, "pairedItem": {"item": 0}}
    ]


async def test_an_active_cron_fires(instance: Instance) -> None:
    trigger = node(
        "Cron", "n8n-nodes-base.cron", {"triggerTimes": {"item": [{"mode": "custom", "cronExpression": "* * * * * *"}]}}
    )
    stored = instance.store.workflows.create(
        workflow(trigger, node("After", position=(200, 0)), connect("Cron", "After"))
    )
    instance.schedules.sync({})
    instance.active.listeners.append(instance.schedules.sync)
    await instance.active.activate(stored.id)
    rows = []
    for _ in range(100):
        rows = instance.store.executions.list(workflow_id=stored.id, statuses=["success"])
        if rows:
            break
        await asyncio.sleep(0.05)
    await instance.active.deactivate(stored.id)
    assert rows and rows[0].mode == "trigger"


async def test_a_bad_interval_fails_a_manual_run_only(new_flow) -> None:
    flow = new_flow().add("Node", "interval", {"interval": 0})
    run = await flow.run()
    assert run["data"]["resultData"]["error"]["message"] == "The interval has to be set to at least 1 or higher!"
    assert (await run_workflow(flow.build(), mode="cli"))["status"] == "success"  # n8n passes the input on
