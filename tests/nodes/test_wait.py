"""Wait node: short waits sleep in-process, long ones put the execution to wait; resuming finishes it (P0 #14)."""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from typing import Any

from weft.engine import Execution, run_workflow
from weft.engine.state import restore_waiting_keys
from weft.testing.workflows import connect, node, output_json, workflow
from weft.workflow import Workflow, parse_workflow

WAIT = "n8n-nodes-base.wait"


def wait_workflow(**params: Any) -> dict[str, Any]:
    return workflow(
        node("Start", "n8n-nodes-base.manualTrigger"),
        node("Wait", WAIT, params, version=1.1, position=(200, 0)),
        node("After", "n8n-nodes-base.noOp", position=(400, 0)),
        connect("Start", "Wait"),
        connect("Wait", "After"),
    )


def wait_till(run: Any) -> datetime:
    return datetime.fromisoformat(run["waitTill"].replace("Z", "+00:00"))


async def test_short_interval_is_slept_in_process() -> None:
    started = time.monotonic()
    run = await run_workflow(wait_workflow(amount=0.1, unit="seconds"), trigger_items=[{"json": {"a": 1}}])
    assert time.monotonic() - started >= 0.1
    assert run["status"] == "success" and "waitTill" not in run
    assert output_json(run, "Wait") == [{"a": 1}]
    assert output_json(run, "After") == [{"a": 1}]


async def test_long_interval_waits_and_a_fresh_execution_resumes_it() -> None:
    wf = wait_workflow(amount=2, unit="hours")
    run = await run_workflow(wf, trigger_items=[{"json": {"a": 1}}])
    assert run["status"] == "waiting"
    assert abs(wait_till(run) - (datetime.now(UTC) + timedelta(hours=2))) < timedelta(seconds=5)
    data = run["data"]
    assert data["resultData"]["runData"]["Wait"][-1]["executionStatus"] == "waiting"
    assert data["executionData"]["nodeExecutionStack"][0]["node"]["name"] == "Wait"
    assert "After" not in data["resultData"]["runData"]
    stored = restore_waiting_keys(json.loads(json.dumps(data)))
    resumed = await Execution(Workflow(parse_workflow(wf)), data=stored).resume()
    assert resumed["status"] == "success"
    runs = resumed["data"]["resultData"]["runData"]
    assert [task["executionStatus"] for task in runs["Wait"]] == ["success"]
    assert output_json(resumed, "After") == [{"a": 1}]


async def test_webhook_waits_indefinitely_unless_limited() -> None:
    run = await run_workflow(wait_workflow(resume="webhook"))
    assert run["status"] == "waiting" and run["waitTill"].startswith("3000-01-01T00:00:00")
    limited = wait_workflow(resume="webhook", limitWaitTime=True, resumeAmount=3, resumeUnit="minutes")
    run = await run_workflow(limited)
    assert abs(wait_till(run) - (datetime.now(UTC) + timedelta(minutes=3))) < timedelta(seconds=5)
    at = wait_workflow(
        resume="webhook", limitWaitTime=True, limitType="atSpecifiedTime", maxDateAndTime="2999-05-01T10:00:00Z"
    )
    assert (await run_workflow(at))["waitTill"].startswith("2999-05-01T10:00:00")


async def test_specific_time() -> None:
    past = await run_workflow(wait_workflow(resume="specificTime", dateTime="2020-01-01T00:00:00"))
    assert past["status"] == "success"
    future = await run_workflow(wait_workflow(resume="specificTime", dateTime="2999-01-02T03:04:05+00:00"))
    assert future["status"] == "waiting" and future["waitTill"].startswith("2999-01-02T03:04:05")


async def test_bad_parameters_fail_with_n8n_messages() -> None:
    run = await run_workflow(wait_workflow(amount=1, unit="weeks"))
    assert run["data"]["resultData"]["error"]["message"].startswith("Invalid wait unit.")
    run = await run_workflow(wait_workflow(resume="specificTime", dateTime="tomorrow-ish"))
    assert "`dateTime` parameter is not a valid date" in run["data"]["resultData"]["error"]["message"]
    run = await run_workflow(wait_workflow(resume="form"))
    assert run["data"]["resultData"]["error"]["message"] == "Resuming on a form submission is not supported yet"
